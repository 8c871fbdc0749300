// What the change records add to the schema browser's pages: a link to the changelog in every
// page's footer, and on the page of a survey, release, group, table, facility or band when it was
// added and last changed, each date linked to its record on the release's (or survey's) changelog;
// what the page lists (a table's columns, a facility's products) added, changed or removed since,
// each linked to its row. A page whose node no record names says nothing new.

import { keyOf } from '../../changes/diff.ts';
import { later, releasePlace, timelines } from '../../changes/timeline.ts';
import type { PublishedRecord } from '../../changes/published.ts';
import type { ItemTimeline, Mention, Timelines } from '../../changes/timeline.ts';
import { KINDS } from '../../kinds/registry.ts';
import { facts, scrollTable } from '../browser/pages/html.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import type { PageNode, PageNotes, PageRow, ReferenceInput } from '../output.ts';
import { ARCHIVE_FOLDER, changelogFile, changelogHref, folderOf, recordId } from './places.ts';
import { dateHtml } from './record.ts';

export function changesPageNotes(input: ReferenceInput): PageNotes | undefined {
  const records = input.changes?.records ?? [];
  if (records.length === 0) return undefined;
  const known = timelines(records);
  return {
    links: [{ file: changelogFile(ARCHIVE_FOLDER), label: 'Changes' }],
    note: (node, from) => noteOn(node, from, known),
  };
}

/** The key of the item a page or a row shows, as records name it. */
function keyOfNode(node: Pick<PageNode, 'kind' | 'id' | 'release'> & { survey: number }): string {
  return keyOf(node);
}

/** A row's history worth telling: anything but having come with the page's node and never changed. */
function rowTimeline(row: PageRow, survey: number, own: ItemTimeline | undefined, known: Timelines): ItemTimeline | undefined {
  const timeline = known.items.get(keyOfNode({ kind: row.kind, id: row.id, release: row.release, survey }));
  if (!timeline) return undefined;
  const cameWith = timeline.added !== undefined && timeline.added.record === own?.added?.record;
  return cameWith && !timeline.changed && !timeline.removed ? undefined : timeline;
}

function noteOn(node: PageNode, from: readonly string[], known: Timelines): Html {
  if (node.kind === 'Survey' || node.kind === 'DataRelease') return scopeNote(node, from, known);
  const own = known.items.get(keyOfNode({ ...node, survey: node.survey.id }));
  const rows = (node.rows ?? []).flatMap((row) => {
    const timeline = rowTimeline(row, node.survey.id, own, known);
    return timeline ? [{ row, timeline }] : [];
  });
  const removed = known.removedFrom.get(node.path) ?? [];
  if (!own && rows.length === 0 && removed.length === 0) return html``;
  // The page's node changed when it did, or anything its page lists did (but for what came with it).
  let changed = own?.changed;
  for (const { timeline } of rows) {
    const addedApart = timeline.added && timeline.added.record !== own?.added?.record ? timeline.added : undefined;
    changed = later(changed, later(timeline.changed, addedApart));
  }
  for (const mention of removed) changed = later(changed, mention);
  const link = recordLink(node, from);
  const dates = facts([
    ['Added', own?.added ? link(own.added.record) : undefined],
    ['Last changed', changed ? link(changed.record) : undefined],
  ]);
  return html`${dates}${rowsTable(node, rows, removed, link)}`;
}

/** A survey's or release's page: when it was added, when anything in it last changed, and its changelog. */
function scopeNote(node: PageNode, from: readonly string[], known: Timelines): Html {
  const place = node.kind === 'Survey' ? String(node.survey.id) : releasePlace(node.survey.id, node.release ?? '');
  const records = known.touching.get(place) ?? [];
  const latest = records.at(-1);
  if (!latest) return html``;
  const own = known.items.get(keyOfNode({ ...node, survey: node.survey.id }));
  const link = recordLink(node, from);
  const what = node.kind === 'Survey' ? "the survey's" : "the release's";
  return facts([
    ['Added', own?.added ? link(own.added.record) : undefined],
    ['Last changed', latest === own?.added?.record ? undefined : link(latest)],
    [
      'Changes',
      html`<a href="${logHref(node, from)}">${what} changelog</a> (${records.length} ${records.length === 1 ? 'record' : 'records'})`,
    ],
  ]);
}

/** The changelog a node's records are on: its release's, or a survey's own. */
function logFolder(node: PageNode): readonly string[] {
  return folderOf(node.survey.name, node.kind === 'Survey' ? undefined : node.release);
}

function logHref(node: PageNode, from: readonly string[]): string {
  return changelogHref(from, logFolder(node));
}

/** A record as its date linked to it on the node's changelog, with its summary. */
function recordLink(node: PageNode, from: readonly string[]): (record: PublishedRecord) => Html {
  const log = logHref(node, from);
  return (record) => html`<a href="${`${log}#${recordId(record)}`}">${dateHtml(record.date)}</a> <span class="muted">${record.summary}</span>`;
}

/** What the page lists, added, changed or removed since: a row each, linked to its place on the page. */
function rowsTable(
  node: PageNode,
  rows: readonly { row: PageRow; timeline: ItemTimeline }[],
  removed: readonly Mention[],
  link: (record: PublishedRecord) => Html,
): Html {
  if (rows.length === 0 && removed.length === 0) return html``;
  const dated = (mention: Mention | undefined) => (mention ? link(mention.record) : html`<span class="muted">–</span>`);
  const lines = [
    ...rows.map(
      ({ row, timeline }) =>
        html`<tr><th scope="row"><a href="${row.href}"><code>${row.name}</code></a></th><td>${dated(timeline.added)}</td><td>${dated(timeline.changed)}</td></tr>`,
    ),
    ...removed.map(
      (mention) =>
        html`<tr><th scope="row"><code>${nameOf(mention)}</code> <span class="tag">removed</span></th><td><span class="muted">–</span></td><td>${link(mention.record)}</td></tr>`,
    ),
  ];
  const kind = rows[0]?.row.kind ?? removed[0]?.entry.kind;
  const label = kind ? KINDS[kind].label : 'item';
  const heading = `${label.charAt(0).toUpperCase()}${label.slice(1)}`;
  return scrollTable(`${heading}s added, changed or removed`, [heading, 'Added', 'Last changed'], lines);
}

/** A removed item's name: as its record gives it, or its path's last (a column's name may hold a slash). */
function nameOf(mention: Mention): string {
  const { path, old } = mention.entry;
  return typeof old?.name === 'string' ? old.name : path.slice(path.lastIndexOf('/') + 1);
}
