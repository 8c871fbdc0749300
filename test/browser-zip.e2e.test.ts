// download/browser.zip, read by other tools than the one that wrote it: Python's zipfile and
// Info-ZIP's unzip find every browser file of a build in it, with the built bytes, fixed times
// and modes; unpacked, its pages link only to one another and their own files; two builds, and
// the reference path, give the same bytes; a rebuild after one edit deflates only the members
// whose files changed, and of a large member only the blocks it changed (seen in the build cache,
// where each deflated member and block is kept by its key).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { beforeAll, describe, expect, test } from 'vitest';
import { isBrowserFile } from '../src/hosting/routes.ts';
import { BLOCKS_FROM, isBlockKey, zipWhole } from '../src/outputs/download/zip.ts';
import { PieceReader, newSlot } from '../src/destination/pieces.ts';
import type { Bytes } from '../src/outputs/plan.ts';
import { openCache } from '../src/pipeline/cache.ts';
import { cli, edit, snapshotTree, tempdir, testdir, unpackZip } from './helpers.ts';

const PYTHON = '/usr/bin/python3';
const HAS_UNZIP = spawnSync('unzip', ['-v']).status === 0;
const ZIP = 'dist/download/browser.zip';
const CACHE = 'cache';

let dir = '';

beforeAll(async () => {
  dir = await testdir();
  const built = await cli(['build', '--cache-dir', CACHE], dir);
  expect(built.code, built.stderr).toBe(0);
});

/** What Python's zipfile reads of a zip: testzip's verdict, and each member in order. */
interface PythonMember {
  name: string;
  sha256: string;
  size: number;
  date_time: number[];
  compress_type: number;
  flag_bits: number;
  mode: number;
  extra: string;
  comment: string;
}

function readWithPython(zip: string): { bad: string | null; members: PythonMember[] } {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    members = [dict(name=i.filename, sha256=hashlib.sha256(z.read(i)).hexdigest(), size=i.file_size, date_time=list(i.date_time),
                    compress_type=i.compress_type, flag_bits=i.flag_bits, mode=i.external_attr >> 16, extra=i.extra.hex(), comment=i.comment.hex())
               for i in z.infolist()]
print(json.dumps(dict(bad=bad, members=members)))
`;
  const run = spawnSync(PYTHON, ['-c', script, zip], { encoding: 'utf8', maxBuffer: 64 << 20 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { bad: string | null; members: PythonMember[] };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A catalogue group of one table of 36 columns with long descriptions, its ids its own. */
function bigGroup(g: number): string {
  const columns = Array.from({ length: 36 }, (_, c) => {
    const words = Array.from({ length: 40 }, (_, w) => `w${(g * 7 + c * 13 + w * 31) % 997}`).join(' ');
    return [
      `      - id: ${900_000 + g * 100 + c}`,
      `        name: COL_${g}_${c}`,
      `        description: Column ${c} of group ${g}, ${words}`,
      `        ucd: phot.mag;em.opt.R`,
      `        unit: mag`,
    ].join('\n');
  });
  return [
    `id: ${800_000 + g}`,
    `name: Big${g}`,
    `pretty_name: Big group ${g}`,
    'description: A group with long column descriptions.',
    'version: v1',
    'created: 2015-01-01T00:00:00Z',
    'updated: 2015-02-01T00:00:00Z',
    'contact: {name: Alpha Team, email: alpha-team@example.org}',
    'tables:',
    `  - id: ${850_000 + g}`,
    `    name: BigTable${g}`,
    '    description: Many columns',
    '    file_path: /alpha/dr1/',
    `    file_name: Big${g}.fits`,
    '    input_cat: false',
    '    columns:',
    ...columns,
    '',
  ].join('\n');
}

/** The browser's files of a built output, by their paths in it. */
async function browserFilesOf(dist: string): Promise<Map<string, Buffer>> {
  const all = await snapshotTree(dist);
  return new Map([...all].filter(([file]) => isBrowserFile(file.split(path.sep).join('/'))));
}

describe('download/browser.zip', () => {
  test('holds exactly the browser files of the build, each with its built bytes, by name', async () => {
    const files = await browserFilesOf(path.join(dir, 'dist'));
    expect(files.has('index.html')).toBe(true);
    expect([...files.keys()].filter((f) => f.startsWith('browse/')).length).toBeGreaterThan(10);
    const { bad, members } = readWithPython(path.join(dir, ZIP));
    expect(bad).toBeNull();
    const names = members.map((m) => m.name);
    expect(names).toEqual([...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    for (const member of members) {
      const built = files.get(member.name) ?? Buffer.alloc(0);
      expect(member.sha256, member.name).toBe(sha256(built));
      expect(member.size).toBe(built.length);
    }
  });

  test('has the same time, mode and flags on every member, and nothing that varies by machine', () => {
    const { members } = readWithPython(path.join(dir, ZIP));
    for (const m of members) {
      expect(m.date_time).toEqual([1980, 1, 1, 0, 0, 0]);
      expect(m.compress_type).toBe(8);
      expect(m.flag_bits).toBe(0x0800);
      expect(m.mode).toBe(0o100644);
      expect(m.extra).toBe('');
      expect(m.comment).toBe('');
    }
  });

  test.skipIf(!HAS_UNZIP)('passes unzip -t', () => {
    const run = spawnSync('unzip', ['-t', path.join(dir, ZIP)], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('No errors detected');
  });

  test('unpacked, its pages link to one another and to their own files, which are all there', async () => {
    const folder = await tempdir();
    unpackZip(path.join(dir, ZIP), folder);
    const pages = (await readdir(folder, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(10);
    let followed = 0;
    for (const page of pages) {
      const links: string[] = [];
      const parser = new Parser({
        onopentag(_name, attributes) {
          for (const name of ['href', 'src']) if (attributes[name] !== undefined) links.push(attributes[name]);
        },
      });
      parser.end(await readFile(path.join(folder, page), 'utf8'));
      for (const link of links) {
        // Links out (the API, the download) and within the page are not the zip's to hold.
        if (/^[a-z]+:|^#|^\//i.test(link)) {
          expect(link, `${page}: ${link}`).not.toMatch(/^\//);
          continue;
        }
        const target = path.posix.join(path.posix.dirname(page), decodeURIComponent(link.replace(/[?#].*$/, '')));
        const file = target.endsWith('/') || target === '.' ? path.posix.join(target, 'index.html') : target;
        if (!isBrowserFile(file)) continue;
        expect(existsSync(path.join(folder, file)), `${page}: ${link}`).toBe(true);
        followed++;
      }
    }
    expect(followed).toBeGreaterThan(pages.length);
  });

  test('is listed in SHA256SUMS and on the download page with its size and checksum', async () => {
    const zip = await readFile(path.join(dir, ZIP));
    const sums = await readFile(path.join(dir, 'dist/download/SHA256SUMS'), 'utf8');
    expect(sums).toContain(`${sha256(zip)}  browser.zip\n`);
    const page = await readFile(path.join(dir, 'dist/download/index.html'), 'utf8');
    expect(page).toMatch(
      new RegExp(`<a href="browser.zip">browser.zip</a></td><td>[^<]+</td><td class="n">[0-9.]+ kB</td><td><code>${sha256(zip)}</code>`),
    );
  });

  test('is the same bytes from a second build, from a cold one and from the reference path', async () => {
    const zip = await readFile(path.join(dir, ZIP));
    for (const flags of [['--cache-dir', CACHE], ['--no-cache'], ['--reference']]) {
      const out = `again-${flags[0]?.slice(2) ?? ''}`;
      const built = await cli(['build', '--out', out, ...flags], dir);
      expect(built.code, built.stderr).toBe(0);
      expect((await readFile(path.join(dir, out, 'download/browser.zip'))).equals(zip), flags.join(' ')).toBe(true);
    }
  });

  test('a rebuild after one edit deflates again only the members whose files changed', async () => {
    const project = await testdir();
    expect((await cli(['build', '--cache-dir', CACHE], project)).code).toBe(0);
    const deflated = path.join(project, CACHE, 'deflated');
    /** The cache's index of deflated members: each one's CRC-32, sizes, pack and place in it; and each pack's size. */
    type Member = [number, number, number, string, number];
    const kept = async () => {
      const index = JSON.parse(await readFile(path.join(deflated, 'index.json'), 'utf8')) as {
        members: Record<string, Member>;
        packs: Record<string, number>;
      };
      return { members: new Map(Object.entries(index.members)), packs: index.packs };
    };
    const before = await kept();
    const filesBefore = await browserFilesOf(path.join(project, 'dist'));
    expect(before.members.size).toBe(filesBefore.size);
    // One pack holds them all, one after another.
    expect(Object.values(before.packs)).toEqual([[...before.members.values()].reduce((n, m) => n + m[2], 0)]);
    await edit(project, 'metadata/alpha/dr1/catalogues/SpecCat.yaml', (t) => t.replace('Unique ID', 'Unique GAMA ID'));
    const rebuilt = await cli(['build', '--cache-dir', CACHE], project);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = await kept();
    const filesAfter = await browserFilesOf(path.join(project, 'dist'));
    const changed = [...filesAfter].filter(([file, bytes]) => !filesBefore.get(file)?.equals(bytes)).map(([file]) => file);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(filesAfter.size / 2);
    const fresh = [...after.members.keys()].filter((key) => !before.members.has(key));
    expect(fresh.length).toBe(changed.length);
    expect(after.members.size).toBe(filesAfter.size);
    // The others were not deflated again: each is where it was, or copied out of a pack mostly of
    // members no longer used (which is then gone). The new pack holds the fresh ones and those copied.
    const packs = await readdir(deflated);
    const copied: string[] = [];
    for (const [key, member] of after.members) {
      const was = before.members.get(key);
      if (!was) continue;
      if (member[3] === was[3]) expect(member[4]).toBe(was[4]);
      else {
        expect(packs).not.toContain(was[3]);
        copied.push(key);
      }
    }
    const newPacks = Object.keys(after.packs).filter((name) => !(name in before.packs));
    expect(newPacks).toHaveLength(1);
    const sizeOf = (keys: string[]) => keys.reduce((n, key) => n + (after.members.get(key)?.[2] ?? 0), 0);
    expect(after.packs[newPacks[0] ?? '']).toBe(sizeOf([...fresh, ...copied]));
    expect(packs.sort()).toEqual(['index.json', ...Object.keys(after.packs)].sort());
    // And the zip is what a cold build of the edited metadata makes.
    expect((await cli(['build', '--no-cache', '--out', 'cold'], project)).code).toBe(0);
    const zip = await readFile(path.join(project, ZIP));
    expect(zip.equals(await readFile(path.join(project, 'cold/download/browser.zip')))).toBe(true);
    const { members } = readWithPython(path.join(project, ZIP));
    for (const file of changed) expect(members.find((m) => m.name === file)?.sha256).toBe(sha256(filesAfter.get(file) ?? Buffer.alloc(0)));
  });

  test('a large member is deflated in blocks, and a rebuild after an edit deflates again only the block it changed', async () => {
    // Enough catalogue groups, each with long descriptions, for the search data to be deflated in
    // blocks: each group is a line of it.
    const groups = Object.fromEntries(Array.from({ length: 120 }, (_, g) => [`alpha/dr1/catalogues/Big${g}.yaml`, bigGroup(g)]));
    const project = await testdir(groups);
    const built = await cli(['build', '--cache-dir', CACHE], project);
    expect(built.code, built.stderr).toBe(0);
    const searchData = 'browse/search-data.js';
    expect((await readFile(path.join(project, 'dist', searchData))).length).toBeGreaterThanOrEqual(BLOCKS_FROM);
    /** The blocks the cache keeps: each one's CRC-32, sizes, pack and place in it. */
    const blocks = async () => {
      const index = JSON.parse(await readFile(path.join(project, CACHE, 'deflated/index.json'), 'utf8')) as {
        members: Record<string, unknown[]>;
      };
      return new Map(Object.entries(index.members).filter(([key]) => isBlockKey(key)));
    };
    const before = await blocks();
    expect(before.size).toBeGreaterThanOrEqual(3);
    await edit(project, 'metadata/alpha/dr1/catalogues/Big60.yaml', (t) => t.replace('Column 7 of group 60', 'Column seven of group 60'));
    const rebuilt = await cli(['build', '--cache-dir', CACHE], project);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = await blocks();
    expect(after.size).toBeGreaterThanOrEqual(3);
    // One block holds the edited line; a block end the edit moved would make it two. The others
    // were not deflated again: each is where it was in the pack the first build wrote.
    const fresh = [...after.keys()].filter((key) => !before.has(key));
    expect(fresh.length).toBeGreaterThanOrEqual(1);
    expect(fresh.length).toBeLessThanOrEqual(2);
    for (const [key, block] of after) if (before.has(key)) expect(block.slice(3)).toEqual(before.get(key)?.slice(3));
    // The zip is the one a cold build and the reference path make, and its member has the file's bytes.
    const zip = await readFile(path.join(project, ZIP));
    for (const flags of [['--no-cache'], ['--reference']]) {
      const out = `again-${flags[0]?.slice(2) ?? ''}`;
      const again = await cli(['build', '--out', out, ...flags], project);
      expect(again.code, again.stderr).toBe(0);
      expect((await readFile(path.join(project, out, 'download/browser.zip'))).equals(zip), flags.join(' ')).toBe(true);
    }
    const { bad, members } = readWithPython(path.join(project, ZIP));
    expect(bad).toBeNull();
    const expected = sha256(await readFile(path.join(project, 'dist', searchData)));
    expect(members.find((m) => m.name === searchData)?.sha256).toBe(expected);
    if (HAS_UNZIP) expect(spawnSync('unzip', ['-tq', path.join(project, ZIP)], { encoding: 'utf8' }).status).toBe(0);
  });

  test('a kept member damaged since is noticed: the build starts again cold and still makes the zip', async () => {
    const project = await testdir();
    expect((await cli(['build', '--cache-dir', CACHE], project)).code).toBe(0);
    const zip = await readFile(path.join(project, ZIP));
    const deflated = path.join(project, CACHE, 'deflated');
    const [victim = ''] = (await readdir(deflated)).filter((name) => name !== 'index.json');
    await writeFile(path.join(deflated, victim), 'cut');
    // Into another folder, so that the zip is written from the cache rather than linked from the last output.
    const rebuilt = await cli(['build', '--cache-dir', CACHE, '--out', 'other'], project);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stderr).toMatch(/The build cache was damaged/);
    expect((await readFile(path.join(project, 'other/download/browser.zip'))).equals(zip)).toBe(true);
  });
});

describe('the cache of deflated members', () => {
  const member = (text: string) => ({ crc: 1, size: text.length, deflated: Buffer.from(text) });
  const read = async (bytes: Bytes) => {
    if (bytes instanceof Uint8Array) return Buffer.from(bytes).toString();
    const reader = new PieceReader(() => Promise.resolve(newSlot()));
    let out = '';
    for await (const [, chunk] of reader.chunks([{ bytes, key: 'k', shift: 0, breaks: 0 }])) out += Buffer.from(chunk).toString();
    return out;
  };

  test('keeps a pack while enough of it is used, and copies the rest out of one that is mostly unused', async () => {
    const dir = await tempdir();
    const first = openCache(dir);
    for (const key of ['a', 'b', 'c', 'd']) first.deflated.put(key, member(key.repeat(100)));
    first.deflated.keep(new Set(['a', 'b', 'c', 'd']));
    const [pack] = (await readdir(path.join(dir, 'deflated'))).filter((name) => name.endsWith('.pack'));
    // Half of it still used: kept where it is.
    const second = openCache(dir);
    second.deflated.put('e', member('e'.repeat(100)));
    second.deflated.keep(new Set(['a', 'b', 'e']));
    expect(second.deflated.get('a')?.bytes).toMatchObject({ file: path.join(dir, 'deflated', pack ?? ''), offset: 0 });
    expect(second.deflated.get('c')).toBeUndefined();
    // A quarter: 'a' is copied next to this build's member, and the old pack goes.
    const third = openCache(dir);
    third.deflated.put('f', member('f'.repeat(100)));
    third.deflated.keep(new Set(['a', 'e', 'f']));
    const packs = (await readdir(path.join(dir, 'deflated'))).filter((name) => name.endsWith('.pack'));
    expect(packs).not.toContain(pack);
    expect(packs).toHaveLength(2);
    for (const key of ['a', 'e', 'f']) {
      const kept = third.deflated.get(key);
      expect(kept?.compressedSize).toBe(100);
      expect(await read(kept?.bytes ?? new Uint8Array())).toBe(key.repeat(100));
    }
    // And a fourth build finds them where the third left them.
    expect(await read(openCache(dir).deflated.get('a')?.bytes ?? new Uint8Array())).toBe('a'.repeat(100));
  });
});

describe('the zip container', () => {
  test('writes ZIP64 end records for more than 65,534 members, which Python and unzip read', async () => {
    const files = new Map(
      Array.from({ length: 70_000 }, (_, i) => [`f/${String(i).padStart(5, '0')}.txt`, Buffer.from(`${i}\n`)] as const),
    );
    const zip = path.join(await tempdir(), 'many.zip');
    // Stored rather than compressed (deflate's level 0): the records are the point, not the bytes.
    await writeFile(zip, zipWhole(files, 0));
    const { bad, members } = readWithPython(zip);
    expect(bad).toBeNull();
    expect(members.length).toBe(70_000);
    expect(members[69_999]).toMatchObject({ name: 'f/69999.txt', sha256: sha256(Buffer.from('69999\n')) });
    if (HAS_UNZIP) expect(spawnSync('unzip', ['-tq', zip], { encoding: 'utf8' }).status).toBe(0);
  });

  test('names in UTF-8, and an empty member', async () => {
    const zip = path.join(await tempdir(), 'names.zip');
    await writeFile(
      zip,
      zipWhole(
        new Map([
          ['browse/ünï cødé/index.html', Buffer.from('<p>ü</p>')],
          ['empty', Buffer.alloc(0)],
        ]),
      ),
    );
    const { bad, members } = readWithPython(zip);
    expect(bad).toBeNull();
    expect(members.map((m) => [m.name, m.size])).toEqual([
      ['browse/ünï cødé/index.html', 9],
      ['empty', 0],
    ]);
  });
});
