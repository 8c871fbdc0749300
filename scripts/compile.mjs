// Compiles src/ into lib/, and the schemas' validators ahead of time (src/validate.ts), when
// something they are made from has changed since the last compile, and does nothing otherwise.
// The npm scripts run it before every command: tsc takes about 1.5 s even when there is nothing to
// do, far longer than a warm build. With --force (`npm run compile`, and `npm ci` through the
// prepare script) it always compiles.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Touched after each successful compile; its time is the compile's. Its text never changes: the
 * build cache's fingerprint reads every file in lib/.
 */
const STAMP = path.join(root, 'lib', '.compiled');

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The first input newer than the last compile, if any. */
function changedSince(time) {
  const inputs = ['tsconfig.json', 'package.json'].map((f) => path.join(root, f));
  // Folders too: a folder's time moves when a file in it is added, removed or renamed.
  const walk = (dir) => {
    inputs.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else inputs.push(full);
    }
  };
  walk(path.join(root, 'src'));
  walk(path.join(root, 'schemas'));
  return inputs.find((file) => (mtime(file) ?? Infinity) > time);
}

const last = process.argv.includes('--force') ? undefined : mtime(STAMP);
if (last === undefined || changedSince(last) !== undefined) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // The stamp's time is taken before compiling, so an edit made while tsc runs is not missed.
  const started = new Date();
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  const { writePrecompiledValidators } = await import(pathToFileURL(path.join(root, 'lib', 'validate.js')).href);
  writePrecompiledValidators();
  writeFileSync(STAMP, 'lib/ was compiled from src/ at this file\'s modification time (scripts/compile.mjs).\n');
  utimesSync(STAMP, started, started);
}
