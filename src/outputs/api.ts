// The pure transform: the validated archive tree in, every file of the published API out (path
// and text). Nothing here reads or writes the disk, so the same call serves build, tests and
// dry runs, and the same input always gives the same bytes.

import { escapeHtml, renderBrowsable } from './browsable.ts';
import { formatInstant, isInstant, parseInstant } from '../vocabularies/instant.ts';
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
} from '../hosting/routes.ts';
import type { DataType, Format } from '../hosting/routes.ts';
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
} from '../pipeline/assemble.ts';

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

export function groupNode(g: GroupYaml): ApiNode {
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

export function facilityNode(f: FacilityYaml, survey: string, release: string): ApiNode {
  const api = node('ImagingFacility', f, { created: '', updated: '' }, { bands: [] });
  api.bands = f.bands.map((b) => bandNode(b, inherited(api), `${survey}.${release}.${f.name}.${b.name}`));
  return api;
}

/**
 * A release's data, built once and shared by every output that shows it. Its groups and
 * facilities are whatever stands for them: the API objects themselves (the reference transform)
 * or placeholders that the fast renderer replaces with pre-rendered text.
 */
interface ReleaseParts<T> {
  head: Omit<ApiRelease, 'type' | 'catalogues' | 'imaging' | 'ifs' | 'spectra'>;
  catalogues: { groups: T[] } | null;
  imaging: { facilities: T[] } | null;
}

type ShownRelease<T> = Omit<ApiRelease, 'catalogues' | 'imaging'> & { catalogues: { groups: T[] } | null; imaging: { facilities: T[] } | null };

/** What stands for each group and facility of a release. */
export type ItemsOf<T> = (survey: SurveyEntry, release: ReleaseEntry) => { groups: T[]; facilities: T[] };

function releaseParts<T>(survey: SurveyEntry, release: ReleaseEntry, itemsOf: ItemsOf<T>): ReleaseParts<T> {
  const r = release.data;
  const { groups, facilities } = itemsOf(survey, release);
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
    catalogues: groups.length > 0 ? { groups } : null,
    imaging: facilities.length > 0 ? { facilities } : null,
  };
}

/**
 * A release as shown for a data type (null: the survey's own route, with everything populated),
 * or undefined when it does not qualify for that data type. IFS and spectra listings show the
 * catalogues of releases, as the original service did; their own objects stay null until their
 * shape is defined.
 */
function releaseFor<T>(parts: ReleaseParts<T>, dataType: DataType | null): ShownRelease<T> | undefined {
  const { catalogues, imaging } = parts;
  const shown = (c: ReleaseParts<T>['catalogues'], i: ReleaseParts<T>['imaging']): ShownRelease<T> => ({
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

function surveyFor(survey: SurveyEntry, releases: unknown[], baseUrl: string, format: Format): ApiNode {
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

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 4).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

function query(params: Record<string, string | null>): string {
  const parts = Object.entries(params).flatMap(([k, v]) => (v === null ? [] : [`${k}=${v}`]));
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

// ---- The outputs ---------------------------------------------------------------------------------------

/** One API response to write: where, for which request, and its value. */
export interface OutputSpec {
  path: string;
  view: 'list' | 'detail';
  /** The request it answers, as the browsable page shows it. */
  target: string;
  format: Format;
  value: unknown;
}

/** Every response the data gives rise to: the listings, then each survey's routes. */
export function* responses<T>(archive: Archive, itemsOf: ItemsOf<T>, options: TransformOptions): Generator<OutputSpec> {
  const parts = new Map(archive.surveys.map((s) => [s, s.releases.map((r) => releaseParts(s, r, itemsOf))]));
  for (const dataType of DATA_TYPES) {
    for (const format of FORMATS) {
      const listing = archive.surveys.flatMap((survey) => {
        const releases = released(parts.get(survey) ?? [], dataType);
        return releases.length > 0 ? [surveyFor(survey, releases, options.baseUrl, format)] : [];
      });
      yield { path: listFile(dataType, format), view: 'list', target: `${LIST_PATH}${query({ data_type: dataType, format })}`, format, value: listing };
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
        const value = surveyFor(survey, releases, options.baseUrl, format);
        yield { path: detailFile(survey.data.id, dataType, format), view: 'detail', target: `${path}${query({ data_type: dataType, format })}`, format, value };
      }
    }
  }
}

/** The files that do not depend on the catalogue and imaging data: fixed bodies, the front page. */
export function fixedOutputs(archive: Archive): OutputFiles {
  const out: OutputFiles = new Map();
  out.set(ERROR_FILES.required, BODIES.required);
  out.set(ERROR_FILES.invalid, BODIES.invalid);
  out.set(ERROR_FILES.notFound, BODIES.notFound);
  for (const method of COMMON_METHODS) out.set(methodNotAllowedFile(method), methodNotAllowedBody(method));
  out.set(optionsFile('list'), optionsBody('list'));
  out.set(optionsFile('detail'), optionsBody('detail'));
  out.set('index.html', landingPage(archive));
  return out;
}

/**
 * The reference transform: every response built as objects and serialised whole. The build's
 * fast path (render.ts) must give the same bytes; tests and `build --reference` hold it to that.
 */
export function transform(archive: Archive, options: TransformOptions): OutputFiles {
  const out: OutputFiles = new Map();
  const itemsOf: ItemsOf<ApiNode> = (survey, release) => ({
    groups: release.groups.map((g) => groupNode(g.data)),
    facilities: release.facilities.map((f) => facilityNode(f.data, survey.data.name, release.data.name)),
  });
  for (const spec of responses(archive, itemsOf, options)) {
    out.set(
      spec.path,
      spec.format === 'api'
        ? renderBrowsable({ view: spec.view, status: 200, pretty: prettyJson(spec.value) })
        : encodeJson(spec.value),
    );
  }
  for (const [path, text] of fixedOutputs(archive)) out.set(path, text);
  return out;
}

function released<T>(parts: readonly ReleaseParts<T>[], dataType: DataType | null): ShownRelease<T>[] {
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
