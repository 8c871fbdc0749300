// The rules change records are held to, each a pure function returning diagnostics: records agree
// with one another and name items that exist; a pull request's changes are in its new records; and
// a released release's tables and columns change only as recorded corrections.

import type { Diagnostic } from '../diagnostics.ts';
import type { PathSegment } from '../pipeline/parse.ts';
import { countChanges, diffSnapshots, fieldOrder, keyOf, sameValue } from './diff.ts';
import type { Change } from './diff.ts';
import { itemWords } from './record.ts';
import type { ChangeRecord, Correction, RecordedChange } from './record.ts';
import { countsText } from './report.ts';
import { releaseKey } from './snapshot.ts';
import type { Fields, NodeState, Snapshot } from './snapshot.ts';

type Place = Pick<Diagnostic, 'file' | 'line' | 'col'>;

const show = (value: unknown): string => (value === undefined ? 'nothing' : JSON.stringify(value));

function at(record: ChangeRecord, pointer: readonly PathSegment[], where: 'key' | 'value' = 'value'): Place {
  return { file: record.file, ...record.locate(pointer, where) };
}

const entryPlace = (record: ChangeRecord, entry: RecordedChange): string => {
  const { line, col } = record.locate(entry.at);
  return `${record.file}:${line}:${col}`;
};

// ---- Records agree --------------------------------------------------------------------------------------

/** A field's value as the last record to touch it left it (undefined: not there), and which record. */
interface KnownField {
  value: unknown;
  record: ChangeRecord;
  entry: RecordedChange;
}

/** What the records so far say of one item. */
interface Known {
  exists: boolean;
  fields: Map<string, KnownField>;
  last: { record: ChangeRecord; entry: RecordedChange };
}

/** The items the metadata has now, and the ids withdrawn in metadata/retired.yaml, by key. */
export interface Present {
  has(key: string): boolean;
  retired: ReadonlySet<string>;
}

/**
 * Records, oldest first, tell one history: an item is added once, changed only while it exists,
 * and each record's old values are what the records before it left; and what they name exists
 * (in the metadata, or withdrawn in retired.yaml), and what they remove is gone.
 */
export function recordsAgree(records: readonly ChangeRecord[], present: Present): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const known = new Map<string, Known>();
  for (const record of records) {
    for (const entry of record.changes) {
      const key = keyOf(entry);
      const before = known.get(key);
      if (before) diagnostics.push(...contradictions(before, record, entry));
      known.set(key, follow(before, record, entry));
    }
  }
  for (const [key, item] of known) diagnostics.push(...againstMetadata(key, item, present));
  return diagnostics;
}

const changeNumber = (entry: RecordedChange): string => `change ${(entry.at[1] as number) + 1}`;

/** Where an entry disagrees with what the records before it say of its item. */
function contradictions(before: Known, record: ChangeRecord, entry: RecordedChange): Diagnostic[] {
  const conflict = (pointer: readonly PathSegment[], message: string): Diagnostic => ({
    ...at(record, pointer),
    severity: 'error',
    rule: 'changes/conflict',
    message: `${changeNumber(entry)} ${message}`,
  });
  const what = itemWords(entry);
  const last = `${entryPlace(before.last.record, before.last.entry)} (${before.last.record.date})`;
  if (!before.exists) {
    const verb = entry.change === 'added' ? 'adds' : entry.change === 'removed' ? 'removes' : 'changes';
    return [conflict(entry.at, `${verb} ${what}, which ${last} removed; an id is never used again: correct one of the two records`)];
  }
  if (entry.change === 'added') return [conflict(entry.at, `adds ${what}, which ${last} already recorded; correct one of the two records`)];
  // Each old value is what the records before it left (a field `new` brings was not there).
  const old = entry.old ?? {};
  const found: Diagnostic[] = [];
  for (const field of fieldOrder([...Object.keys(old), ...Object.keys(entry.change === 'changed' ? (entry.new ?? {}) : {})])) {
    const was = before.fields.get(field);
    const claimed = Object.hasOwn(old, field) ? old[field] : undefined;
    if (!was || sameValue(claimed, was.value)) continue;
    found.push(
      conflict(
        Object.hasOwn(old, field) ? [...entry.at, 'old', field] : entry.at,
        `says the ${field} of ${what} was ${show(claimed)}, but ${entryPlace(was.record, was.entry)} (${was.record.date}) left it ${show(was.value)}; two records cannot both be right: correct one of them`,
      ),
    );
  }
  return found;
}

/** Whether what the records leave of an item is what the metadata has: there, or retired; gone, and not there. */
function againstMetadata(key: string, item: Known, present: Present): Diagnostic[] {
  const { record, entry } = item.last;
  const named = `${itemWords(entry)} (${entry.path})`;
  if (item.exists && !present.has(key) && !present.retired.has(key)) {
    const which = entry.kind === 'DataRelease' ? 'survey and release' : 'kind and id';
    const message = `${changeNumber(entry)} names ${named}, which the metadata does not have and metadata/retired.yaml does not list; correct the ${which}, or remove the entry`;
    return [{ ...at(record, entry.at), severity: 'error', rule: 'changes/unknown-item', message }];
  }
  if (!item.exists && present.has(key)) {
    const message = `${changeNumber(entry)} removes ${named}, which the metadata still has; if it stays, remove the entry (or the record)`;
    return [{ ...at(record, entry.at), severity: 'error', rule: 'changes/conflict', message }];
  }
  return [];
}

/** What an item is known to be once a record's entry has happened to it. */
function follow(before: Known | undefined, record: ChangeRecord, entry: RecordedChange): Known {
  const last = { record, entry };
  if (entry.change === 'removed') return { exists: false, fields: before?.fields ?? new Map<string, KnownField>(), last };
  const fields = new Map<string, KnownField>(entry.change === 'added' ? [] : (before?.fields ?? []));
  const old = entry.old ?? {};
  const now = entry.new ?? {};
  for (const field of new Set([...Object.keys(old), ...Object.keys(now)])) {
    fields.set(field, { value: Object.hasOwn(now, field) ? now[field] : undefined, record, entry });
  }
  return { exists: true, fields, last };
}

// ---- Replaying records ----------------------------------------------------------------------------------

/**
 * The states `before` is left in once the entries have happened to it, in order: what the
 * metadata would be if the records said all there is. Entries about items neither side holds (in
 * files that did not change) are passed over.
 */
export function replay(before: Snapshot, after: Snapshot, entries: readonly Change[]): Map<string, NodeState> {
  const states = new Map(before);
  for (const entry of entries) {
    const key = keyOf(entry);
    const current = states.get(key);
    const now = after.get(key);
    if (entry.change === 'removed') {
      states.delete(key);
    } else if (entry.change === 'added') {
      const place = now ?? current;
      if (place) states.set(key, { ...place, fields: { ...(entry.new ?? {}) } });
    } else if (current) {
      const changed = entry.new ?? {};
      // A field in `old` and not in `new` is no longer there.
      const gone = new Set(Object.keys(entry.old ?? {}).filter((field) => !Object.hasOwn(changed, field)));
      const fields: Fields = { ...Object.fromEntries(Object.entries(current.fields).filter(([field]) => !gone.has(field))), ...changed };
      const moved = entry.movedFrom !== undefined && now ? { parent: now.parent, names: now.names } : {};
      states.set(key, { ...current, ...moved, fields });
    }
  }
  return states;
}

// ---- Where a change is ------------------------------------------------------------------------------------

/**
 * Where to point at a change in the metadata: the item now (at `field` if given, else its id or
 * name), or for a removal the nearest item above it that is still there.
 */
export function placeOfChange(change: Change, before: Snapshot, after: Snapshot, field?: string): Place {
  const key = keyOf(change);
  const state = after.get(key);
  if (state) return locateState(state, field);
  for (let up = before.get(key)?.parent; up; up = before.get(up)?.parent) {
    const found = after.get(up);
    if (found) return locateState(found);
  }
  const release = after.get(releaseKey(change.survey, change.release ?? ''));
  return release ? { file: release.file.display, line: 0, col: 0 } : { file: change.path, line: 0, col: 0 };
}

function locateState(state: NodeState, field?: string): Place {
  const key = field !== undefined && Object.hasOwn(state.fields, field) ? field : state.id !== undefined ? 'id' : 'name';
  const { line, col } = state.file.locate([...state.pointer(), key]);
  return { file: state.file.display, line, col };
}

// ---- A pull request's records -----------------------------------------------------------------------

export interface Coverage {
  /** How the base is named in messages. */
  base: string;
  before: Snapshot;
  after: Snapshot;
  /** The changes since the base. */
  changes: readonly Change[];
  /** The records that are new since the base, oldest first. */
  records: readonly ChangeRecord[];
}

const ADD = '`archive-schema changes add --summary "…"`';

/**
 * A pull request that changes the metadata brings a record of it: its new records, replayed over
 * the base, give the metadata as it is. What they leave out is noted once; an entry the metadata
 * no longer matches is noted at the entry. Warnings: `--strict` makes them errors.
 */
export function coverage(given: Coverage): Diagnostic[] {
  if (given.changes.length === 0 && given.records.length === 0) return [];
  const entries = given.records.flatMap((record) => record.changes.map((entry) => ({ record, entry })));
  const lastEntry = new Map(entries.map((e) => [keyOf(e.entry), e]));
  const remaining = diffSnapshots(
    replay(
      given.before,
      given.after,
      entries.map((e) => e.entry),
    ),
    given.after,
  );
  const diagnostics: Diagnostic[] = [];
  const unrecorded: Change[] = [];
  for (const change of remaining) {
    const recorded = lastEntry.get(keyOf(change));
    if (!recorded) {
      unrecorded.push(change);
      continue;
    }
    const { record, entry } = recorded;
    diagnostics.push({
      ...at(record, entry.at),
      severity: 'warning',
      rule: 'changes/stale',
      message: `change ${(entry.at[1] as number) + 1} (${itemWords(entry)}) no longer matches the metadata: ${mismatch(change)}; correct the record, or remove it and run ${ADD} again`,
    });
  }
  const [first] = unrecorded;
  if (first) {
    const place = placeOfChange(first, given.before, given.after);
    const counts = countsText(countChanges(unrecorded));
    const message =
      given.records.length === 0
        ? `the metadata changed since ${given.base} (${counts}) and no change record is new since then; record it with ${ADD}, and commit the file it writes`
        : `${unrecorded.length === 1 ? 'a change' : `${unrecorded.length} changes`} since ${given.base} (${counts}, from ${first.path}) ${unrecorded.length === 1 ? 'is' : 'are'} in no change record new since then; record ${unrecorded.length === 1 ? 'it' : 'them'} with ${ADD}`;
    diagnostics.push({
      ...place,
      severity: 'warning',
      rule: given.records.length === 0 ? 'changes/missing' : 'changes/unrecorded',
      message,
    });
  }
  return diagnostics;
}

/** How the metadata differs from what the records say (a change from the records' state to the metadata's). */
function mismatch(change: Change): string {
  if (change.change === 'added') return 'the records say it is gone, but the metadata has it';
  if (change.change === 'removed') return 'the records say it is there, but the metadata does not have it';
  if (change.movedFrom !== undefined && !change.new && !change.old) return `the metadata has it at ${change.path}`;
  const fields = fieldOrder([...Object.keys(change.old ?? {}), ...Object.keys(change.new ?? {})]);
  const [field = ''] = fields;
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more field${fields.length > 2 ? 's' : ''})` : '';
  return `its ${field} is ${show(change.new?.[field])} in the metadata, where the records leave it ${show(change.old?.[field])}${more}`;
}

// ---- Released data ------------------------------------------------------------------------------------

/** The fields of a released column that clients depend on; a table's name. */
const GUARDED_FIELDS: Partial<Record<string, readonly string[]>> = {
  CatalogueColumn: ['name', 'unit', 'ucd', 'datatype'],
  CatalogueTable: ['name'],
  DataRelease: ['released'],
};

/** What a change does to released data, in words, if it touches what clients depend on. */
export function guardedChange(change: Change, before: Snapshot): string | undefined {
  const guarded = GUARDED_FIELDS[change.kind];
  if (!guarded || change.change === 'added') return undefined;
  if (change.change === 'removed') return change.kind === 'DataRelease' ? undefined : 'it is removed';
  const parts: string[] = [];
  if (change.movedFrom !== undefined && change.kind !== 'DataRelease') parts.push(`it moves to ${change.path}`);
  for (const field of guarded) {
    const had = change.old && Object.hasOwn(change.old, field);
    const has = change.new && Object.hasOwn(change.new, field);
    if (!had && !has) continue;
    // A datatype recorded for the first time describes what the column always held (types came to
    // the metadata after many releases): only changing or removing one is guarded.
    if (field === 'datatype' && !had) continue;
    if (field === 'name') parts.push(`it is renamed ${show(change.new?.name)}`);
    else if (had && has) parts.push(`its ${field} changes from ${show(change.old?.[field])} to ${show(change.new?.[field])}`);
    else if (has) parts.push(`its ${field} is set to ${show(change.new?.[field])}`);
    else parts.push(`its ${field} ${show(change.old?.[field])} is removed`);
  }
  // A release's `released` is guarded only once it was released: setting it the first time is how it is released.
  if (change.kind === 'DataRelease' && before.get(keyOf(change))?.fields.released === undefined) return undefined;
  return parts.length > 0 ? parts.join(', and ') : undefined;
}

/** When a release was released, at the base, if it was. */
function releasedOn(before: Snapshot, change: Change): string | undefined {
  const state = before.get(keyOf(change));
  const released = before.get(releaseKey(state?.survey ?? change.survey, state?.release ?? change.release ?? ''))?.fields.released;
  return typeof released === 'string' ? released : undefined;
}

/** A release as curators name it: survey/release, from the base. */
function releaseName(before: Snapshot, change: Change): string {
  const state = before.get(keyOf(change));
  return (
    before.get(releaseKey(state?.survey ?? change.survey, state?.release ?? change.release ?? ''))?.names.join('/') ?? change.release ?? ''
  );
}

/** What a refusal is about: a release, or an item and the release it belongs to. */
function subjectOf(change: Change, release: string): string {
  return change.kind === 'DataRelease' ? `release ${release}` : `${itemWords(change)} (${change.path}) belongs to release ${release}`;
}

export interface ReleasedGuard {
  before: Snapshot;
  after: Snapshot;
  changes: readonly Change[];
  /** The records new since the base, oldest first: where corrections are marked. */
  records: readonly ChangeRecord[];
}

/**
 * Released data cannot change silently: removing or renaming a released table or column, or
 * changing a column's unit, UCD or datatype, is an error unless a new record marks it as a
 * correction with a reason. A table removed with its columns is one error, at the table.
 */
export function releasedGuard(given: ReleasedGuard): Diagnostic[] {
  const corrections = new Map<string, Correction>();
  const entries = new Map<string, { record: ChangeRecord; entry: RecordedChange }>();
  for (const record of given.records)
    for (const entry of record.changes) {
      entries.set(keyOf(entry), { record, entry });
      if (entry.correction) corrections.set(keyOf(entry), entry.correction);
    }
  const removed = new Set(given.changes.filter((c) => c.change === 'removed').map(keyOf));
  const diagnostics: Diagnostic[] = [];
  for (const change of given.changes) {
    const what = guardedChange(change, given.before);
    const released = releasedOn(given.before, change);
    if (what === undefined || released === undefined) continue;
    const key = keyOf(change);
    const parent = given.before.get(key)?.parent;
    // Removed with its table: said once, at the table.
    if (change.change === 'removed' && parent !== undefined && removed.has(parent) && GUARDED_FIELDS[given.before.get(parent)?.kind ?? ''])
      continue;
    if (corrections.has(key)) continue;
    const recorded = entries.get(key);
    const how = recorded
      ? `add \`correction: {reason: "…"}\` to change ${(recorded.entry.at[1] as number) + 1} of ${recorded.record.file} (line ${recorded.record.locate(recorded.entry.at).line}), saying why it had to change`
      : 'run `archive-schema changes add --summary "…" --correction "why it had to change"`';
    const field =
      change.change === 'changed' ? (GUARDED_FIELDS[change.kind] ?? []).find((f) => change.new && Object.hasOwn(change.new, f)) : undefined;
    diagnostics.push({
      ...placeOfChange(change, given.before, given.after, field),
      severity: 'error',
      rule: 'changes/released',
      message: `${subjectOf(change, releaseName(given.before, change))}, released ${released}, and ${what}: released data cannot change silently. If this corrects a mistake, record it as a correction: ${how}; otherwise undo the change`,
    });
  }
  return diagnostics;
}

/** Marks the changes that touch released data as corrections, with the curator's reason. */
export function markCorrections(
  changes: readonly Change[],
  before: Snapshot,
  reason: string,
): { changes: (Change & { correction?: Correction })[]; marked: number } {
  let marked = 0;
  const out = changes.map((change) => {
    if (guardedChange(change, before) === undefined || releasedOn(before, change) === undefined) return change;
    marked++;
    return { ...change, correction: { reason } };
  });
  return { changes: out, marked };
}
