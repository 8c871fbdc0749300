// `npm run bench:changes -- --size XS|S|M|L [--runs N]`: times `diff` of a synthetic archive, in a
// git repository, against a one-file edit, beside the command's start (`--version`) and the floor.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIZES, generateArchive, isSize } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../../bin/archive-schema.js');
const FLOOR = path.join(HERE, 'floor.js');

/** Milliseconds a command takes in a process of its own. */
function time(args: string[], cwd: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited with ${run.status ?? run.signal}:\n${run.stderr}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** A mid-sized catalogue group: the file a curator's pull request edits. */
function groupToEdit(metadata: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (full.includes(`${path.sep}catalogues${path.sep}`)) files.push(full);
    }
  };
  walk(metadata);
  files.sort((a, b) => statSync(a).size - statSync(b).size || (a < b ? -1 : 1));
  const chosen = files[Math.floor(files.length / 2)];
  if (!chosen) throw new Error(`no catalogue group in ${metadata}`);
  return chosen;
}

/** The archive committed on main, a branch checked out, and one column's unit changed in the working tree. */
function setUp(size: Size, root: string): string {
  const metadata = path.join(root, 'metadata');
  for (const [relative, text] of generateArchive(size)) {
    mkdirSync(path.dirname(path.join(metadata, relative)), { recursive: true });
    writeFileSync(path.join(metadata, relative), text);
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.org', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'archive');
  git('checkout', '-q', '-b', 'edit');
  const file = groupToEdit(metadata);
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/^(\s+unit: )(\S.*)$/m, '$1erg');
  if (edited === text) throw new Error(`no unit to change in ${file}`);
  writeFileSync(file, edited);
  return path.relative(root, file);
}

export function benchChanges(size: Size, runs: number, log: (text: string) => void): void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-changes-'));
  try {
    const edited = setUp(size, root);
    log(`${size} archive (${SIZES[size].columns.toLocaleString('en')} columns), ${edited} edited; ${runs} runs of each, in turn\n`);
    const steps = { start: [] as number[], diff: [] as number[], floor: [] as number[] };
    for (let run = 0; run < runs; run++) {
      steps.start.push(time([CLI, '--version'], root));
      steps.diff.push(time([CLI, 'diff', '--format', 'json'], root));
      steps.floor.push(time([FLOOR, path.join(root, 'metadata'), path.join(root, 'floor.json')], root));
    }
    const [start, diff, floor] = [median(steps.start), median(steps.diff), median(steps.floor)];
    log('| step | median | × start | × floor |\n|---|---:|---:|---:|\n');
    for (const [name, ms] of [
      ['`--version` (start)', start],
      ['`diff` against the edit', diff],
      ['floor (read and parse every file)', floor],
    ] as const)
      log(`| ${name} | ${(ms / 1000).toFixed(2)} s | ${(ms / start).toFixed(2)} | ${(ms / floor).toFixed(2)} |\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function main(argv: readonly string[]): number {
  let size: string | undefined;
  let runs = 5;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--size') size = argv[++i];
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else {
      process.stderr.write(`unknown argument ${argv[i] ?? ''}; usage: npm run bench:changes -- --size XS|S|M|L [--runs N]\n`);
      return 2;
    }
  }
  if (size === undefined || !isSize(size) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: npm run bench:changes -- --size XS|S|M|L [--runs N]\n');
    return 2;
  }
  benchChanges(size, runs, (text) => process.stdout.write(text));
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
