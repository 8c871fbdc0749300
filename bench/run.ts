// `npm run bench -- --size XS|S|M|L [--runs N] [--dir DIR] [--against CHECKOUT]`: times check,
// a cold build and the rebuilds a curator makes (an edit of a catalogue group, the edit undone, an
// edit of an imaging facility), each in a process of its own, and prints a Markdown table. Each
// step is a ratio to a baseline measured in the same run: a floor (bench/floor.ts) right before it,
// or, with --against, the same step of another checkout of the project (its own `npm ci` done),
// the two taking turns, first one then the other; their outputs are then compared byte for byte.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataFor } from './sites.ts';
import { SIZES, isSize } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROJECT = path.resolve(HERE, '../..');
const FLOOR = path.join(HERE, 'floor.js');
// Prints the process's peak resident memory and its processor time (every thread's, user and
// system) as it exits, so every step measures its own: on a machine others share, the processor
// time says what the wall-clock time would be alone.
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nBENCH-RSS '+u.maxRSS+' '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;

/** A version of the command: its checkout, and how its own `npm run build` runs it (Node's options first). */
interface Version {
  label: string;
  checkout: string;
  node: string[];
}

function versionAt(checkout: string, label: string): Version {
  const script =
    (JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { scripts?: { build?: string } }).scripts?.build ?? '';
  const node = /\bnode ((?:--\S+ )*)bin\/archive-schema\.js build/.exec(script)?.[1]?.trim().split(' ').filter(Boolean) ?? [];
  if (!existsSync(path.join(checkout, 'lib'))) throw new Error(`${checkout} has no lib/: run npm ci there first`);
  return { label, checkout, node };
}

interface Sample {
  ms: number;
  rssKb: number;
  /** Processor time of every thread, user and system. */
  cpuMs: number;
}

type Step = 'check' | 'cold' | 'catalogue' | 'undo' | 'imaging';
const STEPS: readonly Step[] = ['check', 'cold', 'catalogue', 'undo', 'imaging'];

function measure(argv: string[], cwd: string): Sample {
  // The previous step's writes go to disk first, so no step pays for another's write-back.
  spawnSync('sync');
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', RSS_HOOK, ...argv], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${argv.join(' ')} exited with ${run.status ?? run.signal}:\n${run.stderr}\n${run.stdout}`);
  const [, rssKb = '0', cpuUs = '0'] = /BENCH-RSS (\d+) (\d+)/.exec(run.stderr) ?? [];
  return { ms, rssKb: Number(rssKb), cpuMs: Number(cpuUs) / 1000 };
}

/** The command line of a version's command. */
function command(version: Version, args: string[]): string[] {
  return [...version.node, path.join(version.checkout, 'bin/archive-schema.js'), ...args];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** One catalogue group and one imaging facility to edit: mid-sized ones. */
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

/** Changes one description in a file, the way a curator's edit would; returns the undo. */
function edit(file: string, label: string): () => void {
  const original = readFileSync(file, 'utf8');
  const changed = original.replace(/^(\s+description: [A-Za-z][^'"#:\n]*)$/m, `$1 (revised, ${label})`);
  if (changed === original) throw new Error(`nothing to edit in ${file}`);
  writeFileSync(file, changed);
  return () => writeFileSync(file, original);
}

interface Setup {
  root: string;
  metadata: string;
  targets: { catalogue: string; imaging: string };
  /** Where a version builds in a run. */
  folders: (version: Version, run: number) => { out: string; cache: string };
}

/** Samples of every step of every version, by version label. */
type Samples = Map<string, Record<Step, Sample[]>>;

/** One version's steps in one run: check, then a cold build and the rebuilds into its own output and cache. */
function runVersion(
  setup: Setup,
  version: Version,
  run: number,
  baseline: ((step: Step) => void) | undefined,
  samples: Samples,
  onBuilt: (step: Step) => void,
): void {
  const { out, cache } = setup.folders(version, run);
  const at = samples.get(version.label) ?? (Object.fromEntries(STEPS.map((s) => [s, [] as Sample[]])) as Record<Step, Sample[]>);
  samples.set(version.label, at);
  const step = (name: Step, args: string[]) => {
    baseline?.(name);
    at[name].push(measure(command(version, args), setup.root));
    if (name !== 'check') onBuilt(name);
  };
  const build = ['build', '--metadata', setup.metadata, '--out', out, '--cache-dir', cache, '--quiet'];
  step('check', ['check', '--metadata', setup.metadata, '--no-cache', '--quiet']);
  step('cold', build);
  const undoCatalogue = edit(setup.targets.catalogue, `catalogue ${run}`);
  step('catalogue', build);
  undoCatalogue();
  step('undo', build);
  const undoImaging = edit(setup.targets.imaging, `imaging ${run}`);
  try {
    step('imaging', build);
  } finally {
    undoImaging();
  }
  // Back to the unedited metadata, unmeasured, for the next run's comparisons.
  measure(command(version, build), setup.root);
}

/** Every file of an output, by path, with its bytes' hash. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else
        files.set(
          relative,
          createHash('sha256')
            .update(readFileSync(path.join(dir, relative)))
            .digest('hex'),
        );
    }
  };
  walk('');
  return files;
}

/** The members of a zip, by name, with their bytes' hash (read by Python's zipfile). */
function zipMembers(zip: string): Map<string, string> {
  const script =
    'import hashlib,json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))';
  const run = spawnSync('python3', ['-c', script, zip], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python3 could not read ${zip}: ${run.stderr}`);
  return new Map(Object.entries(JSON.parse(run.stdout) as Record<string, string>));
}

const MARKER = '.archive-schema-output';
const ZIP = 'download/browser.zip';

/**
 * Where two outputs differ, but for what may: the marker's build id, and the zip's bytes (its members
 * must hold the same bytes), with the lines of the checksum list and the download page that give
 * the zip's size and checksum. Empty when they agree.
 */
export function differences(one: string, other: string): string[] {
  const a = filesOf(one);
  const b = filesOf(other);
  const found: string[] = [];
  for (const file of new Set([...a.keys(), ...b.keys()])) {
    if (file === MARKER || a.get(file) === b.get(file)) continue;
    if (!a.has(file) || !b.has(file)) found.push(`${file}: only in ${a.has(file) ? one : other}`);
    else if (file === ZIP) {
      const [x, y] = [zipMembers(path.join(one, file)), zipMembers(path.join(other, file))];
      if (JSON.stringify([...x]) !== JSON.stringify([...y])) found.push(`${file}: its members differ`);
    } else if (file === 'download/SHA256SUMS' || file === 'download/index.html') {
      const lines = (dir: string) =>
        readFileSync(path.join(dir, file), 'utf8')
          .split('\n')
          // The zip's own line, and in the list the page's, which gives the zip's size and checksum.
          .filter((line) => !line.includes('browser.zip') && !(file === 'download/SHA256SUMS' && line.endsWith('  index.html')));
      if (lines(one).join('\n') !== lines(other).join('\n')) found.push(`${file}: differs beyond the zip's lines`);
    } else found.push(`${file}: differs`);
  }
  return found.sort();
}

export function bench(size: Size, runs: number, root: string, against: string | undefined, log: (text: string) => void): void {
  mkdirSync(root, { recursive: true });
  log(`Generating or reusing the synthetic ${size} archive in ${root} ...\n`);
  const metadata = dataFor(size, root);
  const self = versionAt(PROJECT, 'this checkout');
  const other = against ? versionAt(path.resolve(against), path.basename(path.resolve(against))) : undefined;
  const setup: Setup = {
    root,
    metadata,
    targets: filesToEdit(metadata),
    folders: (version, run) => {
      const name = version === self ? 'this' : 'against';
      return { out: path.join(root, `out-${name}-${size}-run${run}`), cache: path.join(root, `cache-${name}-${size}-run${run}`) };
    },
  };
  const samples: Samples = new Map();
  const floors: Record<Step, Sample[]> = { check: [], cold: [], catalogue: [], undo: [], imaging: [] };
  const floorJson = path.join(root, 'floor.json');
  const floor = (step: Step) => {
    floors[step].push(measure([FLOOR, metadata, floorJson], root));
    rmSync(floorJson, { force: true });
  };
  const mismatches: string[] = [];
  for (let run = 1; run <= runs; run++) {
    // Each run's builds start with no output and no cache: the earlier runs' go first.
    for (const name of readdirSync(root))
      if (/^(out|cache)-|^\.out-/.test(name)) rmSync(path.join(root, name), { recursive: true, force: true });
    const order = other ? (run % 2 === 1 ? [self, other] : [other, self]) : [self];
    log(`Run ${run} of ${runs}: ${order.map((v) => v.label).join(', then ')} ...\n`);
    // With another version, its outputs are compared step by step: each step's second build waits for the first's.
    const outputs = new Map<Step, string[]>();
    for (const version of order) {
      runVersion(setup, version, run, other ? undefined : floor, samples, (step) => {
        if (!other || step === 'imaging') return;
        const copy = path.join(root, `compare-${step}-${version === self ? 'this' : 'against'}`);
        rmSync(copy, { recursive: true, force: true });
        spawnSync('cp', ['-rL', setup.folders(version, run).out, copy]);
        outputs.set(step, [...(outputs.get(step) ?? []), copy]);
      });
    }
    for (const [step, [one, two]] of outputs) {
      if (!one || !two) continue;
      for (const found of differences(one, two)) mismatches.push(`run ${run}, ${step}: ${found}`);
      rmSync(one, { recursive: true, force: true });
      rmSync(two, { recursive: true, force: true });
    }
  }
  report(size, runs, metadata, self, other, samples, floors, mismatches, log);
}

function report(
  size: Size,
  runs: number,
  metadata: string,
  self: Version,
  other: Version | undefined,
  samples: Samples,
  floors: Record<Step, Sample[]>,
  mismatches: readonly string[],
  log: (text: string) => void,
): void {
  const spec = SIZES[size];
  const labels: Record<Step, string> = {
    check: 'check (no cache)',
    cold: "cold build (empty cache, no previous output: a curator's first build)",
    catalogue: 'rebuild after editing one catalogue group',
    undo: 'rebuild after undoing that edit',
    imaging: 'rebuild after editing one imaging facility',
  };
  const seconds = (list: Sample[]) => `${(median(list.map((s) => s.ms)) / 1000).toFixed(2)} s`;
  const rss = (list: Sample[]) => `${(median(list.map((s) => s.rssKb)) / 1024).toFixed(0)} MB`;
  const cpu = (list: Sample[]) => `${(median(list.map((s) => s.cpuMs)) / 1000).toFixed(2)} s`;
  const ratio = (over: Sample[], under: Sample[], of: 'ms' | 'cpuMs' = 'ms') =>
    median(over.map((s, i) => s[of] / (under[i]?.[of] ?? NaN))).toFixed(2);
  const mine = samples.get(self.label);
  if (!mine) return;
  log(
    `\nSize ${size}: ${spec.columns.toLocaleString('en')} columns, ${spec.regions.toLocaleString('en')} regions, ${spec.ifs} IFS and ${spec.spectra} spectra products ` +
      `(${path.basename(metadata)}); ${runs} run${runs === 1 ? '' : 's'} on ${os.availableParallelism()} cores. Times and peak RSS are medians; each ratio is ` +
      (other
        ? `the median of the runs' ratios of this checkout's step to ${other.label}'s, the two taking turns.\n\n`
        : `the median of a step's ratios to the floor measured right before it.\n\n`),
  );
  if (other) {
    const theirs = samples.get(other.label);
    log(
      `| step | this checkout | ${other.label} | ratio | processor, this | processor, ${other.label} | ratio | peak RSS, this | peak RSS, ${other.label} |\n` +
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n',
    );
    for (const step of STEPS) {
      const a = mine[step];
      const b = theirs?.[step] ?? [];
      log(
        `| ${labels[step]} | ${seconds(a)} | ${seconds(b)} | ${ratio(a, b)} | ${cpu(a)} | ${cpu(b)} | ${ratio(a, b, 'cpuMs')} | ${rss(a)} | ${rss(b)} |\n`,
      );
    }
    log(
      mismatches.length === 0
        ? `\nThe two outputs are the same, but for the marker's build id and the zip's bytes (whose members are the same), after the cold build, the edit and its undo, in every run.\n`
        : `\nThe outputs differ:\n${mismatches.map((m) => `- ${m}`).join('\n')}\n`,
    );
    return;
  }
  const all = Object.values(floors).flat();
  log('| step | wall | ratio to floor | processor | ratio to floor | peak RSS |\n|---|---:|---:|---:|---:|---:|\n');
  log(`| floor (read + js-yaml + one JSON.stringify + write, one thread) | ${seconds(all)} | 1.00 | ${cpu(all)} | 1.00 | ${rss(all)} |\n`);
  for (const step of STEPS) {
    const [a, b] = [mine[step], floors[step]];
    log(`| ${labels[step]} | ${seconds(a)} | ${ratio(a, b)} | ${cpu(a)} | ${ratio(a, b, 'cpuMs')} | ${rss(a)} |\n`);
  }
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
  const against = value('--against');
  if (!isSize(size) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: npm run bench -- [--size XS|S|M|L] [--runs N] [--dir DIR] [--against CHECKOUT]\n');
    process.exitCode = 2;
  } else {
    // A folder of its own unless one is given, so two benchmarks never share one; a given one is
    // kept, to reuse its archive next time. Resolved, because the steps run with it as their cwd.
    const root = dir ? path.resolve(dir) : mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-'));
    // Ctrl-C stops the step running (it gets the signal too) and so the benchmark, through the
    // `finally` below; the handler only keeps Node from ending before it.
    process.once('SIGINT', () => (process.exitCode = 130));
    try {
      bench(size, runs, root, against, (t) => process.stdout.write(t));
    } catch (error) {
      process.stderr.write(`bench: ${(error as Error).message}\n`);
      process.exitCode ??= 1;
    } finally {
      if (!dir) rmSync(root, { recursive: true, force: true });
    }
  }
}
