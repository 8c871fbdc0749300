// A group's or facility's API object rendered once as UTF-8 bytes, for every response that shows
// it: its compact JSON, and its text as the browsable pages show it. Bytes, not strings, so that
// neither a worker thread's hand-over, the cache nor the writer has to encode them again.

import type { NodeYaml } from '../kinds/data.ts';
import type { KindType } from '../kinds/registry.ts';
import { encodeJson } from './api/encode.ts';
import { nodeObject } from './api/objects.ts';
import { INDENT } from './plan.ts';
import type { Bytes, BytesPiece } from './plan.ts';
import { linkedJson, pageJson } from './browsable/page.ts';

export interface Fragment {
  /** Changes exactly when the text changes. */
  key: string;
  compact: Bytes;
  /** Indented, escaped for HTML, URLs linked, lines after the first indented FRAGMENT_INDENT levels. */
  page: Bytes;
  /** Line breaks in `page`. */
  pageBreaks: number;
}

/**
 * The indentation (in tabs, one per level) at which a listing's page shows groups and facilities.
 * A survey's own page shows them one level further out, and the writer shifts the text as it
 * writes: a rebuild after one edit rewrites every listing but only one survey's pages, so the
 * listing's indentation is the one kept ready.
 */
export const FRAGMENT_INDENT = 6;

const encoder = new TextEncoder();

/** Renders a group or facility (`place`: its survey's and release's names); `key` identifies its text. */
export function renderFragment(kind: KindType, data: NodeYaml, place: readonly string[], key: string): Fragment {
  const api = nodeObject(kind, data, place);
  const html = linkedJson(pageJson(api));
  const pageBreaks = html.split('\n').length - 1;
  const page = encoder.encode(html.replaceAll('\n', `\n${INDENT.repeat(FRAGMENT_INDENT)}`));
  return { key, compact: encoder.encode(encodeJson(api)), page, pageBreaks };
}

/** The fragment's compact JSON as a piece of a file. */
export function compactPiece(fragment: Fragment): BytesPiece {
  return { bytes: fragment.compact, key: `${fragment.key}:compact`, shift: 0, breaks: 0 };
}

/** The fragment's page text as a piece of a file, its lines continuing at `column`. */
export function pagePiece(fragment: Fragment, column: number): BytesPiece {
  return { bytes: fragment.page, key: `${fragment.key}:page`, shift: column - FRAGMENT_INDENT, breaks: fragment.pageBreaks };
}
