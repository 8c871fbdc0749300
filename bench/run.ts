// `npm run bench -- --size XS|S|M|L [--runs N] [--dir DIR]`: times check and the builds, each in a
// process of its own right after a floor (bench/floor.ts), and prints a Markdown table of them.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataFor } from './sites.ts';
import { SIZES, isSize } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../../bin/archive-schema.js');
/** Node's options for the command: none. */
const CLI_NODE: string[] = [];
const FLOOR = path.join(HERE, 'floor.js');
// Prints the process's peak resident memory as it exits, so every step measures its own.
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nBENCH-RSS '+process.resourceUsage().maxRSS+'\\n'))`;

interface Sample {
  ms: number;
  rssKb: number;
}

/** A step and the floor measured right before it, so both ran in the same state of the machine. */
interface Pair {
  floor: Sample;
  step: Sample;
}

type Step = 'check' | 'uncached' | 'cold' | 'catalogue' | 'imaging' | 'again';

/** Where one benchmark reads and writes, and the two files its warm builds edit. */
interface Setup {
  root: string;
  size: Size;
  metadata: string;
  targets: { catalogue: string; imaging: string };
}

/** The folders one run builds into: each cold build's output (and cache) new, never used before. */
function runFolders(setup: Setup, run: number): { uncached: string; out: string; cache: string } {
  const at = (name: string) => path.join(setup.root, `${name}-${setup.size}-run${run}`);
  return { uncached: at('dist-uncached'), out: at('dist'), cache: at('cache') };
}

/** The folders earlier runs built into (this benchmark's, or one's before it in a kept --dir). */
function builtFolders(root: string): string[] {
  return readdirSync(root)
    .filter((name) => /^(dist|dist-uncached|cache)-[A-Z]+(-run\d+)?$/.test(name))
    .map((name) => path.join(root, name));
}

/**
 * How long after removing files a cold build waits. ext4 without a journal (this project's
 * machine's file system) does not give a new file an inode freed in the last 60 seconds: each new
 * inode is found past every such one of its group (fs/ext4/ialloc.c, recently_deleted), so a cold
 * build right after removing the last run's 5,000 files spent a fifth of its processor time in
 * that search. A curator's first build, on a fresh clone, does not.
 */
const RECENTLY_DELETED_MS = 61_000;

function sleep(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function measure(args: string[], cwd: string): Sample {
  // The previous step's writes go to disk first, so no step pays for another's write-back.
  spawnSync('sync');
  const node = args[0] === CLI ? CLI_NODE : [];
  const started = performance.now();
  const run = spawnSync(process.execPath, [...node, '--import', RSS_HOOK, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited with ${run.status ?? run.signal}:\n${run.stderr}\n${run.stdout}`);
  const rss = /BENCH-RSS (\d+)/.exec(run.stderr)?.[1];
  return { ms, rssKb: Number(rss ?? 0) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function yamlBytes(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.yaml')) total += statSync(full).size;
    }
  };
  walk(dir);
  return total;
}

/** One catalogue group and one imaging facility to edit for the warm builds: mid-sized ones. */
function filesToEdit(dir: string): { catalogue: string; imaging: string } {
  const of = (kind: string) => {
    const files: string[] = [];
    for (const survey of readdirSync(dir)) {
      for (const release of readdirSync(path.join(dir, survey)).filter((r) => statSync(path.join(dir, survey, r)).isDirectory())) {
        const folder = path.join(dir, survey, release, kind);
        if (existsSync(folder)) for (const f of readdirSync(folder)) files.push(path.join(folder, f));
      }
    }
    files.sort((a, b) => statSync(a).size - statSync(b).size || (a < b ? -1 : 1));
    const chosen = files[Math.floor(files.length / 2)];
    if (!chosen) throw new Error(`no ${kind} file to edit in ${dir}`);
    return chosen;
  };
  return { catalogue: of('catalogues'), imaging: of('imaging') };
}

/** Changes one description in a file, the way a curator's edit would. */
function edit(file: string, label: string): () => void {
  const original = readFileSync(file, 'utf8');
  // A plain one-line description, so the edit keeps the YAML valid.
  const changed = original.replace(/^(\s+description: [A-Za-z][^'"#:\n]*)$/m, `$1 (revised, ${label})`);
  if (changed === original) throw new Error(`nothing to edit in ${file}`);
  writeFileSync(file, changed);
  return () => writeFileSync(file, original);
}

function largest(dir: string, count: number): { file: string; bytes: number }[] {
  const files: { file: string; bytes: number }[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push({ file: path.relative(dir, full), bytes: statSync(full).size });
    }
  };
  walk(dir);
  return files.sort((a, b) => b.bytes - a.bytes || (a.file < b.file ? -1 : 1)).slice(0, count);
}

/**
 * Measures the floor, then the step. This machine hands memory back to its host and, at some hours,
 * charges for getting it again, so a floor measured once, at another moment, would be cheaper or
 * dearer than the step's conditions; one measured right before it shares them.
 */
function pair(setup: Setup, args: string[]): Pair {
  const json = path.join(setup.root, 'floor.json');
  const floor = measure([FLOOR, setup.metadata, json], setup.root);
  rmSync(json, { force: true });
  return { floor, step: measure(args, setup.root) };
}

// Each warm build edits one file, is measured, and the edit is undone by an unmeasured build. The
// first follows the cold build; the last is a curator's next edit, after other warm builds.
const WARM: [Step, keyof Setup['targets']][] = [
  ['catalogue', 'catalogue'],
  ['imaging', 'imaging'],
  ['again', 'catalogue'],
];

/**
 * One run: every step once, each in a pair with its floor, appended to `pairs`. The cold builds
 * write into folders of their own; the earlier runs' are removed first, and the cold builds wait
 * until no inode freed then is held back (RECENTLY_DELETED_MS). Returns the run's output.
 */
function runOnce(setup: Setup, run: number, pairs: Record<Step, Pair[]>, log: (text: string) => void): string {
  const { metadata, root } = setup;
  const { uncached, out, cache } = runFolders(setup, run);
  const earlier = builtFolders(root);
  for (const folder of earlier) rmSync(folder, { recursive: true, force: true });
  spawnSync('sync');
  const removed = performance.now();
  pairs.check.push(pair(setup, [CLI, 'check', '--metadata', metadata, '--no-cache', '--quiet']));
  if (earlier.length > 0) {
    const wait = RECENTLY_DELETED_MS - (performance.now() - removed);
    if (wait > 0) log(`  waiting ${Math.ceil(wait / 1000)} s, until the inodes of the folders removed are free again ...\n`);
    sleep(wait);
  }
  const build = (folder: string) => [CLI, 'build', '--metadata', metadata, '--out', folder];
  const cached = [...build(out), '--cache-dir', cache];
  pairs.uncached.push(pair(setup, [...build(uncached), '--no-cache']));
  // A curator's first build: no cache yet and no previous output.
  pairs.cold.push(pair(setup, cached));
  for (const [step, kind] of WARM) {
    const restore = edit(setup.targets[kind], `${step} ${run}`);
    try {
      pairs[step].push(pair(setup, cached));
    } finally {
      restore();
    }
    // Back to the unedited state, so each warm build measures one edit only.
    measure(cached, root);
  }
  return out;
}

/** The median of the ith `over` sample divided by the ith `under` one, for each i. */
function medianRatio(over: Sample[], under: Sample[]): number {
  return median(over.map((sample, i) => sample.ms / (under[i]?.ms ?? NaN)));
}

export function bench(size: Size, runs: number, root: string, log: (text: string) => void): void {
  mkdirSync(root, { recursive: true });
  log(`Generating or reusing the synthetic ${size} archive in ${root} ...\n`);
  const metadata = dataFor(size, root);
  const setup: Setup = {
    root,
    size,
    metadata,
    targets: filesToEdit(metadata),
  };
  const pairs: Record<Step, Pair[]> = { check: [], uncached: [], cold: [], catalogue: [], imaging: [], again: [] };
  let last = '';
  for (let run = 1; run <= runs; run++) {
    log(`Run ${run} of ${runs}: check, cold builds and warm builds, each right after a floor ...\n`);
    last = runOnce(setup, run, pairs, log);
  }
  const floors = Object.values(pairs).flatMap((list) => list.map((p) => p.floor));
  const steps = (key: Step) => pairs[key].map((p) => p.step);
  const spec = SIZES[size];
  const mb = yamlBytes(metadata) / 1e6;
  log(
    `\nSize ${size}: ${spec.columns.toLocaleString('en')} columns, ${spec.regions.toLocaleString('en')} regions, ` +
      `${spec.ifs} IFS and ${spec.spectra} spectra products, ${mb.toFixed(1)} MB of YAML; ` +
      `${runs} run${runs === 1 ? '' : 's'} on ${os.availableParallelism()} cores. Wall and peak RSS are medians (the floor's of all ${floors.length} floors); ` +
      `each ratio is the median of a step's ratios to the floor measured right before it.\n\n`,
  );
  log('| step | wall | ratio to floor | YAML MB/s | peak RSS |\n|---|---:|---:|---:|---:|\n');
  const row = (label: string, samples: Sample[], ratio: number) => {
    const ms = median(samples.map((s) => s.ms));
    const rss = median(samples.map((s) => s.rssKb)) / 1024;
    log(`| ${label} | ${(ms / 1000).toFixed(2)} s | ${ratio.toFixed(2)} | ${(mb / (ms / 1000)).toFixed(1)} | ${rss.toFixed(0)} MB |\n`);
  };
  row('floor (read + js-yaml + one JSON.stringify + write, one thread)', floors, 1);
  const labels: [string, Step][] = [
    ['check (no cache)', 'check'],
    ['cold build without the cache (--no-cache, no previous output)', 'uncached'],
    ["cold build with an empty cache (a curator's first build, no previous output)", 'cold'],
    [`warm build after editing one catalogue group (${path.relative(metadata, setup.targets.catalogue)})`, 'catalogue'],
    [`warm build after editing one imaging facility (${path.relative(metadata, setup.targets.imaging)})`, 'imaging'],
    ['warm build after editing the catalogue group again', 'again'],
  ];
  for (const [label, key] of labels)
    row(
      label,
      steps(key),
      medianRatio(
        steps(key),
        pairs[key].map((p) => p.floor),
      ),
    );
  // Against the cold build of the same run, which ran in the same state of the machine.
  for (const [step, label] of [
    ['catalogue', 'the catalogue edit'],
    ['imaging', 'the imaging edit'],
    ['again', 'the second catalogue edit'],
  ] as const) {
    const percent = medianRatio(steps(step), steps('cold')) * 100;
    log(`\nWarm build after ${label}: ${percent.toFixed(1)}% of the cold build with an empty cache.`);
  }
  log('\n\nLargest output files:\n\n| file | size |\n|---|---:|\n');
  for (const { file, bytes } of largest(last, 5)) log(`| ${file} | ${(bytes / 1e6).toFixed(1)} MB |\n`);
}

// The entry point (only when run as a program).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const size = value('--size') ?? 'S';
  const runs = Number(value('--runs') ?? 4);
  const dir = value('--dir');
  if (!isSize(size) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: npm run bench -- [--size XS|S|M|L] [--runs N] [--dir DIR]\n');
    process.exitCode = 2;
  } else {
    // A folder of its own unless one is given, so two benchmarks never share one; a given one is
    // kept, to reuse its archive next time. Resolved, because the steps run with it as their cwd.
    const root = dir ? path.resolve(dir) : mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-'));
    // Ctrl-C stops the step running (it gets the signal too) and so the benchmark, through the
    // `finally` below; the handler only keeps Node from ending before it.
    process.once('SIGINT', () => (process.exitCode = 130));
    try {
      bench(size, runs, root, (t) => process.stdout.write(t));
    } catch (error) {
      process.stderr.write(`bench: ${(error as Error).message}\n`);
      process.exitCode ??= 1;
    } finally {
      if (!dir) rmSync(root, { recursive: true, force: true });
    }
  }
}
