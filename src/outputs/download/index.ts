// The offline download's data files (download/): the whole archive as JSON and gzip, and the VO
// tables (columns, regions and products as CSV and VOTable, TAP_SCHEMA, the VOSI tableset, also at
// vo/tables.xml). Their rows are rendered once per group or facility (its texts); the reference
// version makes the same files from whole objects.

import { KIND_TYPES, SECTIONS } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import type { NodeYaml } from '../../kinds/data.ts';
import type { Entry, ReleaseEntry, SurveyEntry } from '../../pipeline/assemble.ts';
import { gzipMember } from '../../site/compression.ts';
import { DOWNLOAD_DIR, detailFile } from '../../site/routes.ts';
import { wholeText } from '../../site/plan.ts';
import { encodeJson } from '../api/encode.ts';
import { nodeObject } from '../api/objects.ts';
import { responses } from '../api/responses.ts';
import type { Output, OutputFiles, ReferenceInput, UnitTextDeclaration } from '../output.ts';
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
} from '../vo/index.ts';
import { ARCHIVE_SCHEMA_VERSION, archiveParts } from './archive.ts';
import { ARCHIVE_FILE, VO_TABLES_FILE, planDownload } from './plan.ts';
import { voDocuments } from './vo.ts';

const BOTH: readonly KindType[] = SECTIONS.map((s) => s.kind);
const GROUPS: readonly KindType[] = ['CatalogueGroup'];
const FACILITIES: readonly KindType[] = ['ImagingFacility'];
const PRODUCT_FACILITIES: readonly KindType[] = ['IFSFacility', 'SpectraFacility'];

const TEXTS: readonly UnitTextDeclaration[] = [
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
];

export const download: Output = {
  name: 'download',
  texts: TEXTS,
  plan: planDownload,
  reference: referenceDownload,
};

/**
 * The download, the straightforward way: archive.json as one value serialised at once; the gzip
 * members over the same parts as the fast path's; each row text rendered from whole objects.
 */
function referenceDownload(input: ReferenceInput): OutputFiles {
  const { archive, baseUrl } = input;
  const files: OutputFiles = new Map();
  files.set(ARCHIVE_FILE, archiveJson(input));
  const members = archiveParts(input).map((part) =>
    gzipMember(typeof part === 'string' ? Buffer.from(part, 'utf8') : (part.compact as Uint8Array)),
  );
  files.set(`${ARCHIVE_FILE}.gz`, Buffer.concat(members));
  const rows = (entry: Entry<NodeYaml>, text: string, fill: string): string => {
    const declared = TEXTS.find((t) => t.name === text);
    const { survey, release = '' } = entry.file.placement;
    const kind = entry.file.kind as KindType;
    if (!declared || !('render' in declared)) throw new Error(`no text named ${text}`);
    const made = declared.render(nodeObject(kind, entry.data, [survey, release]), { survey, release }, new Uint8Array());
    return (typeof made === 'string' ? made : Buffer.from(made).toString('utf8')).replaceAll('\0', fill);
  };
  const documents = voDocuments(archive, baseUrl, rows);
  for (const [name, pieces] of documents) files.set(`${DOWNLOAD_DIR}/${name}`, wholeText(name, pieces));
  files.set(VO_TABLES_FILE, wholeText(VO_TABLES_FILE, documents.get('tables.xml') ?? []));
  return files;
}

/** archive.json whole: every survey's route as one value, with the counts of each type and the latest update. */
function archiveJson({ archive, baseUrl }: ReferenceInput): string {
  const items = (kind: KindType, entry: Entry<NodeYaml>, survey: SurveyEntry, release: ReleaseEntry) =>
    nodeObject(kind, entry.data, [survey.data.name, release.data.name]);
  const surveys = [...responses(archive, items, baseUrl)].filter(
    (r) => r.view === 'detail' && r.format === null && r.path === detailFile(r.path.split('/')[2] ?? '', null, null),
  );
  const counts: Record<string, number> = Object.fromEntries(KIND_TYPES.map((type) => [type, 0]));
  let latest = '';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (typeof node.type === 'string') {
      counts[node.type] = (counts[node.type] ?? 0) + 1;
      if (typeof node.updated === 'string' && node.updated > latest) latest = node.updated;
    }
    Object.values(node).forEach(visit);
  };
  for (const survey of surveys) visit(survey.value);
  return `${encodeJson({ schema_version: ARCHIVE_SCHEMA_VERSION, generated: latest || null, counts, surveys: surveys.map((s) => s.value) })}\n`;
}
