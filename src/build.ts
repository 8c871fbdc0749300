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
import { compareWithOutput } from './destination/compare.ts';
import type { Comparison } from './destination/compare.ts';
import { assertReplaceable, assertSafeOutDir, clearLeftovers, realPath } from './destination/folder.ts';
import { writePlans } from './destination/write.ts';
import { RUNS_COMPILED } from './project.ts';
import { WriterThreads } from './destination/write-threads.ts';
import type { WriteStats } from './destination/write.ts';
import type { Diagnostic } from './diagnostics.ts';
import { classify } from './kinds/registry.ts';
import { planApi } from './outputs/api/plan.ts';
import { isDownloadData, planDownload } from './outputs/download/plan.ts';
import { planOpenapi } from './outputs/openapi/plan.ts';
import { INDEX_FILES, SUMS_FILE, planDownloadIndex } from './outputs/download/index.ts';
import { checksumsOf } from './destination/checksums.ts';
import { planBrowsable } from './outputs/browsable/plan.ts';
import type { Fragment } from './outputs/fragment.ts';
import { StaleBytesError, plansOf } from './outputs/plan.ts';
import type { Manifest, Plan } from './outputs/plan.ts';
import type { Planner } from './outputs/planner.ts';
import { withCopies } from './outputs/precompress.ts';
import { referenceFiles, withReferenceCopies } from './outputs/reference.ts';
import { planBrowser } from './outputs/browser/plan.ts';
import { BROWSER_ZIP, planBrowserZip } from './outputs/download/browser-zip.ts';
import type { Deflate } from './outputs/download/browser-zip.ts';
import { deflateBlocks, deflateMemberAsync } from './outputs/download/zip.ts';
import { PieceReader, newSlot, wholeBytes } from './destination/pieces.ts';
import { assemble } from './pipeline/assemble.ts';
import type { Archive } from './pipeline/assemble.ts';
import { CacheError, digestKey, noCache, openCache, pipelineFingerprint } from './pipeline/cache.ts';
import type { Cache } from './pipeline/cache.ts';
import type { Digest } from './pipeline/digest.ts';
import { archiveAt, changedLines, comparePublishedIds } from './pipeline/history.ts';
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

/**
 * The outputs a build writes: each a planner from the checked archive to its files. Planned in
 * this order, each one's files sent to the writer threads before the next is planned: the API's
 * listings first, which a one-file edit changes most of, then the browser's pages, whose zip
 * members deflate while the rest is planned and written.
 */
const PLANNERS: readonly Planner[] = [planApi, planBrowser, planBrowsable, planDownload, planOpenapi];

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
  cache: { hits: number; misses: number };
  /** Why the cache was cleared and the work done again without it, if it was. */
  recovered?: string;
}

export interface BuildOptions extends CheckOptions {
  outDir: string;
  /** Absolute, without a trailing slash (hosting/base-url.ts). */
  baseUrl: string;
  /** Plan and compare with the output folder, writing nothing. */
  dryRun?: boolean;
  /** Also write a .br and a .gz copy beside each file hosts compress (outputs/precompress.ts), for nginx. */
  precompress?: boolean;
}

export interface BuildResult extends CheckResult {
  /** Every file of the output, when the metadata is valid. */
  plans?: Plan[];
  /** What was written, when the build wrote its output. */
  written?: WriteStats;
  /** What a build would change, for a dry run. */
  dryRun?: Comparison;
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

/**
 * Below this much of the archive's compact JSON, starting writer threads costs more than they
 * save: the output is some thirty times as large (the API's listings and pages, the download).
 */
const THREADS_FROM = 1 << 20;

/**
 * Threads to write the output in (write-threads.ts), one more than digest the files, for a large
 * archive: where the code runs compiled (worker threads run lib/), and some worker is asked for.
 * A writer waits on the disk for much of its time, and the zip's members deflated meanwhile cost
 * the writing nothing. On this project's 2-core machine, in alternate runs: with a third thread
 * that only deflated, the writing of a cold L build took 1.20-1.39 s against 1.40-1.52 s with two;
 * letting it write files too when no member waits (as here) took a rebuild's writing 0.39-0.44 s
 * against 0.45-0.47 s, and left a cold build's as it was.
 */
function writerThreads(fragments: ReadonlyMap<string, Fragment>, workers: number): WriterThreads | undefined {
  if (!RUNS_COMPILED || workers < 1) return undefined;
  let bytes = 0;
  for (const fragment of fragments.values())
    bytes += fragment.compact instanceof Uint8Array ? fragment.compact.length : fragment.compact.size;
  return bytes >= THREADS_FROM ? new WriterThreads(workers + 1) : undefined;
}

async function buildOnce(given: BuildOptions, cache: Cache): Promise<BuildResult> {
  // An output reached through a symbolic link is built where the link points: replacing the
  // folder there keeps the link, where replacing the link would leave the folder behind, stale.
  const options = { ...given, outDir: realPath(given.outDir) };
  // One build at a time writes an output: another would link files from it mid-swap, or publish
  // a mix of two versions. A dry run writes nothing, and takes no lock.
  if (options.dryRun) return buildLocked(options, cache);
  return withLock(outputLock(options.outDir), { what: `the output folder ${given.outDir}`, ...waiting(options) }, () =>
    buildLocked(options, cache),
  );
}

async function buildLocked(options: BuildOptions, cache: Cache): Promise<BuildResult> {
  const left = options.dryRun ? [] : await clearLeftovers(options.outDir);
  await assertReplaceable(options.outDir);
  const checked = await checkArchive(options, cache);
  if (!checked.archive) return checked;
  // Started before planning: they write each output's files and deflate the zip's members while
  // the rest is planned.
  const threads = options.dryRun ? undefined : writerThreads(checked.fragments, options.workers ?? 0);
  try {
    return await planAndWrite(options, cache, checked, checked.archive, left, threads);
  } finally {
    await threads?.close();
  }
}

/** Plans every output, and writes it into the output folder (or, on a dry run, compares it with it). */
async function planAndWrite(
  options: BuildOptions,
  cache: Cache,
  checked: CheckResult,
  archive: Archive,
  left: string[],
  threads: WriterThreads | undefined,
): Promise<BuildResult> {
  const deflate: Deflate = threads
    ? { member: (plan) => threads.deflate(plan.pieces, plan.size), blocks: (plan, known) => threads.blocks(plan.pieces, plan.size, known) }
    : deflateHere();
  const { batches, coming } = planOutputs(archive, checked.fragments, options, cache, deflate);
  const previous = cache.manifest(options.outDir);
  const known = cache.checksums();
  if (options.dryRun) {
    // The download's list and page are made of its files' checksums, read here from the plans.
    const all = [...[...batches].flat(), ...(await coming.plans)];
    const download = all.filter(isDownloadData);
    const plans = [...all, ...downloadIndex(download, await checksumsOf(download, known))];
    return { ...checked, plans, dryRun: await compareWithOutput(plans, options.outDir, previous) };
  }
  const spare = cache.spare(options.outDir);
  const onProgress = options.onProgress;
  // Each output's files are written while the next is planned. The download's checksums are taken
  // as its files are written (or once they are), and its list and page are written last.
  const written = await writePlans([], options.outDir, {
    ...(previous ? { previous } : {}),
    ...(spare ? { spare } : {}),
    ...(onProgress ? { onFile: (done: number, total: number) => onProgress('writing', done, total) } : {}),
    ...(threads ? { threads } : {}),
    more: batches,
    coming,
    late: {
      measured: isDownloadData,
      known,
      plans: (sums, all) => downloadIndex(all.filter(isDownloadData), sums),
      count: (all) => (needsIndex(all.filter(isDownloadData)) ? INDEX_FILES.length : 0),
    },
  });
  const { manifest, stats, notices, late } = written;
  const plans = [...written.plans, ...written.coming, ...late];
  cache.saveManifest(options.outDir, manifest);
  cache.saveChecksums(checksumsKept(plans, previous, known));
  const said = [...left, ...notices];
  return { ...checked, plans, written: stats, ...(said.length > 0 ? { notices: said } : {}) };
}

/**
 * Every file of every output, planned in memory as the batches are asked for, an output at a
 * time, but those made of others' checksums (downloadIndex, which are in the download and so never
 * precompressed), with their precompressed copies if asked for. The browser's zip is planned from
 * the browser's plans, its members made by `deflate` unless the cache has them, and comes once
 * they are.
 */
function planOutputs(
  archive: Archive,
  fragments: ReadonlyMap<string, Fragment>,
  options: BuildOptions,
  cache: Cache,
  deflate: Deflate,
): { batches: Iterable<Plan[]>; coming: { paths: string[]; plans: Promise<Plan[]> } } {
  if (options.reference) {
    const files = referenceFiles(archive, options.baseUrl);
    const plans = plansOf(options.precompress ? withReferenceCopies(files) : files);
    return { batches: [plans], coming: { paths: [], plans: Promise.resolve([]) } };
  }
  // Placeholders hold a NUL character, which validation refuses in data, so a placeholder can only
  // be one (a SpliceError here is a bug, never a reason to publish something else).
  const input = { archive, fragments, baseUrl: options.baseUrl, recall: cache.recall };
  // The zip, once the browser's files are planned and its members deflated.
  let zipped: { resolve: (plans: Plan[]) => void; reject: (error: unknown) => void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };
  const zip = new Promise<Plan[]>((resolve, reject) => (zipped = { resolve, reject }));
  // Should something fail before it is awaited, the failure reported is that one.
  zip.catch(() => undefined);
  function* batches(): Iterable<Plan[]> {
    for (const planner of PLANNERS) {
      const plans = planner(input);
      // The zip of the browser's files starts deflating the pages that changed (in the writer
      // threads, or on the thread pool) while the other outputs are planned and written.
      if (planner === planBrowser) planBrowserZip(plans, cache.deflated, deflate).then((plan) => zipped.resolve([plan]), zipped.reject);
      // Each output's files are in folders of its own: none is another's copy (withCopies).
      yield options.precompress ? withCopies(plans) : plans;
    }
  }
  return { batches: batches(), coming: { paths: [BROWSER_ZIP], plans: zip } };
}

/**
 * Zip members deflated on the thread pool, each plan's bytes read whole here first, through one
 * buffer; a large member's blocks here (a build without writer threads is of a small archive).
 */
function deflateHere(): Deflate {
  const slot = newSlot();
  const reader = new PieceReader(() => Promise.resolve(slot));
  return {
    member: (plan) => deflateMemberAsync(wholeBytes(reader, slot, plan.pieces, plan.size)),
    blocks: (plan, known) => Promise.resolve(deflateBlocks(wholeBytes(reader, slot, plan.pieces, plan.size), new Set(known))),
  };
}

/**
 * The checksums the next build may need, by plan key: of this build's download files, and of the
 * output this one replaced (`previous`), which the next build is staged in. Undoing an edit then
 * keeps that output's download files as they are, where not knowing their checksums would write
 * them again (192 MB of the L archive) to take them.
 */
function checksumsKept(plans: readonly Plan[], previous: Manifest | undefined, known: ReadonlyMap<string, string>): Map<string, string> {
  const kept = new Map(plans.filter(isDownloadData).map((p) => [p.key, known.get(p.key) ?? '']));
  for (const [file, key] of Object.entries(previous?.files ?? {})) {
    const sum = known.get(key);
    if (sum !== undefined && isDownloadData({ path: file }) && !kept.has(key)) kept.set(key, sum);
  }
  return kept;
}

/** The download's checksum list and page, from its files' checksums (none on the reference path, which has them). */
function downloadIndex(download: readonly Plan[], sums: ReadonlyMap<string, string>): Plan[] {
  return needsIndex(download) ? planDownloadIndex(download, sums, sha256Hex) : [];
}

/** Whether the download's list and page are still to be made from these files' checksums. */
function needsIndex(download: readonly Plan[]): boolean {
  return download.length > 0 && !download.some((p) => p.path === SUMS_FILE);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
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
    render,
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
  return { ...result, fragments, cache: { hits: cache.hits, misses: cache.misses } };
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
): Promise<Pick<CheckResult, 'diagnostics' | 'files' | 'archive'>> {
  const assembled = assemble(valid, present);
  const passed = memo?.cache.rulesPassed(memo.key) ?? false;
  const ruled = passed ? [] : checkRules(assembled.archive, valid);
  if (memo && !passed && ruled.length === 0) memo.cache.saveRulesPassed(memo.key);
  let diagnostics = [...found, ...assembled.diagnostics, ...ruled];
  if (options.base) {
    const base = await archiveAt(options.base, options.metadataDir);
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
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { diagnostics, files: parsed, ...(failed ? {} : { archive: assembled.archive }) };
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
  return { ...result, fragments: new Map(), cache: { hits: 0, misses: 0 } };
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
