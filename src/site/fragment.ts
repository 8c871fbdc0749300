// A group's or facility's rendered text, as the site's files take it: its compact JSON, its text
// as the browsable pages show it, and the texts of the other outputs (outputs/output.ts), as UTF-8
// bytes rendered once (outputs/fragment.ts) for every file that shows them, and the pieces of a
// plan (site/plan.ts) that copy them. Bytes, not strings, so that neither a worker thread's
// hand-over, the digest cache nor the writer has to encode them again.

import type { Bytes, BytesPiece } from './plan.ts';

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
export const encodeAlone: Encode = (text) => encoder.encode(text);

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
