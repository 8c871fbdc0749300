// Assembles validated metadata files into the archive tree (survey > release > groups and
// facilities), deriving the nesting from where each file sits, and walks the nodes inside.

import type { Diagnostic } from '../diagnostics.ts';
import type { MetadataFile, PathSegment } from './load.ts';

// ---- What the schemas guarantee about each file's data ------------------------------------------

export interface ContactYaml {
  name: string;
  email: string;
}

export interface SurveyYaml {
  id: number;
  name: string;
  pretty_name: string;
  title: string;
  description: string;
  pi: string;
  contact: ContactYaml;
  website: string;
  active: boolean;
}

export interface ReleaseYaml {
  name: string;
  pretty_name: string;
  version: number;
  data_release_number: number;
  contact: ContactYaml;
  created: string;
  updated: string;
}

export interface NodeYaml {
  id: number;
  name: string;
  pretty_name?: string | null;
  description?: string | null;
  documentation?: string;
  file_path?: string | null;
  file_name?: string | null;
  file_extension?: string | null;
  version?: string | null;
  created?: string;
  updated?: string;
  contact?: ContactYaml | null;
}

export interface ColumnYaml extends NodeYaml {
  ucd?: string;
  unit?: string;
}

export interface TableYaml extends NodeYaml {
  input_cat?: boolean;
  columns: ColumnYaml[];
}

export interface GroupYaml extends NodeYaml {
  tables: TableYaml[];
}

export type FitsValue = string | number | boolean;

export interface RegionYaml extends NodeYaml {
  fits_header: Record<string, [FitsValue, string]>;
  ra_c: string;
  dec_c: string;
  unit: string;
  frame: string;
  equinox: string;
}

export interface BandYaml extends NodeYaml {
  central_wave_ang: number;
  regions: RegionYaml[];
}

export interface FacilityYaml extends NodeYaml {
  bands: BandYaml[];
}

// ---- The tree --------------------------------------------------------------------------------

export interface Entry<T> {
  file: MetadataFile;
  data: T;
}

export interface ReleaseEntry extends Entry<ReleaseYaml> {
  groups: Entry<GroupYaml>[];
  facilities: Entry<FacilityYaml>[];
}

export interface SurveyEntry extends Entry<SurveyYaml> {
  releases: ReleaseEntry[];
}

export type IdKind = 'Survey' | NodeKind;

export interface RetiredYaml {
  kind: IdKind;
  id: number;
  name: string;
  retired: string;
  reason: string;
}

export interface Archive {
  /** Ordered by id. */
  surveys: SurveyEntry[];
  /** Ids withdrawn for good (metadata/retired.yaml), with the file they are listed in. */
  retired: { file: MetadataFile; entries: RetiredYaml[] } | undefined;
}

/** Node kinds, named as the API's `type` field names them. */
export type NodeKind =
  | 'CatalogueGroup'
  | 'CatalogueTable'
  | 'CatalogueColumn'
  | 'ImagingFacility'
  | 'ImagingBand'
  | 'ImagingRegion';

export const NODE_KIND_WORDS: Record<NodeKind, string> = {
  CatalogueGroup: 'catalogue group',
  CatalogueTable: 'catalogue table',
  CatalogueColumn: 'catalogue column',
  ImagingFacility: 'imaging facility',
  ImagingBand: 'imaging band',
  ImagingRegion: 'imaging region',
};

/**
 * Builds the tree. Files whose parent is missing (a release folder without survey.yaml, a group
 * without release.yaml) are reported and left out; so are, silently, files whose parent exists
 * but is invalid (its own problems are reported, and repeating them here would only add noise).
 * `present` holds the metadata-relative paths of every file found, valid or not. Order: surveys by id, releases by
 * data_release_number then name, groups and facilities by id; everything inside a file keeps the
 * order it is written in.
 */
export function assemble(
  files: readonly MetadataFile[],
  present: ReadonlySet<string> = new Set(files.map((f) => f.relative)),
): { archive: Archive; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const surveys = new Map<string, SurveyEntry>();
  const releases = new Map<string, ReleaseEntry>();
  for (const file of files) {
    if (file.kind === 'survey') surveys.set(file.placement.survey, { file, data: file.data as SurveyYaml, releases: [] });
  }
  for (const file of files) {
    if (file.kind !== 'release') continue;
    const survey = surveys.get(file.placement.survey);
    if (!survey) {
      const parent = `${file.placement.survey}/survey.yaml`;
      if (!present.has(parent)) diagnostics.push(orphan(file, parent, 'this release belongs to'));
      continue;
    }
    const entry: ReleaseEntry = { file, data: file.data as ReleaseYaml, groups: [], facilities: [] };
    survey.releases.push(entry);
    releases.set(`${file.placement.survey}/${file.placement.release}`, entry);
  }
  for (const file of files) {
    if (file.kind !== 'catalogue-group' && file.kind !== 'imaging-facility') continue;
    const release = releases.get(`${file.placement.survey}/${file.placement.release}`);
    if (!release) {
      const parent = `${file.placement.survey}/${file.placement.release}/release.yaml`;
      const grandparent = `${file.placement.survey}/survey.yaml`;
      if (!present.has(parent)) diagnostics.push(orphan(file, parent, 'this file belongs to'));
      else if (!present.has(grandparent)) diagnostics.push(orphan(file, grandparent, 'this file belongs to'));
      continue;
    }
    if (file.kind === 'catalogue-group') release.groups.push({ file, data: file.data as GroupYaml });
    else release.facilities.push({ file, data: file.data as FacilityYaml });
  }
  for (const survey of surveys.values()) {
    survey.releases.sort(
      (a, b) => a.data.data_release_number - b.data.data_release_number || compare(a.data.name, b.data.name),
    );
    for (const release of survey.releases) {
      release.groups.sort((a, b) => a.data.id - b.data.id);
      release.facilities.sort((a, b) => a.data.id - b.data.id);
    }
  }
  const ordered = [...surveys.values()].sort((a, b) => a.data.id - b.data.id);
  const retiredFile = files.find((f) => f.kind === 'retired');
  const retired = retiredFile ? { file: retiredFile, entries: (retiredFile.data as { retired: RetiredYaml[] }).retired } : undefined;
  return { archive: { surveys: ordered, retired }, diagnostics };
}

function orphan(file: MetadataFile, missing: string, what: string): Diagnostic {
  return {
    file: file.display,
    line: 0,
    col: 0,
    severity: 'error',
    rule: 'layout/missing-parent',
    message: `${what} a folder without ${missing}; create that file or move this one into an existing folder`,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---- Walking the nodes -------------------------------------------------------------------------

export interface NodeVisit {
  kind: NodeKind;
  node: NodeYaml;
  file: MetadataFile;
  /** Where the node is in its file, e.g. ['tables', 3, 'columns', 5]. */
  readonly pointer: PathSegment[];
  parent?: NodeVisit;
  survey: SurveyEntry;
  release: ReleaseEntry;
  /** The node's created/updated, or its nearest ancestor's when it leaves them out. */
  created: string;
  updated: string;
}

/** Where each kind keeps its children: the list's key and the children's kind. */
export const CHILDREN: Record<NodeKind, { key: string; kind: NodeKind } | undefined> = {
  CatalogueGroup: { key: 'tables', kind: 'CatalogueTable' },
  CatalogueTable: { key: 'columns', kind: 'CatalogueColumn' },
  CatalogueColumn: undefined,
  ImagingFacility: { key: 'bands', kind: 'ImagingBand' },
  ImagingBand: { key: 'regions', kind: 'ImagingRegion' },
  ImagingRegion: undefined,
};

/** Every catalogue and imaging node in the archive, parents before children, in tree order. */
export function walkNodes(archive: Archive): NodeVisit[] {
  // A plain loop into one array: a hundred thousand columns through nested generators cost more
  // than the rules that read them.
  const out: NodeVisit[] = [];
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      const roots: [NodeKind, Entry<NodeYaml>[]][] = [
        ['CatalogueGroup', release.groups],
        ['ImagingFacility', release.facilities],
      ];
      for (const [kind, entries] of roots) {
        for (const entry of entries) descend(out, kind, entry.data, entry.file, undefined, '', 0, survey, release);
      }
    }
  }
  return out;
}

/** A visit whose pointer is worked out only when asked for (when a rule reports the node). */
class Visit implements NodeVisit {
  constructor(
    readonly kind: NodeKind,
    readonly node: NodeYaml,
    readonly file: MetadataFile,
    readonly parent: Visit | undefined,
    private readonly key: string,
    private readonly index: number,
    readonly survey: SurveyEntry,
    readonly release: ReleaseEntry,
    readonly created: string,
    readonly updated: string,
  ) {}

  get pointer(): PathSegment[] {
    return this.parent ? [...this.parent.pointer, this.key, this.index] : [];
  }
}

function descend(
  out: NodeVisit[],
  kind: NodeKind,
  node: NodeYaml,
  file: MetadataFile,
  parent: Visit | undefined,
  key: string,
  index: number,
  survey: SurveyEntry,
  release: ReleaseEntry,
): void {
  // Groups and facilities must carry both timestamps (the schema requires them), so the chain
  // of inheritance always ends in a value.
  const created = node.created ?? parent?.created ?? '';
  const updated = node.updated ?? parent?.updated ?? '';
  const here = new Visit(kind, node, file, parent, key, index, survey, release, created, updated);
  out.push(here);
  const children = CHILDREN[kind];
  if (!children) return;
  const value = (node as unknown as Record<string, unknown>)[children.key];
  if (!Array.isArray(value)) return;
  const list = value as NodeYaml[];
  for (let i = 0; i < list.length; i++) {
    descend(out, children.kind, list[i] as NodeYaml, file, here, children.key, i, survey, release);
  }
}

/**
 * The next free id of each kind: one more than any id in use or retired, read from every parsed
 * file whether or not it is valid, so that a broken file never hides an id in use.
 */
export function nextIds(files: readonly MetadataFile[]): Record<IdKind, number> {
  const highest: Record<IdKind, number> = {
    Survey: 0, CatalogueGroup: 0, CatalogueTable: 0, CatalogueColumn: 0, ImagingFacility: 0, ImagingBand: 0, ImagingRegion: 0,
  };
  const see = (kind: IdKind, id: unknown) => {
    if (typeof id === 'number' && Number.isFinite(id)) highest[kind] = Math.max(highest[kind], id);
  };
  const walk = (kind: NodeKind, node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    see(kind, (node as { id?: unknown }).id);
    const children = CHILDREN[kind];
    const list = children ? (node as Record<string, unknown>)[children.key] : undefined;
    if (children && Array.isArray(list)) for (const child of list) walk(children.kind, child);
  };
  for (const file of files) {
    if (file.kind === 'survey') see('Survey', (file.data as { id?: unknown } | null)?.id);
    else if (file.kind === 'catalogue-group') walk('CatalogueGroup', file.data);
    else if (file.kind === 'imaging-facility') walk('ImagingFacility', file.data);
    else if (file.kind === 'retired') {
      const entries = (file.data as { retired?: unknown } | null)?.retired;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const e = entry as { kind?: unknown; id?: unknown };
        if (typeof e.kind === 'string' && e.kind in highest) see(e.kind as IdKind, e.id);
      }
    }
  }
  const next = { ...highest };
  for (const kind of Object.keys(next) as IdKind[]) next[kind] = highest[kind] + 1;
  return next;
}
