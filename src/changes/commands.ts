// The change commands, each deciding before doing: `diff` compares two sides of the metadata;
// `changes add` plans a record of what changed since the base that no new record holds yet, and
// `changes backfill` one per past commit; writing a planned record is a plain write.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { UsageError } from '../errors.ts';
import { isInstant, parseInstant } from '../vocabularies/instant.ts';
import { countChanges, diffSnapshots, keyOf } from './diff.ts';
import type { Change } from './diff.ts';
import {
  addedFiles,
  commitOf,
  commitsSince,
  defaultBase,
  filesAt,
  indexIds,
  lastCommitDate,
  namedBase,
  objectFormat,
  topOf,
} from './git.ts';
import type { Base, Commit } from './git.ts';
import { RECORD_SCHEMA, recordName, recordText } from './record.ts';
import { loadRecords } from './records.ts';
import { countsText, formatJson, formatMarkdown, formatText, titlesOf } from './report.ts';
import type { Sides, Titles } from './report.ts';
import { markCorrections, replay } from './rules.ts';
import { comparePair, emptyTree, folderTree, revisionTree } from './sides.ts';
import type { MetadataTree, Pair } from './sides.ts';

/** A folder's path below the repository's top, with `/` separators ('' for the top itself). */
function below(top: string, dir: string): string {
  return path.relative(top, path.resolve(dir)).split(path.sep).join('/');
}

// ---- diff ---------------------------------------------------------------------------------------------

export interface DiffOptions {
  metadataDir: string;
  displayRoot: string;
  env: Record<string, string | undefined>;
  base?: string;
  head?: string;
  from?: string;
  to?: string;
}

export interface DiffResult {
  changes: Change[];
  sides: Sides;
  titles: Titles;
  /** Files that could not be read: the diff is incomplete without them. */
  problems: Diagnostic[];
}

/** The two sides asked for: two folders, or a revision (by default the merge base) and the working tree or another revision. */
async function treesOf(options: DiffOptions): Promise<[MetadataTree, MetadataTree]> {
  if (options.from !== undefined || options.to !== undefined) {
    if (options.from === undefined || options.to === undefined) throw new UsageError('--from and --to go together: give both folders');
    if (options.base !== undefined || options.head !== undefined)
      throw new UsageError('give either two folders (--from, --to) or revisions (--base, --head), not both');
    const shown = (dir: string) => path.relative(options.displayRoot, path.resolve(options.displayRoot, dir)) || '.';
    return Promise.all([
      folderTree(path.resolve(options.displayRoot, options.from), { displayRoot: options.displayRoot, label: shown(options.from) }),
      folderTree(path.resolve(options.displayRoot, options.to), { displayRoot: options.displayRoot, label: shown(options.to) }),
    ]);
  }
  const top = await topOf(options.metadataDir);
  const prefix = below(top, options.metadataDir);
  const base = options.base !== undefined ? await namedBase(top, options.base) : await defaultBase(top, options.env);
  const from = await revisionTree(top, base.commit, prefix, base.label);
  if (options.head !== undefined) {
    const head = await namedBase(top, options.head);
    return [from, await revisionTree(top, head.commit, prefix, head.label)];
  }
  return [from, await workingTree(top, prefix, options)];
}

/** The metadata folder as it is, its unchanged files known by the ids git's index has for them. */
async function workingTree(top: string, prefix: string, options: { metadataDir: string; displayRoot: string }): Promise<MetadataTree> {
  const [format, index] = await Promise.all([objectFormat(top), indexIds(top, prefix)]);
  return folderTree(options.metadataDir, { displayRoot: options.displayRoot, label: 'the working tree', format, index });
}

export async function diffMetadata(options: DiffOptions): Promise<DiffResult> {
  const [from, to] = await treesOf(options);
  const pair = await comparePair(from, to);
  return {
    changes: pair.changes,
    sides: { from: from.label, to: to.label },
    titles: titlesOf(pair.after, pair.before),
    problems: pair.problems,
  };
}

export type DiffFormat = 'text' | 'markdown' | 'json';

export function formatDiff(result: DiffResult, format: DiffFormat): string {
  if (format === 'json') return formatJson(result.changes, result.sides);
  if (format === 'markdown') return formatMarkdown(result.changes, result.sides, result.titles);
  return formatText(result.changes, result.sides, result.titles);
}

/** GitHub Actions shows what a step appends to the file GITHUB_STEP_SUMMARY names on the run's page. */
export function appendJobSummary(file: string, result: DiffResult): void {
  appendFileSync(file, formatMarkdown(result.changes, result.sides, result.titles));
}

// ---- changes add ------------------------------------------------------------------------------------

export interface AddOptions {
  metadataDir: string;
  changesDir: string;
  displayRoot: string;
  env: Record<string, string | undefined>;
  summary: string;
  base?: string;
  /** The record's date, given instead of the one its data gives (a stamped `updated`, or the commit). */
  date?: string;
  /** Marks the changes to released data as corrections, with this reason. */
  correction?: string;
}

/** A record planned, to be written as `text` into the changes folder as `name`. */
export interface RecordPlan {
  name: string;
  /** Its path as messages show it. */
  file: string;
  text: string;
  changes: Change[];
  date: string;
  /** How the base is named. */
  base: string;
  /** How many changes were marked as corrections. */
  corrections: number;
}

export type AddResult = { plan: RecordPlan } | { nothing: string } | { problems: Diagnostic[]; outcome: string };

function oneLine(text: string, option: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[\r\n]/.test(trimmed))
    throw new UsageError(`${option} must be one line of text, such as ${option} "Stellar masses in solar units"`);
  return trimmed;
}

/** An instant given on the command line, in UTC to the second. */
function givenDate(text: string): string {
  const parsed = parseInstant(text);
  if (!isInstant(parsed)) throw new UsageError(`--date ${text} ${parsed.problem}`);
  return `${new Date(parsed.epochMs).toISOString().slice(0, 19)}Z`;
}

/** The newest `updated` among what changed, where it moved since the base (a stamped edit), if any. */
function stampedDate(changes: readonly Change[], pair: Pick<Pair, 'before' | 'after'>): string | undefined {
  let newest: { ms: number; text: string } | undefined;
  for (const change of changes) {
    if (change.change === 'removed') continue;
    const key = keyOf(change);
    const now = pair.after.get(key)?.updated;
    if (now === undefined || now === pair.before.get(key)?.updated) continue;
    const parsed = parseInstant(now);
    if (isInstant(parsed) && (!newest || parsed.epochMs > newest.ms))
      newest = { ms: parsed.epochMs, text: `${new Date(parsed.epochMs).toISOString().slice(0, 19)}Z` };
  }
  return newest?.text;
}

/**
 * A record's date, at least a second after the record it follows: records are read in the order
 * of their dates, and a change recorded after another (a second record in a branch, a rebased
 * commit) must come after it, whatever its data's own date says.
 */
function after(date: string, previous: string | undefined): string {
  if (previous === undefined || Date.parse(date) > Date.parse(previous)) return date;
  return `${new Date(Date.parse(previous) + 1000).toISOString().slice(0, 19)}Z`;
}

/** The schema's path from the changes folder, for the comment editors read (schemas/ beside the metadata folder). */
function schemaPath(changesDir: string, metadataDir: string): string {
  const schemas = path.join(path.dirname(path.resolve(metadataDir)), 'schemas', RECORD_SCHEMA);
  return path.relative(path.resolve(changesDir), schemas).split(path.sep).join('/');
}

/**
 * Plans the record of what changed since the base and is in no record new since then: the
 * diff of the base, with those records replayed over it, against the working tree. Dated by
 * --date, else by the newest `updated` that moved, else (when the change is committed) by its last
 * commit: never by the clock.
 */
export async function planRecord(options: AddOptions): Promise<AddResult> {
  const summary = oneLine(options.summary, '--summary');
  const reason = options.correction === undefined ? undefined : oneLine(options.correction, '--correction');
  const top = await topOf(options.metadataDir);
  const prefix = below(top, options.metadataDir);
  const base: Base = options.base !== undefined ? await namedBase(top, options.base) : await defaultBase(top, options.env);
  const working = await workingTree(top, prefix, options);
  const pair = await comparePair(await revisionTree(top, base.commit, prefix, base.label), working);
  if (pair.problems.length > 0) return { problems: pair.problems, outcome: 'These files cannot be read, so no record was written.' };
  const records = loadRecords(options.changesDir, options.displayRoot);
  if (records.diagnostics.length > 0)
    return { problems: records.diagnostics, outcome: 'Fix the change records first; no record was written.' };
  const changesPrefix = below(top, options.changesDir);
  const atBase = changesPrefix.startsWith('..') ? new Map<string, string>() : await filesAt(top, base.commit, changesPrefix);
  const fresh = records.records.filter((r) => !atBase.has(r.name));
  const remaining = diffSnapshots(
    replay(
      pair.before,
      pair.after,
      fresh.flatMap((r) => r.changes),
    ),
    pair.after,
  );
  if (remaining.length === 0) {
    return {
      nothing:
        pair.changes.length === 0
          ? `Nothing to record: the metadata has not changed since ${base.label}.`
          : `Nothing to record: the changes since ${base.label} are in ${fresh.map((r) => r.file).join(', ')} already.`,
    };
  }
  const found =
    options.date !== undefined
      ? givenDate(options.date)
      : (stampedDate(remaining, pair) ?? (await committedDate(top, base, working, prefix)));
  if (found === undefined) {
    throw new UsageError(
      `cannot date this record: nothing that changed has a new \`updated\` (run \`archive-schema stamp --base ${base.commit.slice(0, 7)}\` to set it), and the change is not committed; stamp or commit it, or pass --date`,
    );
  }
  const date = after(found, fresh.at(-1)?.date);
  const marked = reason === undefined ? { changes: remaining, marked: 0 } : markCorrections(remaining, pair.before, reason);
  const name = recordName(date, summary, new Set(records.records.map((r) => r.name)));
  const text = recordText({ date, summary, changes: marked.changes }, schemaPath(options.changesDir, options.metadataDir));
  const file = path
    .relative(options.displayRoot, path.join(path.resolve(options.changesDir), name))
    .split(path.sep)
    .join('/');
  return { plan: { name, file, text, changes: remaining, date, base: base.label, corrections: marked.marked } };
}

/** The date of the last commit since the base that touched the metadata, when the working tree's metadata is that commit's. */
async function committedDate(top: string, base: Base, working: MetadataTree, prefix: string): Promise<string | undefined> {
  const head = await filesAt(top, 'HEAD', prefix);
  const same = head.size === working.files.size && [...working.files].every(([relative, id]) => head.get(relative) === id);
  return same ? lastCommitDate(top, base.commit, prefix) : undefined;
}

/** Writes a planned record; never over another file (a plan names a file that was not there). */
export function writeRecord(changesDir: string, plan: Pick<RecordPlan, 'name' | 'text'>): void {
  mkdirSync(changesDir, { recursive: true });
  writeFileSync(path.join(changesDir, plan.name), plan.text, { flag: 'wx' });
}

// ---- changes backfill ------------------------------------------------------------------------------

export interface BackfillOptions {
  metadataDir: string;
  changesDir: string;
  displayRoot: string;
  since: string;
}

export interface Skipped {
  commit: Commit;
  why: string;
}

export type BackfillResult =
  { plans: (RecordPlan & { commit: Commit })[]; skipped: Skipped[] } | { problems: Diagnostic[]; outcome: string };

/** A commit's one-line summary: its subject, or for a merged pull request the pull request's title. */
export function commitSummary(commit: Commit): string {
  const merged = /^Merge pull request (#\d+)\b/.exec(commit.subject);
  const title = commit.body.split('\n').find((line) => line.trim() !== '');
  if (merged && title) return `${title.trim()} (${merged[1] ?? ''})`;
  return commit.subject.trim() || `Commit ${commit.commit.slice(0, 7)}`;
}

/**
 * Plans a record for each commit since `since` (along the first parent) that changed the
 * metadata's structure, dated by the commit. Commits that bring a record of their own, and those
 * a record already names, are passed over, so running it again adds nothing.
 */
export async function planBackfill(options: BackfillOptions): Promise<BackfillResult> {
  const top = await topOf(options.metadataDir);
  const prefix = below(top, options.metadataDir);
  const changesPrefix = below(top, options.changesDir);
  const since = await commitOf(top, options.since);
  const records = loadRecords(options.changesDir, options.displayRoot);
  if (records.diagnostics.length > 0)
    return { problems: records.diagnostics, outcome: 'Fix the change records first; no record was written.' };
  const recorded = new Set(records.records.flatMap((r) => (r.commit ? [r.commit] : [])));
  const taken = new Set(records.records.map((r) => r.name));
  const schema = schemaPath(options.changesDir, options.metadataDir);
  const plans: (RecordPlan & { commit: Commit })[] = [];
  const skipped: Skipped[] = [];
  for (const commit of await commitsSince(top, since, [prefix])) {
    if (recorded.has(commit.commit)) {
      skipped.push({ commit, why: 'a record names it already' });
      continue;
    }
    if (!changesPrefix.startsWith('..') && (await addedFiles(top, commit, changesPrefix)).length > 0) {
      skipped.push({ commit, why: 'it brings a change record of its own' });
      continue;
    }
    const short = commit.commit.slice(0, 7);
    const from = commit.parent ? await revisionTree(top, commit.parent, prefix, commit.parent.slice(0, 7)) : emptyTree('nothing');
    const pair = await comparePair(from, await revisionTree(top, commit.commit, prefix, short));
    if (pair.problems.length > 0) {
      skipped.push({ commit, why: `its metadata cannot be read (${pair.problems[0]?.file ?? ''}: ${pair.problems[0]?.message ?? ''})` });
      continue;
    }
    if (pair.changes.length === 0) {
      skipped.push({ commit, why: 'it changes no survey, release or node (only timestamps, comments or layout)' });
      continue;
    }
    const summary = commitSummary(commit);
    const date = after(commit.date, plans.at(-1)?.date);
    const name = recordName(date, summary, taken);
    taken.add(name);
    const text = recordText({ date, summary, commit: commit.commit, changes: pair.changes }, schema);
    const file = path
      .relative(options.displayRoot, path.join(path.resolve(options.changesDir), name))
      .split(path.sep)
      .join('/');
    plans.push({ name, file, text, changes: pair.changes, date, base: from.label, corrections: 0, commit });
  }
  return { plans, skipped };
}

/** "3 columns added, 1 column changed", for what a command says it wrote. */
export function changesText(changes: readonly Change[]): string {
  return countsText(countChanges(changes));
}
