// What the benchmarks share: the synthetic archive of a size, generated once into a folder, where
// `npm run bench`, `bench:serve` and `bench:search` each find and keep it; and a site built from
// metadata with the project's own command.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateArchive } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PROJECT = path.resolve(HERE, '../..');
export const CLI = path.join(PROJECT, 'bin/archive-schema.js');
/** Where the benchmarks' servers listen, and the base URL their sites are built for. */
export const HOST = '127.0.0.1';

/** The synthetic archive of a size, generated once into `root` (it is deterministic). */
export function dataFor(size: Size, root: string): string {
  const dir = path.join(root, `metadata-${size}`);
  const done = path.join(root, `metadata-${size}.done`);
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  for (const [relative, text] of generateArchive(size)) {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  writeFileSync(done, '');
  return dir;
}

/** Builds a site, with a cache of its own in the folder, so a site kept with --dir is rebuilt in a moment. */
export function build(metadata: string, out: string, cache: string, precompress: boolean): void {
  const args = [CLI, 'build', '--metadata', metadata, '--out', out, '--cache-dir', cache, '--base-url', `http://${HOST}`, '--quiet'];
  if (precompress) args.push('--precompress');
  const run = spawnSync(process.execPath, args, { cwd: PROJECT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`${args.slice(1).join(' ')} exited with ${run.status ?? run.signal}:\n${run.stderr}${run.stdout}`);
}

/** Whether this version of the command's build takes `flag` (the benchmarks also measure older ones). */
export function buildHas(flag: string): boolean {
  const help = spawnSync(process.execPath, [CLI, 'build', '--help'], { cwd: PROJECT, encoding: 'utf8' });
  return help.stdout.includes(flag);
}
