// The orchestrator, reading like the pipeline: scan the metadata folder → digest each file (parse,
// validate, render its text; from the cache when unchanged) → assemble the archive → run the rules
// across files → plan every output → write the plans into the output folder, or, for a dry run,
// compare them with it. Problems in the metadata come back as diagnostics; trouble that is not the
// metadata's fault (a missing folder, an unwritable disk, a bad option) is thrown.
// `reference: true` takes the straightforward path instead (position-keeping parser, whole objects
// serialised, everything written), which the fast path must match byte for byte.

import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { checksumsOf } from './destination/checksums.ts';
import { decide } from './destination/decide.ts';
import type { BuildInputs, Decision } from './destination/decide.ts';
import { writeOutput } from './destination/execute.ts';
import type { WriteStats } from './destination/execute.ts';
import { assertReplaceable, assertSafeOutDir, clearLeftovers, outputPath, realPath } from './destination/output.ts';
import { previousMembers, readPreviousOutput, recordedChecksums, saveManifest } from './destination/state.ts';
import type { PreviousOutput } from './destination/state.ts';
import type { ChangeLog } from './changes/published.ts';
import type { Diagnostic } from './diagnostics.ts';
import { FILE_KINDS, SECTIONS, classify } from './kinds/registry.ts';
import type { Fragment } from './site/fragment.ts';
import { StaleBytesError, plansOf } from './site/plan.ts';
import type { Plan } from './site/plan.ts';
import { withCopies, withReferenceCopies } from './outputs/precompress.ts';
import { planOutputs, referenceOutputs } from './outputs/registry.ts';
import { assemble, rootsOf } from './pipeline/assemble.ts';
import type { Archive } from './pipeline/assemble.ts';
import { CacheError, digestKey, noCache, openCache, pipelineFingerprint } from './pipeline/cache.ts';
import type { Cache } from './pipeline/cache.ts';
import type { Digest } from './pipeline/digest.ts';
import { archiveAt, changedLines, comparePublishedIds } from './pipeline/history.ts';
import type { Revision } from './pipeline/history.ts';
import { decodeMetadata } from './pipeline/encoding.ts';
import { parseFile, parseFileFast } from './pipeline/parse.ts';
import type { MetadataFile } from './pipeline/parse.ts';
import { digestAll } from './pipeline/pool.ts';
import type { Request } from './pipeline/pool.ts';
import { checkRules } from './pipeline/rules.ts';
import { readMetadataTexts, scanMetadata } from './pipeline/scan.ts';
import { compileValidators, validateFiles } from './pipeline/validate.ts';
import { UsageError } from './errors.ts';
import { withLock } from './locks.ts';
import { renderFragment } from './outputs/fragment.ts';
import { codeFile } from './project.ts';

/** Progress of long work, for a terminal: which stage, and how far through it. */
export type Progress = (stage: 'reading' | 'writing', done: number, total: number) => void;

export interface CheckOptions {
  metadataDir: string;
  /** Folder that reported paths are relative to. */
  displayRoot?: string;
  /**
   * A git revision (the pull request's base): its published ids must keep their meaning, and
   * warnings are reported only on lines changed since it.
   */
  base?: string;
  /**
   * The change records' folder (changes/ beside the metadata): its records are checked, and with
   * `base`, the pull request's changes against them. Undefined: records are not looked at.
   */
  changesDir?: string;
  /** Where digests are kept between runs; undefined: nowhere (always cold). */
  cacheDir?: string;
  /** Worker threads for the per-file stage; 0 does it in this thread. */
  workers?: number;
  onProgress?: Progress;
  /** The straightforward path, for comparison: no cache, no splicing. */
  reference?: boolean;
  /** Told once when another build holds the cache or the output, before waiting for it. */
  onWait?: (message: string) => void;
}

export interface CheckResult {
  diagnostics: Diagnostic[];
  /** The files that parsed. */
  files: MetadataFile[];
  /** Present when no error was found. */
  archive?: Archive;
  /** Each group's and facility's rendered text, by metadata-relative path. */
  fragments: Map<string, Fragment>;
  /** Each metadata file's digest key, by metadata-relative path (none on the reference path). */
  inputs: Record<string, string>;
  cache: { hits: number; misses: number };
  /** Why the cache was cleared and the work done again without it, if it was. */
  recovered?: string;
  /** The change records, checked, when a changes folder was given (and no --base). */
  changes?: ChangeLog;
}

export interface BuildOptions extends CheckOptions {
  outDir: string;
  /** Absolute, without a trailing slash (hosting/base-url.ts). */
  baseUrl: string;
  /** Plan and decide, writing nothing. */
  dryRun?: boolean;
  /** Also write a .br and a .gz copy beside each file hosts compress (outputs/precompress.ts), for nginx. */
  precompress?: boolean;
}

export interface BuildResult extends CheckResult {
  /** Every file of the output, when the metadata is valid. */
  plans?: Plan[];
  /** What the build does (or, on a dry run, would do) to each file of its output, and why. */
  decision?: Decision;
  /** What was written, when the build wrote its output. */
  written?: WriteStats;
  /** Something the user should know about a build that succeeded (a previous output that could not be removed). */
  notices?: string[];
}

/** Everything but the output: every problem in every file, in one run. */
export function check(options: CheckOptions): Promise<CheckResult> {
  // Without a cache, the texts the outputs need would be rendered for nothing.
  return recovering(options, (given, cache) => checkArchive(given, cache, given.cacheDir !== undefined && !given.reference));
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  assertSafeOutDir(options.outDir, options.metadataDir);
  return recovering(options, buildOnce);
}

async function buildOnce(given: BuildOptions, cache: Cache): Promise<BuildResult> {
  // The output's own path: through the user's links (a dangling one too), so that a build into a
  // link and one into its folder take the same lock and replace the same output.
  const options = { ...given, outDir: outputPath(given.outDir) };
  // One build at a time writes an output. A dry run writes nothing, and takes no lock.
  if (options.dryRun) return buildLocked(options, cache);
  return withLock(outputLock(options.outDir), { what: `the output folder ${given.outDir}`, ...waiting(options) }, () =>
    buildLocked(options, cache),
  );
}

/** Check → plan → decide → write: the pipeline, one step a line. */
async function buildLocked(options: BuildOptions, cache: Cache): Promise<BuildResult> {
  const left = options.dryRun ? [] : await clearLeftovers(options.outDir);
  await assertReplaceable(options.outDir);
  const checked = await checkArchive(options, cache);
  if (!checked.archive) return checked;
  const previous = await readPreviousOutput(options.outDir);
  const inputs: BuildInputs = { fingerprint: pipelineFingerprint(), baseUrl: options.baseUrl, files: checked.inputs };
  const { plans, checksums } = await planAll({ ...checked, archive: checked.archive }, options, cache, previous, inputs.fingerprint);
  const decision = decide(plans, previous, inputs, inputName);
  if (options.dryRun) return { ...checked, plans, decision };
  const written = await writeOutput(decision, options.outDir, {
    ...(previous ? { previousDir: previous.dir } : {}),
    checksums,
    ...(options.onProgress ? { onFile: (done: number, total: number) => options.onProgress?.('writing', done, total) } : {}),
  });
  saveManifest(options.outDir, { build: written.build, ...inputs, inputs: inputs.files, files: written.records });
  const notices = [...left, ...written.notices];
  return { ...checked, plans, decision, written: written.stats, ...(notices.length > 0 ? { notices } : {}) };
}

/**
 * Every file of every output, planned in memory (outputs/registry.ts), with their precompressed
 * copies if asked for: from the build's own texts, or on the reference path from texts rendered
 * from whole objects. The download's checksums are those the previous output recorded for the same
 * keys, or read from the plans.
 */
async function planAll(
  checked: CheckResult & { archive: Archive },
  options: BuildOptions,
  cache: Cache,
  previous: PreviousOutput | undefined,
  fingerprint: string,
): Promise<{ plans: Plan[]; checksums: Map<string, string> }> {
  const { archive, fragments } = checked;
  const changes = checked.changes ? { changes: checked.changes } : {};
  const checksums = new Map<string, string>();
  const recorded = recordedChecksums(previous);
  const takeChecksums = (plans: readonly Plan[]) => {
    for (const [file, sum] of checksumsOf(plans, recorded)) checksums.set(file, sum);
    return checksums;
  };
  if (options.reference) {
    const files = referenceOutputs({ archive, fragments: renderedFragments(archive), baseUrl: options.baseUrl, ...changes });
    const plans = plansOf(options.precompress ? withReferenceCopies(files) : files);
    takeChecksums(plans.filter((plan) => plan.path.startsWith('download/')));
    return { plans, checksums };
  }
  const input = {
    archive,
    fragments,
    baseUrl: options.baseUrl,
    ...changes,
    // A text is recalled only where this code made it: a planner's key names what it is made from.
    recall: (name: string, key: string, make: () => string) => cache.recall(name, `${fingerprint}:${key}`, make),
    kept: (file: string) => previousMembers(previous, file),
    checksums: takeChecksums,
  };
  const plans = await planOutputs(input, options.precompress ? withCopies : undefined);
  return { plans, checksums };
}

/** Every group's and facility's texts, rendered here from its whole object (the reference path's). */
function renderedFragments(archive: Archive): Map<string, Fragment> {
  const fragments = new Map<string, Fragment>();
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      for (const section of SECTIONS) {
        for (const entry of rootsOf(release, section.kind)) {
          const place = [survey.data.name, release.data.name];
          fragments.set(entry.file.relative, renderFragment(section.kind, entry.data, place, entry.file.relative, entry.file.relative));
        }
      }
    }
  }
  return fragments;
}

/** A metadata file as a reason names it: "catalogue group gama/dr4/StellarMasses". */
function inputName(relative: string): string {
  const placed = classify(relative);
  if ('problem' in placed) return relative;
  const described = FILE_KINDS.find((declaration) => declaration.kind === placed.kind)?.described ?? 'file';
  const { survey, release, name } = placed.placement;
  // A survey's or release's file is named by its folder, which is its place's last part already.
  const place = [survey, release].filter((part): part is string => part !== undefined && part !== '');
  if (name !== undefined && name !== place.at(-1)) place.push(name);
  return `${described.replace(/^(a|an|the) /, '')} ${place.join('/') || relative}`;
}

// ---- Checking ---------------------------------------------------------------------------------------

async function checkArchive(options: CheckOptions, cache: Cache, render = true): Promise<CheckResult> {
  if (options.reference) return checkReference(options);
  const known = cache.scanIndex(options.metadataDir);
  const {
    files: scanned,
    index,
    display,
    problems,
  } = await scanMetadata(options.metadataDir, {
    ...(options.displayRoot ? { displayRoot: options.displayRoot } : {}),
    ...(known ? { known } : {}),
  });
  const fingerprint = pipelineFingerprint();
  const diagnostics: Diagnostic[] = [...problems];
  const requests: Request[] = [];
  for (const { relative, hash, bytes } of scanned) {
    const placed = classify(relative);
    if ('problem' in placed) diagnostics.push(misplaced(display(relative), placed.problem));
    else requests.push({ relative, bytes, key: digestKey(fingerprint, relative, hash) });
  }
  const onProgress = options.onProgress;
  const digests = await digestAll(requests, cache, {
    workers: options.workers ?? 0,
    render: renderFragment,
    workerScript: codeFile('digest-worker.js'),
    rendering: render,
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(onProgress ? { onProgress: (done: number, total: number) => onProgress('reading', done, total) } : {}),
  });
  cache.prune(new Set(requests.map((r) => r.key)));
  cache.saveScanIndex(options.metadataDir, index);

  const bytesOf = new Map(scanned.map((f) => [f.relative, f.bytes]));
  const parsed: MetadataFile[] = [];
  const valid: MetadataFile[] = [];
  const fragments = new Map<string, Fragment>();
  // The cross-file rules' inputs, by their shapes: rules that passed on the same inputs pass again.
  const rulesKey = createHash('sha256').update(fingerprint);
  for (const d of digests) {
    const shown = display(d.relative);
    // One by one: a file can hold more problems than a call takes arguments.
    for (const x of d.diagnostics) diagnostics.push({ ...x, file: shown });
    if (d.data === undefined) continue;
    const file = fileOf(d, () => textOf(bytesOf.get(d.relative)?.() ?? new Uint8Array(), shown), shown);
    parsed.push(file);
    if (d.valid) {
      valid.push(file);
      rulesKey.update(`\0${d.relative}\0${d.shape}`);
    }
    if (d.fragment) fragments.set(d.relative, d.fragment);
  }
  const present = new Set(requests.map((r) => r.relative));
  const result = await acrossFiles(options, diagnostics, parsed, valid, present, { cache, key: rulesKey.digest('hex') });
  const inputs = Object.fromEntries(requests.map((r) => [r.relative, r.key]));
  return { ...result, fragments, inputs, cache: { hits: cache.hits, misses: cache.misses } };
}

/**
 * The checks across files, shared by both paths: assemble, the rules, and with --base the
 * published ids. With `memo`, rules that passed on inputs of the same key are not run again (they
 * report errors only, so passing means reporting nothing).
 */
async function acrossFiles(
  options: CheckOptions,
  found: Diagnostic[],
  parsed: MetadataFile[],
  valid: MetadataFile[],
  present: ReadonlySet<string>,
  memo?: { cache: Cache; key: string },
): Promise<Pick<CheckResult, 'diagnostics' | 'files' | 'archive' | 'changes'>> {
  const assembled = assemble(valid, present);
  const passed = memo?.cache.rulesPassed(memo.key) ?? false;
  const ruled = passed ? [] : checkRules(assembled.archive, valid);
  if (memo && !passed && ruled.length === 0) memo.cache.saveRulesPassed(memo.key);
  let diagnostics = [...found, ...assembled.diagnostics, ...ruled];
  let base: Revision | undefined;
  if (options.base) {
    base = await archiveAt(options.base, options.metadataDir);
    const changed = changedLines(parsed, base.texts);
    const isNew = (d: Diagnostic) => {
      const lines = changed.get(d.file);
      return lines === 'all' || (lines !== undefined && (d.line === 0 || lines.has(d.line)));
    };
    diagnostics = diagnostics.filter((d) => d.severity === 'error' || isNew(d));
    // Every parsed file counts as present, valid or not: a broken file has its own errors and
    // its ids have not gone anywhere.
    for (const d of comparePublishedIds(base.archive, assemble(parsed, present).archive)) diagnostics.push(d);
  }
  let changes: ChangeLog | undefined;
  if (options.changesDir !== undefined) {
    const shown = options.displayRoot ? { displayRoot: options.displayRoot } : {};
    if (base && options.base) {
      const { checkChanges } = await import('./changes/check.ts');
      const against = { base: { rev: options.base, ...base } };
      diagnostics.push(
        ...(await checkChanges({
          changesDir: options.changesDir,
          metadataDir: options.metadataDir,
          files: parsed,
          present,
          ...shown,
          ...against,
        })),
      );
    } else {
      // Records checked against metadata that has errors of its own are checked again next time.
      const clean = memo && !diagnostics.some((d) => d.severity === 'error') ? { memo: { recall: memo.cache.recall, key: memo.key } } : {};
      const { publishedRecords } = await import('./changes/published.ts');
      const published = publishedRecords({ changesDir: options.changesDir, files: parsed, present, ...shown, ...clean });
      diagnostics.push(...published.diagnostics);
      changes = published.log;
    }
  }
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { diagnostics, files: parsed, ...(failed ? {} : { archive: assembled.archive }), ...(changes ? { changes } : {}) };
}

async function checkReference(options: CheckOptions): Promise<CheckResult> {
  const { entries, display, problems } = await readMetadataTexts(options.metadataDir, { displayRoot: options.displayRoot });
  const diagnostics: Diagnostic[] = [...problems];
  const files: MetadataFile[] = [];
  const present = new Set<string>();
  for (const { relative, text } of entries) {
    const placed = classify(relative);
    if ('problem' in placed) {
      diagnostics.push(misplaced(display(relative), placed.problem));
      continue;
    }
    present.add(relative);
    const parsed = parseFile(display(relative), text);
    for (const d of parsed.diagnostics) diagnostics.push(d);
    if (parsed.file) files.push({ ...parsed.file, relative, kind: placed.kind, placement: placed.placement });
  }
  const validated = validateFiles(files, compileValidators());
  const result = await acrossFiles(options, [...diagnostics, ...validated.diagnostics], files, validated.valid, present);
  return { ...result, fragments: new Map(), inputs: {}, cache: { hits: 0, misses: 0 } };
}

/** The text of a file that decoded when it was digested. */
function textOf(bytes: Uint8Array, display: string): string {
  const decoded = decodeMetadata(bytes, display);
  if (!('text' in decoded)) throw new Error(`${display} no longer decodes: ${decoded.problem.message}`);
  return decoded.text;
}

function misplaced(file: string, problem: string): Diagnostic {
  return { file, line: 0, col: 0, severity: 'error', rule: 'layout/unexpected-file', message: problem };
}

/** A digested file as the later stages see it: its data, and its text and positions on demand. */
function fileOf(d: Digest, textOf: () => string, display: string): MetadataFile {
  let parsed: MetadataFile | undefined;
  let text: string | undefined;
  const positions = () => {
    if (!parsed) {
      // Positions as the file's digest found them: from js-yaml's events, without the slow parser.
      const file = parseFileFast(display, (text ??= textOf())).file;
      if (!file) throw new Error(`${display}: cannot locate a position in a file that does not parse`);
      parsed = { ...file, relative: d.relative, kind: d.kind, placement: d.placement };
    }
    return parsed;
  };
  return {
    display,
    relative: d.relative,
    kind: d.kind,
    placement: d.placement,
    data: d.data,
    get text() {
      return (text ??= textOf());
    },
    locate: (pointer, where) => positions().locate(pointer, where),
    source: (pointer) => positions().source(pointer),
  };
}

// ---- The cache ----------------------------------------------------------------------------------------

/**
 * Runs a stage with the cache, opened once; if part of a cache entry went missing or was damaged
 * under it, clears the cache and runs the stage again cold (which reads nothing from the cache),
 * saying why.
 */
async function recovering<O extends CheckOptions, R extends CheckResult>(
  options: O,
  run: (options: O, cache: Cache) => Promise<R>,
): Promise<R> {
  const cacheDir = options.reference ? undefined : options.cacheDir;
  if (!cacheDir) return run(options, noCache());
  assertCacheApart(cacheDir, options);
  // Builds sharing a cache take turns: one pruning what another just stored, or clearing it
  // while another reads it, damaged the cache for both.
  return withLock(cacheLock(cacheDir), { what: `the build cache ${cacheDir}`, ...waiting(options) }, async () => {
    try {
      return await run(options, openCache(cacheDir));
    } catch (error) {
      const damage = cacheDamage(error);
      if (damage === undefined) throw error;
      clearCache(cacheDir);
      return { ...(await run(options, openCache(cacheDir))), recovered: damage };
    }
  });
}

function waiting(options: CheckOptions): { onWait?: (message: string) => void } {
  return options.onWait ? { onWait: options.onWait } : {};
}

/** The lock of an output folder: a file beside it, which the swap leaves alone. */
function outputLock(outDir: string): string {
  return path.join(path.dirname(outDir), `.${path.basename(outDir)}.lock`);
}

/** The lock of a cache: a file in it, which clearing the cache leaves alone. */
function cacheLock(cacheDir: string): string {
  return path.join(cacheDir, CACHE_LOCK);
}

const CACHE_LOCK = 'lock';

/** Empties a damaged cache, but for its lock, which this build holds. */
function clearCache(cacheDir: string): void {
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith(CACHE_LOCK)) rmSync(path.join(cacheDir, name), { recursive: true, force: true });
  }
}

/** Refuses a cache inside the output (which every build replaces) or the metadata, or holding either. */
function assertCacheApart(cacheDir: string, options: CheckOptions & { outDir?: string }): void {
  const cache = realPath(cacheDir);
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);
  const against: [string | undefined, string, string][] = [
    [options.outDir, 'the output folder', 'which every build replaces'],
    [options.metadataDir, 'the metadata folder', 'where its files would be taken for metadata'],
  ];
  for (const [dir, name, why] of against) {
    if (dir === undefined) continue;
    const other = realPath(dir);
    if (inside(cache, other) || inside(other, cache)) {
      throw new UsageError(
        `--cache-dir ${cacheDir} ${inside(cache, other) ? 'is inside' : 'holds'} ${name} ${dir}, ${why}; keep the cache apart (the default is node_modules/.cache/archive-schema)`,
      );
    }
  }
}

/** What was wrong with the cache, if the error says it was damaged. */
function cacheDamage(error: unknown): string | undefined {
  if (error instanceof CacheError) return error.message;
  if (!(error instanceof StaleBytesError)) return undefined;
  const name = path.basename(error.file);
  return error.found === undefined
    ? `the build cache lost ${name} (${error.reason})`
    : `the build cache's ${name} has ${error.found} bytes, not the ${error.expected} it was stored with`;
}
