// Assembles validated metadata files into the archive tree (survey > release > the files of each
// data type), deriving the nesting from where each file sits, and visits every node inside.

import type { Diagnostic } from '../diagnostics.ts';
import type { NodeYaml, ReleaseYaml, RetiredYaml, SurveyYaml } from '../kinds/data.ts';
import { KINDS, KIND_TYPES, SECTIONS, fileOf, sectionOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { walk } from '../kinds/walk.ts';
import type { Item } from '../kinds/walk.ts';
import type { MetadataFile, PathSegment } from './parse.ts';

export interface Entry<T> {
  file: MetadataFile;
  data: T;
}

export interface ReleaseEntry extends Entry<ReleaseYaml> {
  /** The release's files of each data type, by their kind (SECTIONS), ordered by id. */
  roots: Record<string, Entry<NodeYaml>[]>;
}

export interface SurveyEntry extends Entry<SurveyYaml> {
  releases: ReleaseEntry[];
}

export interface Archive {
  /** Ordered by id. */
  surveys: SurveyEntry[];
  /** Ids withdrawn for good (metadata/retired.yaml), with the file they are listed in. */
  retired: { file: MetadataFile; entries: RetiredYaml[] } | undefined;
}

/** A release's files of one kind (its catalogue groups, say), in order. */
export function rootsOf(release: ReleaseEntry, kind: KindType): Entry<NodeYaml>[] {
  return release.roots[kind] ?? [];
}

/**
 * Builds the tree. Files whose parent is missing (a release folder without survey.yaml, a group
 * without release.yaml) are reported and left out; so are, silently, files whose parent exists
 * but is invalid (its own problems are reported, and repeating them here would only add noise).
 * `present` holds the metadata-relative paths of every file found, valid or not. Order: surveys
 * by id, releases by data_release_number then name, the files of each data type by id; everything
 * inside a file keeps the order it is written in.
 */
export function assemble(
  files: readonly MetadataFile[],
  present: ReadonlySet<string> = new Set(files.map((f) => f.relative)),
): { archive: Archive; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const surveys = new Map<string, SurveyEntry>();
  const releases = new Map<string, ReleaseEntry>();
  const surveyFile = (survey: string) => fileOf('Survey', { survey, name: survey });
  const releaseFile = (survey: string, release: string) => fileOf('DataRelease', { survey, release, name: release });
  for (const file of files) {
    if (file.kind === 'Survey') surveys.set(file.placement.survey, { file, data: file.data as SurveyYaml, releases: [] });
  }
  for (const file of files) {
    if (file.kind !== 'DataRelease') continue;
    const survey = surveys.get(file.placement.survey);
    if (!survey) {
      const parent = surveyFile(file.placement.survey);
      if (!present.has(parent)) diagnostics.push(orphan(file, parent, 'this release belongs to'));
      continue;
    }
    const entry: ReleaseEntry = { file, data: file.data as ReleaseYaml, roots: Object.fromEntries(SECTIONS.map((s) => [s.kind, []])) };
    survey.releases.push(entry);
    releases.set(`${file.placement.survey}/${file.placement.release}`, entry);
  }
  for (const file of files) {
    if (file.kind === 'Retired' || !sectionOf(file.kind)) continue;
    const { survey, release: name = '' } = file.placement;
    const release = releases.get(`${survey}/${name}`);
    if (!release) {
      const parent = releaseFile(survey, name);
      const grandparent = surveyFile(survey);
      if (!present.has(parent)) diagnostics.push(orphan(file, parent, 'this file belongs to'));
      else if (!present.has(grandparent)) diagnostics.push(orphan(file, grandparent, 'this file belongs to'));
      continue;
    }
    release.roots[file.kind]?.push({ file, data: file.data as NodeYaml });
  }
  for (const survey of surveys.values()) {
    survey.releases.sort((a, b) => a.data.data_release_number - b.data.data_release_number || compare(a.data.name, b.data.name));
    for (const release of survey.releases)
      for (const entries of Object.values(release.roots)) entries.sort((a, b) => a.data.id - b.data.id);
  }
  const ordered = [...surveys.values()].sort((a, b) => a.data.id - b.data.id);
  const retiredFile = files.find((f) => f.kind === 'Retired');
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

// ---- Visiting the nodes ------------------------------------------------------------------------

export interface NodeVisit {
  kind: KindType;
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

/** A visit whose pointer is worked out only when asked for (when a rule reports the node). */
class Visit implements NodeVisit {
  constructor(
    readonly kind: KindType,
    readonly node: NodeYaml,
    readonly file: MetadataFile,
    readonly parent: Visit | undefined,
    private readonly index: number,
    readonly survey: SurveyEntry,
    readonly release: ReleaseEntry,
    readonly created: string,
    readonly updated: string,
  ) {}

  get pointer(): PathSegment[] {
    const key = KINDS[this.kind].nested?.key;
    return this.parent && key ? [...this.parent.pointer, key, this.index] : [];
  }
}

/** Every catalogue and imaging node in the archive, parents before children, in tree order. */
export function walkNodes(archive: Archive): NodeVisit[] {
  const out: NodeVisit[] = [];
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      for (const section of SECTIONS) {
        for (const { file, data } of rootsOf(release, section.kind)) {
          walk<Visit | null>(section.kind, data, null, (kind, item: Item, parent, index) => {
            const node = item as unknown as NodeYaml;
            // Groups and facilities must carry both timestamps (the schema requires them), so the
            // chain of inheritance always ends in a value.
            const created = node.created ?? parent?.created ?? '';
            const updated = node.updated ?? parent?.updated ?? '';
            const visit = new Visit(kind, node, file, parent ?? undefined, index, survey, release, created, updated);
            out.push(visit);
            return visit;
          });
        }
      }
    }
  }
  return out;
}

/**
 * The next free id of each kind: one more than any id in use or retired, read from every parsed
 * file whether or not it is valid, so that a broken file never hides an id in use.
 */
export function nextIds(files: readonly MetadataFile[]): Record<KindType, number> {
  const highest = new Map<string, number>();
  const see = (kind: string, id: unknown) => {
    if (typeof id === 'number' && Number.isFinite(id)) highest.set(kind, Math.max(highest.get(kind) ?? 0, id));
  };
  for (const file of files) {
    if (file.kind === 'Retired') {
      const entries = (file.data as { retired?: unknown } | null)?.retired;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const e = entry as { kind?: unknown; id?: unknown };
        if (typeof e.kind === 'string' && e.kind in KINDS && KINDS[e.kind as KindType].ids) see(e.kind, e.id);
      }
    } else if (KINDS[file.kind].ids) {
      walk(file.kind, file.data, true, (kind, item) => {
        see(kind, item.id);
        return true;
      });
    }
  }
  return Object.fromEntries(KIND_TYPES.map((kind) => [kind, (highest.get(kind) ?? 0) + 1])) as Record<KindType, number>;
}
