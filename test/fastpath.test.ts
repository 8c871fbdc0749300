// The fast build must be invisible: its output is byte for byte the reference path's, in this
// thread or in worker threads, cold or from the cache, and after any edit, rename or deletion
// a cached rebuild gives exactly what a cold build of the same files gives.

import { spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateArchive } from '../src/bench/synthetic.ts';
import { shift } from '../src/render.ts';
import { MARKER } from '../src/write.ts';
import { PROJECT, cli, snapshotTree, tempdir, testdir } from './helpers.ts';

/** Two output trees hold the same files with the same bytes (the marker names the build, not the API). */
async function expectSameOutput(a: string, b: string): Promise<void> {
  const one = await snapshotTree(a);
  const two = await snapshotTree(b);
  one.delete(MARKER);
  two.delete(MARKER);
  expect([...two.keys()]).toEqual([...one.keys()]);
  for (const [file, bytes] of one) expect(two.get(file)?.equals(bytes), file).toBe(true);
}

async function synthetic(): Promise<string> {
  const dir = await tempdir();
  for (const [relative, text] of generateArchive('S')) {
    const file = path.join(dir, 'metadata', relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return dir;
}

describe('the fast path gives the reference bytes', () => {
  test.each([
    ['the fixture archive', () => testdir()],
    ['the bundled metadata', async () => {
      const dir = await tempdir();
      await cp(path.join(PROJECT, 'metadata'), path.join(dir, 'metadata'), { recursive: true });
      return dir;
    }],
    ['the synthetic S archive', synthetic],
  ])('%s', async (_name, make) => {
    const dir = await make();
    expect((await cli(['build', '--reference', '--out', 'reference'], dir)).code).toBe(0);
    expect((await cli(['build', '--no-cache', '--out', 'fast'], dir)).code).toBe(0);
    await expectSameOutput(path.join(dir, 'reference'), path.join(dir, 'fast'));
  }, 120_000);

  test('in worker threads too (the compiled command)', async () => {
    const dir = await synthetic();
    expect((await cli(['build', '--reference', '--out', 'reference'], dir)).code).toBe(0);
    const run = spawnSync(process.execPath, [path.join(PROJECT, 'bin/archive-schema.js'), 'build', '--no-cache', '--workers', '2', '--out', 'workers'], { cwd: dir, encoding: 'utf8' });
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
    expect(again.stdout).toMatch(/^Built 46 files \(0 written, 46 reused, 0\.0 kB\) from 10 metadata files \(10 read from the cache\)/);
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    const edited = await cli(['build'], dir);
    expect(edited.stdout).toMatch(/from 10 metadata files \(9 read from the cache\)/);
    expect(edited.stdout).not.toMatch(/\(0 written/);
  });

  test('gives the cold bytes after an edit, a rename and a deletion', async () => {
    const dir = await testdir();
    await expectCachedEqualsCold(dir);
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Heliocentric redshift', 'Heliocentric redshift (flow corrected)'));
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

  test('a lost text is rebuilt, not a failure', async () => {
    const dir = await testdir();
    await cli(['build'], dir);
    await writeFile(path.join(dir, GROUP), (await readFile(path.join(dir, GROUP), 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    for (const name of await readdir(digests)) if (name.endsWith('.text.v8')) await rm(path.join(digests, name));
    await expectCachedEqualsCold(dir);
  });

  test('a damaged entry is a miss, not a failure', async () => {
    const dir = await testdir();
    await cli(['build'], dir);
    const digests = path.join(dir, 'node_modules/.cache/archive-schema/digests');
    for (const name of await readdir(digests)) await writeFile(path.join(digests, name), 'not a digest');
    await expectCachedEqualsCold(dir);
  });
});

describe('shifting page text by bytes', () => {
  const text = '{\n    "name": "Ångström ünïcode",\n    "list": [\n        1\n    ]\n}';
  test.each([4, 0, -4])('by %i columns equals shifting the string', (by) => {
    const bytes = new TextEncoder().encode(text);
    const expected = by >= 0 ? text.replaceAll('\n', `\n${' '.repeat(by)}`) : text.replaceAll(`\n${' '.repeat(-by)}`, '\n');
    expect(new TextDecoder().decode(shift(bytes, by))).toBe(expected);
  });
});
