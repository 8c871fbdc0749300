// The pages of a catalogue group and of each of its tables. A table's page lists every column in the
// order the curators wrote them, each row reachable by a link to `#col-<name>`.

import {
  columnId,
  count,
  descriptionHtml,
  displayName,
  documentationHtml,
  escapeHtml,
  linkFrom,
  nodeFacts,
  plural,
  scrollTable,
  ucdHtml,
  unitHtml,
} from './html.ts';
import { childPath, nodePage, parentCrumbs, parentPath, releaseCrumbs } from './places.ts';
import type { ParentPlace, ReleasePlace } from './places.ts';
import type { CatalogueColumn, CatalogueGroup, CatalogueTable } from './types.ts';
import { hasUcdWord } from '../../../vocabularies/ucd.ts';

/** True when the column's UCD has the word `meta.main`: the table's main value of its kind. */
export function isMain(column: Pick<CatalogueColumn, 'ucd'>): boolean {
  return hasUcdWord(column.ucd, 'meta.main');
}

function columnRow(column: CatalogueColumn): string {
  const id = columnId(column.name);
  const main = isMain(column) ? ' <span class="badge" title="The main column of its kind in this table (meta.main)">main</span>' : '';
  const pretty = column.pretty_name?.trim() ? `<div class="pretty">${escapeHtml(column.pretty_name)}</div>` : '';
  return (
    `<tr id="${escapeHtml(id)}" data-name="${escapeHtml(column.name)}"${isMain(column) ? ' class="main"' : ''}>` +
    `<th scope="row"><code class="name">${escapeHtml(column.name)}</code>${main}` +
    `<a class="permalink" href="#${escapeHtml(id)}" aria-label="Link to column ${escapeHtml(column.name)}" title="Link to this column">#</a>${pretty}</th>` +
    `<td class="desc" data-label="Description">${descriptionHtml(column.description)}${documentationHtml(column)}</td>` +
    `<td class="ucd-cell" data-label="UCD">${ucdHtml(column.ucd)}</td>` +
    `<td class="unit" data-label="Unit">${unitHtml(column.unit)}</td>` +
    `<td class="num" data-label="Id">${column.id}</td></tr>`
  );
}

/**
 * A table's page: its description, facts and every column. `place.parent` is the table's group;
 * `note` is what other outputs say of the table (outputs/output.ts, PageNotes).
 */
export function tablePage(table: CatalogueTable, place: ParentPlace, note = ''): string {
  const path = childPath(place, 'catalogues', table.name);
  const mains = table.columns.filter(isMain).length;
  const body =
    `<div class="lead">${descriptionHtml(table.description)}</div>\n` +
    documentationHtml(table) +
    nodeFacts(table, [
      ['Table', `<code>${escapeHtml(table.name)}</code>`],
      ['Columns', count(table.columns.length)],
      ['Input catalogue', table.input_cat ? 'yes' : undefined],
      ['Table id', String(table.id)],
    ]) +
    note +
    (mains
      ? `<p class="note"><span class="badge">main</span> marks the table's main column of each kind (UCD word <code>meta.main</code>).</p>\n`
      : '') +
    scrollTable(
      `Columns of ${table.name}`,
      ['Column', 'Description', 'UCD', 'Unit', { num: 'Id' }],
      table.columns.map(columnRow),
      'columns',
      {
        // The table's address, which the page's script makes each column's deep link from.
        'data-address': [place.survey.name, place.release.name, 'catalogues', place.parent.name, table.name].join('.'),
      },
    );
  return nodePage(path, table, place, parentCrumbs(place, 'catalogues'), body);
}

/** A catalogue group's page: its tables, each with its description and number of columns; `note` as a table's. */
export function groupPage(group: CatalogueGroup, place: ReleasePlace, note = ''): string {
  const path = parentPath(place, 'catalogues', group.name);
  const inner: ParentPlace = { ...place, parent: group };
  const rows = group.tables.map(
    (t) =>
      `<tr><th scope="row"><a href="${escapeHtml(linkFrom(path, childPath(inner, 'catalogues', t.name)))}">${escapeHtml(displayName(t))}</a>` +
      `${t.input_cat ? ' <span class="tag">input</span>' : ''}</th>` +
      `<td>${descriptionHtml(t.description)}</td><td class="num">${count(t.columns.length)}</td></tr>`,
  );
  const columns = group.tables.reduce((n, t) => n + t.columns.length, 0);
  const body =
    `<div class="lead">${descriptionHtml(group.description)}</div>\n` +
    documentationHtml(group) +
    nodeFacts(group, [
      ['Group', `<code>${escapeHtml(group.name)}</code>`],
      ['Holds', `${plural(group.tables.length, 'table')}, ${plural(columns, 'column')}`],
    ]) +
    note +
    scrollTable(`Tables of ${group.name}`, ['Table', 'Description', { num: 'Columns' }], rows);
  return nodePage(path, group, place, releaseCrumbs(place), body);
}
