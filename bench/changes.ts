// `npm run bench:changes -- --size XS|S|M|L [--runs N] [--records N]`: times `diff` of a synthetic
// archive, in a git repository, against a one-file edit, beside the command's start (`--version`) and
// the floor; then a rebuild after a one-file edit of the same archive with N change records (1,000
// unless said) and without, in turns in the same run, and their ratio (#33: at most 1.05).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump, load } from 'js-yaml';
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

// ---- A rebuild with change records and without ---------------------------------------------------

/** A project of the archive's files, and its change records when given; built once, so the next build is a rebuild. */
function project(root: string, files: ReadonlyMap<string, string>, records?: ReadonlyMap<string, string>): string {
  mkdirSync(root, { recursive: true });
  for (const [relative, text] of files) {
    mkdirSync(path.dirname(path.join(root, 'metadata', relative)), { recursive: true });
    writeFileSync(path.join(root, 'metadata', relative), text);
  }
  if (records) {
    mkdirSync(path.join(root, 'changes'));
    for (const [name, text] of records) writeFileSync(path.join(root, 'changes', name), text);
  }
  time([CLI, 'build', ...BUILD], root);
  return root;
}

const BUILD = ['--out', 'dist', '--base-url', 'https://schema.example.org'];

/** Edits one description of a mid-sized group (a different text each run), and times the rebuild. */
function rebuild(root: string, run: number): number {
  const file = groupToEdit(path.join(root, 'metadata'));
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/^(\s+description: ).*$/m, `$1Edited for run ${run}`);
  if (edited === text) throw new Error(`no description to edit in ${file}`);
  writeFileSync(file, edited);
  return time([CLI, 'build', ...BUILD], root);
}

/**
 * The rebuild after a one-file edit, with `count` change records and without, `runs` times each in
 * turn (so both see the same machine), and the ratio of their medians.
 */
export function benchRebuild(size: Size, runs: number, count: number, log: (text: string) => void): { ratio: number } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-records-'));
  try {
    const files = generateArchive(size);
    const records = syntheticRecords(files, count);
    const without = project(path.join(root, 'without'), files);
    const withRecords = project(path.join(root, 'with'), files, records);
    const times = { without: [] as number[], with: [] as number[] };
    for (let run = 0; run < runs; run++) {
      times.without.push(rebuild(without, run));
      times.with.push(rebuild(withRecords, run));
    }
    const [a, b] = [median(times.without), median(times.with)];
    const ratio = b / a;
    log(
      `\nRebuild after a one-file edit, ${size} archive, ${runs} runs of each, in turn\n` +
        '| build | median |\n|---|---:|\n' +
        `| without records | ${(a / 1000).toFixed(2)} s |\n` +
        `| with ${count.toLocaleString('en')} records | ${(b / 1000).toFixed(2)} s |\n` +
        `\nratio: ${ratio.toFixed(3)} (at most 1.05)\n`,
    );
    return { ratio };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const USAGE = 'usage: npm run bench:changes -- --size XS|S|M|L [--runs N] [--records N]\n';

function main(argv: readonly string[]): number {
  let size: string | undefined;
  let runs = 5;
  let records = 1000;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--size') size = argv[++i];
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--records') records = Number(argv[++i]);
    else {
      process.stderr.write(`unknown argument ${argv[i] ?? ''}; ${USAGE}`);
      return 2;
    }
  }
  if (size === undefined || !isSize(size) || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(records) || records < 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const log = (text: string) => process.stdout.write(text);
  benchChanges(size, runs, log);
  benchRebuild(size, runs, records, log);
  return 0;
}

// ---- Change records for a synthetic archive ------------------------------------------------------

/** A catalogue table of the archive, as a record names it. */
interface TableFacts {
  survey: number;
  release: string;
  path: string;
  table: {
    id: number;
    name: string;
    description?: string;
    columns: { id: number; name: string; description?: string; ucd?: string; unit?: string }[];
  };
}

/** Every catalogue table of an archive (metadata-relative path → YAML text), in the order of its files. */
function tablesOf(files: ReadonlyMap<string, string>): TableFacts[] {
  const surveys = new Map<string, number>();
  for (const [relative, text] of files)
    if (/^[^/]+\/survey\.yaml$/.test(relative)) surveys.set(relative.split('/')[0] ?? '', (load(text) as { id: number }).id);
  const tables: TableFacts[] = [];
  for (const relative of [...files.keys()].sort()) {
    const [survey = '', release = '', folder] = relative.split('/');
    if (folder !== 'catalogues') continue;
    const group = load(files.get(relative) ?? '') as { name: string; tables: TableFacts['table'][] };
    for (const table of group.tables)
      tables.push({ survey: surveys.get(survey) ?? 0, release, path: `${survey}/${release}/${group.name}/${table.name}`, table });
  }
  return tables;
}

/**
 * `count` change records that agree with the archive (`check` finds nothing wrong with them), one
 * in ten adding a whole table with its columns, the others changing a few columns' descriptions,
 * some a unit too, as a correction, and some removing a column that is gone: file name → YAML text.
 * Dated a day apart from 2020-01-01, the same every run.
 */
export function syntheticRecords(files: ReadonlyMap<string, string>, count: number): Map<string, string> {
  const tables = tablesOf(files);
  const added = tables.slice(0, Math.ceil(count / 10));
  const changed = tables.slice(added.length);
  const columns = changed.flatMap((t) => t.table.columns.map((column) => ({ ...t, column })));
  if (columns.length < count * 3) throw new Error(`the archive has too few columns for ${count} records`);
  const records = new Map<string, string>();
  let nextColumn = 0;
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().replace('.000Z', 'Z');
    const base = (t: TableFacts) => ({ survey: t.survey, release: t.release });
    let entries: Record<string, unknown>[];
    let summary: string;
    const table = added[i / 10];
    if (i % 10 === 0 && table) {
      summary = `${table.table.name} added, with its ${table.table.columns.length} columns`;
      entries = [
        {
          change: 'added',
          kind: 'CatalogueTable',
          id: table.table.id,
          ...base(table),
          path: table.path,
          new: { name: table.table.name, description: table.table.description ?? '' },
        },
        ...table.table.columns.map((c) => ({
          change: 'added',
          kind: 'CatalogueColumn',
          id: c.id,
          ...base(table),
          path: `${table.path}/${c.name}`,
          new: { name: c.name, description: c.description ?? '', ucd: c.ucd ?? '-', unit: c.unit ?? '-' },
        })),
      ];
    } else {
      const picked = columns.slice(nextColumn, nextColumn + 3);
      nextColumn += 3;
      summary = `Clearer descriptions of ${picked.map((p) => p.column.name).join(', ')}`;
      entries = picked.map((p, k) => ({
        change: 'changed',
        kind: 'CatalogueColumn',
        id: p.column.id,
        ...base(p),
        path: `${p.path}/${p.column.name}`,
        old: { description: `Earlier wording ${i}`, ...(k === 0 && i % 7 === 0 ? { unit: 'erg' } : {}) },
        new: { description: p.column.description ?? '', ...(k === 0 && i % 7 === 0 ? { unit: p.column.unit ?? '-' } : {}) },
        ...(k === 0 && i % 7 === 0 ? { correction: { reason: `The unit was mistyped in record ${i}.` } } : {}),
      }));
      const first = picked[0];
      if (i % 10 === 5 && first)
        entries.push({
          change: 'removed',
          kind: 'CatalogueColumn',
          id: 50_000_000 + i,
          ...base(first),
          path: `${first.path}/gone_${i}`,
          old: { name: `gone_${i}`, description: 'A column no one used' },
        });
    }
    const name = `${date.slice(0, 10)}-record-${String(i).padStart(4, '0')}.yaml`;
    records.set(name, dump({ date, summary, changes: entries }, { lineWidth: -1 }));
  }
  return records;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
