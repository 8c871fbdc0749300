// What an output is to the build: one record (Output) in the registry (registry.ts) with its
// planner, the texts it renders once per catalogue group or facility in the digest step, its
// straightforward reference version, and the outputs whose files it is made from. A planner gets
// the checked archive and returns the plans of its files, touching nothing.

import type { KindType } from '../kinds/registry.ts';
import type { Archive } from '../pipeline/assemble.ts';
import type { Recall } from '../pipeline/cache.ts';
import type { Fragment } from '../site/fragment.ts';
import type { Bytes, Plan } from '../site/plan.ts';
import type { ApiObject } from './api/objects.ts';

export interface Output {
  /** What the other records call it, in `needs`. */
  name: string;
  /** The outputs whose files this one's are made from: planned before it, their plans handed in. */
  needs?: readonly string[];
  /** Texts rendered once per catalogue group or facility, which its planner splices in. */
  texts?: readonly UnitTextDeclaration[];
  /** Its files, planned from the checked archive and the plans of the outputs it needs. */
  plan: (input: PlanInput, needed: Needed<Plan>) => Plan[] | Promise<Plan[]>;
  /** The same files made the straightforward way (whole objects, serialised at once), which `plan` must match byte for byte. */
  reference: (input: ReferenceInput, needed: Needed<[path: string, content: string | Uint8Array]>) => OutputFiles;
}

/** The files of the outputs a record needs, by name. */
export type Needed<T> = (name: string) => readonly T[];

/** dist/-relative path → file content. Insertion order is the order files are listed in. */
export type OutputFiles = Map<string, string | Uint8Array>;

export interface PlanInput {
  archive: Archive;
  /** Each group's and facility's rendered text, by metadata-relative path. */
  fragments: ReadonlyMap<string, Fragment>;
  /** Absolute, without a trailing slash, e.g. https://schema.example.org. */
  baseUrl: string;
  /**
   * The text `make` gives, recalled from the last build that made the `name`d text from inputs of
   * the same `key` where there is one (the build cache's), made now otherwise: the same either way.
   */
  recall?: Recall;
  /** A zip's members in the output this build replaces, by member key, to copy rather than make again. */
  kept?: (file: string) => ReadonlyMap<string, KeptMember>;
  /** The SHA-256 of each plan's bytes, by path: taken from the output this build replaces where it recorded them, read otherwise. */
  checksums?: (plans: readonly Plan[]) => ReadonlyMap<string, string>;
}

/** A zip member made before: its CRC-32, its sizes, and where its deflated bytes are. */
export interface KeptMember {
  crc: number;
  size: number;
  compressedSize: number;
  bytes: Bytes;
}

/** What the reference versions are given: the archive, and each group's and facility's texts rendered from its whole object. */
export interface ReferenceInput {
  archive: Archive;
  fragments: ReadonlyMap<string, Fragment>;
  baseUrl: string;
}

/** Where a group or facility sits: its survey's and release's names. */
export interface UnitPlace {
  survey: string;
  release: string;
}

interface UnitTextCommon {
  name: string;
  kinds: readonly KindType[];
  /**
   * Whether NUL characters in the text stand for something of the file's survey, put in as the
   * file is written (the survey's API URL, which depends on the site's base URL; the way to the
   * survey's and release's pages), which a text cached with the file alone must not hold.
   */
  filled: boolean;
}

/** One text per file: kept as `name`. */
export interface SingleUnitText extends UnitTextCommon {
  render: (api: ApiObject, place: UnitPlace, compact: Uint8Array) => Uint8Array | string;
}

/**
 * Several texts per file (a group's page and one per table, say): each kept as `name:<its name>`,
 * so a file that gains or loses a table gains or loses a text, and the others keep their bytes.
 */
export interface ManyUnitTexts extends UnitTextCommon {
  renderMany: (api: ApiObject, place: UnitPlace, kind: KindType) => Record<string, string>;
}

export type UnitTextDeclaration = SingleUnitText | ManyUnitTexts;

/** The name a text of a `renderMany` declaration is kept and spliced by. */
export function manyTextName(declaration: string, name: string): string {
  return `${declaration}:${name}`;
}
