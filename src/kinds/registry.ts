// The registry of metadata kinds: each kind is declared once (in archive.ts, catalogues.ts,
// imaging.ts and products.ts), and every stage reads what it needs from here: where files sit and what kind each
// is, the schemas, the nesting, the words in messages, the API's fields, the scaffolds.

import { DATA_TYPES } from '../site/routes.ts';
import type { DataType } from '../site/routes.ts';
import { DataRelease, Survey } from './archive.ts';
import { CatalogueColumn, CatalogueGroup, CatalogueTable } from './catalogues.ts';
import { ImagingBand, ImagingFacility, ImagingRegion } from './imaging.ts';
import { IFSDataProduct, IFSFacility, SpectraDataProduct, SpectraFacility } from './products.ts';
import type { FileKind, Kind, KindFile, KindType } from './kind.ts';

export type { FileKind, Kind, KindType } from './kind.ts';

/** Every kind, parents before children. */
export const KINDS: Readonly<Record<KindType, Kind>> = {
  Survey,
  DataRelease,
  CatalogueGroup,
  CatalogueTable,
  CatalogueColumn,
  ImagingFacility,
  ImagingBand,
  ImagingRegion,
  IFSFacility,
  IFSDataProduct,
  SpectraFacility,
  SpectraDataProduct,
};

export const KIND_TYPES = Object.keys(KINDS) as KindType[];

/** Kinds whose items have ids: each its own id space. */
export const ID_KINDS = KIND_TYPES.filter((type) => KINDS[type].ids);

export interface Child {
  key: string;
  kind: KindType;
}

const children = new Map<KindType, Child[]>(KIND_TYPES.map((type) => [type, []]));
for (const type of KIND_TYPES) {
  const nested = KINDS[type].nested;
  if (nested) children.get(nested.parent)?.push({ key: nested.key, kind: type });
}

/** The lists a kind's items keep their children in, inside the same file. */
export function childrenOf(type: KindType): readonly Child[] {
  return children.get(type) ?? [];
}

/**
 * The first list a kind's items keep their children in (a group's `tables`, a facility's `bands`):
 * the nodes a file's cache entry keeps apart, whose names its pages are named after.
 */
export function nodesKeyOf(type: KindType): string | undefined {
  return childrenOf(type)[0]?.key;
}

/** The kind listed under a key anywhere (`columns` → CatalogueColumn), for naming a place in a file. */
const LISTED = new Map(KIND_TYPES.flatMap((type) => childrenOf(type).map((child): [string, Kind] => [child.key, KINDS[child.kind]])));

export function kindListedAs(key: string): Kind | undefined {
  return LISTED.get(key);
}

/** The kinds that make a release's data, one per data type that has a shape: CatalogueGroup for catalogues. */
export const SECTIONS: readonly { dataType: DataType; key: string; kind: KindType }[] = DATA_TYPES.flatMap((dataType) =>
  KIND_TYPES.flatMap((type) => {
    const section = KINDS[type].file?.section;
    return section?.dataType === dataType ? [{ dataType, key: section.key, kind: type }] : [];
  }),
);

/** The data type a kind's files make of a release, if they make one. */
export function sectionOf(type: KindType): (typeof SECTIONS)[number] | undefined {
  return SECTIONS.find((s) => s.kind === type);
}

/** Whether a kind's items are catalogue or imaging nodes, with the fields every such node has. */
export function isNodeKind(type: KindType): boolean {
  return type !== 'Survey' && type !== 'DataRelease';
}

// ---- Files ------------------------------------------------------------------------------------------

/** A kind of metadata file: where it sits, its schema, and how it is named in messages. */
export interface FileDeclaration {
  kind: FileKind;
  path: readonly string[];
  schema: string;
  /** "a catalogue group", "the retired ids". */
  described: string;
}

/** The ids withdrawn for good: not a kind of item, a file of its own. */
const RETIRED: FileDeclaration = { kind: 'Retired', path: ['retired.yaml'], schema: 'retired.schema.json', described: 'the retired ids' };

export const FILE_KINDS: readonly FileDeclaration[] = [
  ...KIND_TYPES.flatMap((type) => {
    const { file, schema } = KINDS[type];
    return file ? [{ kind: type, path: file.path, schema: schema.file, described: file.described }] : [];
  }),
  RETIRED,
];

export function fileDeclaration(kind: FileKind): FileDeclaration {
  const found = FILE_KINDS.find((f) => f.kind === kind);
  if (!found) throw new Error(`no file kind ${kind}`);
  return found;
}

/** Where a file sits in the tree: the names of its survey and release, and its own name. */
export interface Placement {
  /** Empty for files at the top of the metadata folder (retired.yaml). */
  survey: string;
  release?: string;
  /** The name the file's item must have: its file name without .yaml, or its folder's name. */
  name?: string;
}

/** Whether a kind's file is named after its item (`SpecCat.yaml`), or its folder is (`gama/`). */
export function namedBy(file: KindFile): 'file' | 'folder' {
  return file.path.includes('{name}.yaml') ? 'file' : 'folder';
}

/** A file's place as curators read it: `<survey>/<release>/catalogues/<name>.yaml`. */
export function pathHelp(path: readonly string[]): string {
  return path.map((part) => part.replace(/\{(\w+)\}/g, (_, name: string) => `<${name}>`)).join('/');
}

/** The layout as curators read it, for messages: `<survey>/survey.yaml, …`. */
export function layoutHelp(): string {
  const described = FILE_KINDS.map((f) => {
    const kind = f.kind === 'Retired' ? undefined : KINDS[f.kind];
    return pathHelp(f.path).replace('<name>', `<${kind?.label ?? 'name'}>`);
  });
  return `expected ${described.slice(0, -1).join(', ')} or ${described[described.length - 1] ?? ''}`;
}

/** Works out a file's kind and placement from its path relative to the metadata folder. */
export function classify(relative: string): { kind: FileKind; placement: Placement } | { problem: string } {
  const parts = relative.split('/');
  const last = parts[parts.length - 1] ?? '';
  if (last.endsWith('.yml')) return { problem: `metadata files end in .yaml; rename ${last} to ${last.slice(0, -4)}.yaml` };
  for (const declaration of FILE_KINDS) {
    const placement = match(declaration.path, parts);
    if (placement) return { kind: declaration.kind, placement };
  }
  // A data type whose shape is not defined yet has no kind of file to hold it.
  const [, , folder] = parts;
  if (parts.length === 4 && DATA_TYPES.includes(folder as DataType) && !SECTIONS.some((s) => s.dataType === folder)) {
    return { problem: `${folder} metadata is not supported yet: the API publishes ${folder} as null; move this file out of metadata/` };
  }
  return { problem: `unexpected file in the metadata tree; ${layoutHelp()}` };
}

function match(pattern: readonly string[], parts: readonly string[]): Placement | undefined {
  if (pattern.length !== parts.length) return undefined;
  const names: Record<string, string> = {};
  let own: string | undefined;
  for (const [i, want] of pattern.entries()) {
    const part = parts[i] ?? '';
    const m = /^\{(\w+)\}(.*)$/.exec(want);
    if (!m) {
      if (part !== want) return undefined;
      continue;
    }
    const [, name = '', suffix = ''] = m;
    if (!part.endsWith(suffix) || part.length === suffix.length) return undefined;
    names[name] = part.slice(0, part.length - suffix.length);
    own = names[name];
  }
  return {
    survey: names.survey ?? '',
    ...(names.release !== undefined ? { release: names.release } : {}),
    ...(own !== undefined ? { name: own } : {}),
  };
}

/** The path of a kind's file below the metadata folder, from the names of its place. */
export function fileOf(type: KindType, names: { survey: string; release?: string; name: string }): string {
  const file = KINDS[type].file;
  if (!file) throw new Error(`a ${KINDS[type].word} has no file of its own`);
  return file.path
    .map((part) =>
      part
        .replace('{survey}', names.survey)
        .replace('{release}', names.release ?? '')
        .replace('{name}', names.name),
    )
    .join('/');
}
