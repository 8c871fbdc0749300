// What each catalogue group and imaging facility gives the outputs beyond the API: texts rendered
// once per file, in the worker threads, and cached with it (fragment.ts), which the download and VO
// planners splice between their own heads and tails. A rebuild after one edit renders only that
// file's texts again.

import { SECTIONS } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import type { ApiObject } from './api/objects.ts';
import { manyTextName } from './output.ts';
import type { UnitPlace, UnitTextDeclaration } from './output.ts';
import { gzipMember } from '../site/compression.ts';
import { browserTexts } from './browser/texts.ts';
import {
  columnsCsvRows,
  columnsVotRows,
  productsCsvRows,
  productsVotRows,
  regionsCsvRows,
  regionsVotRows,
  tablesetGroupTables,
  tapColumnRows,
  tapTableRows,
} from './vo/index.ts';

/** Every text a declaration renders for one file, by the name it is kept as. */
export function renderUnitTexts(
  declared: UnitTextDeclaration,
  api: ApiObject,
  place: UnitPlace,
  kind: KindType,
  compact: Uint8Array,
): [string, Uint8Array | string][] {
  if ('render' in declared) return [[declared.name, declared.render(api, place, compact)]];
  return Object.entries(declared.renderMany(api, place, kind)).map(([name, text]) => [manyTextName(declared.name, name), text]);
}

/** Every kind with a file of its own in a release: catalogue groups and every kind of facility. */
const BOTH: readonly KindType[] = SECTIONS.map((s) => s.kind);
const GROUPS: readonly KindType[] = ['CatalogueGroup'];
const FACILITIES: readonly KindType[] = ['ImagingFacility'];
const PRODUCT_FACILITIES: readonly KindType[] = ['IFSFacility', 'SpectraFacility'];

export const UNIT_TEXTS: readonly UnitTextDeclaration[] = [
  // The compact JSON as a gzip member, for archive.json.gz.
  { name: 'json.gz', kinds: BOTH, filled: false, render: (_api, _place, compact) => gzipMember(compact) },
  // A row per column, per region, per IFS or spectra data product (download/, vo/).
  { name: 'columns.csv', kinds: GROUPS, filled: true, render: columnsCsvRows },
  { name: 'columns.vot', kinds: GROUPS, filled: true, render: columnsVotRows },
  { name: 'regions.csv', kinds: FACILITIES, filled: true, render: regionsCsvRows },
  { name: 'regions.vot', kinds: FACILITIES, filled: true, render: regionsVotRows },
  { name: 'products.csv', kinds: PRODUCT_FACILITIES, filled: true, render: productsCsvRows },
  { name: 'products.vot', kinds: PRODUCT_FACILITIES, filled: true, render: productsVotRows },
  // TAP_SCHEMA's tables and columns rows, and the VOSI tableset's tables.
  { name: 'tap-tables.vot', kinds: GROUPS, filled: false, render: tapTableRows },
  { name: 'tap-columns.vot', kinds: GROUPS, filled: false, render: tapColumnRows },
  { name: 'tableset.xml', kinds: GROUPS, filled: false, render: tablesetGroupTables },
  // The schema browser's pages of the file (a group's and its tables', a facility's and its bands'),
  // each with a NUL where the way to its survey's and release's pages goes, and the file's line on
  // its release's page.
  { name: 'browser', kinds: BOTH, filled: true, renderMany: browserTexts },
];

/** The declarations of a kind's texts. */
export function unitTextsOf(kind: KindType): UnitTextDeclaration[] {
  return UNIT_TEXTS.filter((t) => t.kinds.includes(kind));
}
