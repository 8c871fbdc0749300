// The fast transform: each response as a plan of pieces, the small parts (surveys, releases)
// serialised per response and each group's or facility's text, rendered once per build or taken
// from the cache, spliced in where the reference transform would have serialised the object.
// Plans carry content keys, so a rebuild writes only the responses whose pieces changed.

import { createHash } from 'node:crypto';
import { browsableFrame, linkedJson } from './browsable.ts';
import type { Fragment } from '../pipeline/digest.ts';
import { encodeJson, prettyJson } from './api/encode.ts';
import { responses } from './api/responses.ts';
import type { Archive } from '../pipeline/assemble.ts';

export interface FragmentPiece {
  fragment: Fragment;
  /** For the page's text: the column its lines start at. */
  indent: number;
  html: boolean;
}

export type Piece = string | FragmentPiece;

export interface Plan {
  path: string;
  pieces: Piece[];
  /** Equal keys mean equal bytes. */
  key: string;
}

/** The data held a sequence that looks like a placeholder; the caller falls back to the reference. */
export class SpliceError extends Error {
  override name = 'SpliceError';
}

// A placeholder string that JSON writes as `"\u0000F<n>"`: a NUL character needs escaping, so the
// sequence can only come from a placeholder or from data holding that very character, which the
// count check below catches.
const token = (n: number) => `\u0000F${n}`;
const COMPACT = /"\\u0000F(\d+)"/g;

export function planKey(pieces: readonly Piece[]): string {
  // One string, hashed at once: a call into the hash per piece costs more than the hashing.
  let text = '';
  for (const piece of pieces) {
    text += typeof piece === 'string' ? `s${piece.length}:${piece}` : `f${piece.fragment.key}:${piece.indent}:${piece.html ? 1 : 0}`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/** Splits text at its placeholders; `indent` says at which column each one's lines continue. */
function splice(text: string, pattern: RegExp, fragments: readonly Fragment[], html: boolean, expected: number): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  let found = 0;
  for (const m of text.matchAll(pattern)) {
    const index = m.index ?? 0;
    const fragment = fragments[Number(m[1])];
    if (!fragment) throw new SpliceError(`unknown placeholder ${m[1]}`);
    pieces.push(text.slice(last, index));
    const lineStart = text.lastIndexOf('\n', index) + 1;
    pieces.push({ fragment, indent: html ? index - lineStart : 0, html });
    last = index + m[0].length;
    found++;
  }
  if (found !== expected) throw new SpliceError(`expected ${expected} placeholders, found ${found}`);
  pieces.push(text.slice(last));
  return pieces.filter((p) => p !== '');
}

export function planOutputs(archive: Archive, fragments: ReadonlyMap<string, Fragment>, baseUrl: string): Plan[] {
  const list: Fragment[] = [];
  const tokens = new Map<string, string>();
  const placeholder = (relative: string): string => {
    let t = tokens.get(relative);
    if (t === undefined) {
      const fragment = fragments.get(relative);
      if (!fragment) throw new Error(`no rendered text for ${relative}`);
      t = token(list.length);
      list.push(fragment);
      tokens.set(relative, t);
    }
    return t;
  };
  const plans: Plan[] = [];
  for (const spec of responses(archive, (_kind, entry) => placeholder(entry.file.relative), baseUrl)) {
    const expected = countPlaceholders(spec.value);
    let pieces: Piece[];
    if (spec.format === 'api') {
      const [head, tail] = browsableFrame({ view: spec.view, status: 200 });
      // The same escaping and linking the reference applies to the whole text, applied to the
      // parts between placeholders: neither ever reaches across a string's quotes.
      const body = linkedJson(prettyJson(spec.value));
      pieces = [head, ...splice(body, COMPACT, list, true, expected), tail];
    } else {
      pieces = splice(encodeJson(spec.value), COMPACT, list, false, expected);
    }
    plans.push({ path: spec.path, pieces, key: planKey(pieces) });
  }
  return plans;
}

/** Plans for files given whole. */
export function plansOf(files: ReadonlyMap<string, string>): Plan[] {
  return [...files].map(([path, text]) => ({ path, pieces: [text], key: planKey([text]) }));
}

function countPlaceholders(value: unknown): number {
  if (typeof value === 'string') return value.startsWith('\u0000F') ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countPlaceholders(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + countPlaceholders(v), 0);
  return 0;
}
