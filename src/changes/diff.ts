// The structural diff: what was added, removed and changed between two snapshots of the metadata,
// matched by key (so a rename is a change of name, not a removal and an addition), field by field.

import { KIND_TYPES } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { compareOrder } from './snapshot.ts';
import type { Fields, NodeState, Snapshot } from './snapshot.ts';

export type ChangeType = 'added' | 'removed' | 'changed';

export const CHANGE_TYPES: readonly ChangeType[] = ['added', 'removed', 'changed'];

/** One survey, release or node added, removed or changed: what a diff lists and a change record keeps. */
export interface Change {
  change: ChangeType;
  kind: KindType;
  /** Undefined for a release. */
  id?: number;
  /** The survey's id (a survey's own). */
  survey: number;
  /** The release's name; undefined for a survey. */
  release?: string;
  /** Names from the survey down, joined by `/`: where it is now, or for a removal where it was. */
  path: string;
  /** Where it was, when it now sits in another parent. */
  movedFrom?: string;
  /** A removal's fields; a change's fields as they were (only those that changed and were there before). */
  old?: Fields;
  /** An addition's fields; a change's fields as they are (only those that changed and are there now). */
  new?: Fields;
}

/** The key a change is about: the same for a survey, release or node as its snapshot's. */
export function keyOf(change: Pick<Change, 'kind' | 'id' | 'survey' | 'release'>): string {
  if (change.kind === 'DataRelease') return `DataRelease:${change.survey}/${change.release ?? ''}`;
  return `${change.kind}:${change.id ?? ''}`;
}

/** Whether two field values are the same: the values are plain data, as parsed from YAML. */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Field names in a stable order: the name first, then the rest alphabetically. */
export function fieldOrder(names: Iterable<string>): string[] {
  return [...new Set(names)].sort((a, b) => (a === 'name' ? -1 : b === 'name' ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

/** The fields that differ, as they were and as they are; undefined when none does. */
export function fieldChanges(before: Fields, after: Fields): { old: Fields; new: Fields } | undefined {
  const old: Fields = {};
  const now: Fields = {};
  let any = false;
  for (const field of fieldOrder([...Object.keys(before), ...Object.keys(after)])) {
    const had = Object.hasOwn(before, field);
    const has = Object.hasOwn(after, field);
    if (had && has && sameValue(before[field], after[field])) continue;
    any = true;
    if (had) old[field] = before[field];
    if (has) now[field] = after[field];
  }
  return any ? { old, new: now } : undefined;
}

function base(state: NodeState, change: ChangeType): Change {
  return {
    change,
    kind: state.kind,
    ...(state.id !== undefined ? { id: state.id } : {}),
    survey: state.survey,
    ...(state.release !== undefined ? { release: state.release } : {}),
    path: state.names.join('/'),
  };
}

/**
 * Every difference between two snapshots, in tree order (where each is now; a removal where it
 * was). Pure: the same snapshots give the same list.
 */
export function diffSnapshots(before: Snapshot, after: Snapshot): Change[] {
  const found: { change: Change; order: (number | string)[] }[] = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    if (!now) {
      found.push({ change: { ...base(was, 'removed'), old: was.fields }, order: was.order });
      continue;
    }
    const fields = fieldChanges(was.fields, now.fields);
    const moved = was.parent !== now.parent;
    if (!fields && !moved) continue;
    const change: Change = { ...base(now, 'changed'), ...(moved ? { movedFrom: was.names.join('/') } : {}) };
    found.push({ change: fields ? { ...change, old: fields.old, new: fields.new } : change, order: now.order });
  }
  for (const [key, now] of after) {
    if (!before.has(key)) found.push({ change: { ...base(now, 'added'), new: now.fields }, order: now.order });
  }
  const rank = (c: Change) => CHANGE_TYPES.indexOf(c.change);
  found.sort(
    (a, b) =>
      compareOrder(a.order, b.order) ||
      rank(a.change) - rank(b.change) ||
      (keyOf(a.change) < keyOf(b.change) ? -1 : keyOf(a.change) > keyOf(b.change) ? 1 : 0),
  );
  return found.map((f) => f.change);
}

export type Counts = Map<KindType, Record<ChangeType, number>>;

/** How many of each kind were added, removed and changed, kinds in the registry's order. */
export function countChanges(changes: readonly Change[]): Counts {
  const counts: Counts = new Map();
  for (const kind of KIND_TYPES) {
    const own = changes.filter((c) => c.kind === kind);
    if (own.length === 0) continue;
    counts.set(kind, { added: 0, removed: 0, changed: 0 });
    for (const c of own) (counts.get(kind) as Record<ChangeType, number>)[c.change]++;
  }
  return counts;
}
