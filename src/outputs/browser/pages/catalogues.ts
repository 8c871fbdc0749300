// The pages of a catalogue group and of each of its tables. A table's page lists every column in the
// order the curators wrote them, each row reachable by a link to `#col-<name>`.

import { html } from '../../html.ts';
import type { Html } from '../../html.ts';
import {
  columnId,
  count,
  descriptionHtml,
  displayName,
  documentationHtml,
  linkFrom,
  nodeFacts,
  plural,
  scrollTable,
  typeHtml,
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

function columnRow(column: CatalogueColumn): Html {
  const id = columnId(column.name);
  const main = isMain(column);
  const badge = main && html` <span class="badge" title="The main column of its kind in this table (meta.main)">main</span>`;
  const permalink = html`<a class="permalink" href="#${id}" aria-label="Link to column ${column.name}" title="Link to this column">#</a>`;
  const pretty = column.pretty_name?.trim() && html`<div class="pretty">${column.pretty_name}</div>`;
  const cells = [
    html`<th scope="row"><code class="name">${column.name}</code>${badge}${permalink}${pretty}</th>`,
    html`<td class="desc" data-label="Description">${descriptionHtml(column.description)}${documentationHtml(column)}</td>`,
    html`<td class="ucd-cell" data-label="UCD">${ucdHtml(column.ucd)}</td>`,
    html`<td class="unit" data-label="Unit">${unitHtml(column.unit)}</td>`,
    html`<td class="datatype" data-label="Type">${typeHtml(column)}</td>`,
    html`<td class="num" data-label="Id">${column.id}</td>`,
  ];
  return html`<tr id="${id}" data-name="${column.name}"${main && html` class="main"`}>${cells}</tr>`;
}

/**
 * A table's page: its description, facts and every column. `place.parent` is the table's group;
 * `note` is what other outputs say of the table (outputs/output.ts, PageNotes).
 */
export function tablePage(table: CatalogueTable, place: ParentPlace, note: Html = html``): string {
  const path = childPath(place, 'catalogues', table.name);
  const facts = nodeFacts(table, [
    ['Table', html`<code>${table.name}</code>`],
    ['Columns', count(table.columns.length)],
    ['Input catalogue', table.input_cat ? 'yes' : undefined],
    ['Table id', String(table.id)],
  ]);
  const mainNote =
    table.columns.some(isMain) &&
    html`<p class="note"><span class="badge">main</span> marks the table's main column of each kind (UCD word <code>meta.main</code>).</p>\n`;
  const columns = scrollTable(
    `Columns of ${table.name}`,
    ['Column', 'Description', 'UCD', 'Unit', 'Type', { num: 'Id' }],
    table.columns.map(columnRow),
    'columns',
    // The table's address, which the page's script makes each column's deep link from.
    { 'data-address': [place.survey.name, place.release.name, 'catalogues', place.parent.name, table.name].join('.') },
  );
  const body = html`<div class="lead">${descriptionHtml(table.description)}</div>
${documentationHtml(table)}${facts}${note}${mainNote}${columns}`;
  return nodePage(path, table, place, parentCrumbs(place, 'catalogues'), body);
}

/** A catalogue group's page: its tables, each with its description and number of columns; `note` as a table's. */
export function groupPage(group: CatalogueGroup, place: ReleasePlace, note: Html = html``): string {
  const path = parentPath(place, 'catalogues', group.name);
  const inner: ParentPlace = { ...place, parent: group };
  const rows = group.tables.map((t) => {
    const link = html`<a href="${linkFrom(path, childPath(inner, 'catalogues', t.name))}">${displayName(t)}</a>`;
    const input = t.input_cat && html` <span class="tag">input</span>`;
    return html`<tr><th scope="row">${link}${input}</th><td>${descriptionHtml(t.description)}</td><td class="num">${count(t.columns.length)}</td></tr>`;
  });
  const columns = group.tables.reduce((n, t) => n + t.columns.length, 0);
  const facts = nodeFacts(group, [
    ['Group', html`<code>${group.name}</code>`],
    ['Holds', `${plural(group.tables.length, 'table')}, ${plural(columns, 'column')}`],
  ]);
  const tables = scrollTable(`Tables of ${group.name}`, ['Table', 'Description', { num: 'Columns' }], rows);
  const body = html`<div class="lead">${descriptionHtml(group.description)}</div>
${documentationHtml(group)}${facts}${note}${tables}`;
  return nodePage(path, group, place, releaseCrumbs(place), body);
}
