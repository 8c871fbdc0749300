// The fast build must be invisible: its output is byte for byte the reference path's, in this
// thread or in worker threads, cold or from the cache, and after any edit, rename or deletion
// a cached rebuild gives exactly what a cold build of the same files gives.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { link, mkdtemp, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { digest } from '../src/pipeline/digest.ts';
import { noCache } from '../src/pipeline/cache.ts';
import type { Cache } from '../src/pipeline/cache.ts';
import { digestJob } from '../src/pipeline/pool.ts';
import type { Fragment } from '../src/outputs/fragment.ts';
import { scanMetadata } from '../src/pipeline/scan.ts';
import { compileValidators } from '../src/pipeline/validate.ts';
import { MARKER } from '../src/destination/folder.ts';
import { LineShifter, filled } from '../src/destination/pieces.ts';
import { writePlans } from '../src/destination/write.ts';
import { ALIGN, DIRECT, DIRECT_FROM, SINK_BUFFER, SinkWriter, alignedBuffer } from '../src/destination/file-sink.ts';
import { planOf, plansOf } from '../src/outputs/plan.ts';
import type { Manifest } from '../src/outputs/plan.ts';
import { BUNDLED, FIXTURE, PROJECT, cli, expectSameFiles, snapshotTree, syntheticdir, tempdir, testdir, outputCount } from './helpers.ts';

/** Two output trees hold the same files with the same bytes (the marker names the build, not the API). */
async function expectSameOutput(a: string, b: string): Promise<void> {
  const one = await snapshotTree(a);
  const two = await snapshotTree(b);
  one.delete(MARKER);
  two.delete(MARKER);
  expectSameFiles(two, one);
}

describe('the fast path gives the reference bytes', () => {
  test.each([
    ['the fixture archive', () => testdir()],
    ['the bundled metadata', () => testdir({}, BUNDLED)],
  ])(
    '%s',
    async (_name, make) => {
      const dir = await make();
      expect((await cli(['build', '--reference', '--out', 'reference'], dir)).code).toBe(0);
      expect((await cli(['build', '--no-cache', '--out', 'fast'], dir)).code).toBe(0);
      await expectSameOutput(path.join(dir, 'reference'), path.join(dir, 'fast'));
    },
    120_000,
  );

  // The synthetic S archive's reference, made once (the slow path takes seconds): compared with the
  // fast path in this thread and in worker threads, each with precompressed copies, whose texts are
  // compressed from several chunks.
  let synthetic: Promise<string> | undefined;
  const referenceS = () =>
    (synthetic ??= (async () => {
      const dir = await syntheticdir();
      expect((await cli(['build', '--reference', '--out', 'reference', '--precompress'], dir)).code).toBe(0);
      return dir;
    })());

  test('the synthetic S archive, with its precompressed copies', async () => {
    const dir = await referenceS();
    expect((await cli(['build', '--no-cache', '--out', 'fast', '--precompress'], dir)).code).toBe(0);
    await expectSameOutput(path.join(dir, 'reference'), path.join(dir, 'fast'));
  }, 120_000);

  test('in worker threads too (the compiled command)', async () => {
    const dir = await referenceS();
    const run = spawnSync(
      process.execPath,
      [path.join(PROJECT, 'bin/archive-schema.js'), 'build', '--no-cache', '--workers', '2', '--precompress', '--out', 'workers'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    await expectSameOutput(path.join(dir, 'reference'), path.join(dir, 'workers'));
  }, 120_000);
});

describe('the cache', () => {
  const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';

  /** Builds with the cache, then cold into another folder, and compares. */
  async function expectCachedEqualsCold(dir: string): Promise<void> {
    const cached = await cli(['build'], dir);
    expect(cached.code, cached.stderr).toBe(0);
    expect((await cli(['build', '--no-cache', '--out', 'cold'], dir)).code).toBe(0);
    await expectSameOutput(path.join(dir, 'dist'), path.join(dir, 'cold'));
    await rm(path.join(dir, 'cold'), { recursive: true });
  }

  test('is used on a rebuild, and only a changed file is read again', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).stdout).not.toContain('read from the cache');
    const again = await cli(['build'], dir);
    const files = await outputCount(path.join(dir, 'dist'));
    expect(again.stdout).toMatch(
      new RegExp(`^Built ${files} files \\(0 written, ${files} reused, 0\\.0 kB\\) from 10 metadata files \\(10 read from the cache\\)`),
    );
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    const edited = await cli(['build'], dir);
    expect(edited.stdout).toMatch(/from 10 metadata files \(9 read from the cache\)/);
    expect(edited.stdout).not.toMatch(/\(0 written/);
  });

  // The home page's sky map and band chart are drawn from every facility: recalled from the cache
  // (marked there, so that the page shows where it came from) after an edit that changes none, drawn
  // again after one that changes a facility's sky or the place its pages are at.
  test.each([
    ['an imaging facility’s band', 'metadata/beta/dr1/imaging/HSC.yaml', 'central_wave_ang: 7727', 'central_wave_ang: 7730'],
    ['the name its release shows', 'metadata/beta/dr1/release.yaml', 'pretty_name: Beta DR1', 'pretty_name: Beta DR1 (final)'],
  ])("the home page's pictures are recalled after a catalogue edit, and drawn again after an edit of %s", async (_name, file, from, to) => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const kept = path.join(dir, 'node_modules/.cache/archive-schema/recalled/home-pictures.txt');
    const recalled = await readFile(kept, 'utf8');
    expect(recalled).toMatch(/^[0-9a-f]{64}\n<h2>Imaging<\/h2>\n<figure class="picture"><svg/);
    await writeFile(kept, `${recalled}<!-- recalled -->`);
    const home = () => readFile(path.join(dir, 'dist/index.html'), 'utf8');
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    expect((await cli(['build'], dir)).code).toBe(0);
    expect(await home()).toContain('<!-- recalled -->');
    const text = await readFile(path.join(dir, file), 'utf8');
    expect(text).toContain(from);
    await writeFile(path.join(dir, file), text.replace(from, to));
    await expectCachedEqualsCold(dir);
    expect(await home()).not.toContain('<!-- recalled -->');
  });

  // The cross-file rules are skipped when their inputs' shapes are those they last passed on; an
  // edit that changes what they read must still be caught, exactly as a cold check reports it.
  test.each([
    [
      'a column id taken from another group',
      'alpha/dr2/catalogues/InputCat.yaml',
      (t: string) => t.replace('- id: 2010', '- id: 2000'),
      'catalogue column id 2000 is already used',
    ],
    [
      'a name that no longer matches its file',
      'alpha/dr1/catalogues/SpecCat.yaml',
      (t: string) => t.replace('name: SpecCat', 'name: Spectra'),
      'differs from its file name',
    ],
    [
      'a group updated before its release was created',
      'alpha/dr1/release.yaml',
      (t: string) => t.replace('created: 2015-03-01T10:00:00+10:00', 'created: 2016-01-01T00:00:00Z'),
      'before it was created',
    ],
    [
      'an id retired while still in use',
      'retired.yaml',
      () => 'retired:\n  - kind: CatalogueColumn\n    id: 2002\n    name: NOTE\n    retired: 2026-11-01T00:00:00Z\n    reason: Dropped.\n',
      'was retired',
    ],
  ])('after a passing build, still finds %s', async (_name, file, change, message) => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const target = path.join(dir, 'metadata', file);
    await writeFile(target, change(await readFile(target, 'utf8').catch(() => '')));
    const cached = await cli(['build'], dir);
    expect(cached.code).toBe(1);
    expect(cached.stderr).toContain(message);
    expect(cached.stderr).toBe((await cli(['build', '--no-cache'], dir)).stderr);
  });

  test('gives the cold bytes after an edit, a rename and a deletion', async () => {
    const dir = await testdir();
    await expectCachedEqualsCold(dir);
    await writeFile(
      path.join(dir, GROUP),
      (await readFile(path.join(dir, GROUP), 'utf8')).replace('Heliocentric redshift', 'Heliocentric redshift (flow corrected)'),
    );
    await expectCachedEqualsCold(dir);
    // A rename: the group's file and name change together.
    const renamed = 'metadata/alpha/dr1/catalogues/Spectra.yaml';
    await rename(path.join(dir, GROUP), path.join(dir, renamed));
    await writeFile(path.join(dir, renamed), (await readFile(path.join(dir, renamed), 'utf8')).replace('name: SpecCat', 'name: Spectra'));
    await expectCachedEqualsCold(dir);
    // A facility moved to another release: the same text in another place renders another band_key.
    await rename(path.join(dir, 'metadata/alpha/dr2/imaging/VST.yaml'), path.join(dir, 'metadata/beta/dr1/imaging/VST.yaml'));
    await expectCachedEqualsCold(dir);
    await rm(path.join(dir, renamed));
    await expectCachedEqualsCold(dir);
    const listing = await readFile(path.join(dir, 'dist/api/schema/data_type/imaging.json'), 'utf8');
    expect(listing).toContain('"band_key":"beta.dr1.VST.r"');
  });

  test('--no-cache neither reads nor writes it', async () => {
    const dir = await testdir();
    expect((await cli(['build', '--no-cache'], dir)).code).toBe(0);
    await expect(stat(path.join(dir, 'node_modules/.cache/archive-schema'))).rejects.toThrow();
    expect((await cli(['build', '--cache-dir', 'cache'], dir)).code).toBe(0);
    expect((await stat(path.join(dir, 'cache/digests'))).isDirectory()).toBe(true);
  });

  // A rebuild reads a cached text only to write it, and a group's nodes (packed after its texts)
  // only when the rules run: an edit of a description needs the texts, an edit of an id the nodes.
  test.each([
    ['text', (name: string) => name.endsWith('.texts'), 'Unique ID', 'Unique GAMA ID'],
    ['node list', (name: string) => name.endsWith('.texts'), '- id: 2001', '- id: 2009'],
  ])('a lost %s is made again, not a failure', async (_what, lost, from, to) => {
    const dir = await testdir();
    await cli(['build'], dir);
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace(from, to));
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    const names = (await readdir(digests)).filter(lost);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) await rm(path.join(digests, name));
    expect(await cli(['check'], dir)).toMatchObject({ code: 0 });
    for (const name of names) await rm(path.join(digests, name), { force: true });
    await expectCachedEqualsCold(dir);
  });

  // The texts are copied into outputs without being parsed: a cut or grown text must not be.
  test('a cached text that has changed size since it was stored is not copied', async () => {
    const dir = await testdir();
    await cli(['build'], dir);
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    const texts = (await readdir(digests)).filter((name) => name.endsWith('.texts'));
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const [i, name] of texts.entries()) {
      const file = path.join(digests, name);
      const bytes = await readFile(file);
      await writeFile(file, i % 2 ? bytes.subarray(0, bytes.length - 1) : Buffer.concat([bytes, Buffer.from(' ')]));
    }
    // An edit elsewhere: the listings are written again from the other groups' cached texts.
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    const rebuilt = await cli(['build'], dir);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toMatch(
      /^The build cache was damaged \(the build cache's \w+\.texts has \d+ bytes, not the \d+ it was stored with\), so it was cleared and this build ran without it\.\n$/,
    );
    expect(rebuilt.stdout).not.toContain('read from the cache');
    // The next build uses the cache made afresh, quietly.
    expect(await cli(['build'], dir)).toMatchObject({ code: 0, stderr: '' });
    await expectCachedEqualsCold(dir);
  });

  test('the half-written entries of a build that was stopped go at the next build', async () => {
    const dir = await testdir();
    await cli(['build'], dir);
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    const [entry] = (await readdir(digests)).filter((name) => name.endsWith('.v8'));
    // No process has the first id; the second is this one's, still running.
    const stopped = `${entry}.2147483646.tmp`;
    const running = `${entry}.${process.pid}.tmp`;
    for (const name of [stopped, running]) await writeFile(path.join(digests, name), 'half');
    expect((await cli(['build'], dir)).code).toBe(0);
    const names = await readdir(digests);
    expect(names).not.toContain(stopped);
    expect(names).toContain(running);
  });

  test('a damaged entry is a miss, not a failure', async () => {
    const dir = await testdir();
    await cli(['build'], dir);
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    for (const name of await readdir(digests)) await writeFile(path.join(digests, name), 'not a digest');
    await expectCachedEqualsCold(dir);
  });
});

describe('the spare output: the output a build replaced, the next build’s staging folder', () => {
  /** Where the output a write replaces is kept, its manifest beside it (`${folder}.json`). */
  const keptIn = (dir: string) => path.join(dir, 'spares', 'out');

  /** Writes these texts as an output, linking what the previous write left unchanged. */
  async function write(dir: string, texts: Record<string, string>, previous?: Manifest, spare = keptIn(dir)) {
    return writePlans(plansOf(new Map(Object.entries(texts))), path.join(dir, 'out'), { ...(previous ? { previous } : {}), spare });
  }

  /** A folder's files as texts, by path, without the marker. */
  async function texts(folder: string): Promise<Record<string, string>> {
    const tree = await snapshotTree(folder);
    tree.delete(MARKER);
    return Object.fromEntries([...tree].map(([file, bytes]) => [file, bytes.toString('utf8')]));
  }

  // A listing and its twin (equal bytes, one file), a page that changes, and two files that do not.
  const page = (text: string) => `${text}\n`.repeat(400);
  const first = {
    'a/listing.json': 'L'.repeat(5000),
    'a/twin.json': 'L'.repeat(5000),
    'b/page.html': page('one'),
    'c/same.json': 'S'.repeat(2000),
    'c/small.json': 'one',
  };
  const second = {
    ...first,
    'a/listing.json': 'K'.repeat(4000),
    'a/twin.json': 'K'.repeat(4000),
    'b/page.html': page('two'),
    'c/small.json': 'two',
  };

  // The third output is written into the first, kept as the spare when the second replaced it. The first's
  // page is its own file there, written over; its listing and twin are one file, linked twice, so
  // not written over.
  test.each([
    [
      'shorter than the files it replaces',
      { ...first, 'a/listing.json': 'M'.repeat(3000), 'a/twin.json': 'M'.repeat(3000), 'b/page.html': page('1') },
      1,
    ],
    [
      'longer than the files it replaces',
      { ...first, 'a/listing.json': 'N'.repeat(9000), 'a/twin.json': 'N'.repeat(9000), 'b/page.html': page('one, two and three') },
      1,
    ],
    // The listing and the page are gone (and the page's folder), the twin is the listing's file
    // alone now, and a file in a new folder comes.
    [
      'at other paths',
      {
        ...first,
        'a/listing.json': undefined,
        'a/twin.json': 'P'.repeat(5000),
        'b/page.html': undefined,
        'd/new.json': 'new file'.repeat(300),
      },
      1,
    ],
    // A file where a folder was, and a folder where a file was.
    [
      'with a file and a folder swapped',
      { a: 'a file now', 'b/page.html/inside.json': 'a folder now', 'c/same.json': 'S'.repeat(2000) },
      0,
    ],
  ])('the next output is exactly its texts, %s', async (_name, next, recycled) => {
    const third = Object.fromEntries(Object.entries(next).filter((e): e is [string, string] => e[1] !== undefined));
    const dir = await tempdir();
    const one = await write(dir, first);
    // No output was replaced: nothing is kept.
    await expect(readdir(path.join(dir, 'spares'))).rejects.toThrow();
    const two = await write(dir, second, one.manifest);
    expect((await readdir(path.join(dir, 'spares'))).sort()).toEqual(['out', 'out.json']);
    expect(await texts(keptIn(dir))).toEqual(first);
    const three = await write(dir, third, two.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(third);
    expect(three.stats.recycled).toBe(recycled);
    expect(three.stats.written + three.stats.linked).toBe(Object.keys(third).length);
    // The second output is the spare now.
    expect(await texts(keptIn(dir))).toEqual(second);
    // A build that changes nothing writes nothing.
    const again = await write(dir, third, three.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(third);
    expect(again.stats.written).toBe(0);
    expect(await readdir(dir)).toEqual(['out', 'spares']);
  });

  test('an edit undone and another made writes the new file over the undone edit’s, put aside', async () => {
    const dir = await tempdir();
    const original = { 'a/list.json': 'L'.repeat(5000), 'b/page.html': page('one'), 'c/same.json': 'S'.repeat(2000) };
    const edited = { ...original, 'a/list.json': 'K'.repeat(6000) };
    const other = { ...original, 'b/page.html': page('two') };
    const one = await write(dir, original);
    const two = await write(dir, edited, one.manifest);
    const three = await write(dir, original, two.manifest);
    // Written into the second output: its listing, the edit's own file, is linked over from the
    // third; the page there is the first's, linked from it, so it is not written over. The page is
    // written over the listing's file instead.
    const four = await write(dir, other, three.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(other);
    expect(four.stats).toMatchObject({ written: 1, recycled: 1 });
    // Nothing of where it was put aside is left, not even an empty folder.
    expect((await readdir(path.join(dir, 'out'))).sort()).toEqual([MARKER, 'a', 'b', 'c'].sort());
    expect(await texts(keptIn(dir))).toEqual(original);
    expect(await readdir(dir)).toEqual(['out', 'spares']);
  });

  test.each([
    ['kept in the cache for the next build, which writes over it', 'B'.repeat(20_000), 1],
    ['removed, where it would hold more than half the output’s bytes', '', 0],
  ])('a file put aside and not written over is %s', async (_name, big, recycled) => {
    const dir = await tempdir();
    const pool = `${keptIn(dir)}.recycled`;
    const original = { 'a/list.json': 'L'.repeat(5000), 'b/page.html': page('one'), ...(big ? { 'd/big.json': big } : {}) };
    const edited = { ...original, 'a/list.json': 'K'.repeat(6000) };
    const one = await write(dir, original);
    const two = await write(dir, edited, one.manifest);
    const three = await write(dir, original, two.manifest);
    // Built again unchanged, into the second output: its listing, the edit's, is put aside (the
    // listing is linked from the third), and nothing is written.
    const four = await write(dir, original, three.manifest);
    expect(four.stats.written).toBe(0);
    expect(await texts(path.join(dir, 'out'))).toEqual(original);
    expect((await readdir(path.join(dir, 'out'))).sort()).toEqual([MARKER, 'a', 'b', ...(big ? ['d'] : [])].sort());
    expect(await readdir(pool).catch(() => [])).toHaveLength(recycled);
    // The next page is written into the file kept, where there is one.
    const other = { ...original, 'b/page.html': page('two') };
    const five = await write(dir, other, four.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(other);
    expect(five.stats).toMatchObject({ written: 1, recycled });
    expect(await readdir(pool).catch(() => [])).toHaveLength(0);
    expect(await readdir(dir)).toEqual(['out', 'spares']);
  });

  test('a file that cannot be written stops the build and leaves the output as it was', async () => {
    const dir = await tempdir();
    await write(dir, first);
    const before = await snapshotTree(path.join(dir, 'out'));
    // Many files in flight, one of them made of a cached text that has gone.
    const plans = plansOf(new Map(Array.from({ length: 12 }, (_, i) => [`f/${i}.json`, `text ${i}`.repeat(300)])));
    const lost = { bytes: { file: path.join(dir, 'gone.json'), offset: 0, size: 10, fileSize: 10 }, key: 'lost', shift: 0, breaks: 0 };
    plans.splice(5, 0, planOf('f/lost.json', ['[', lost, ']']));
    await expect(writePlans(plans, path.join(dir, 'out'), { spare: keptIn(dir) })).rejects.toThrow(/^gone\.json: ENOENT/);
    expect(await snapshotTree(path.join(dir, 'out'))).toEqual(before);
    // No staging folder is left behind.
    expect(await readdir(dir)).toEqual(['out']);
  });

  test('a cached text of another size than its entry says stops the build', async () => {
    const dir = await tempdir();
    await writeFile(path.join(dir, 'cut.json'), '"abc"');
    const cut = { bytes: { file: path.join(dir, 'cut.json'), offset: 0, size: 7, fileSize: 7 }, key: 'cut', shift: 0, breaks: 0 };
    const plans = [planOf('f/cut.json', ['[', cut, ']'])];
    await expect(writePlans(plans, path.join(dir, 'out'))).rejects.toThrow('cut.json: has 5 bytes, not the 7 recorded');
    await expect(stat(path.join(dir, 'out'))).rejects.toThrow();
  });

  test('texts of one cached file read for many output files come out whole; an entry recording another size for it stops the build', async () => {
    const dir = await tempdir();
    const file = path.join(dir, 'pack.texts');
    await writeFile(file, 'abcdefghij');
    const text = (offset: number, size: number, fileSize = 10) => ({
      bytes: { file, offset, size, fileSize },
      key: `${offset}+${size}`,
      shift: 0,
      breaks: 0,
    });
    const plans = Array.from({ length: 24 }, (_, i) => planOf(`f/${i}.txt`, [text(i % 10, 1), '-', text(0, 10)]));
    await writePlans(plans, path.join(dir, 'out'));
    for (const i of [0, 3, 13, 23])
      expect(await readFile(path.join(dir, 'out', `f/${i}.txt`), 'utf8')).toBe(`${'abcdefghij'[i % 10]}-abcdefghij`);
    const wrong = [...plans, planOf('f/wrong.txt', [text(0, 2, 12)])];
    await expect(writePlans(wrong, path.join(dir, 'other'))).rejects.toThrow('pack.texts: has 10 bytes, not the 12 recorded');
    await expect(stat(path.join(dir, 'other'))).rejects.toThrow();
  });

  test('a file of the spare output linked from anywhere else is never written over', async () => {
    const dir = await tempdir();
    const one = await write(dir, first);
    const two = await write(dir, { ...first, 'b/page.html': page('two') }, one.manifest);
    await link(path.join(keptIn(dir), 'b/page.html'), path.join(dir, 'kept.html'));
    const third = { ...first, 'b/page.html': page('three') };
    const three = await write(dir, third, two.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(third);
    expect(three.stats.recycled).toBe(0);
    expect(await readFile(path.join(dir, 'kept.html'), 'utf8')).toBe(page('one'));
  });

  test.each([
    ['a file gone', (kept: string) => rm(path.join(kept, 'c/same.json'))],
    // Another file at its path: written over, the file would change in the output too, which links it.
    [
      'a file of another size',
      async (kept: string) => {
        await rm(path.join(kept, 'c/same.json'));
        await writeFile(path.join(kept, 'c/same.json'), 'S');
      },
    ],
    ['a file added', (kept: string) => writeFile(path.join(kept, 'c/stray.json'), 'stray')],
    ['its marker of another build', (kept: string) => writeFile(path.join(kept, MARKER), 'build 0000000000000000\n')],
  ])('a spare output with %s still gives exactly the new output', async (_name, damage) => {
    const dir = await tempdir();
    const one = await write(dir, first);
    const two = await write(dir, second, one.manifest);
    await damage(keptIn(dir));
    const third = { ...first, 'b/page.html': page('three') };
    const three = await write(dir, third, two.manifest);
    expect(await texts(path.join(dir, 'out'))).toEqual(third);
    expect(three.stats.written + three.stats.linked).toBe(Object.keys(third).length);
    expect((await readdir(dir)).sort()).toEqual(['out', 'spares']);
  });

  // /dev/shm is a file system of its own on Linux: the replaced output cannot be moved there.
  const otherFileSystem = (() => {
    try {
      return statSync('/dev/shm').dev !== statSync(os.tmpdir()).dev;
    } catch {
      return false;
    }
  })();
  test.runIf(otherFileSystem)('with the cache on another file system, the replaced output is removed as before', async () => {
    const dir = await tempdir();
    const pool = await mkdtemp('/dev/shm/archive-schema-spares-');
    try {
      const one = await write(dir, first, undefined, path.join(pool, 'spares'));
      await write(dir, second, one.manifest, path.join(pool, 'spares'));
      expect(await texts(path.join(dir, 'out'))).toEqual(second);
      expect(await readdir(pool)).toEqual([]);
      expect(await readdir(dir)).toEqual(['out']);
    } finally {
      await rm(pool, { recursive: true, force: true });
    }
  });

  test('a build keeps the output it replaced in its cache, for the output built last; --no-cache keeps none', async () => {
    const dir = await testdir();
    const spares = path.join(dir, 'node_modules/.cache/archive-schema/spares');
    const keptNow = async () => snapshotTree(spares);
    expect((await cli(['build'], dir)).code).toBe(0);
    const [first] = (await readdir(path.join(dir, 'metadata'), { recursive: true })).filter((f) => f.includes('/catalogues/')).sort();
    const group = path.join(dir, 'metadata', first ?? '');
    const original = await readFile(group, 'utf8');
    await writeFile(group, original.replace(/^( {2,}description: [A-Za-z][^'"#:\n]*)$/m, '$1 (edited)'));
    const before = await snapshotTree(path.join(dir, 'dist'));
    expect((await cli(['build'], dir)).code).toBe(0);
    // The output the edit replaced, whole, and its manifest.
    const [forDist = '', ...others] = (await readdir(spares)).sort();
    expect(others).toEqual([`${forDist}.json`]);
    expectSameFiles(await snapshotTree(path.join(spares, forDist)), before);
    const kept = await keptNow();
    // A build without the cache, of metadata edited again (a line added at the end, which changes
    // no output), keeps nothing, leaves the cache's as it was, and gives the same output.
    await writeFile(group, `${await readFile(group, 'utf8')}\n`);
    expect((await cli(['build', '--no-cache', '--out', 'cold'], dir)).code).toBe(0);
    expectSameFiles(await keptNow(), kept);
    await expectSameOutput(path.join(dir, 'dist'), path.join(dir, 'cold'));
    // Another output: its spare output replaces the first one's, so the cache holds one output's worth.
    expect((await cli(['build', '--out', 'preview'], dir)).code).toBe(0);
    await writeFile(group, original);
    expect((await cli(['build', '--out', 'preview'], dir)).code).toBe(0);
    const [forPreview = '', ...more] = (await readdir(spares)).sort();
    expect(more).toEqual([`${forPreview}.json`]);
    expect(forPreview).not.toBe(forDist);
    expect(await outputCount(path.join(spares, forPreview))).toBeGreaterThan(0);
  }, 60_000);
});

describe("a digest's shape", () => {
  const FILE = 'alpha/dr1/catalogues/SpecCat.yaml';
  const validators = compileValidators();
  const shapeOf = (text: string) => digest(FILE, new TextEncoder().encode(text), 'key', validators).shape;

  test.each([
    ['a description', true, (t: string) => t.replace('Redshifts.', 'Redshifts, flow corrected.')],
    // Text beyond Latin-1 anywhere in a file changes how its other strings are held in memory.
    ['a description, to text beyond Latin-1', true, (t: string) => t.replace('Redshifts.', 'Redshifts (Ångström, ✓).')],
    ["a column's unit", true, (t: string) => t.replace("unit: '-'", 'unit: km/s')],
    ['a column id', false, (t: string) => t.replace('- id: 2001', '- id: 2009')],
    ['a table name', false, (t: string) => t.replace('name: SpecObj', 'name: SpecAll')],
    ['a timestamp', false, (t: string) => t.replace('updated: 2015-03-01T00:00:00Z', 'updated: 2015-03-02T00:00:00Z')],
  ])('after an edit of %s, the same shape: %s', async (_name, same, change) => {
    const text = await readFile(path.join(FIXTURE, FILE), 'utf8');
    const edited = change(text);
    expect(edited).not.toBe(text);
    expect(shapeOf(edited) === shapeOf(text)).toBe(same);
  });
});

describe("a digest's texts, encoded into a buffer the next file reuses when the cache stores them", () => {
  const validators = compileValidators();
  const first = 'alpha/dr1/catalogues/SpecCat.yaml';
  const second = 'alpha/dr2/catalogues/InputCat.yaml';
  // Every text of a fragment, as bytes, by name.
  const textsOf = (fragment: Fragment | undefined): Record<string, Buffer> => {
    if (!fragment) throw new Error('no fragment rendered');
    const bytes = (b: Fragment['compact']) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array());
    const texts: Record<string, Buffer> = {
      compact: bytes(fragment.compact),
      page: bytes(fragment.page),
      surveyPage: bytes(fragment.surveyPage),
    };
    for (const [name, text] of Object.entries(fragment.texts)) texts[name] = bytes(text.bytes);
    return texts;
  };
  const bytesOf = async (relative: string) => new Uint8Array(await readFile(path.join(FIXTURE, relative)));

  test.each([
    ['a cache that stores nothing (--no-cache)', false],
    ['a cache that could not store them (a full disk)', true],
  ])('with %s, each file keeps its own texts, those it would have alone', async (_name, storesTexts) => {
    const cache: Cache = { ...noCache(), storesTexts };
    const results = [];
    for (const relative of [first, second])
      results.push({
        relative,
        result: digestJob({ relative, bytes: await bytesOf(relative), key: relative, render: true }, validators, cache),
      });
    for (const { relative, result } of results) {
      const alone = digest(relative, await bytesOf(relative), relative, validators);
      expect(textsOf(result.fragment), relative).toEqual(textsOf(alone.fragment));
    }
  });
});

describe('scanning the metadata', () => {
  const FILE = 'alpha/dr1/catalogues/SpecCat.yaml';
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const later = BigInt(Date.now() + 60_000) * 1_000_000n;

  test('a file whose stamp is recorded is not read again', async () => {
    const metadata = path.join(await testdir(), 'metadata');
    const first = await scanMetadata(metadata, { now: later });
    expect(first.files.map((f) => f.relative)).toEqual(Object.keys(first.index));
    // A recorded hash that no read could give: it comes back, so the file was not read.
    const known = { ...first.index, [FILE]: { stamp: first.index[FILE]?.stamp ?? '', hash: 'recorded' } };
    const second = await scanMetadata(metadata, { known, now: later });
    expect(second.files.find((f) => f.relative === FILE)?.hash).toBe('recorded');
    expect(
      second.files
        .find((f) => f.relative === FILE)
        ?.bytes()
        .toString('utf8'),
    ).toContain('name: SpecCat');
  });

  test('an edit is seen even when it keeps the size and the modification time', async () => {
    const metadata = path.join(await testdir(), 'metadata');
    const file = path.join(metadata, FILE);
    // A whole second, which utimes can give back exactly.
    const mtime = new Date('2025-01-01T00:00:00Z');
    await utimes(file, mtime, mtime);
    const first = await scanMetadata(metadata, { now: later });
    const edited = (await readFile(file, 'utf8')).replace('Unique ID', 'Unique Id');
    await writeFile(file, edited);
    await utimes(file, mtime, mtime);
    expect((await stat(file, { bigint: true })).mtimeNs).toBe(BigInt(mtime.getTime()) * 1_000_000n);
    const second = await scanMetadata(metadata, { known: first.index, now: later });
    expect(second.files.find((f) => f.relative === FILE)?.hash).toBe(sha256(Buffer.from(edited)));
  });

  test('a file changed in the last two seconds is read, and not recorded', async () => {
    const metadata = path.join(await testdir(), 'metadata');
    const scan = await scanMetadata(metadata);
    expect(scan.index).toEqual({});
    expect(scan.files.find((f) => f.relative === FILE)?.hash).toBe(sha256(await readFile(path.join(metadata, FILE))));
  });
});

describe('shifting page text by bytes, a chunk at a time', () => {
  const text = '{\n    "name": "Ångström ünïcode",\n    "list": [\n        1\n    ]\n}\n';
  // Chunks of one byte split every line break from the spaces after it, and each UTF-8 sequence.
  test.each([
    [4, 1],
    [4, 3],
    [4, 1000],
    [0, 1],
    [0, 1000],
    [-4, 1],
    [-4, 2],
    [-4, 5],
    [-4, 1000],
    [-8, 1],
    [-8, 1000],
  ])('by %i columns in chunks of %i bytes equals shifting the string', (by, size) => {
    const bytes = new TextEncoder().encode(text);
    const expected = by >= 0 ? text.replaceAll('\n', `\n${' '.repeat(by)}`) : text.replace(new RegExp(`\n {0,${-by}}`, 'g'), '\n');
    const shifter = new LineShifter();
    shifter.reset(by);
    const space = { output: Buffer.alloc(0) };
    const out: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) out.push(Buffer.from(shifter.push(bytes.subarray(at, at + size), space)));
    expect(Buffer.concat(out).toString('utf8')).toBe(expected);
  });
});

describe('filling marks with a survey’s URL, a chunk at a time', () => {
  // Marks at the start and end, side by side, and none; the output kept from chunk to chunk starts
  // empty and grows as marks need.
  const text = '\0a,\0\0,b\0c\0\n,,no marks here,\nend\0';
  test.each([
    ['a URL', 'https://example.org/api/schema/7/', [1, 2, 5, 1000]],
    ['nothing', '', [1, 3, 1000]],
    ['one character', 'x', [1, 4, 1000]],
  ])('with %s in chunks of %j bytes equals replacing each NUL in the string', (_name, fill, sizes) => {
    for (const size of sizes) {
      const bytes = Buffer.from(text);
      const space = { output: Buffer.alloc(0) };
      const out: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size)
        out.push(Buffer.from(filled(bytes.subarray(at, at + size), Buffer.from(fill), space)));
      expect(Buffer.concat(out).toString('utf8'), `chunks of ${size}`).toBe(text.replaceAll('\0', fill));
    }
  });
});

describe('writing a file through a sink: straight to the disk, or through the page cache', () => {
  // Lengths either side of a disk block and of the sink's buffer, cut into chunks of every size
  // from a byte to more than the buffer; each written new, over a longer file and over a shorter.
  // With their lengths given, those under DIRECT_FROM go through the page cache.
  const lengths = [
    0,
    1,
    ALIGN - 1,
    ALIGN,
    ALIGN + 1,
    DIRECT_FROM - 1,
    DIRECT_FROM,
    SINK_BUFFER - 1,
    SINK_BUFFER,
    SINK_BUFFER + 1,
    3 * SINK_BUFFER + 12_345,
  ];
  const chunkings = [1, 1000, ALIGN, 70_000, SINK_BUFFER + 7];
  const bytesOf = (length: number, seed: number) => {
    const bytes = Buffer.alloc(length);
    for (let at = 0; at < length; at++) bytes[at] = (at * 131 + seed) & 0xff;
    return bytes;
  };
  const chunksOf = (bytes: Buffer, size: number) => () => {
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
    return chunks;
  };

  // As the piece reader gives stored text: read into the sink's room, up to what it holds.
  const readIntoRoom = (bytes: Buffer, size: number) => (room: () => Buffer) => {
    function* chunks() {
      for (let at = 0; at < bytes.length;) {
        const into = room();
        const n = Math.min(size, into.length, bytes.length - at);
        bytes.copy(into, 0, at, at + n);
        yield into.subarray(0, n);
        at += n;
      }
    }
    return chunks();
  };

  test.each([
    ['straight to the disk', { direct: true }, false, false],
    ['through the page cache', { direct: false }, false, false],
    ['straight to the disk, read into its buffer in place', { direct: true }, true, false],
    ['through the page cache, read into its buffer in place', { direct: false }, true, false],
    ['straight to the disk but for small files, their lengths given', { direct: true }, false, true],
    ['straight to the disk but for small files, read into its buffer in place', { direct: true }, true, true],
  ])('%s, the file holds the bytes given and their SHA-256 is theirs', async (_way, options, inPlace, sized) => {
    const dir = await tempdir();
    const sinks = new SinkWriter(options);
    let n = 0;
    for (const length of lengths) {
      const bytes = bytesOf(length, length % 251);
      const expected = createHash('sha256').update(bytes).digest('hex');
      for (const size of chunkings.filter((c) => (c === 1 ? length < 70_000 : true))) {
        for (const before of [undefined, length + SINK_BUFFER + 5, Math.floor(length / 2)]) {
          const file = path.join(dir, `f${n++}`);
          if (before !== undefined) await writeFile(file, bytesOf(before, 7));
          const chunks = inPlace ? readIntoRoom(bytes, size) : chunksOf(bytes, size);
          const written = await sinks.write(file, before !== undefined, true, chunks, sized ? length : undefined);
          const what = `${length} bytes in chunks of ${size}, over ${before ?? 'nothing'}`;
          expect(written.bytes, what).toBe(length);
          expect(written.reused, what).toBe(before !== undefined);
          expect(written.sha256, what).toBe(expected);
          expect((await readFile(file)).equals(bytes), what).toBe(true);
        }
      }
    }
  });

  test.runIf(DIRECT !== 0)(
    'a file system refusing direct writes gets the same bytes through the page cache, that file and the next',
    async () => {
      const dir = await tempdir();
      // A buffer one byte off a page boundary: direct writes from it are refused (EINVAL), as a
      // file system without direct writes refuses them.
      const misaligned = alignedBuffer(SINK_BUFFER + ALIGN).subarray(1, SINK_BUFFER + 1);
      const sinks = new SinkWriter({ buffer: misaligned });
      for (const [name, length, there] of [
        ['new', ALIGN * 3 + 5, false],
        ['over', SINK_BUFFER * 2 + 9, true],
        ['next', 100, false],
      ] as const) {
        const file = path.join(dir, name);
        if (there) await writeFile(file, bytesOf(length * 2, 3));
        const bytes = bytesOf(length, 11);
        const written = await sinks.write(file, there, true, chunksOf(bytes, 4000));
        expect(written.reused, name).toBe(there);
        expect(written.sha256, name).toBe(createHash('sha256').update(bytes).digest('hex'));
        expect((await readFile(file)).equals(bytes), name).toBe(true);
      }
    },
  );
});

describe("the download's checksums, taken as its files are written", () => {
  // In this thread (the writer threads take theirs as they write too: 'writing in worker threads').
  const cases: [string, number][] = [
    ['an empty file', 0],
    ['a small file, gathered into one write', 70_000],
    ['a file of many chunks', (5 << 20) + 3],
  ];

  test('each is the SHA-256 of the file’s bytes, and the late files are made of them', async () => {
    const dir = await tempdir();
    const texts = cases.map(([, size], i) => {
      const bytes = Buffer.alloc(size);
      for (let at = 0; at < size; at++) bytes[at] = 97 + ((at * 31 + i) % 26);
      return bytes;
    });
    const plans = plansOf(new Map(texts.map((bytes, i) => [`d/${i}.txt`, bytes])));
    const written = await writePlans(plans, path.join(dir, 'out'), {
      late: { measured: () => true, known: new Map(), plans: (sums) => [planOf('d/SUMS', [JSON.stringify([...sums])])], count: () => 1 },
    });
    expect(written.stats.written).toBe(cases.length + 1);
    const sums = new Map(JSON.parse(await readFile(path.join(dir, 'out/d/SUMS'), 'utf8')) as [string, string][]);
    cases.forEach(([name], i) =>
      expect(sums.get(`d/${i}.txt`), name).toBe(
        createHash('sha256')
          .update(texts[i] ?? '')
          .digest('hex'),
      ),
    );
  });
});

test('undoing an edit keeps the download files of the output before it, their checksums known', async () => {
  const dir = await testdir();
  const group = path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml');
  const download = path.join(dir, 'dist/download');
  /** Each download file but the checksum list and page, with when it was last written. */
  const written = async () => {
    const files = (await readdir(download)).filter((name) => name !== 'SHA256SUMS' && name !== 'index.html');
    return new Map(await Promise.all(files.map(async (name) => [name, (await stat(path.join(download, name))).mtimeMs] as const)));
  };
  expect((await cli(['build'], dir)).code).toBe(0);
  const before = await written();
  expect(before.size).toBeGreaterThan(0);
  const original = await readFile(group, 'utf8');
  await writeFile(group, original.replace('Unique ID', 'Unique GAMA ID'));
  expect((await cli(['build'], dir)).code).toBe(0);
  await writeFile(group, original);
  const undone = await cli(['build'], dir);
  expect(undone.code, undone.stderr).toBe(0);
  // The first output, kept as the spare, is the third's staging folder: its files stay as they were.
  expect(await written()).toEqual(before);
  // And the list holds their checksums (sha256sum -c's work).
  const listed = new Set<string>();
  for (const line of (await readFile(path.join(download, 'SHA256SUMS'), 'utf8')).trim().split('\n')) {
    const [sum, name = ''] = line.split(/ +\*?/);
    expect(
      createHash('sha256')
        .update(await readFile(path.join(download, name)))
        .digest('hex'),
      name,
    ).toBe(sum);
    listed.add(name);
  }
  for (const name of before.keys()) expect(listed.has(name), name).toBe(true);
});

describe('writing in worker threads', () => {
  // The compiled writer, which sends files to worker threads when it is given some
  // (src/destination/write-threads.ts); run from its TypeScript source, it writes every file itself.
  const WRITE = pathToFileURL(path.join(PROJECT, 'lib/destination/write.js')).href;
  const THREADS = pathToFileURL(path.join(PROJECT, 'lib/destination/write-threads.js')).href;
  const PLAN = pathToFileURL(path.join(PROJECT, 'lib/outputs/plan.js')).href;

  /** Runs `body` (with writePlans, planOf, two writer threads and the folder `dir` in scope) in a process of its own; its printed JSON. */
  async function compiled(dir: string, body: string): Promise<unknown> {
    const script = `
      const { writePlans } = await import(${JSON.stringify(WRITE)});
      const { planOf } = await import(${JSON.stringify(PLAN)});
      const { WriterThreads } = await import(${JSON.stringify(THREADS)});
      const threads = new WriterThreads(2);
      const path = await import('node:path');
      const dir = ${JSON.stringify(dir)};
      try {
        ${body}
      } finally {
        await threads.close();
      }`;
    await writeFile(path.join(dir, 'write.mjs'), script);
    const run = spawnSync(process.execPath, [path.join(dir, 'write.mjs')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    return JSON.parse(run.stdout);
  }

  test('gives the bytes this thread gives: cached texts shifted and filled, texts in memory, files written over in the spare output, zip members', async () => {
    const dir = await tempdir();
    // A pack of cached texts: page text with line breaks to shift, a text with NUL marks to fill.
    await writeFile(path.join(dir, 'pack.texts'), 'A\n\t\t\tb\n\t\t\tc|x\0y\0');
    const got = await compiled(
      dir,
      `
      const file = path.join(dir, 'pack.texts');
      const page = (shift) => ({ bytes: { file, offset: 0, size: 11, fileSize: 16 }, key: 'page', shift, breaks: 2 });
      const filled = { bytes: { file, offset: 11, size: 5, fileSize: 16 }, key: 'filled', shift: 0, breaks: 0, fill: 'URL', marks: 2 };
      const memory = { bytes: new TextEncoder().encode('in memory'), key: 'memory', shift: 0, breaks: 0 };
      const plans = (n) => Array.from({ length: 40 }, (_, i) => planOf('f/' + i + '.txt', ['<' + n + ':' + i + '>', page(i % 3 - 1), filled, memory]));
      const out = path.join(dir, 'out');
      const spare = path.join(dir, 'spare');
      const one = await writePlans(plans(1), out, { threads, spare });
      const two = await writePlans(plans(2), out, { threads, spare, previous: one.manifest });
      // Written over the spare output's files (the first output, replaced by the second), most of them shorter: their tails go.
      const third = plans(3).map((p, i) => (i % 2 ? p : planOf(p.path, ['short ' + i])));
      const three = await writePlans(third, out, { threads, spare, previous: two.manifest });
      await writePlans(third, path.join(dir, 'here'));
      // A file's checksum, taken as a thread writes it.
      const hashed = await threads.write(path.join(dir, 'hashed.txt'), plans(3)[1].pieces, false, true);
      const crypto = await import('node:crypto');
      const sha256 = crypto.createHash('sha256').update((await import('node:fs')).readFileSync(path.join(dir, 'hashed.txt'))).digest('hex');
      // A zip member of the same pieces, deflated in a thread.
      const member = await threads.deflate(plans(3)[1].pieces, plans(3)[1].size);
      const zlib = await import('node:zlib');
      const inflated = zlib.inflateRawSync(member.deflated).toString('utf8');
      const fs = await import('node:fs');
      const read = (folder) => Object.fromEntries(Array.from({ length: 40 }, (_, i) => [i, fs.readFileSync(path.join(dir, folder, 'f/' + i + '.txt'), 'utf8')]));
      console.log(JSON.stringify({ threads: read('out'), here: read('here'), recycled: three.stats.recycled, written: three.stats.written, threaded: three.stats.threaded, member: { crc: member.crc, size: member.size, inflated, crcOfInflated: zlib.crc32(inflated) >>> 0 }, hashed: { ...hashed, expected: sha256 } }));`,
    );
    const { threads, here, recycled, written, threaded, member, hashed } = got as {
      hashed: { bytes: number; sha256: string; expected: string };
      member: { crc: number; size: number; inflated: string; crcOfInflated: number };
      threads: Record<string, string>;
      here: Record<string, string>;
      recycled: number;
      written: number;
      threaded: number;
    };
    expect(threads).toEqual(here);
    expect(threads['0']).toBe('short 0');
    expect(threads['1']).toBe('<3:1>A\n\t\t\tb\n\t\t\tc|xURLyURLin memory');
    expect(threads['3']).toBe('<3:3>A\n\t\tb\n\t\tc|xURLyURLin memory');
    expect(threads['5']).toBe('<3:5>A\n\t\t\t\tb\n\t\t\t\tc|xURLyURLin memory');
    expect(written).toBe(40);
    expect(recycled).toBe(40);
    expect(threaded).toBe(40);
    expect(member.inflated).toBe(threads['1']);
    expect(member.size).toBe(Buffer.byteLength(member.inflated));
    expect(member.crc).toBe(member.crcOfInflated);
    expect(hashed.sha256).toBe(hashed.expected);
    expect(hashed.bytes).toBe(Buffer.byteLength(threads['1'] ?? ''));
  });

  test('plans given batch by batch: each batch is being written while the next is planned, and the output is the one given at once', async () => {
    const dir = await tempdir();
    const got = await compiled(
      dir,
      `
      const fs = await import('node:fs');
      const big = (n, i) => planOf('big/' + i + '.txt', ['<' + n + ':' + i + '>'.repeat(1 << 16)]);
      const small = (n) => Array.from({ length: 20 }, (_, i) => planOf('s/' + (i % 4) + '/' + i + '.txt', [n + ':' + i]));
      const read = (folder) => Object.fromEntries(fs.readdirSync(path.join(dir, folder), { recursive: true }).sort().filter((f) => fs.statSync(path.join(dir, folder, f)).isFile()).map((f) => [f, fs.readFileSync(path.join(dir, folder, f), 'utf8')]));
      // Whether the first batch's file holds its bytes in the staging folder before the next
      // batch is planned (which waits up to 5 s for it): it is written meanwhile.
      const seen = [];
      function* batches(n, fail) {
        yield [big(n, 0)];
        const deadline = Date.now() + 5000;
        const expected = '<' + n + ':0' + '>'.repeat(1 << 16);
        // (A file written over may be gone for a moment: removed, then made new.)
        const holds = (file) => fs.readFileSync(file, { encoding: 'utf8', flag: 'r' }) === expected;
        const held = (file) => { try { return holds(file); } catch { return false; } };
        const staged = () => fs.readdirSync(dir).some((f) => f.startsWith('.out-new-') && held(path.join(dir, f, 'big/0.txt')));
        while (!staged() && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        seen.push(staged());
        if (fail) throw new Error('planning failed');
        yield [big(n, 1), ...small(n)];
        // The same bytes as a file of an earlier batch: linked to it once it is written.
        yield [{ ...big(n, 0), path: 'twin.txt' }];
      }
      const out = path.join(dir, 'out');
      const spare = path.join(dir, 'spare');
      const one = await writePlans([], out, { threads, spare, more: batches(1) });
      const two = await writePlans([], out, { threads, spare, previous: one.manifest, more: batches(2) });
      // Over the spare output (the first), which the second replaced.
      const three = await writePlans([], out, { threads, spare, previous: two.manifest, more: batches(3) });
      const before = read('out');
      let failure = '';
      try {
        await writePlans([], out, { threads, spare, previous: three.manifest, more: batches(4, true) });
      } catch (error) {
        failure = error.message;
      }
      await writePlans([big(3, 0), big(3, 1), ...small(3), { ...big(3, 0), path: 'twin.txt' }], path.join(dir, 'here'));
      const twin = fs.statSync(path.join(out, 'twin.txt')).ino === fs.statSync(path.join(out, 'big/0.txt')).ino;
      console.log(JSON.stringify({ seen, out: read('out'), here: read('here'), same: JSON.stringify(before) === JSON.stringify(read('out')), failure, left: fs.readdirSync(dir).filter((f) => f.startsWith('.out-')), manifest: Object.keys(three.manifest.files), written: three.stats.written, twin }));`,
    );
    const { seen, out, here, same, failure, left, manifest, written, twin } = got as {
      seen: boolean[];
      out: Record<string, string>;
      here: Record<string, string>;
      same: boolean;
      failure: string;
      left: string[];
      manifest: string[];
      written: number;
      twin: boolean;
    };
    expect(seen).toEqual([true, true, true, true]);
    expect(out).toEqual(here);
    // Besides the output's marker.
    expect(Object.keys(out).filter((file) => !file.startsWith('.'))).toHaveLength(23);
    expect(out['s/1/5.txt']).toBe('3:5');
    expect(manifest.slice(0, 3)).toEqual(['big/0.txt', 'big/1.txt', 's/0/0.txt']);
    expect(manifest.at(-1)).toBe('twin.txt');
    expect(written).toBe(22);
    expect(twin).toBe(true);
    // Planning's failure, as it was thrown; the output as it was, and no staging folder left.
    expect(failure).toBe('planning failed');
    expect(same).toBe(true);
    expect(left).toEqual([]);
  });

  test('a large file written over its version in the spare output writes only from where they differ, and gives the bytes of a file written whole', async () => {
    const dir = await tempdir();
    const got = await compiled(
      dir,
      `
      const fs = await import('node:fs');
      // 6.4 MB in 100 pieces; the version n changes piece 60 (made longer or shorter) and so
      // everything after it shifts.
      const big = (n, tail) => planOf('big.txt', [...Array.from({ length: 100 }, (_, i) => (i === 60 ? 'v' + n : '') + String(i % 10).repeat(1 << 16)), tail]);
      const other = (n) => planOf('other.txt', ['other ' + n]);
      const out = path.join(dir, 'out');
      const spare = path.join(dir, 'spare');
      const file = path.join(out, 'big.txt');
      const one = await writePlans([big(1, 'end'), other(1)], out, { threads, spare });
      const two = await writePlans([big(2, 'end'), other(2)], out, { threads, spare, previous: one.manifest });
      // Over the first output's file: the same up to piece 60, then longer.
      const three = await writePlans([big(333, 'the end'), other(3)], out, { threads, spare, previous: two.manifest });
      const longer = fs.readFileSync(file, 'utf8');
      const four = await writePlans([big(4, ''), other(4)], out, { threads, spare, previous: three.manifest });
      const shorter = fs.readFileSync(file, 'utf8');
      // A byte of the spare output's file (now the third's) changed behind the build's back, in
      // its unchanged start: written over, it stays, since that start is not written again.
      const spared = path.join(spare, 'big.txt');
      const fd = fs.openSync(spared, 'r+');
      fs.writeSync(fd, 'X', 0);
      fs.closeSync(fd);
      await writePlans([big(5, ''), other(5)], out, { threads, spare, previous: four.manifest });
      const kept = fs.readFileSync(file, 'utf8');
      await writePlans([big(333, 'the end')], path.join(dir, 'longer'));
      await writePlans([big(4, '')], path.join(dir, 'shorter'));
      await writePlans([big(5, '')], path.join(dir, 'fifth'));
      const whole = (folder) => fs.readFileSync(path.join(dir, folder, 'big.txt'), 'utf8');
      console.log(JSON.stringify({ marks: big(1, 'end').marks.length, longer: longer === whole('longer'), shorter: shorter === whole('shorter'), recycled: [three.stats.recycled, four.stats.recycled], kept: kept[0], rest: kept.slice(1) === whole('fifth').slice(1) }));`,
    );
    expect(got).toEqual({ marks: 6, longer: true, shorter: true, recycled: [2, 2], kept: 'X', rest: true });
  });

  test('a cached text of another size than recorded, or gone, stops the write and leaves no output', async () => {
    const dir = await tempdir();
    await writeFile(path.join(dir, 'pack.texts'), 'abcdefghij');
    const got = await compiled(
      dir,
      `
      const text = (file, fileSize) => ({ bytes: { file: path.join(dir, file), offset: 0, size: 2, fileSize }, key: file + fileSize, shift: 0, breaks: 0 });
      const many = Array.from({ length: 30 }, (_, i) => planOf('f/' + i + '.txt', [text('pack.texts', 10)]));
      const failed = async (bad, out) => {
        try {
          await writePlans([...many.slice(0, 15), planOf('f/bad.txt', [bad]), ...many.slice(15)], path.join(dir, out), { threads });
          return 'written';
        } catch (error) {
          return error.name + ': ' + error.message;
        }
      };
      const fs = await import('node:fs');
      console.log(JSON.stringify({ resized: await failed(text('pack.texts', 12), 'one'), gone: await failed(text('gone.texts', 10), 'two'), left: fs.readdirSync(dir).sort() }));`,
    );
    expect(got).toEqual({
      resized: 'StaleBytesError: pack.texts: has 10 bytes, not the 12 recorded',
      gone: expect.stringMatching(/^StaleBytesError: gone\.texts: ENOENT: no such file or directory/) as unknown,
      left: ['pack.texts', 'write.mjs'],
    });
  });
});
