// `npm test`: the type check and every test, at once, once the checkout is reachable for the
// permission tests (letNobodyReach). While the tests run, the type check (`npm run typecheck`'s
// four projects) runs at the lowest priority, so it takes only what the tests leave idle: their
// start, and the moments they wait on the processes, servers and browsers they drive. Once the
// tests end, what is left of it runs at the usual priority: at the lowest, on a machine busy with
// other work, it got about 1% of a core and took half an hour. Its verdict follows the tests'
// report. Arguments are the tests' (vitest run's). Exits with the tests' status, or 1 if they
// passed and the type check did not. With --unit first (`npm run test:unit`), only the tests that
// start no process run, and no type check: a quick loop.

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const VITEST = path.join(path.dirname(require.resolve('vitest/package.json')), require('vitest/package.json').bin.vitest);
// The Node.js code; the tests that drive a browser; the browser's script; the edge function.
const PROJECTS = ['tsconfig.test.json', 'tsconfig.browser-tests.json', 'src/outputs/browser/client/tsconfig.json', 'netlify/tsconfig.json'];

/** A process's exit status once it has ended, with what it printed when `output` is collected. */
function ended(child, output) {
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The priority the type check's processes run at: the lowest while the tests run. */
let priority = 19;
/** The type check's running process, if any. */
let checking;

/** Sets the priority of the type check's processes, this one's and those to come, where allowed. */
function prioritise(value) {
  priority = value;
  if (checking === undefined) return;
  try {
    os.setPriority(checking.pid, value);
  } catch {
    // Not allowed here (raising a priority back needs root): it stays as it is.
  }
}

/** The first project with type errors, and what tsc said; undefined when there are none. */
async function typecheck() {
  for (const project of PROJECTS) {
    const output = [];
    checking = spawn(process.execPath, [TSC, '-p', project], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    prioritise(priority);
    const code = await ended(checking, output);
    checking = undefined;
    if (code !== 0) return { project, text: Buffer.concat(output).toString('utf8') };
  }
  return undefined;
}

/**
 * The permission tests run the command as the unprivileged user nobody (uid 65534), who must be
 * able to reach this checkout. A clone inside a private folder (mktemp -d makes them 0700) gets
 * search permission (o+x: passing through, never listing or reading) on each folder above it that
 * lacks it, and says so. Only as root, where those tests run.
 */
function letNobodyReach(dir) {
  if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) return;
  const nobody = ['--reuid=65534', '--regid=65534', '--clear-groups', 'test', '-x'];
  let folder = path.parse(dir).root;
  for (const part of dir.split(path.sep).filter(Boolean)) {
    folder = path.join(folder, part);
    if (spawnSync('setpriv', [...nobody, folder]).status === 0) continue;
    process.stdout.write(`giving nobody search permission on ${folder} (the permission tests run as nobody)\n`);
    chmodSync(folder, statSync(folder).mode | 0o001);
  }
}

letNobodyReach(root);
const unit = process.argv[2] === '--unit';
const types = unit ? Promise.resolve(undefined) : typecheck();
const args = unit ? ['--project', 'unit', '--project', 'mocking', ...process.argv.slice(3)] : process.argv.slice(2);
const tests = await ended(spawn(process.execPath, [VITEST, 'run', ...args], { cwd: root, stdio: 'inherit' }), []);
if (unit) process.exit(tests);
prioritise(0);
const failed = await types;
if (failed) process.stderr.write(`\nThe type check failed (tsc -p ${failed.project}):\n\n${failed.text}`);
else process.stdout.write(`\nThe type check found no errors (tsc -p ${PROJECTS.join(', tsc -p ')}).\n`);
process.exit(tests !== 0 ? tests : failed ? 1 : 0);
