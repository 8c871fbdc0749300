// What every page of the schema browser is made with: the pages' paths and the relative links
// between them, and the small pieces shown on several pages (a node's prose, units, UCDs).
// Pages are written with `html` (outputs/html.ts), which escapes every value put into them.

import { html, joinHtml, raw } from '../../html.ts';
import type { Html } from '../../html.ts';
import { ucdVocabulary } from '../../../vocabularies/ucd.ts';
import { sanitiseHtml } from '../sanitise.ts';
import type { ColumnTypeFields } from '../../../kinds/catalogues.ts';
import { beyondApi } from '../../api/objects.ts';
import type { ApiObject } from '../../api/objects.ts';
import type { CatalogueColumn, Contact, Node } from './types.ts';

/**
 * A name as one segment of a page's path, percent-encoded. A name made only of dots would climb out
 * of its folder however it is written (URLs read `%2E%2E` as `..`); the metadata's schemas forbid
 * such names, and a page for one is refused.
 */
export function segment(name: string): string {
  let encoded = segments.get(name);
  if (encoded === undefined) {
    if (/^(?:\.|%2e)*$/i.test(name)) throw new Error(`"${name}" cannot name a page's folder`);
    encoded = encodeURIComponent(name);
    // Every link between pages names each folder on its way: a survey's or a release's some
    // thousands of times in a large archive. Names are few; the map is cleared should they not be.
    if (segments.size >= MOST_SEGMENTS) segments.clear();
    segments.set(name, encoded);
  }
  return encoded;
}

const segments = new Map<string, string>();
const MOST_SEGMENTS = 100_000;

/** The names of the page for a place below the site's root (`[]` is the home page). */
export type PagePath = readonly string[];

/**
 * How long a path is from which a page is a file of its own (`browse/s/r/catalogues/Group.html`,
 * `…/Group/Table.html`) rather than a folder's index.html (the survey's and release's pages): a
 * group, a facility, a table and a band. A folder for each of them made every build create and
 * remove thousands of folders; this way only a group or facility with tables or bands has one.
 */
export const FILE_PAGE_DEPTH = 5;

/** Whether a page at this path is a file named after its last name, not a folder's index.html. */
export function isFilePage(path: PagePath): boolean {
  return path.length >= FILE_PAGE_DEPTH;
}

/** The page's file below the site's root, as a link from the root: `browse/gama/dr3/index.html`. */
export function pageHref(path: PagePath): string {
  if (path.length === 0) return 'index.html';
  const names = path.map(segment);
  return isFilePage(path) ? `${names.join('/')}.html` : `${names.join('/')}/index.html`;
}

/** The way from a page at `path` up to the site's root: `''`, `../`, `../../`, … */
export function rootOf(path: PagePath): string {
  // Only names that can be folders: a page is where its path says.
  for (const name of path) segment(name);
  return '../'.repeat(isFilePage(path) ? path.length - 1 : path.length);
}

/** The link from one page to another, relative, so that the pages work from a folder (file://) as well. */
export function linkFrom(from: PagePath, to: PagePath): string {
  return rootOf(from) + pageHref(to);
}

/** The id of a column's row: `col-` and its name percent-encoded (never a space, the same in the link). */
export function columnId(name: string): string {
  return `col-${encodeURIComponent(name)}`;
}

/** A survey's id: the last segment of its API `url`. */
export function surveyId(url: string): string | undefined {
  return /\/api\/schema\/(\d+)\/?(?:[?#].*)?$/.exec(url)?.[1];
}

/** A node's display name: its pretty name, else its name. */
export function displayName(node: { name: string; pretty_name: string | null }): string {
  return node.pretty_name?.trim() ? node.pretty_name : node.name;
}

/** True for the placeholder curators write for a missing text (`-`, `None`, empty). */
export function isPlaceholder(text: string | null | undefined): boolean {
  const t = (text ?? '').trim();
  return t === '' || t === '-' || t.toLowerCase() === 'none';
}

/** A unit; "no unit" in muted text for the archive's `-`, `None` or empty, and "not recorded" for null, which is not known. */
export function unitHtml(unit: string | null): Html {
  if (unit === null) return html`<span class="muted">not recorded</span>`;
  return isPlaceholder(unit) ? html`<span class="muted">no unit</span>` : html`<code>${unit}</code>`;
}

/**
 * A column's VOTable type as the VO writes it: its datatype, with its arraysize in brackets when it
 * has one (`double`, `char[*]`, `float[3]`); empty when the metadata records none, never a guess.
 */
export function columnType(column: CatalogueColumn): string {
  const fields = beyondApi(column as unknown as ApiObject) as ColumnTypeFields | undefined;
  if (!fields?.datatype) return '';
  return fields.arraysize ? `${fields.datatype}[${fields.arraysize}]` : fields.datatype;
}

/** A column's type for its row: as `columnType` writes it, or "not recorded" in muted text. */
export function typeHtml(column: CatalogueColumn): Html {
  const type = columnType(column);
  return type === '' ? html`<span class="muted">not recorded</span>` : html`<code>${type}</code>`;
}

// Curator HTML reaches a page only through these two, raw once the sanitiser's allow-list has made it safe.

/** A node's short description, curator HTML made safe; a muted note when it has none. */
export function descriptionHtml(description: string | null, none = 'no description'): Html {
  return isPlaceholder(description) ? html`<span class="muted">${none}</span>` : raw(sanitiseHtml(description ?? ''));
}

/** A node's longer documentation, made safe, in its own block; nothing when it has none. */
export function documentationHtml(node: Pick<Node, 'documentation'>): Html {
  const clean = isPlaceholder(node.documentation) ? '' : sanitiseHtml(node.documentation).trim();
  return clean === '' ? html`` : html`<section class="prose" aria-label="Documentation">${raw(clean)}</section>\n`;
}

/** A contact as a mailto link. */
export function contactHtml(contact: Contact | null): Html {
  if (!contact) return html`<span class="muted">none</span>`;
  const email = contact.email.trim();
  return /^[^\s@<>"]+@[^\s@<>"]+$/.test(email) ? html`<a href="mailto:${email}">${contact.name}</a>` : html`${contact.name}`;
}

/** A number as people read it: thousands grouped with a thin space, the same on every machine. */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** "1 table", "3 tables". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** The date part of an API timestamp. */
export function day(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/**
 * A UCD with each word explained from the UCD1+ vocabulary, in a small list under it that every
 * reader sees (touch screens, print and screen readers too). `-` is an undefined UCD; a word the
 * vocabulary does not list is shown as written.
 */
export function ucdHtml(ucd: string): Html {
  // A table's columns share a few UCDs: each is explained once per thread.
  let html = UCD_HTML.get(ucd);
  if (html === undefined) {
    html = explainUcd(ucd);
    if (UCD_HTML.size > 50_000) UCD_HTML.clear();
    UCD_HTML.set(ucd, html);
  }
  return html;
}

const UCD_HTML = new Map<string, Html>();

function explainUcd(ucd: string): Html {
  if (isPlaceholder(ucd)) return html`<span class="muted">undefined</span>`;
  const words = ucdVocabulary().words;
  const parts = ucd.split(';').map((raw) => {
    const bare = raw.includes(':') ? raw.slice(raw.indexOf(':') + 1) : raw;
    const entry = words.get(bare.trim().toLowerCase());
    return { raw, description: entry?.description };
  });
  // Each word's description once (hover titles as well would double a table page's weight).
  const code = joinHtml(
    parts.map((p) => p.raw),
    html`;<wbr>`,
  );
  const explained = parts.filter((p) => p.description);
  const list = explained.length
    ? html`<dl class="ucd-words">${explained.map((p) => html`<dt>${p.raw}</dt><dd>${p.description}</dd>`)}</dl>`
    : '';
  return html`<code class="ucd">${code}</code>${list}`;
}

/** A fact's value: text, or HTML; left out when undefined or empty text. */
export type Fact = readonly [label: string, value: Html | string | undefined];

/** A definition list of label → value pairs, leaving out those without a value. */
export function facts(pairs: readonly Fact[]): Html {
  const shown = pairs.filter((p) => p[1] !== undefined && p[1] !== '');
  return shown.length ? html`<dl class="facts">${shown.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>\n` : html``;
}

/** The common facts of a node: version, file, dates and contact. */
export function nodeFacts(node: Node, extra: readonly Fact[] = []): Html {
  const file = node.file_name ? html`<code>${(node.file_path ?? '') + node.file_name}</code>` : undefined;
  return facts([
    ...extra,
    ['Version', isPlaceholder(node.version) ? undefined : (node.version ?? '')],
    ['File', file],
    ['Published', day(node.created)],
    ['Updated', day(node.updated)],
    ['Contact', node.contact ? contactHtml(node.contact) : undefined],
  ]);
}

/** A column's heading: its text, or `{ num }` for a column of numbers, aligned with them. */
export type Heading = string | { num: string };

/** A table inside the wrapper that scrolls it sideways on narrow screens. */
export function scrollTable(
  caption: string,
  head: readonly Heading[],
  rows: readonly Html[],
  className = '',
  attributes: Record<string, string> = {},
): Html {
  const cls = [className && html` class="${className}"`, Object.entries(attributes).map(([name, value]) => html` ${name}="${value}"`)];
  const headings = head.map((h) =>
    typeof h === 'string' ? html`<th scope="col">${h}</th>` : html`<th scope="col" class="num">${h.num}</th>`,
  );
  return html`<div class="scroll" role="region" aria-label="${caption}" tabindex="0">
<table${cls}>
<caption>${caption}</caption>
<thead><tr>${headings}</tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>
</div>
`;
}
