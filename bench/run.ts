// `npm run bench -- --size S|M|L`: measures the build against the floor (reading and parsing the
// same YAML with js-yaml, serialising and writing it once) in the same run, each step in a process
// of its own, one after another, and prints the medians: wall time, ratio to the floor, YAML
// throughput and peak memory; then the largest output files.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIZES, generateArchive } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../../bin/archive-schema.js');
const FLOOR = path.join(HERE, 'floor.js');
// Prints the process's peak resident memory as it exits, so every step measures its own.
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\nBENCH-RSS '+process.resourceUsage().maxRSS+'\\n'))`;

interface Sample {
  ms: number;
  rssKb: number;
}

function measure(args: string[], cwd: string): Sample {
  // The previous step's writes go to disk first, so no step pays for another's write-back.
  spawnSync('sync');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', RSS_HOOK, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited with ${run.status}:\n${run.stderr}\n${run.stdout}`);
  const rss = /BENCH-RSS (\d+)/.exec(run.stderr)?.[1];
  return { ms, rssKb: Number(rss ?? 0) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The synthetic archive of a size, generated once into the bench folder (it is deterministic). */
function dataFor(size: Size, root: string): string {
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

export function bench(size: Size, runs: number, root: string, log: (text: string) => void): void {
  mkdirSync(root, { recursive: true });
  log(`Generating or reusing the synthetic ${size} archive in ${root} ...\n`);
  const metadata = dataFor(size, root);
  const bytes = yamlBytes(metadata);
  const targets = filesToEdit(metadata);
  const out = path.join(root, `dist-${size}`);
  const cache = path.join(root, `cache-${size}`);
  const build = ['build', '--metadata', metadata, '--out', out, '--cache-dir', cache];
  const samples: Record<string, Sample[]> = { floor: [], check: [], cold: [], catalogue: [], imaging: [], again: [] };
  // Each warm build edits one file, is measured, and the edit is undone by an unmeasured build. The
  // first follows the cold build; the last is a curator's next edit, after other warm builds.
  const warm: [string, keyof typeof targets][] = [['catalogue', 'catalogue'], ['imaging', 'imaging'], ['again', 'catalogue']];
  for (let run = 1; run <= runs; run++) {
    log(`Run ${run} of ${runs}: floor, check, cold build, warm builds ...\n`);
    samples.floor?.push(measure([FLOOR, metadata, path.join(root, 'floor.json')], root));
    rmSync(path.join(root, 'floor.json'), { force: true });
    samples.check?.push(measure([CLI, 'check', '--metadata', metadata, '--no-cache', '--quiet'], root));
    rmSync(cache, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    samples.cold?.push(measure([CLI, ...build], root));
    for (const [step, kind] of warm) {
      const restore = edit(targets[kind], `${step} ${run}`);
      try {
        samples[step]?.push(measure([CLI, ...build], root));
      } finally {
        restore();
      }
      // Back to the unedited state, so each warm build measures one edit only.
      measure([CLI, ...build], root);
    }
  }
  const floorMs = median(samples.floor?.map((s) => s.ms) ?? []);
  const spec = SIZES[size];
  const rows: [string, string][] = [
    ['floor (read + js-yaml + one JSON.stringify + write, one thread)', 'floor'],
    ['check (no cache)', 'check'],
    ['cold build (empty cache, no previous output)', 'cold'],
    [`warm build after editing one catalogue group (${path.relative(metadata, targets.catalogue)})`, 'catalogue'],
    [`warm build after editing one imaging facility (${path.relative(metadata, targets.imaging)})`, 'imaging'],
    ['warm build after editing the catalogue group again', 'again'],
  ];
  const mb = bytes / 1e6;
  log(`\nSize ${size}: ${spec.columns.toLocaleString('en')} columns, ${spec.regions.toLocaleString('en')} regions, ${mb.toFixed(1)} MB of YAML; median of ${runs} run${runs === 1 ? '' : 's'} on ${os.availableParallelism()} cores.\n\n`);
  log('| step | wall | ratio to floor | YAML MB/s | peak RSS |\n|---|---:|---:|---:|---:|\n');
  for (const [label, key] of rows) {
    const list = samples[key] ?? [];
    const ms = median(list.map((s) => s.ms));
    const rss = median(list.map((s) => s.rssKb)) / 1024;
    log(`| ${label} | ${(ms / 1000).toFixed(2)} s | ${(ms / floorMs).toFixed(2)} | ${(mb / (ms / 1000)).toFixed(1)} | ${rss.toFixed(0)} MB |\n`);
  }
  const cold = median(samples.cold?.map((s) => s.ms) ?? []);
  for (const [step, label] of [['catalogue', 'the catalogue edit'], ['imaging', 'the imaging edit'], ['again', 'the second catalogue edit']] as const) {
    const ms = median(samples[step]?.map((s) => s.ms) ?? []);
    log(`\nWarm build after ${label}: ${((ms / cold) * 100).toFixed(0)}% of the cold build.`);
  }
  log('\n\nLargest output files:\n\n| file | size |\n|---|---:|\n');
  for (const { file, bytes: size2 } of largest(out, 5)) log(`| ${file} | ${(size2 / 1e6).toFixed(1)} MB |\n`);
}

// The entry point (only when run as a program).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const size = (value('--size') ?? 'S') as Size;
  const runs = Number(value('--runs') ?? 3);
  if (!(size in SIZES) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: npm run bench -- [--size S|M|L] [--runs N] [--dir DIR]\n');
    process.exitCode = 2;
  } else {
    bench(size, runs, value('--dir') ?? path.join(os.tmpdir(), 'archive-schema-bench'), (t) => process.stdout.write(t));
  }
}
