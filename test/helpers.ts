// Shared test helpers: temporary project folders from object literals, an in-process CLI run,
// and a raw HTTP client that sends exactly the method and path it is given.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, chown, cp, mkdir, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseAllHeaders } from '@netlify/headers-parser';
import { expect } from 'vitest';
import { generateArchive } from '../bench/synthetic.ts';
import type { Size } from '../bench/synthetic.ts';
import { run } from '../src/cli.ts';

export const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/archive');
export const PROJECT = path.resolve(import.meta.dirname, '..');
/** The metadata bundled with the project, for `testdir({}, BUNDLED)`. */
export const BUNDLED = path.join(PROJECT, 'metadata');

const made: string[] = [];

/**
 * Removes the temporary folders made since it last ran. Run after each test file by setup.ts: a hook
 * registered here would run after the first file of each worker only, as the files of a worker share
 * this module (isolate: false), and every later file's folders would be left behind.
 */
export async function removeTempdirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A fresh temporary folder, removed after the test file. */
export async function tempdir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'archive-schema-test-'));
  made.push(dir);
  return dir;
}

/**
 * A temporary project with `metadata/` copied from the fixture archive, then changed by `files`
 * (path under metadata/ → new content, or null to delete the file).
 */
export async function testdir(files: Record<string, string | null> = {}, base: string | null = FIXTURE): Promise<string> {
  const dir = await tempdir();
  const metadata = path.join(dir, 'metadata');
  if (base) await cp(base, metadata, { recursive: true });
  else await mkdir(metadata);
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(metadata, relative);
    if (content === null) {
      await rm(target, { force: true });
    } else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
  return dir;
}

/** A temporary project whose `metadata/` is a synthetic archive (bench/synthetic.ts), S unless said. */
export async function syntheticdir(size: Size = 'S'): Promise<string> {
  return testdir(Object.fromEntries(generateArchive(size)), null);
}

/**
 * A temporary project (testdir) that is a git repository on `main`, its metadata committed as
 * the base of a change; `git` runs a git command in it and returns what it printed.
 */
export async function gitdir(
  files: Record<string, string | null> = {},
  base: string | null = FIXTURE,
): Promise<{ dir: string; git: (...args: string[]) => string }> {
  const dir = await testdir(files, base);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Curator', '-c', 'user.email=curator@example.org', ...args], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  return { dir, git };
}

/** Changes a file of a project in place. */
export async function edit(dir: string, file: string, change: (text: string) => string): Promise<void> {
  const target = path.join(dir, file);
  await writeFile(target, change(await readFile(target, 'utf8')));
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process, in `cwd`, with the given environment. */
export async function cli(argv: string[], cwd: string, env: Record<string, string | undefined> = {}, progress = false): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
    cwd,
    progress,
  });
  return { code, stdout, stderr };
}

/** Every file below a folder with its bytes, for comparing whole trees. */
export async function snapshotTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (sub: string) => {
    for (const entry of (await readdir(path.join(dir, sub), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) await walk(rel);
      // A link as where it points (an output's path is a link to its build's folder).
      else if (entry.isSymbolicLink()) out.set(rel, Buffer.from(`-> ${await readlink(path.join(dir, rel))}`));
      else out.set(rel, await readFile(path.join(dir, rel)));
    }
  };
  await walk('');
  return out;
}

/** Two snapshots (snapshotTree) hold the same files, with the same bytes. */
export function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [file, bytes] of expected) expect(actual.get(file)?.equals(bytes), file).toBe(true);
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  bytes: Buffer;
}

/** One HTTP request with exactly this method and path (no normalisation, any method). */
export function http(base: string, method: string, target: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: target, headers: { Connection: 'close', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const flat: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
          resolve({ status: res.statusCode ?? 0, headers: flat, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** How many files an output folder holds, its marker left out: what a build says it built. */
export async function outputCount(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !(e.parentPath === dir && e.name.startsWith('.'))).length;
}

/**
 * `archive-schema serve --dir <dist> --port 0` as a child process, once it says where it listens:
 * its origin (http://127.0.0.1:<port>), and the process to stop when done.
 */
export async function serveSite(dist: string): Promise<{ origin: string; server: ChildProcess }> {
  const server = spawn(process.execPath, [path.join(PROJECT, 'bin/archive-schema.js'), 'serve', '--dir', dist, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/[^ ]+) /.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    server.stderr.on('data', (chunk: Buffer) => reject(new Error(chunk.toString())));
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { origin, server };
}

/** Whether the nginx tests may be left out: only when asked for, never because nginx is missing. */
export const SKIP_NGINX = process.env.ARCHIVE_SCHEMA_SKIP_NGINX === '1';

/**
 * A real nginx over a built site, with the configuration `archive-schema nginx --standalone`
 * prints, on a free loopback port, its prefix in a temporary folder. Run as the unprivileged user
 * nobody when the tests run as root, as a user who is not root would run it.
 */
export async function nginxSite(dist: string): Promise<{ origin: string; stop: () => Promise<void> }> {
  const prefix = await tempdir();
  const root = process.getuid?.() === 0;
  if (root) {
    // nobody reads the site and writes under the prefix; the temporary folders above are private.
    for (let dir = dist; dir !== path.dirname(dir) && dir.startsWith(os.tmpdir()); dir = path.dirname(dir)) await chmod(dir, 0o755);
    await chown(prefix, 65534, 65534);
  }
  const command = root ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'nginx'] : ['nginx'];
  const [bin = 'nginx', ...args] = command;
  const config = path.join(prefix, 'nginx.conf');
  // nginx takes its port from the configuration, not from the system: the port found free may be
  // taken by another test before nginx binds it, and then nginx is started again on another.
  let port: number;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const printed = await runNode(['bin/archive-schema.js', 'nginx', '--root', dist, '--listen', `127.0.0.1:${port}`, '--standalone']);
    await writeFile(config, printed);
    const started = spawnSync(bin, [...args, '-p', prefix, '-c', config], { encoding: 'utf8' });
    if (started.status === 0) break;
    if (attempt === 5 || !started.stderr.includes('Address already in use')) throw new Error(`nginx did not start: ${started.stderr}`);
  }
  const pid = Number((await readFile(path.join(prefix, 'nginx.pid'), 'utf8')).trim());
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        // already gone
      }
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(pid, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function runNode(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`archive-schema ${args.join(' ')}: ${err}`))));
  });
}

/** A zip's members unpacked into a folder by another reader than the one that wrote it: Debian's Python. */
export function unpackZip(zip: string, into: string): void {
  const run = spawnSync(
    '/usr/bin/python3',
    ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, into],
    {
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
}

/**
 * What sits beside an output besides the output itself: its path `name` (a link), the folder it
 * leads to and the record of its build are left out; what is left is what stopped or failed
 * builds left behind.
 */
export async function besideOutput(dir: string, name = 'dist'): Promise<string[]> {
  const live = await readlink(path.join(dir, name)).catch(() => undefined);
  return (await readdir(dir))
    .filter((entry) => entry.includes(name) && entry !== name && entry !== live && entry !== `.${name}.manifest.json`)
    .sort();
}

/**
 * The value of the header `name` that netlify.toml's rules give a request for `target`, as Netlify's
 * own parser reads the file (the last matching rule's); undefined where none gives it. Fails when the
 * parser reports an error.
 */
export async function netlifyHeader(name: string): Promise<(target: string) => string | undefined> {
  const { headers, errors } = await parseAllHeaders({
    headersFiles: [],
    netlifyConfigPath: path.join(PROJECT, 'netlify.toml'),
    configHeaders: [],
    minimal: false,
  });
  expect(errors).toEqual([]);
  return (target) => headers.flatMap((h) => ('forRegExp' in h && h.forRegExp.test(target) ? [h.values[name]] : [])).at(-1);
}
