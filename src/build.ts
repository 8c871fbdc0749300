// The orchestrator, reading like the pipeline: read → digest each file (parse, validate, render
// its fragment; from the cache when unchanged) → assemble → rules → plan → write. Problems in the
// metadata come back as diagnostics; trouble that is not the metadata's fault (a missing folder,
// an unwritable disk, a bad option) is thrown. `reference: true` takes the straightforward path
// instead (position-keeping parser, whole objects serialised, everything written), which the fast
// path must match byte for byte.

import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CacheError, digestKey, noCache, openCache, pipelineFingerprint } from './pipeline/cache.ts';
import type { Cache } from './pipeline/cache.ts';
import type { Diagnostic } from './diagnostics.ts';
import { UsageError } from './errors.ts';
import type { Digest, Fragment } from './pipeline/digest.ts';
import { archiveAt, changedLines, comparePublishedIds } from './pipeline/history.ts';
import { classify } from './kinds/registry.ts';
import { parseFile, readMetadataTexts, scanMetadata } from './pipeline/load.ts';
import type { MetadataFile } from './pipeline/load.ts';
import { digestAll } from './pipeline/pool.ts';
import type { Request } from './pipeline/pool.ts';
import { SpliceError, planOutputs, plansOf } from './outputs/plan.ts';
import type { Plan } from './outputs/plan.ts';
import { checkRules } from './pipeline/rules.ts';
import { fixedFiles } from './outputs/api/fixed.ts';
import { referenceFiles } from './outputs/reference.ts';
import { FRONT_PAGE, frontPage } from './outputs/site.ts';
import { assemble } from './pipeline/assemble.ts';
import type { Archive } from './pipeline/assemble.ts';
import { compileValidators, validateFiles } from './pipeline/validate.ts';
import { assertReplaceable, clearLeftovers, writePlans } from './destination/write.ts';
import type { WriteStats } from './destination/write.ts';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

/**
 * The base URL for the API's links: the flag, else Netlify's production URL for production
 * builds and the deploy's own URL for previews and branch deploys, else localhost.
 */
export function resolveBaseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  let chosen = flag;
  if (chosen === undefined && env.NETLIFY === 'true') {
    chosen = env.CONTEXT === 'production' ? env.URL : (env.DEPLOY_PRIME_URL ?? env.DEPLOY_URL ?? env.URL);
  }
  return normaliseBaseUrl(chosen ?? DEFAULT_BASE_URL);
}

export function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL "${text}" is not an absolute URL; pass one like https://schema.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`base URL "${text}" must start with http:// or https://`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UsageError(`base URL "${text}" must not carry a query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Progress of long work, for a terminal: which stage, and how far through it. */
export type Progress = (stage: 'reading' | 'checking' | 'writing', done: number, total: number) => void;

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
}

export interface CheckResult {
  /** Milliseconds spent in each stage, for the benchmark. */
  timings: Record<string, number>;
  diagnostics: Diagnostic[];
  files: MetadataFile[];
  /** Present when no error was found. */
  archive?: Archive;
  /** Each group's and facility's rendered text, by metadata-relative path. */
  fragments: Map<string, Fragment>;
  cache: { hits: number; misses: number };
  /** Why the cache was cleared and the work done again without it, if it was. */
  recovered?: string;
}

/** A digested file as the later stages see it: its data, and its text and positions on demand. */
function fileOf(d: Digest, textOf: () => string, display: string): MetadataFile {
  let parsed: MetadataFile | undefined;
  let text: string | undefined;
  const positions = () => {
    if (!parsed) {
      const file = parseFile(display, (text ??= textOf())).file;
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

/** Everything but the output: every problem in every file, in one run. */
export function check(options: CheckOptions): Promise<CheckResult> {
  return recovering(options, checkOnce);
}

async function checkOnce(options: CheckOptions): Promise<CheckResult> {
  if (options.reference) return checkReference(options);
  const clock = stopwatch();
  const cache = options.cacheDir ? openCache(options.cacheDir) : noCache();
  const known = cache.scanIndex(options.metadataDir);
  const { files: scanned, index, display } = await scanMetadata(options.metadataDir, {
    ...(options.displayRoot ? { displayRoot: options.displayRoot } : {}),
    ...(known ? { known } : {}),
  });
  clock.lap('read');
  const fingerprint = pipelineFingerprint();
  const diagnostics: Diagnostic[] = [];
  const requests: Request[] = [];
  for (const { relative, hash, bytes } of scanned) {
    const placed = classify(relative);
    if ('problem' in placed) {
      diagnostics.push({ file: display(relative), line: 0, col: 0, severity: 'error', rule: 'layout/unexpected-file', message: placed.problem });
      continue;
    }
    requests.push({ relative, bytes, key: digestKey(fingerprint, relative, hash) });
  }
  const digests = await digestAll(requests, cache, {
    workers: options.workers ?? 0,
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  cache.prune(new Set(requests.map((r) => r.key)));
  cache.saveScanIndex(options.metadataDir, index);
  clock.lap('digest');

  const bytesOf = new Map(scanned.map((f) => [f.relative, f.bytes]));
  const parsed: MetadataFile[] = [];
  const valid: MetadataFile[] = [];
  const fragments = new Map<string, Fragment>();
  // The cross-file rules' inputs, by their shapes: rules that passed on the same inputs pass again.
  const rulesKey = createHash('sha256').update(fingerprint);
  for (const d of digests) {
    const shown = display(d.relative);
    diagnostics.push(...d.diagnostics.map((x) => ({ ...x, file: shown })));
    if (d.data === undefined) continue;
    const file = fileOf(d, () => bytesOf.get(d.relative)?.().toString('utf8') ?? '', shown);
    parsed.push(file);
    if (d.valid) {
      valid.push(file);
      rulesKey.update(`\0${d.relative}\0${d.shape}`);
    }
    if (d.fragment) fragments.set(d.relative, d.fragment);
  }
  const unparsed = digests.filter((d) => d.data === undefined).map((d) => d.relative);
  const result = await finishCheck(options, diagnostics, parsed, valid, unparsed, { cache, key: rulesKey.digest('hex') });
  clock.lap('rules');
  return { ...result, fragments, cache: { hits: cache.hits, misses: cache.misses }, timings: clock.laps };
}

function stopwatch() {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap(name: string) {
      const now = performance.now();
      laps[name] = Math.round(now - last);
      last = now;
    },
  };
}

/**
 * The checks across files, shared by both paths. With `memo`, rules that passed on inputs of the
 * same key are not run again (they report errors only, so passing means reporting nothing).
 */
async function finishCheck(
  options: CheckOptions,
  found: Diagnostic[],
  parsed: MetadataFile[],
  valid: MetadataFile[],
  unparsed: string[],
  memo?: { cache: Cache; key: string },
) {
  const present = new Set([...parsed.map((f) => f.relative), ...unparsed]);
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
    diagnostics.push(...comparePublishedIds(base.archive, assemble(parsed, present).archive));
  }
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { diagnostics, files: parsed, ...(failed ? {} : { archive: assembled.archive }) };
}

async function checkReference(options: CheckOptions): Promise<CheckResult> {
  const { entries, display } = await readMetadataTexts(options.metadataDir, { displayRoot: options.displayRoot });
  const diagnostics: Diagnostic[] = [];
  const files: MetadataFile[] = [];
  const unparsed: string[] = [];
  for (const { relative, text } of entries) {
    const placed = classify(relative);
    if ('problem' in placed) {
      diagnostics.push({ file: display(relative), line: 0, col: 0, severity: 'error', rule: 'layout/unexpected-file', message: placed.problem });
      continue;
    }
    const parsed = parseFile(display(relative), text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.file) files.push({ ...parsed.file, relative, kind: placed.kind, placement: placed.placement });
    else unparsed.push(relative);
  }
  const validated = validateFiles(files, compileValidators());
  const result = await finishCheck(options, [...diagnostics, ...validated.diagnostics], files, validated.valid, unparsed);
  return { ...result, fragments: new Map(), cache: { hits: 0, misses: 0 }, timings: {} };
}

export interface BuildOptions extends CheckOptions {
  outDir: string;
  baseUrl: string;
}

export interface BuildResult extends CheckResult {
  /** What was written, when the build succeeded. */
  output?: { files: number; stats: WriteStats };
}

/** A folder's path with symbolic links followed, where it exists. */
function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Refuses an output folder that would swallow the sources. */
export function assertSafeOutDir(outDir: string, metadataDir: string): void {
  const out = realPath(outDir);
  const meta = realPath(metadataDir);
  if (out === path.parse(out).root) throw new UsageError(`--out ${outDir} is the root of the file system; choose a folder such as dist`);
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);
  if (inside(meta, out)) throw new UsageError(`--out ${outDir} would replace the metadata folder ${metadataDir}; choose a folder such as dist`);
  if (inside(out, meta)) throw new UsageError(`--out ${outDir} is inside the metadata folder; choose a folder outside it such as dist`);
}

export function build(options: BuildOptions): Promise<BuildResult> {
  return recovering(options, buildOnce);
}

/**
 * Runs a stage; if part of a cache entry went missing or was damaged under it, clears the cache
 * and runs the stage again cold (which reads nothing from the cache), saying why.
 */
async function recovering<O extends CheckOptions, R extends CheckResult>(options: O, run: (options: O) => Promise<R>): Promise<R> {
  try {
    return await run(options);
  } catch (error) {
    if (!(error instanceof CacheError) || !options.cacheDir) throw error;
    rmSync(options.cacheDir, { recursive: true, force: true });
    return { ...(await run(options)), recovered: error.message };
  }
}

async function buildOnce(given: BuildOptions): Promise<BuildResult> {
  assertSafeOutDir(given.outDir, given.metadataDir);
  // An output reached through a symbolic link is built where the link points: replacing the
  // folder there keeps the link, where replacing the link would leave the folder behind, stale.
  const options = { ...given, outDir: realPath(given.outDir) };
  await clearLeftovers(options.outDir);
  await assertReplaceable(options.outDir);
  const checked = await checkOnce(options);
  const archive = checked.archive;
  if (!archive) return checked;
  const clock = stopwatch();
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  let plans: Plan[];
  if (options.reference) {
    plans = plansOf(referenceFiles(archive, baseUrl));
  } else {
    try {
      plans = [...planOutputs(archive, checked.fragments, baseUrl), ...plansOf(new Map([...fixedFiles(), [FRONT_PAGE, frontPage(archive)]]))];
    } catch (error) {
      if (!(error instanceof SpliceError)) throw error;
      // The data held a NUL character where a placeholder would be: build the slow way.
      return buildOnce({ ...options, reference: true });
    }
  }
  clock.lap('plan');
  const cache: Cache = options.cacheDir && !options.reference ? openCache(options.cacheDir) : noCache();
  const onFile = options.onProgress;
  const previous = cache.manifest(options.outDir);
  const spares = cache.spares(options.outDir);
  const { manifest, stats } = await writePlans(plans, options.outDir, {
    ...(previous ? { previous } : {}),
    ...(spares ? { spares: { dir: spares } } : {}),
    ...(onFile ? { onFile: (done: number, total: number) => onFile('writing', done, total) } : {}),
  });
  cache.saveManifest(options.outDir, manifest);
  clock.lap('write');
  return { ...checked, timings: { ...checked.timings, ...clock.laps, swap: stats.swapMs }, output: { files: plans.length, stats } };
}
