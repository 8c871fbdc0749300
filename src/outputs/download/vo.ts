// The listings and VO documents of the download, and the VOSI tables at /vo/tables: each a head,
// the rows every group or facility rendered once (units.ts), and a tail. The same order, and the
// same heads and tails, give the reference path's documents (reference.ts), made from whole objects.

import { surveyUrl } from '../../site/routes.ts';
import type { KindType } from '../../kinds/registry.ts';
import { rootsOf } from '../../pipeline/assemble.ts';
import type { Archive, Entry, ReleaseEntry, SurveyEntry } from '../../pipeline/assemble.ts';
import type { NodeYaml } from '../../kinds/data.ts';
import { releaseHead } from '../api/objects.ts';
import type { ApiObject } from '../api/objects.ts';
import type { Piece } from '../../site/plan.ts';
import {
  columnsCsvHeader,
  columnsVotHead,
  columnsVotTail,
  csvField,
  productsCsvHeader,
  productsVotHead,
  productsVotTail,
  regionsCsvHeader,
  regionsVotHead,
  regionsVotTail,
  tablesetEmptySchema,
  tablesetHead,
  tablesetSchemaClose,
  tablesetSchemaOpen,
  tablesetTail,
  tapColumnsHead,
  tapSchemaHead,
  tapSchemaRow,
  tapSchemaTail,
  tapTablesHead,
  xmlText,
} from '../vo/index.ts';
import type { Place } from '../vo/index.ts';

/** What stands for one file's rows: a text name, and how the survey's URL is written into them. */
export type RowsOf = (entry: Entry<NodeYaml>, text: string, fill: string) => Piece;

/** A file of every group or facility of the archive, in order, with its place. */
interface Unit {
  survey: SurveyEntry;
  release: ReleaseEntry;
  entry: Entry<NodeYaml>;
  place: Place;
}

/** The files of these kinds, release by release, each release's in the order of `kinds`. */
function unitsOf(archive: Archive, ...kinds: KindType[]): Unit[] {
  return archive.surveys.flatMap((survey) =>
    survey.releases.flatMap((release) =>
      kinds.flatMap((kind) =>
        rootsOf(release, kind).map((entry) => ({
          survey,
          release,
          entry,
          place: { survey: survey.data.name, release: release.data.name },
        })),
      ),
    ),
  );
}

/** The survey's API URL as the listings hold it: ASCII (percent-encoded). */
function urlOf(survey: SurveyEntry, baseUrl: string): string {
  return new URL(surveyUrl(baseUrl, survey.data.id, null)).href;
}

/** Each VO document's path and its pieces. */
export function voDocuments(archive: Archive, baseUrl: string, rows: RowsOf): Map<string, Piece[]> {
  const groups = unitsOf(archive, 'CatalogueGroup');
  const facilities = unitsOf(archive, 'ImagingFacility');
  // IFS before spectra within a release, as the API's data types go.
  const products = unitsOf(archive, 'IFSFacility', 'SpectraFacility');
  const listing = (units: Unit[], text: string, fill: (url: string) => string) =>
    units.map((u) => rows(u.entry, text, fill(urlOf(u.survey, baseUrl))));
  // The releases with catalogues, each once, in order, with their groups.
  const releases: { unit: Unit; groups: Unit[] }[] = [];
  for (const unit of groups) {
    const last = releases[releases.length - 1];
    if (last?.unit.release === unit.release) last.groups.push(unit);
    else releases.push({ unit, groups: [unit] });
  }
  const head = (u: Unit): ApiObject => releaseHead(u.release.data);
  const survey = (u: Unit): ApiObject => ({ pretty_name: u.survey.data.pretty_name, title: u.survey.data.title });
  const tableset: Piece[] = [tablesetHead()];
  if (releases.length === 0) tableset.push(tablesetEmptySchema());
  for (const { unit, groups: inRelease } of releases) {
    tableset.push(tablesetSchemaOpen(unit.place, head(unit), survey(unit)));
    tableset.push(...inRelease.map((g) => rows(g.entry, 'tableset.xml', '')));
    tableset.push(tablesetSchemaClose());
  }
  tableset.push(tablesetTail());
  return new Map<string, Piece[]>([
    ['columns.csv', [columnsCsvHeader(), ...listing(groups, 'columns.csv', csvField)]],
    ['columns.vot', [columnsVotHead(), ...listing(groups, 'columns.vot', xmlText), columnsVotTail()]],
    ['regions.csv', [regionsCsvHeader(), ...listing(facilities, 'regions.csv', csvField)]],
    ['regions.vot', [regionsVotHead(), ...listing(facilities, 'regions.vot', xmlText), regionsVotTail()]],
    // Written when the archive has no IFS or spectra data too: a header, or a table without rows.
    ['products.csv', [productsCsvHeader(), ...listing(products, 'products.csv', csvField)]],
    ['products.vot', [productsVotHead(), ...listing(products, 'products.vot', xmlText), productsVotTail()]],
    [
      'tap_schema.vot',
      [
        tapSchemaHead(),
        ...releases.map(({ unit }, i) => tapSchemaRow(unit.place, head(unit), i, survey(unit))),
        tapTablesHead(),
        ...groups.map((g) => rows(g.entry, 'tap-tables.vot', '')),
        tapColumnsHead(),
        ...groups.map((g) => rows(g.entry, 'tap-columns.vot', '')),
        tapSchemaTail(),
      ],
    ],
    ['tables.xml', tableset],
  ]);
}
