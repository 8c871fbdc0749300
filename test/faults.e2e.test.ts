// Builds meet the faults of real machines: killed (-9) and interrupted (Ctrl-C) at random points of
// a build of the XS synthetic archive, several at once into one output and one cache, a full disk under the
// output and under the cache, an old output that cannot be removed, and a lock left by a build
// that is gone. Whatever happens, the output is the old one or a complete new one, never a mix,
// and the next build clears what was left.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, cp, mkdir, readFile, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { generateArchive } from '../bench/synthetic.ts';
import { FIXTURE, PROJECT, edit, tempdir } from './helpers.ts';

const BIN = path.join(PROJECT, 'bin/archive-schema.js');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const STOP = path.join(PROJECT, 'test/fixtures/stop-at-step.mjs');

/**
 * Runs the command as a process. `stop` has it send itself a signal at its Nth step on the disk
 * (test/fixtures/stop-at-step.mjs); `count` has it write how many steps it took to that file.
 */
function run(args: string[], cwd: string, stop?: { signal: NodeJS.Signals; step: number } | { count: string }): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const env =
      stop && 'count' in stop
        ? { ...process.env, STOP_AT_STEP_COUNT: stop.count }
        : stop
          ? { ...process.env, STOP_AT_STEP_NTH: String(stop.step), STOP_AT_STEP_SIGNAL: stop.signal }
          : process.env;
    const child = spawn(process.execPath, [...(stop ? ['--import', STOP] : []), BIN, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Each file's hash, by path, with the inode, size and modification time it was read at. */
const known = new Map<string, { stamp: string; hash: string }>();

/**
 * One hash of a folder's every file, by path and bytes: two outputs are the same when their hashes
 * are. A file whose inode, size and modification time are those it was hashed at is not read again
 * (an L output is 0.8 GB, and a killed build mostly leaves it untouched, or links what it keeps); a
 * write, even in place, moves the modification time.
 */
async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (sub: string) => {
    const entries = (await readdir(path.join(dir, sub), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const relative = path.join(sub, entry.name);
      if (entry.isDirectory()) {
        await walk(relative);
        continue;
      }
      const full = path.join(dir, relative);
      const info = await stat(full, { bigint: true });
      const stamp = `${info.ino}:${info.size}:${info.mtimeNs}`;
      let seen = known.get(full);
      if (seen?.stamp !== stamp) {
        seen = {
          stamp,
          hash: createHash('sha256')
            .update(await readFile(full))
            .digest('hex'),
        };
        known.set(full, seen);
      }
      hash.update(`${relative}\0${seen.hash}\0`);
    }
  };
  await walk('');
  return hash.digest('hex');
}

/**
 * What builds keep beside an output while they run, and stopped ones leave: their folders but the one
 * the output's path leads to, an old output moved aside, the lock.
 */
async function besideOutput(dir: string, name = 'out'): Promise<string[]> {
  const live = await readlink(path.join(dir, name)).catch(() => undefined);
  return (await readdir(dir)).filter(
    (n) => (/^\.[\w.-]+-(build|new|old|link)-\d+-/.test(n) && n.startsWith(`.${name}-`) && n !== live) || n === `.${name}.lock`,
  );
}

async function writeTree(root: string, files: Map<string, string>): Promise<void> {
  for (const [relative, text] of files) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeFile(path.join(root, relative), text);
  }
}

/** A second version of a metadata tree: the display name of a few groups and facilities changed. */
async function changed(from: string, to: string, every: number): Promise<void> {
  await cp(from, to, { recursive: true });
  const files = (await readdir(to, { recursive: true })).filter((f) => /\/(catalogues|imaging)\/[^/]+\.yaml$/.test(f)).sort();
  let n = 0;
  for (const [i, file] of files.entries()) {
    if (i % every !== 0) continue;
    const target = path.join(to, file);
    // A plain one-line pretty_name, edited as text: parsing and writing each file again would cost
    // seconds at L.
    const text = await readFile(target, 'utf8');
    const revised = text.replace(/^pretty_name: ([A-Za-z0-9][A-Za-z0-9 ]*)$/m, 'pretty_name: $1 revised');
    if (revised === text) continue;
    await writeFile(target, revised);
    n++;
  }
  if (n === 0) throw new Error(`no pretty_name changed under ${to}`);
}

// Kill points are drawn at random from a fixed seed, printed, and shown in each test's name; another
// is tried with FAULT_SEED.
const SEED = Number(process.env.FAULT_SEED ?? 20261126);
console.log(`fault seed ${SEED} (replay with FAULT_SEED=${SEED})`);
function* delays(seed: number): Generator<number> {
  let state = seed >>> 0;
  for (;;) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    yield state / 2 ** 32;
  }
}

describe('killed and interrupted builds of the XS synthetic archive', () => {
  let dir = '';
  const hashes = new Map<string, string>();
  const build = (version: string, stop?: Parameters<typeof run>[2], cache = 'cache') =>
    run(['build', '--metadata', version, '--out', 'out', '--cache-dir', cache], dir, stop);
  /** Which version the output is, whole; undefined for anything else (a mix, a partial output). */
  const outputVersion = async () => {
    const found = await treeHash(path.join(dir, 'out'));
    return [...hashes].find(([, hash]) => hash === found)?.[0];
  };
  let current = 'old';
  // How many steps on the disk each kind of build takes, so that kill points fall inside one.
  const steps = { cold: 0, warm: 0 };

  beforeAll(async () => {
    dir = await tempdir();
    await writeTree(path.join(dir, 'old'), generateArchive('XS'));
    await changed(path.join(dir, 'old'), path.join(dir, 'new'), 3);
    // Each version's complete output, built in turn into the output: the states a round may leave.
    // The first build is a cold one (an empty cache), the second a warm one.
    for (const [version, kind] of [
      ['new', 'cold'],
      ['old', 'warm'],
    ] as const) {
      const count = path.join(dir, `steps-${kind}`);
      const built = await build(version, { count });
      expect(built.code, built.stderr).toBe(0);
      steps[kind] = Number(await readFile(count, 'utf8'));
      expect(steps[kind]).toBeGreaterThan(0);
      hashes.set(version, await treeHash(path.join(dir, 'out')));
    }
    expect(hashes.get('old')).not.toBe(hashes.get('new'));
  }, 120_000);

  const random = delays(SEED);
  // Kill points across a warm build of the other version and a cold one, the cold one falling among
  // the cache's writes too, by either signal, with an empty cache of its own so that the next build
  // is a warm one. Each is a share of that kind of build's steps on the disk as counted above, so
  // that it falls inside the build on any machine, however busy. Three rounds.
  const coldSignal = (random.next().value as number) < 0.5 ? 'SIGKILL' : 'SIGINT';
  const rounds = (['SIGKILL', 'SIGINT', coldSignal] as const).map(
    (signal, i) => [signal, Math.round((random.next().value as number) * 100), i === 2, SEED] as const,
  );

  test.each(rounds)(
    '%s after %i/100 of a build (cold: %s, seed %i): the output is the old one or the complete new one',
    async (signal, percent, cold) => {
      const other = current === 'old' ? 'new' : 'old';
      const step = Math.max(1, Math.round((percent / 100) * (cold ? steps.cold : steps.warm)));
      const stopped = await build(other, { signal, step }, cold ? 'cache-cold' : 'cache');
      expect(stopped.stderr).not.toMatch(/internal error|\n\s+at /);
      // Stopped by the signal itself: the step it was sent at is inside the build.
      expect(stopped.signal).toBe(signal);
      const found = await outputVersion();
      expect([current, other]).toContain(found);
      current = found ?? current;
    },
    120_000,
  );

  test('the next build never waits for the stopped ones, clears what they left, and is whole', async () => {
    const other = current === 'old' ? 'new' : 'old';
    const next = await build(other);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toBe('');
    expect(await besideOutput(dir)).toEqual([]);
    expect(await outputVersion()).toBe(other);
  }, 120_000);
});

describe('builds at once', () => {
  test('four builds into one output and one cache: each succeeds, one at a time, the cache whole', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    const args = ['build', '--out', 'out', '--cache-dir', 'cache'];
    const alone = await run(['build', '--out', 'alone', '--no-cache'], dir);
    expect(alone.code).toBe(0);
    const results = await Promise.all([1, 2, 3, 4].map(() => run(args, dir)));
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      // Sharing the cache at once damaged it: "ENOTEMPTY rmdir cache/digests", "the build cache was damaged".
      expect(result.stderr).not.toMatch(/damaged|ENOTEMPTY|internal error/);
    }
    expect(await treeHash(path.join(dir, 'out'))).toBe(await treeHash(path.join(dir, 'alone')));
    expect(await besideOutput(dir)).toEqual([]);
  });

  test('two versions built into one output at once publish one of them whole, never a mix', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'one'), { recursive: true });
    await changed(path.join(dir, 'one'), path.join(dir, 'two'), 1);
    const versions = new Map<string, string>();
    for (const version of ['one', 'two']) {
      const apart = await run(['build', '--metadata', version, '--out', `apart-${version}`, '--no-cache'], dir);
      expect(apart.code).toBe(0);
      versions.set(await treeHash(path.join(dir, `apart-${version}`)), version);
    }
    // Each build with its own cache, the second started a moment after the first: left 21 files of one
    // version and 12 of the other in 3 of 37 runs, both builds exiting 0.
    for (const [round, gap] of [0, 20, 50, 80, 120, 200].entries()) {
      const first = run(['build', '--metadata', round % 2 ? 'one' : 'two', '--out', 'out', '--cache-dir', 'cache-a'], dir);
      await new Promise((resolve) => setTimeout(resolve, gap));
      const second = run(['build', '--metadata', round % 2 ? 'two' : 'one', '--out', 'out', '--cache-dir', 'cache-b'], dir);
      const ended = await Promise.all([first, second]);
      for (const result of ended) expect(result.code, result.stderr).toBe(0);
      expect(versions.has(await treeHash(path.join(dir, 'out'))), `round ${round}`).toBe(true);
    }
  });

  test('a build waits for the build that holds the output, says so, and goes on when it is done', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    // This test's own process holds the lock, as a running build would.
    const lock = path.join(dir, '.out.lock');
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), since: 'now', token: 't' }));
    const child = spawn(process.execPath, [BIN, 'build', '--out', 'out', '--no-cache'], { cwd: dir });
    let stderr = '';
    const said = new Promise<void>((resolve) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (stderr.includes('\n')) resolve();
      });
    });
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    await said;
    expect(stderr).toBe(
      `archive-schema: waiting for the build with process id ${process.pid} (since now) to finish with the output folder ${path.join(dir, 'out')}; if no build is running, remove ${lock}\n`,
    );
    await rm(lock);
    expect(await ended).toBe(0);
    expect(await besideOutput(dir)).toEqual([]);
  });

  test('a lock left by a build that is gone is broken at once', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const holder = { pid: Number(gone.stdout), host: (await import('node:os')).hostname(), since: 'then', token: 'gone' };
    await mkdir(path.join(dir, 'cache'));
    await writeFile(path.join(dir, 'cache/lock'), JSON.stringify(holder));
    await writeFile(path.join(dir, '.out.lock'), JSON.stringify(holder));
    const result = await run(['build', '--out', 'out', '--cache-dir', 'cache'], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(await besideOutput(dir)).toEqual([]);
  });

  test('a cache inside the output is refused before anything is written (was: "not written by archive-schema")', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    const result = await run(['build', '--out', 'out', '--cache-dir', 'out/cache'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `archive-schema: --cache-dir ${path.join(dir, 'out/cache')} is inside the output folder ${path.join(dir, 'out')}, which every build replaces; keep the cache apart (the default is node_modules/.cache/archive-schema)\n`,
    );
    expect(await readdir(dir)).toEqual(['metadata']);
  });
});

// A file system of its own, private to one shell (a mount namespace), so nothing outlives the test.
const CAN_MOUNT = spawnSync('unshare', ['-rm', 'true']).status === 0;

describe.skipIf(!CAN_MOUNT)('a full disk', () => {
  /**
   * Builds once into a 2 MB file system mounted at `mnt`, fills it to `free` bytes, changes the
   * metadata and builds again; reports the second build and whether the first output is unchanged.
   */
  /**
   * Builds, fills the file system of the output or the cache but `free` bytes, edits a catalogue
   * group and builds again. The fixture by default; the synthetic XS archive, whose output is
   * larger (18 MB, many files written at once), in a file system of 48 MB.
   */
  async function fullDisk(
    where: 'output' | 'cache',
    free: string,
    archive: 'fixture' | 'XS' = 'fixture',
  ): Promise<{ code: number; stderr: string; same: boolean; left: string }> {
    const dir = await tempdir();
    let group = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
    if (archive === 'XS') {
      const files = generateArchive('XS');
      for (const [relative, text] of files) {
        await mkdir(path.dirname(path.join(dir, 'metadata', relative)), { recursive: true });
        await writeFile(path.join(dir, 'metadata', relative), text);
      }
      const edited = [...files].find(
        ([relative, text]) => relative.includes('/catalogues/') && /^description: [A-Za-z][^'"#:\n]*$/m.test(text),
      );
      group = `metadata/${edited?.[0] ?? ''}`;
    } else await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    await mkdir(path.join(dir, 'mnt'));
    const [out, cache] = where === 'output' ? ['mnt/out', 'cache'] : ['out', 'mnt/cache'];
    const build = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} build --out ${out} --cache-dir ${cache}`;
    const script = [
      'set -u',
      `mount -t tmpfs -o size=${archive === 'XS' ? '48m' : '2m'} tmpfs mnt`,
      `${build} > /dev/null || exit 90`,
      // The output's path is a link to its build's folder: followed.
      'sums() { find -L out mnt/out -type f 2>/dev/null | LC_ALL=C sort | xargs sha256sum; }',
      'sums > before',
      `sed -i 's/^description: \\(.*\\)$/description: \\1 Revised./' ${group}`,
      `dd if=/dev/zero of=mnt/fill bs=4k 2> /dev/null; truncate -s -${free} mnt/fill`,
      `${build} > /dev/null 2> stderr; echo $? > code`,
      'rm mnt/fill',
      'sums > after',
      // What is left beside the output but the output, the folder it leads to and its record.
      'ls -A mnt | grep -v -x -e out -e cache -e .out.manifest.json -e "$(readlink mnt/out || echo out)" > left || true',
    ].join('\n');
    const shell = spawnSync('unshare', ['-rm', 'sh', '-c', script], { cwd: dir, encoding: 'utf8' });
    expect(shell.status, shell.stderr).toBe(0);
    const read = (name: string) => readFile(path.join(dir, name), 'utf8');
    return {
      code: Number(await read('code')),
      stderr: await read('stderr'),
      same: (await read('before')) === (await read('after')),
      left: await read('left'),
    };
  }

  test.each([
    [
      'output',
      '0',
      /^archive-schema: cannot lock the output folder .*\/mnt\/out \(ENOSPC: no space left on device, write\); free some space and try again\n$/,
    ],
    [
      'output',
      '8k',
      /^archive-schema: cannot write \S+ of the output: ENOSPC: no space left on device, write; .*\/mnt\/out was left as it was; free some space and build again\n$/,
    ],
    [
      'cache',
      '0',
      /^archive-schema: cannot lock the build cache .*\/mnt\/cache \(ENOSPC: no space left on device, write\); free some space and try again\n$/,
    ],
  ] as const)('under the %s, %s bytes free: exit 2, one sentence of what to do, the output as it was', async (where, free, message) => {
    const result = await fullDisk(where, free);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(2);
    expect(result.same).toBe(true);
    expect(result.left).toBe('');
  });

  test('under the output of the synthetic XS archive, 8k bytes free: exit 2, what to do, the output as it was', async () => {
    const result = await fullDisk('output', '8k', 'XS');
    expect(result.stderr).toMatch(
      /^archive-schema: cannot write \S+ of the output: ENOSPC: no space left on device, write; .*\/mnt\/out was left as it was; free some space and build again\n$/,
    );
    expect(result.code).toBe(2);
    expect(result.same).toBe(true);
    expect(result.left).toBe('');
  });

  test('under the cache with a little room: the build succeeds, what the cache could not keep is only slower next time', async () => {
    const result = await fullDisk('cache', '8k');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.same).toBe(false);
  });
});

// Permissions bind an ordinary user, not root: these run as `nobody`.
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];
const CAN_DROP = spawnSync('setpriv', [...NOBODY, 'true']).status === 0;

describe.skipIf(!CAN_DROP)('an old output that cannot be removed', () => {
  test('the new output goes in place, exit 0, and the old one is said to be left (was: exit 2 after the swap)', async () => {
    const dir = await tempdir();
    await cp(FIXTURE, path.join(dir, 'metadata'), { recursive: true });
    await chmod(dir, 0o777);
    spawnSync('chown', ['-R', '65534:65534', dir]);
    const asNobody = (...args: string[]) =>
      spawnSync('setpriv', [...NOBODY, process.execPath, BIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: dir } });
    const build = () => asNobody('build', '--out', 'out', '--cache-dir', 'cache');
    expect(build().status).toBe(0);
    // A folder of the output made read-only: the folder can be moved aside, but what is in it not removed.
    await chmod(path.join(dir, 'out/api'), 0o555);
    await edit(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml', (t) => t.replace(/^description: (.*)$/m, 'description: $1 Revised.'));
    const second = build();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /^archive-schema: the new output is in place, but the previous one, at \S+\/\.out-build-\S+, could not be removed \(EACCES: permission denied, \S+ '\S+'\); the next build tries again, or remove it yourself\n$/,
    );
    expect(await readFile(path.join(dir, 'out/api/schema/data_type/catalogues.json'), 'utf8')).toContain('Revised.');
    // The next build says so again, until someone removes it.
    const third = build();
    expect(third.status).toBe(0);
    expect(third.stderr).toMatch(/\.out-build-\S+, left by an earlier build, could not be removed \(EACCES: permission denied/);
    for (const old of (await readdir(dir)).filter((n) => n.startsWith('.out-build-'))) await chmod(path.join(dir, old, 'api'), 0o755);
  });
});
