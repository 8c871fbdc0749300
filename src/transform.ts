// The pure transform: the validated archive tree in, every file of the published API out (path
// and text). Nothing here reads or writes the disk, so the same call serves build, tests and
// dry runs, and the same input always gives the same bytes.

import { escapeHtml, renderBrowsable } from './browsable.ts';
import { formatInstant, isInstant, parseInstant } from './instant.ts';
import {
  BODIES,
  COMMON_METHODS,
  DATA_TYPES,
  ERROR_FILES,
  FORMATS,
  LIST_PATH,
  detailFile,
  listFile,
  methodNotAllowedBody,
  methodNotAllowedFile,
  optionsBody,
  optionsFile,
  surveyUrl,
} from './routes.ts';
import type { DataType, Format } from './routes.ts';
import type {
  Archive,
  BandYaml,
  ColumnYaml,
  ContactYaml,
  FacilityYaml,
  GroupYaml,
  NodeKind,
  NodeYaml,
  RegionYaml,
  ReleaseEntry,
  SurveyEntry,
  TableYaml,
} from './tree.ts';

export interface TransformOptions {
  /** Absolute, without a trailing slash, e.g. https://schema.example.org. */
  baseUrl: string;
}

/** dist/-relative path → file content. Insertion order is the order files are listed in. */
export type OutputFiles = Map<string, string>;

// ---- API objects, with keys in the contract's order -----------------------------------------------

interface ApiContact {
  email: string;
  name: string;
}

type ApiNode = Record<string, unknown>;

interface ApiRelease {
  name: string;
  pretty_name: string;
  version: number;
  data_release_number: number;
  contact: ApiContact;
  created: string;
  updated: string;
  type: 'DataRelease';
  catalogues: { groups: ApiNode[] } | null;
  imaging: { facilities: ApiNode[] } | null;
  ifs: null;
  spectra: null;
}

function contact(c: ContactYaml): ApiContact;
function contact(c: ContactYaml | null | undefined): ApiContact | null;
function contact(c: ContactYaml | null | undefined): ApiContact | null {
  return c ? { email: c.email, name: c.name } : null;
}

function instant(text: string): string {
  const parsed = parseInstant(text);
  // Validation has already rejected any timestamp that does not parse.
  if (!isInstant(parsed)) throw new Error(`unvalidated timestamp ${text}: ${parsed.problem}`);
  return formatInstant(parsed);
}

/** A data file's extension as written, or taken from its name (`SpecObj.fits` → `fits`). */
export function fileExtension(node: NodeYaml): string | null {
  if (node.file_extension !== undefined) return node.file_extension;
  const name = node.file_name;
  if (!name) return null;
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : null;
}

interface Inherited {
  created: string;
  updated: string;
}

/** The fields every catalogue and imaging node has, in order, then the kind's own fields. */
function node(kind: NodeKind, n: NodeYaml, parent: Inherited, own: ApiNode): ApiNode {
  return {
    id: n.id,
    name: n.name,
    pretty_name: n.pretty_name ?? null,
    description: n.description ?? null,
    documentation: n.documentation ?? '',
    file_path: n.file_path ?? null,
    file_name: n.file_name ?? null,
    file_extension: fileExtension(n),
    version: n.version ?? null,
    type: kind,
    created: n.created !== undefined ? instant(n.created) : parent.created,
    updated: n.updated !== undefined ? instant(n.updated) : parent.updated,
    contact: contact(n.contact),
    ...own,
  };
}

function inherited(api: ApiNode): Inherited {
  return { created: api.created as string, updated: api.updated as string };
}

function columnNode(c: ColumnYaml, parent: Inherited): ApiNode {
  return node('CatalogueColumn', c, parent, { ucd: c.ucd ?? '-', unit: c.unit ?? '-' });
}

function tableNode(t: TableYaml, parent: Inherited): ApiNode {
  const api = node('CatalogueTable', t, parent, { input_cat: t.input_cat ?? false, columns: [] });
  api.columns = t.columns.map((c) => columnNode(c, inherited(api)));
  return api;
}

function groupNode(g: GroupYaml): ApiNode {
  const api = node('CatalogueGroup', g, { created: '', updated: '' }, { tables: [] });
  api.tables = g.tables.map((t) => tableNode(t, inherited(api)));
  return api;
}

function regionNode(r: RegionYaml, parent: Inherited): ApiNode {
  return node('ImagingRegion', r, parent, {
    fits_header: r.fits_header,
    ra_c: r.ra_c,
    dec_c: r.dec_c,
    unit: r.unit,
    frame: r.frame,
    equinox: r.equinox,
  });
}

function bandNode(b: BandYaml, parent: Inherited, bandKey: string): ApiNode {
  const api = node('ImagingBand', b, parent, { band_key: bandKey, central_wave_ang: b.central_wave_ang, regions: [] });
  api.regions = b.regions.map((r) => regionNode(r, inherited(api)));
  return api;
}

function facilityNode(f: FacilityYaml, survey: string, release: string): ApiNode {
  const api = node('ImagingFacility', f, { created: '', updated: '' }, { bands: [] });
  api.bands = f.bands.map((b) => bandNode(b, inherited(api), `${survey}.${release}.${f.name}.${b.name}`));
  return api;
}

/** A release's data, built once and shared by every output that shows it. */
interface ReleaseParts {
  head: Omit<ApiRelease, 'type' | 'catalogues' | 'imaging' | 'ifs' | 'spectra'>;
  catalogues: { groups: ApiNode[] } | null;
  imaging: { facilities: ApiNode[] } | null;
}

function releaseParts(survey: SurveyEntry, release: ReleaseEntry): ReleaseParts {
  const r = release.data;
  return {
    head: {
      name: r.name,
      pretty_name: r.pretty_name,
      version: r.version,
      data_release_number: r.data_release_number,
      contact: contact(r.contact),
      created: instant(r.created),
      updated: instant(r.updated),
    },
    catalogues: release.groups.length > 0 ? { groups: release.groups.map((g) => groupNode(g.data)) } : null,
    imaging:
      release.facilities.length > 0
        ? { facilities: release.facilities.map((f) => facilityNode(f.data, survey.data.name, r.name)) }
        : null,
  };
}

/**
 * A release as shown for a data type (null: the survey's own route, with everything populated),
 * or undefined when it does not qualify for that data type. IFS and spectra listings show the
 * catalogues of releases, as the original service did; their own objects stay null until their
 * shape is defined.
 */
function releaseFor(parts: ReleaseParts, dataType: DataType | null): ApiRelease | undefined {
  const { catalogues, imaging } = parts;
  const shown = (c: ReleaseParts['catalogues'], i: ReleaseParts['imaging']): ApiRelease => ({
    ...parts.head,
    type: 'DataRelease',
    catalogues: c,
    imaging: i,
    ifs: null,
    spectra: null,
  });
  switch (dataType) {
    case null:
      return shown(catalogues, imaging);
    case 'imaging':
      return imaging ? shown(null, imaging) : undefined;
    case 'catalogues':
    case 'ifs':
    case 'spectra':
      return catalogues ? shown(catalogues, null) : undefined;
  }
}

function surveyFor(survey: SurveyEntry, releases: ApiRelease[], baseUrl: string, format: Format): ApiNode {
  const s = survey.data;
  return {
    url: surveyUrl(baseUrl, s.id, format),
    name: s.name,
    pretty_name: s.pretty_name,
    title: s.title,
    description: s.description,
    pi: s.pi,
    contact: contact(s.contact),
    website: s.website,
    active: s.active,
    type: 'Survey',
    data_releases: releases,
  };
}

// ---- Encoding ----------------------------------------------------------------------------------------

/**
 * JSON as DRF's renderer writes it: compact, non-ASCII characters as themselves, and U+2028 and
 * U+2029 escaped (they end lines in JavaScript source).
 */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

function query(params: Record<string, string | null>): string {
  const parts = Object.entries(params).flatMap(([k, v]) => (v === null ? [] : [`${k}=${v}`]));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

// ---- The outputs ---------------------------------------------------------------------------------------

export function transform(archive: Archive, options: TransformOptions): OutputFiles {
  const out: OutputFiles = new Map();
  const parts = new Map(archive.surveys.map((s) => [s, s.releases.map((r) => releaseParts(s, r))]));

  const emit = (path: string, view: 'list' | 'detail', target: string, value: unknown, format: Format) => {
    if (format === 'api') {
      out.set(path, renderBrowsable({ view, method: 'GET', target, status: 200, pretty: prettyJson(value) }));
    } else {
      out.set(path, encodeJson(value));
    }
  };

  for (const dataType of DATA_TYPES) {
    for (const format of FORMATS) {
      const listing = archive.surveys.flatMap((survey) => {
        const releases = released(parts.get(survey) ?? [], dataType);
        return releases.length > 0 ? [surveyFor(survey, releases, options.baseUrl, format)] : [];
      });
      emit(listFile(dataType, format), 'list', `${LIST_PATH}${query({ data_type: dataType, format })}`, listing, format);
    }
  }
  for (const survey of archive.surveys) {
    const surveyParts = parts.get(survey) ?? [];
    const path = `${LIST_PATH}${survey.data.id}/`;
    for (const dataType of [null, ...DATA_TYPES]) {
      const releases = released(surveyParts, dataType);
      // A survey with nothing of a data type has no file for it: the request answers 404.
      if (dataType !== null && releases.length === 0) continue;
      for (const format of FORMATS) {
        const detail = surveyFor(survey, releases, options.baseUrl, format);
        emit(detailFile(survey.data.id, dataType, format), 'detail', `${path}${query({ data_type: dataType, format })}`, detail, format);
      }
    }
  }
  out.set(ERROR_FILES.required, BODIES.required);
  out.set(ERROR_FILES.invalid, BODIES.invalid);
  out.set(ERROR_FILES.notFound, BODIES.notFound);
  for (const method of COMMON_METHODS) out.set(methodNotAllowedFile(method), methodNotAllowedBody(method));
  out.set(optionsFile('list'), optionsBody('list'));
  out.set(optionsFile('detail'), optionsBody('detail'));
  out.set('index.html', landingPage(archive));
  return out;
}

function released(parts: readonly ReleaseParts[], dataType: DataType | null): ApiRelease[] {
  return parts.flatMap((p) => {
    const r = releaseFor(p, dataType);
    return r ? [r] : [];
  });
}

/** The site's front page: where the API is, for people who open the site's address. */
function landingPage(archive: Archive): string {
  const lists = DATA_TYPES.map(
    (t) => `<li><a href="/api/schema/?data_type=${t}">/api/schema/?data_type=${t}</a> (<a href="/api/schema/?data_type=${t}&amp;format=api">browse</a>)</li>`,
  ).join('\n');
  const surveys = archive.surveys
    .map((s) => `<li><a href="/api/schema/${s.data.id}/?format=api">${escapeHtml(s.data.pretty_name)}</a>: ${escapeHtml(s.data.title)}</li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>archive-schema</title></head>
<body>
<h1>Archive schema API</h1>
<p>The archive's schema as a read-only JSON API. Listings by data type:</p>
<ul>
${lists}
</ul>
<p>Surveys:</p>
<ul>
${surveys}
</ul>
</body>
</html>
`;
}
