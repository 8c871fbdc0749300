// A group's or facility's API object rendered once as UTF-8 bytes, for every response that shows
// it: its compact JSON, and its text as the browsable pages show it. Bytes, not strings, so that
// neither a worker thread's hand-over, the cache nor the writer has to encode them again.

import { createHash } from 'node:crypto';
import type { NodeYaml } from '../kinds/data.ts';
import { nodesKeyOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { encodeJson } from './api/encode.ts';
import { nodeObject } from './api/objects.ts';
import type { ApiObject } from './api/objects.ts';
import { renderUnitTexts, unitTextsOf } from './units.ts';
import { INDENT } from '../site/plan.ts';
import type { Bytes, BytesPiece } from '../site/plan.ts';
import { linkedJson, pageJson } from './browsable/page.ts';

export interface Fragment {
  /** Changes exactly when the text changes. */
  key: string;
  /** The metadata file it was rendered from, relative to the metadata folder. */
  source: string;
  compact: Bytes;
  /** Indented, escaped for HTML, URLs linked, lines after the first indented FRAGMENT_INDENT levels. */
  page: Bytes;
  /** Line breaks in `page`. */
  pageBreaks: number;
  /** The same text with lines after the first indented one level less: a survey's own pages show it there. */
  surveyPage: Bytes;
  /** The texts the kind's outputs beyond the API declare (units.ts), by name. */
  texts: Record<string, UnitText>;
  /** How many nodes of each type the file holds, itself included. */
  counts: Record<string, number>;
  /** The latest `updated` among its nodes, as the API writes it. */
  latest: string;
  /**
   * The names of its children (a group's tables, a facility's bands), in order, each of which has
   * pages of its own: read here, the nodes themselves are not read from the cache to name them.
   */
  children: string[];
}

export interface UnitText {
  bytes: Bytes;
  /** NUL characters standing for the survey's URL, when the text is filled (units.ts). */
  marks: number;
  /**
   * A hash of the bytes, for a text of several per file (a table's page): its key, so that an edit
   * to one table leaves its group's other pages with their keys, linked and not written again.
   */
  hash?: string;
}

/**
 * The indentation (in tabs, one per level) at which a listing's page shows groups and facilities.
 * A survey's own pages show them one level further out: the text is kept at both. Shifting it as
 * it was written, a line at a time, cost a cold build of the L archive 1.3 s of the writer
 * threads' time; keeping the second costs the digests 0.44 s, and the L cache 77 MB. Any other
 * column is shifted from the listing's.
 */
export const FRAGMENT_INDENT = 6;

const encoder = new TextEncoder();

/** A text's UTF-8 bytes. */
export type Encode = (text: string) => Uint8Array;

/** Bytes of its own for each text. */
const encodeAlone: Encode = (text) => encoder.encode(text);

/**
 * Encodes a file's texts one after another into a buffer kept from file to file (grown when one
 * does not fit), for texts stored as soon as they are rendered (the cache's pack file): each
 * text's bytes are good until `reset`. Bytes of their own for each of the L archive's 550 MB of
 * texts were new memory to take and to collect: digesting it into an empty cache (`check
 * --cache-dir`) took 5.06 s with the buffer against 5.17 s without (means of eight runs each, in
 * turn; 7.28 s of user time against 7.43 s).
 */
export class TextScratch {
  private buffer = new Uint8Array(1 << 22);
  private used = 0;

  /** Starts again at the buffer's start: the bytes given out so far are written over. */
  reset(): void {
    this.used = 0;
  }

  readonly encode: Encode = (text) => {
    for (;;) {
      const { read, written } = encoder.encodeInto(text, this.buffer.subarray(this.used));
      if (read === text.length) {
        this.used += written;
        return this.buffer.subarray(this.used - written, this.used);
      }
      // No room for all of it: a larger buffer (what was given out stays in the old one).
      this.buffer = new Uint8Array(Math.max(2 * this.buffer.length, 3 * text.length));
      this.used = 0;
    }
  };
}

/** The number of line breaks in a text. */
function lineBreaks(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * Renders a group or facility (`place`: its survey's and release's names); `key` identifies its
 * text. `encode` makes the texts' bytes (for a TextScratch's, good only until it is reset).
 */
export function renderFragment(
  kind: KindType,
  data: NodeYaml,
  place: readonly string[],
  key: string,
  source: string,
  encode: Encode = encodeAlone,
): Fragment {
  const api = nodeObject(kind, data, place);
  const html = linkedJson(pageJson(api));
  const pageBreaks = lineBreaks(html);
  const page = encode(html.replaceAll('\n', `\n${INDENT.repeat(FRAGMENT_INDENT)}`));
  const surveyPage = encode(html.replaceAll('\n', `\n${INDENT.repeat(FRAGMENT_INDENT - 1)}`));
  const compact = encode(encodeJson(api));
  const unitPlace = { survey: place[0] ?? '', release: place[1] ?? '' };
  const texts: Record<string, UnitText> = {};
  for (const declared of unitTextsOf(kind)) {
    const many = !('render' in declared);
    for (const [name, made] of renderUnitTexts(declared, api, unitPlace, kind, compact)) {
      const bytes = typeof made === 'string' ? encode(made) : made;
      const hash = many ? { hash: createHash('sha1').update(bytes).digest('base64url') } : {};
      texts[name] = { bytes, marks: declared.filled ? countNuls(bytes) : 0, ...hash };
    }
  }
  return { key, source, compact, page, pageBreaks, surveyPage, texts, ...census(api), children: childNames(kind, data) };
}

function childNames(kind: KindType, data: NodeYaml): string[] {
  const list = nodesKeyOf(kind);
  const nodes = list === undefined ? undefined : (data as unknown as Record<string, unknown>)[list];
  return Array.isArray(nodes) ? nodes.map((node) => String((node as { name: unknown }).name)) : [];
}

function countNuls(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(0); at >= 0; at = bytes.indexOf(0, at + 1)) n++;
  return n;
}

/** The nodes of each type in an API object (anything with a `type`), and their latest `updated`. */
function census(api: ApiObject): { counts: Record<string, number>; latest: string } {
  const counts: Record<string, number> = {};
  let latest = '';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as ApiObject;
    if (typeof node.type === 'string') {
      counts[node.type] = (counts[node.type] ?? 0) + 1;
      if (typeof node.updated === 'string' && node.updated > latest) latest = node.updated;
    }
    for (const key in node) if (typeof node[key] === 'object') visit(node[key]);
  };
  visit(api);
  return { counts, latest };
}

/** A unit text of the fragment as a piece of a file, its NUL marks filled with `fill`. */
export function textPiece(fragment: Fragment, name: string, fill?: string): BytesPiece {
  const text = fragment.texts[name];
  if (!text) throw new Error(`no ${name} text rendered for ${fragment.key}`);
  const filled = text.marks > 0 && fill !== undefined ? { fill, marks: text.marks } : {};
  const key = text.hash === undefined ? `${fragment.key}:${name}` : `text:${text.hash}`;
  return { bytes: text.bytes, key, shift: 0, breaks: 0, source: fragment.source, ...filled };
}

/** The fragment's compact JSON as a piece of a file. */
export function compactPiece(fragment: Fragment): BytesPiece {
  return { bytes: fragment.compact, key: `${fragment.key}:compact`, shift: 0, breaks: 0, source: fragment.source };
}

/** The fragment's page text as a piece of a file, its lines continuing at `column`. */
export function pagePiece(fragment: Fragment, column: number): BytesPiece {
  const { source } = fragment;
  if (column === FRAGMENT_INDENT - 1)
    return { bytes: fragment.surveyPage, key: `${fragment.key}:survey-page`, shift: 0, breaks: 0, source };
  return { bytes: fragment.page, key: `${fragment.key}:page`, shift: column - FRAGMENT_INDENT, breaks: fragment.pageBreaks, source };
}
