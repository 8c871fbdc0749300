// The fast build must be invisible: its output is byte for byte the reference path's, in this
// thread or in worker threads, cold or from the cache, and after any edit, rename or deletion
// a cached rebuild gives exactly what a cold build of the same files gives.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { digest } from '../src/pipeline/digest.ts';
import { noCache } from '../src/pipeline/cache.ts';
import type { Cache } from '../src/pipeline/cache.ts';
import { digestJob } from '../src/pipeline/pool.ts';
import type { Fragment } from '../src/site/fragment.ts';
import { renderFragment } from '../src/outputs/fragment.ts';
import { scanMetadata } from '../src/pipeline/scan.ts';
import { compileValidators } from '../src/pipeline/validate.ts';
import { MARKER } from '../src/destination/output.ts';
import { LineShifter, filled } from '../src/site/plan-bytes.ts';
import { BUNDLED, FIXTURE, PROJECT, cli, expectSameFiles, snapshotTree, syntheticdir, testdir, outputCount } from './helpers.ts';

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

  // The synthetic XS archive's reference, made once (the slow path takes seconds): compared with the
  // fast path in this thread and in worker threads, each with precompressed copies, whose texts are
  // compressed from several chunks.
  let synthetic: Promise<string> | undefined;
  const referenceS = () =>
    (synthetic ??= (async () => {
      const dir = await syntheticdir('XS');
      expect((await cli(['build', '--reference', '--out', 'reference', '--precompress'], dir)).code).toBe(0);
      return dir;
    })());

  test('the synthetic XS archive, with its precompressed copies', async () => {
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
      new RegExp(
        `^Built ${files} files of [\\d.]+ kB, [\\d.]+ kB on disk \\(0 written, ${files} reused\\) from 10 metadata files \\(10 read from the cache\\)`,
      ),
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
    // Its key (the facilities' texts and places, then the code's), then the pictures' HTML.
    expect(recalled).toMatch(
      /^[0-9a-f]{64}:[0-9a-f]{64}\n<h2>Imaging<\/h2>\n<figure class="picture"><div class="picture-scroll"[^>]*><svg/,
    );
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
        result: digestJob({ relative, bytes: await bytesOf(relative), key: relative, render: true }, validators, cache, renderFragment),
      });
    for (const { relative, result } of results) {
      const alone = digest(relative, await bytesOf(relative), relative, validators, renderFragment);
      expect(textsOf(result.fragment), relative).toEqual(textsOf(alone.fragment));
    }
  });
});

describe('scanning the metadata', () => {
  const FILE = 'alpha/dr1/catalogues/SpecCat.yaml';
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  // A minute after now, when the test runs (not when the file was loaded: a loaded machine can take longer).
  const later = () => BigInt(Date.now() + 60_000) * 1_000_000n;

  test('a file whose stamp is recorded is not read again', async () => {
    const metadata = path.join(await testdir(), 'metadata');
    const first = await scanMetadata(metadata, { now: later() });
    expect(first.files.map((f) => f.relative)).toEqual(Object.keys(first.index));
    // A recorded hash that no read could give: it comes back, so the file was not read.
    const known = { ...first.index, [FILE]: { stamp: first.index[FILE]?.stamp ?? '', hash: 'recorded' } };
    const second = await scanMetadata(metadata, { known, now: later() });
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
    const first = await scanMetadata(metadata, { now: later() });
    const edited = (await readFile(file, 'utf8')).replace('Unique ID', 'Unique Id');
    await writeFile(file, edited);
    await utimes(file, mtime, mtime);
    expect((await stat(file, { bigint: true })).mtimeNs).toBe(BigInt(mtime.getTime()) * 1_000_000n);
    const second = await scanMetadata(metadata, { known: first.index, now: later() });
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
