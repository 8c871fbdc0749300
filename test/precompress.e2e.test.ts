// `build --precompress` for nginx's gzip_static and brotli_static: beside each file the
// compression rule covers, a .gz and a .br copy of its bytes, the same on every build; a rebuild
// makes again only the copies of files that changed; a build without the flag leaves none; and a
// dry run lists them.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { MARKER } from '../src/destination/output.ts';
import { precompressible } from '../src/site/routes.ts';
import { cli, edit, expectSameFiles, snapshotTree, testdir } from './helpers.ts';

const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
const COPY = /\.(gz|br)$/;
/** No file name, no time, unknown operating system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

async function build(dir: string, ...argv: string[]): Promise<string> {
  const run = await cli(['build', ...argv], dir);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  return run.stdout;
}

/** An output's files but the marker, by path. */
async function files(dir: string): Promise<Map<string, Buffer>> {
  const tree = await snapshotTree(dir);
  tree.delete(MARKER);
  return tree;
}

/** The copies an output should hold: two beside each file the rule covers. */
function copiesOf(tree: ReadonlyMap<string, Buffer>): string[] {
  return [...tree]
    .filter(([file, bytes]) => !COPY.test(file) && precompressible(file, bytes.length))
    .flatMap(([file]) => [`${file}.br`, `${file}.gz`])
    .sort();
}

/** An output without its copies (download/archive.json.gz is the download's own file). */
function withoutCopies(tree: ReadonlyMap<string, Buffer>): Map<string, Buffer> {
  const copies = new Set(copiesOf(tree));
  return new Map([...tree].filter(([file]) => !copies.has(file)));
}

const inode = async (file: string) => (await stat(file)).ino;

/** One fixture project, built without and then with the flag, for the tests that only read them. */
let built: Promise<{ dir: string; plain: Map<string, Buffer>; pre: Map<string, Buffer> }> | undefined;
function fixtureBuilds() {
  built ??= (async () => {
    const dir = await testdir();
    await build(dir, '--out', 'plain');
    await build(dir, '--out', 'pre', '--precompress');
    return { dir, plain: await files(path.join(dir, 'plain')), pre: await files(path.join(dir, 'pre')) };
  })();
  return built;
}

describe('build --precompress', () => {
  test.each([
    ['a JSON answer', 'api/schema/1/index.json', true],
    ['a listing another data type shares', 'api/schema/data_type/ifs.json', true],
    ['the OpenAPI document', '_documents/openapi.json', true],
    ['the front page', 'index.html', true],
    ['the VOSI tables', 'vo/tables.xml', true],
    ['a browsable page (hosts fill in its request line)', 'api/schema/1/index.format-api.html', false],
    ['a file of the download (its folder holds what SHA256SUMS lists)', 'download/tap_schema.vot', false],
    ['an answer under 1024 bytes', 'api/schema/3/index.json', false],
  ])('%s (%s): copies %s', async (_name, file, copied) => {
    const { pre } = await fixtureBuilds();
    const bytes = pre.get(file);
    expect(bytes, file).toBeDefined();
    const gz = pre.get(`${file}.gz`);
    const br = pre.get(`${file}.br`);
    if (!copied) {
      expect([gz, br]).toEqual([undefined, undefined]);
      return;
    }
    expect(gunzipSync(gz ?? Buffer.alloc(0)).equals(bytes ?? Buffer.alloc(1))).toBe(true);
    expect(brotliDecompressSync(br ?? Buffer.alloc(0)).equals(bytes ?? Buffer.alloc(1))).toBe(true);
    expect(gz?.subarray(0, GZIP_HEADER.length)).toEqual(GZIP_HEADER);
    expect(gz?.length).toBeLessThan(bytes?.length ?? 0);
  });

  test('every file the rule covers has both copies, each its bytes compressed; the rest of the output is the plain build', async () => {
    const { plain, pre } = await fixtureBuilds();
    const copies = copiesOf(pre);
    expect(copies.length).toBeGreaterThan(20);
    expect([...pre.keys()].filter((f) => COPY.test(f)).sort()).toEqual([...copies, 'download/archive.json.gz'].sort());
    for (const copy of copies) {
      const bytes = pre.get(copy) ?? Buffer.alloc(0);
      const original = pre.get(copy.slice(0, -3));
      expect((copy.endsWith('.gz') ? gunzipSync(bytes) : brotliDecompressSync(bytes)).equals(original ?? Buffer.alloc(1)), copy).toBe(true);
    }
    expectSameFiles(withoutCopies(pre), plain);
    // Nothing in the plain build is a copy.
    expect(copiesOf(plain).filter((copy) => plain.has(copy))).toEqual([]);
  });

  test('gives the same copies in every folder, from the cache or not, and on the reference path', async () => {
    const { dir, pre } = await fixtureBuilds();
    await build(dir, '--out', 'again', '--precompress', '--no-cache');
    expectSameFiles(await files(path.join(dir, 'again')), pre);
    await build(dir, '--out', 'reference', '--precompress', '--reference');
    expectSameFiles(await files(path.join(dir, 'reference')), pre);
  });

  test('a rebuild after an edit makes again only the copies of files whose bytes changed, and links the others', async () => {
    const dir = await testdir();
    const dist = path.join(dir, 'dist');
    await build(dir, '--precompress');
    const before = await files(dist);
    const inodes = new Map(await Promise.all([...before.keys()].map(async (f) => [f, await inode(path.join(dist, f))] as const)));
    await edit(dir, GROUP, (text) => text.replace('Unique ID', 'Unique GAMA ID'));
    const said = await build(dir, '--precompress');
    const after = await files(dist);
    const changed = copiesOf(after).filter(
      (copy) => !before.get(copy.slice(0, -3))?.equals(after.get(copy.slice(0, -3)) ?? Buffer.alloc(0)),
    );
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(copiesOf(after).length);
    for (const copy of copiesOf(after)) {
      expect((await inode(path.join(dist, copy))) === inodes.get(copy), copy).toBe(!changed.includes(copy));
    }
    // What the build says it wrote is every new file, the new copies among them.
    const fresh = new Set<number>();
    for (const file of after.keys()) {
      const number = await inode(path.join(dist, file));
      if (![...inodes.values()].includes(number)) fresh.add(number);
    }
    expect(said).toMatch(
      new RegExp(
        `^Built ${after.size} files of [\\d.]+ [kM]B(?:, [\\d.]+ [kM]B on disk)? \\(${fresh.size} written, ${after.size - fresh.size} reused\\)`,
      ),
    );
    // And the output is what a cold build gives.
    await build(dir, '--precompress', '--no-cache', '--out', 'cold');
    expectSameFiles(after, await files(path.join(dir, 'cold')));
  });

  test('a build without the flag removes the copies, and one with it puts them back: the marker tells the two apart', async () => {
    const { plain } = await fixtureBuilds();
    const dir = await testdir();
    const dist = path.join(dir, 'dist');
    const marker = () => readFile(path.join(dist, MARKER), 'utf8');
    await build(dir, '--precompress');
    const precompressed = await files(dist);
    const one = await marker();
    await build(dir);
    expectSameFiles(await files(dist), plain);
    expect(await marker()).not.toBe(one);
    await build(dir, '--precompress');
    expectSameFiles(await files(dist), precompressed);
    expect(await marker()).toBe(one);
  });

  test('--dry-run lists the copies a build would write and remove, and why', async () => {
    const dir = await testdir();
    const dist = path.join(dir, 'dist');
    const listed = (stdout: string) =>
      [...stdout.matchAll(/^(write|link|remove) +(\S+) +(?:[\d.]+ [kM]B)? +(.+)$/gm)].map(([, action = '', file = '', reason = '']) => ({
        action,
        file,
        reason,
      }));
    await build(dir);
    const adding = listed(await build(dir, '--precompress', '--dry-run'));
    await build(dir, '--precompress');
    const pre = await files(dist);
    // Exactly the copies: each new, or linked to a copy of the same bytes.
    expect(adding.map((c) => c.file)).toEqual(copiesOf(pre));
    for (const c of adding)
      expect(c.action === 'write' ? c.reason === 'new file' : c.reason.startsWith('same bytes as '), c.file).toBe(true);
    expect(listed(await build(dir, '--dry-run'))).toEqual(
      copiesOf(pre).map((file) => ({ action: 'remove', file, reason: 'no longer built' })),
    );
    // After an edit, only the copies of the files written again are written again.
    await edit(dir, GROUP, (text) => text.replace('Unique ID', 'Unique GAMA ID'));
    const changes = listed(await build(dir, '--precompress', '--dry-run')).filter((c) => c.action !== 'remove');
    const copies = changes.filter((c) => COPY.test(c.file) && !c.file.startsWith('download/')).map((c) => c.file);
    // A file gets copies only from the host's smallest compressed size up: judged by its size before the edit.
    const sources = changes.filter((c) => precompressible(c.file, pre.get(c.file)?.length ?? 0)).map((c) => c.file);
    expect(sources.length).toBeGreaterThan(0);
    expect(copies).toEqual(sources.flatMap((file) => [`${file}.br`, `${file}.gz`]));
  });
});
