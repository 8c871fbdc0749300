// download/browser.zip, read by other tools than the one that wrote it: Python's zipfile and
// Info-ZIP's unzip find every browser file of a build in it, with the built bytes, fixed times
// and modes; unpacked, its pages link only to one another and their own files; two builds, and
// the reference path, give the same bytes (test/browser-zip-rebuild.test.ts: a rebuild deflates
// only the members whose files changed).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { beforeAll, describe, expect, test } from 'vitest';
import { isBrowserFile } from '../src/site/routes.ts';
import { zipWhole } from '../src/outputs/browser-zip/zip.ts';
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

  test('a last zip changed since it was written is not copied from: its members are deflated again, the zip a cold one', async () => {
    const project = await testdir();
    expect((await cli(['build'], project)).code).toBe(0);
    const zip = await readFile(path.join(project, ZIP));
    await edit(project, 'metadata/alpha/dr1/catalogues/SpecCat.yaml', (t) => t.replace('Unique ID', 'Unique GAMA ID'));
    // Cut short: no longer the file its record describes.
    await writeFile(path.join(project, ZIP), zip.subarray(0, zip.length - 10));
    const rebuilt = await cli(['build'], project);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect((await cli(['build', '--no-cache', '--out', 'cold'], project)).code).toBe(0);
    expect((await readFile(path.join(project, ZIP))).equals(await readFile(path.join(project, 'cold/download/browser.zip')))).toBe(true);
    expect(readWithPython(path.join(project, ZIP)).bad).toBeNull();
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
    // Python's testzip reads every member and checks its CRC; hashing each again, as readWithPython
    // does, doubled the time for nothing the records need. The count, and the last member read.
    const run = spawnSync(
      PYTHON,
      [
        '-c',
        `import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    infos = z.infolist()
    last = infos[-1]
    print(json.dumps(dict(bad=z.testzip(), count=len(infos), last=dict(name=last.filename, sha256=hashlib.sha256(z.read(last)).hexdigest()))))`,
        zip,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const { bad, count, last } = JSON.parse(run.stdout) as { bad: string | null; count: number; last: { name: string; sha256: string } };
    expect(bad).toBeNull();
    expect(count).toBe(70_000);
    expect(last).toEqual({ name: 'f/69999.txt', sha256: sha256(Buffer.from('69999\n')) });
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
