// What an output is to the build: one record (Output) in the registry (registry.ts) with its
// planner, the texts it renders once per catalogue group or facility in the digest step, its
// straightforward reference version, the outputs whose files it is made from, and what it adds to
// the schema browser's pages. A planner gets the checked archive (and the change records) and
// returns the plans of its files, touching nothing.

import type { ChangeLog } from '../changes/published.ts';
import type { KindType } from '../kinds/registry.ts';
import type { Archive } from '../pipeline/assemble.ts';
import type { Recall } from '../pipeline/cache.ts';
import type { Fragment } from '../site/fragment.ts';
import type { Bytes, Plan } from '../site/plan.ts';
import type { ApiObject } from './api/objects.ts';
import type { Html } from './html.ts';

export interface Output {
  /** What the other records call it, in `needs`. */
  name: string;
  /**
   * The outputs whose files this one's are made from: planned before it, their plans handed in.
   * EARLIER_OUTPUTS stands for every output listed before it (a zip of every browser file, whichever
   * output made it).
   */
  needs?: readonly string[];
  /** Texts rendered once per catalogue group or facility, which its planner splices in. */
  texts?: readonly UnitTextDeclaration[];
  /** Its files, planned from the checked archive and the plans of the outputs it needs. */
  plan: (input: PlanInput, needed: Needed<Plan>) => Plan[] | Promise<Plan[]>;
  /** The same files made the straightforward way (whole objects, serialised at once), which `plan` must match byte for byte. */
  reference: (input: ReferenceInput, needed: Needed<[path: string, content: string | Uint8Array]>) => OutputFiles;
  /**
   * What it adds to the schema browser's pages (a note on a node's page, links in every page's
   * footer), worked out before any output is planned and handed to every planner as `pageNotes`;
   * undefined when it adds nothing.
   */
  pageNotes?: (input: ReferenceInput) => PageNotes | undefined;
}

/** The files of the outputs a record needs, by name. */
export type Needed<T> = (name: string) => readonly T[];

/** In `needs`: every output listed before this one in the registry, their files in the registry's order. */
export const EARLIER_OUTPUTS = '*';

/**
 * A survey, release or node as its page in the schema browser shows it, for the notes other
 * outputs add to the page.
 */
export interface PageNode {
  kind: KindType;
  /** Its id (a release has none). */
  id?: number;
  /** The survey it belongs to (a survey: itself), by id and name. */
  survey: { id: number; name: string };
  /** The release it belongs to, by name (a survey: none). */
  release?: string;
  /** Its names from the survey down, joined by `/`, as change records write them. */
  path: string;
  /** What its page lists of what it holds (a table's columns, a group's tables), each with its link from the page. */
  rows?: readonly PageRow[];
}

/** One thing a page lists: by kind and id (a release by its name), and the link to it from the page. */
export interface PageRow {
  kind: KindType;
  id?: number;
  release?: string;
  name: string;
  href: string;
}

/** What outputs add to the schema browser's pages (Output.pageNotes). */
export interface PageNotes {
  /** Links every page's footer adds after its survey's JSON: a file below the site's root, and its label. */
  links: readonly { file: string; label: string }[];
  /** HTML the page at `from` (its path below the site's root) shows about its node after its facts; '' for nothing. */
  note: (node: PageNode, from: readonly string[]) => Html;
}

/** dist/-relative path → file content. Insertion order is the order files are listed in. */
export type OutputFiles = Map<string, string | Uint8Array>;

export interface PlanInput {
  archive: Archive;
  /** Each group's and facility's rendered text, by metadata-relative path. */
  fragments: ReadonlyMap<string, Fragment>;
  /** Absolute, without a trailing slash, e.g. https://schema.example.org. */
  baseUrl: string;
  /** The archive's change records (changes/), oldest first; none when it keeps none. */
  changes?: ChangeLog;
  /** What the outputs add to the schema browser's pages, all together (registry.ts hands it in). */
  pageNotes?: PageNotes;
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
  changes?: ChangeLog;
  pageNotes?: PageNotes;
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
