// The schema browser's search data: one script, `browse/search-data.js`, that sets
// `self.archiveSearch` to everything a search looks through. Each group or facility file adds its
// own entry, rendered with it in the worker threads and cached with it (texts.ts), and the planner
// splices the entries between a head listing the surveys and releases and the closing brackets: an
// edit rewrites this file from pieces, re-rendering only the edited file's entry.
//
// It is a script, not JSON, so that the pages load it with a script element, which works from the
// offline download opened as files, where fetching a file is refused. Its shape is columnar: a
// table's column names, UCDs, units and descriptions each in one array, which compresses well and
// which the page scans without building anything first.
//
//   self.archiveSearch = {
//     surveys: [[name, label, [[release, label], …]], …],
//     files: [
//       ["catalogues", survey, release, group, label, [[table, label, description,
//          [names…], [ucds…], [units…], [descriptions…], [types…]], …]],
//       ["imaging", survey, release, facility, label, [[band, label, description, [[region, label, description], …]], …]],
//       ["ifs" | "spectra", survey, release, facility, label, [[product, label, description], …]],
//     …]};

import type { KindType } from '../../kinds/registry.ts';
import type { ApiObject } from '../api/objects.ts';
import type { UnitPlace } from '../output.ts';
import { columnType, displayName, isPlaceholder } from './pages/html.ts';
import type { CatalogueGroup, DataProduct, ImagingFacility, ProductFacility } from './pages/index.ts';
import { dataKindOf } from './pages/places.ts';

/** The search data's file below the site's root. */
export const SEARCH_DATA_PATH = 'browse/search-data.js';

/** The longest description a search shows and looks through, in characters. */
const DESCRIPTION_LIMIT = 300;

/** A survey with its releases, as the search data's head lists them. */
export interface SearchSurvey {
  name: string;
  label: string;
  releases: { name: string; label: string }[];
}

/** The search data up to the first file's entry. */
export function searchHead(surveys: readonly SearchSurvey[]): string {
  const listed = surveys.map((s) => [s.name, s.label, s.releases.map((r) => [r.name, r.label])]);
  return `self.archiveSearch={surveys:${script(listed)},files:[\n`;
}

/** The search data after the last file's entry. */
export const SEARCH_TAIL = ']};\n';

/** A group's or facility's entry in the search data, a line ending with a comma. */
export function searchEntry(kind: KindType, api: ApiObject, place: UnitPlace): string {
  const dataKind = dataKindOf(kind);
  const node = api as unknown as { name: string; pretty_name: string | null };
  let children: unknown[];
  if (dataKind === 'catalogues') {
    children = (api as unknown as CatalogueGroup).tables.map((t) => [
      t.name,
      label(t),
      plainText(t.description),
      t.columns.map((c) => c.name),
      t.columns.map((c) => (isPlaceholder(c.ucd) ? '' : c.ucd)),
      t.columns.map((c) => (isPlaceholder(c.unit) ? '' : (c.unit ?? ''))),
      t.columns.map((c) => plainText(c.description)),
      // `double`, `char[*]`; empty where none is recorded.
      t.columns.map(columnType),
    ]);
  } else if (dataKind === 'imaging') {
    children = (api as unknown as ImagingFacility).bands.map((b) => [
      b.name,
      label(b),
      plainText(b.description),
      b.regions.map((r) => [r.name, label(r), plainText(r.description)]),
    ]);
  } else {
    children = (api as unknown as ProductFacility).products.map((p: DataProduct) => [p.name, label(p), plainText(p.description)]);
  }
  return `${script([dataKind, place.survey, place.release, node.name, label(node), children])},\n`;
}

/** A node's label when it differs from its name, else empty (the name is shown). */
function label(node: { name: string; pretty_name: string | null }): string {
  const shown = displayName(node);
  return shown === node.name ? '' : shown;
}

/** Curator HTML as the words a person reads, shortened; empty for "no description". */
export function plainText(html: string | null): string {
  if (isPlaceholder(html)) return '';
  const text = (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(lt|gt|amp|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > DESCRIPTION_LIMIT ? `${text.slice(0, DESCRIPTION_LIMIT - 1).trimEnd()}…` : text;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

/**
 * A value as a script literal: JSON, with `<` escaped so that no text can end the script element it
 * may be inlined in, and the two line separators JSON allows but older scripts did not.
 */
export function script(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
