// What an output is to the rest of the build: the texts it renders once per catalogue group or
// facility, in the digest step, for its planner to splice (units.ts lists every output's).

import type { KindType } from '../kinds/registry.ts';
import type { ApiObject } from './api/objects.ts';

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
