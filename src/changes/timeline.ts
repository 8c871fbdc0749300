// When each survey, release and node was added, last changed and removed, as the change records
// tell it, and which records touch each survey and release: what the changelog and the browser's
// pages say of an item, each date the record's own (never the clock). Pure.

import { keyOf } from './diff.ts';
import type { PublishedRecord } from './published.ts';
import type { RecordedChange } from './record.ts';

/** One record's entry about an item. */
export interface Mention {
  record: PublishedRecord;
  entry: RecordedChange;
}

/** What the records say happened to one item, each the latest record to say so. */
export interface ItemTimeline {
  added?: Mention;
  changed?: Mention;
  removed?: Mention;
}

export interface Timelines {
  /** By item key (diff.ts keyOf). */
  items: ReadonlyMap<string, ItemTimeline>;
  /**
   * The removals, by the path of what held the removed item when it went (its own path without its
   * last name): a removed column is no longer in its table, so its table's page finds it by its path.
   */
  removedFrom: ReadonlyMap<string, readonly Mention[]>;
  /** The records that touch each survey (by id) and release (releasePlace), oldest first. */
  touching: ReadonlyMap<string, readonly PublishedRecord[]>;
}

export function timelines(records: readonly PublishedRecord[]): Timelines {
  const items = new Map<string, ItemTimeline>();
  const removedFrom = new Map<string, Mention[]>();
  const touching = new Map<string, PublishedRecord[]>();
  for (const record of records) {
    const where = placesOf(record);
    for (const place of [...[...where.surveys].map(String), ...where.releases]) listIn(touching, place).push(record);
    for (const entry of record.changes) {
      const key = keyOf(entry);
      const timeline = items.get(key) ?? {};
      timeline[entry.change] = { record, entry };
      items.set(key, timeline);
      if (entry.change === 'removed') {
        const parent = entry.path.slice(0, Math.max(0, entry.path.lastIndexOf('/')));
        listIn(removedFrom, parent).push({ record, entry });
      }
    }
  }
  return { items, removedFrom, touching };
}

/** The list at `key`, made empty if there is none: a list copied per record costs a thousand records' square. */
function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** The later of two mentions, in the records' order (oldest first: by date, then by name). */
export function later(a: Mention | undefined, b: Mention | undefined): Mention | undefined {
  if (!a) return b;
  if (!b) return a;
  return compareMentions(a, b) >= 0 ? a : b;
}

function compareMentions(a: Mention, b: Mention): number {
  if (a.record.date !== b.record.date) return a.record.date < b.record.date ? -1 : 1;
  return a.record.name < b.record.name ? -1 : a.record.name > b.record.name ? 1 : 0;
}

/** The survey (by id) and release (by survey id and name) each entry of a record belongs to. */
export function placesOf(record: PublishedRecord): { surveys: Set<number>; releases: Set<string> } {
  const surveys = new Set<number>();
  const releases = new Set<string>();
  for (const entry of record.changes) {
    surveys.add(entry.survey);
    if (entry.release !== undefined && entry.kind !== 'Survey') releases.add(releasePlace(entry.survey, entry.release));
  }
  return { surveys, releases };
}

/** A release's place among the records' entries: its survey's id and its name. */
export function releasePlace(survey: number, release: string): string {
  return `${survey}/${release}`;
}
