// The output folder as readers and operators meet it: a whole output at its path at every instant
// (a link switched in one rename), files never written over under a reader, a build stopped at any
// rename leaving a whole output, one lock whichever way the path is named, files kept only while
// their record proves them, and the same bytes on ext4, tmpfs and a file system without links.

import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cp, lstat, mkdir, mkdtemp, open, readFile, readlink, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  FIXTURE,
  PROJECT,
  SKIP_NGINX,
  besideOutput,
  cli,
  edit,
  expectSameFiles,
  http,
  nginxSite,
  serveSite,
  snapshotTree,
  tempdir,
  testdir,
} from './helpers.ts';

const BIN = path.join(PROJECT, 'bin/archive-schema.js');
const STOP = path.join(PROJECT, 'test/fixtures/stop-at-rename.mjs');
const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
const revise = (dir: string, word: string) => edit(dir, GROUP, (t) => t.replace(/^description: (.*)$/m, `description: $1 ${word}.`));

/** Runs the compiled command in its own process, stopped at a rename of `stopAt` if given. */
function build(dir: string, stopAt?: { path: string; nth: number; when: 'before' | 'after' }) {
  const env = stopAt
    ? { ...process.env, STOP_AT_RENAME_PATH: stopAt.path, STOP_AT_RENAME_NTH: String(stopAt.nth), STOP_AT_RENAME_WHEN: stopAt.when }
    : process.env;
  const preload = stopAt ? ['--import', STOP] : [];
  return spawnSync(process.execPath, [...preload, BIN, 'build'], { cwd: dir, encoding: 'utf8', env });
}

describe('the output path', () => {
  test('is a link to the build’s own folder, switched to the next build’s in one rename; the old folder goes', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const first = await readlink(path.join(dir, 'dist'));
    expect(first).toMatch(/^\.dist-build-\d+-[0-9a-f]{12}$/);
    await revise(dir, 'Revised');
    expect((await cli(['build'], dir)).code).toBe(0);
    const second = await readlink(path.join(dir, 'dist'));
    expect(second).not.toBe(first);
    expect((await lstat(path.join(dir, first)).catch(() => undefined))?.isDirectory()).toBeUndefined();
    expect(await besideOutput(dir)).toEqual([]);
  });

  // A slow download of archive.json that spanned two builds received the old length with the new
  // build's tail: the file had been written over in place.
  test('a reader holding a file across two builds reads its old bytes, whole (was: the old length with the new tail)', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const file = path.join(dir, 'dist/download/archive.json');
    const before = await readFile(file);
    const reader = await open(file, 'r');
    try {
      const head = Buffer.alloc(10);
      await reader.read(head, 0, 10, 0);
      for (const word of ['Revised', 'Again']) {
        await revise(dir, word);
        expect((await cli(['build'], dir)).code).toBe(0);
      }
      const rest = Buffer.alloc(before.length);
      const { bytesRead } = await reader.read(rest, 0, rest.length, 10);
      const read = Buffer.concat([head, rest.subarray(0, bytesRead)]);
      expect(read.equals(before)).toBe(true);
      expect(() => JSON.parse(read.toString('utf8')) as unknown).not.toThrow();
    } finally {
      await reader.close();
    }
    expect(await readFile(file, 'utf8')).toContain('Again.');
  });

  // A build stopped between the two renames of the old swap left no output at the path at all.
  test.each([
    { when: 'before', outcome: 'the previous output stays' },
    { when: 'after', outcome: 'the new output is in place' },
  ] as const)(
    'a build killed just $when the rename that publishes it: $outcome, whole, and the next build clears what it left',
    async ({ when }) => {
      const dir = await tempdir();
      await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
      expect(build(dir).status).toBe(0);
      const old = await snapshotTree(path.join(dir, 'dist'));
      await revise(dir, 'Revised');
      const stopped = build(dir, { path: path.join(dir, 'dist'), nth: 1, when });
      expect(stopped.signal).toBe('SIGKILL');
      const now = await snapshotTree(path.join(dir, 'dist'));
      expect(now.get('.archive-schema-output')).toBeDefined();
      const catalogues = now.get('api/schema/data_type/catalogues.json')?.toString('utf8') ?? '';
      expect(catalogues.includes('Revised.')).toBe(when === 'after');
      if (when === 'before') expectSameFiles(now, old);
      expect((await besideOutput(dir)).length).toBeGreaterThan(0);
      expect(build(dir).status).toBe(0);
      expect(await besideOutput(dir)).toEqual([]);
    },
  );

  test('an output folder of an older version becomes a link; killed between its two renames, the next build puts it back', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    expect(build(dir).status).toBe(0);
    // A folder at the path, as older versions left it.
    const live = await readlink(path.join(dir, 'dist'));
    await rm(path.join(dir, 'dist'));
    await rename(path.join(dir, live), path.join(dir, 'dist'));
    const old = await snapshotTree(path.join(dir, 'dist'));
    await revise(dir, 'Revised');
    expect(build(dir, { path: path.join(dir, 'dist'), nth: 1, when: 'before' }).signal).toBe('SIGKILL');
    await expect(lstat(path.join(dir, 'dist'))).rejects.toThrow();
    // The next build (its metadata broken, so it stops after checking) puts the old output back.
    const text = await readFile(path.join(dir, GROUP), 'utf8');
    await writeFile(path.join(dir, GROUP), 'id: 20\nname: SpecCat\n  broken: [\n');
    expect(build(dir).status).toBe(1);
    expectSameFiles(await snapshotTree(path.join(dir, 'dist')), old);
    await writeFile(path.join(dir, GROUP), text);
    expect(build(dir).status).toBe(0);
    expect((await lstat(path.join(dir, 'dist'))).isSymbolicLink()).toBe(true);
    expect(await besideOutput(dir)).toEqual([]);
  });

  // Two builds, one into out3 and one into a dangling link lnk3 -> out3, took different locks;
  // both succeeded, and the link became a real folder.
  test('a build into a dangling link waits for the lock of the folder it leads to (was: a lock of its own), and the link stays', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    await symlink('out3', path.join(dir, 'lnk3'));
    const lock = path.join(dir, '.out3.lock');
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), since: 'now', token: 't' }));
    const child = spawn(process.execPath, [BIN, 'build', '--out', 'lnk3', '--no-cache'], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = once(child, 'close');
    await once(child.stderr, 'data');
    expect(stderr).toContain(`waiting for the build with process id ${process.pid}`);
    await rm(lock);
    expect((await ended)[0]).toBe(0);
    expect(await readlink(path.join(dir, 'lnk3'))).toBe('out3');
    expect((await lstat(path.join(dir, 'out3'))).isSymbolicLink()).toBe(true);
    expect((await snapshotTree(path.join(dir, 'lnk3'))).get('.archive-schema-output')).toBeDefined();
  });
});

describe('the servers, as a build publishes the next output', () => {
  // serve resolved the site's folder once, as it started, and kept serving it after the next build
  // had removed it.
  test('serve answers from the new output after a rebuild (was: from the folder it started with)', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const { origin, server } = await serveSite(path.join(dir, 'dist'));
    try {
      const target = '/api/schema/?data_type=catalogues&format=json';
      expect((await http(origin, 'GET', target)).body).not.toContain('Revised.');
      await revise(dir, 'Revised');
      expect((await cli(['build'], dir)).code).toBe(0);
      const after = await http(origin, 'GET', target);
      expect(after.status).toBe(200);
      expect(after.body).toContain('Revised.');
    } finally {
      server.kill();
    }
  });
});

describe.skipIf(SKIP_NGINX)('nginx, as a build publishes the next output', () => {
  test('answers from the new output after a rebuild, its root the output’s path (a link)', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const site = await nginxSite(path.join(dir, 'dist'));
    try {
      const target = '/api/schema/?data_type=catalogues&format=json';
      expect((await http(site.origin, 'GET', target)).body).not.toContain('Revised.');
      await revise(dir, 'Revised');
      expect((await cli(['build'], dir)).code).toBe(0);
      const after = await http(site.origin, 'GET', target);
      expect(after.status).toBe(200);
      expect(after.body).toContain('Revised.');
    } finally {
      await site.stop();
    }
  });
});

describe('a file the build keeps', () => {
  test.each([
    ['its bytes edited by hand', (file: string) => writeFile(file, '[]')],
    [
      'its bytes edited and its time put back',
      async (file: string) => {
        const { mtime } = await lstat(file);
        await writeFile(file, '[]');
        await utimes(file, mtime, mtime);
      },
    ],
    ['removed', (file: string) => rm(file)],
  ])('is written again when the output holds it %s', async (_what, tamper) => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const built = await snapshotTree(path.join(dir, 'dist'));
    await tamper(path.join(dir, 'dist/api/schema/data_type/imaging.json'));
    const again = await cli(['build', '--explain', 'api/schema/data_type/imaging.json'], dir);
    expect(again.stdout).toMatch(
      /^write {3}api\/schema\/data_type\/imaging\.json +[\d.]+ kB {2}(changed in|missing from) the previous output/m,
    );
    expectSameFiles(await snapshotTree(path.join(dir, 'dist')), built);
  });
});

/** Mounts a file system that refuses hard and symbolic links over `source` at `at`, until `unmount`. */
async function mountWithoutLinks(source: string, at: string): Promise<{ unmount: () => Promise<void> }> {
  const fs = spawn('/usr/bin/python3', [path.join(PROJECT, 'test/fixtures/no-links-fs.py'), source, at], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  await new Promise<void>((resolve, reject) => {
    fs.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('mounted')) resolve();
    });
    fs.once('close', (code) => reject(new Error(`the file system ended (${code}) before it was mounted: ${said}`)));
  });
  return {
    unmount: async () => {
      const ended = once(fs, 'close');
      const unmounted = spawnSync('fusermount', ['-u', at], { encoding: 'utf8' });
      if (unmounted.status !== 0) throw new Error(`fusermount -u ${at}: ${unmounted.stderr}`);
      await ended;
    },
  };
}

/** fusepy, fusermount and a FUSE device this user may open (a container may have none). */
const CAN_FUSE =
  spawnSync('/usr/bin/python3', ['-c', 'import fusepy'], { encoding: 'utf8' }).status === 0 &&
  spawnSync('fusermount', ['-V']).status === 0 &&
  spawnSync('test', ['-r', '/dev/fuse', '-a', '-w', '/dev/fuse']).status === 0;

describe('the same output on every file system', () => {
  /** Builds the fixture twice into `dist` under `root` (the second after an edit), and gives each output. */
  async function twice(root: string): Promise<Map<string, Buffer>[]> {
    await cp(FIXTURE, path.join(root, 'metadata'), { recursive: true });
    const outputs: Map<string, Buffer>[] = [];
    for (const word of ['First', 'Second']) {
      await revise(root, word);
      const run = await cli(['build', '--cache-dir', path.join(root, 'cache')], root);
      expect(run.code, run.stderr).toBe(0);
      outputs.push(await snapshotTree(path.join(root, 'dist')));
    }
    return outputs;
  }

  /** The outputs on the temporary folder's file system (ext4 here), made once. */
  let onDisk: Promise<Map<string, Buffer>[]> | undefined;
  const expectedOutputs = async () => (onDisk ??= twice(await tempdir()));

  test('ext4 (or whatever the temporary folder is on) and tmpfs: the same bytes', async () => {
    const expected = await expectedOutputs();
    const shm = await mkdtemp('/dev/shm/archive-schema-');
    try {
      const onTmpfs = await twice(shm);
      onTmpfs.forEach((output, i) => expectSameFiles(output, expected[i] ?? new Map<string, Buffer>()));
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });

  // Skipped, and so reported, without fusepy and fusermount (.ci/run installs them).
  test.skipIf(!CAN_FUSE)('a file system without links (FUSE): the same bytes, the output a folder', async () => {
    const expected = await expectedOutputs();
    const source = await tempdir();
    const mounted = path.join(await tempdir(), 'mnt');
    await mkdir(mounted);
    const fs = await mountWithoutLinks(source, mounted);
    try {
      const withoutLinks = await twice(mounted);
      withoutLinks.forEach((output, i) => expectSameFiles(output, expected[i] ?? new Map<string, Buffer>()));
      // No link could be made: the output is a folder, and the last one was replaced.
      expect((await lstat(path.join(mounted, 'dist'))).isDirectory()).toBe(true);
      expect(await besideOutput(mounted)).toEqual([]);
    } finally {
      await fs.unmount();
    }
  });
});
