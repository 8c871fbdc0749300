// Splicing: a response's small parts (surveys, releases) are serialised per response, and the text
// of each group or facility, rendered once, is spliced in where the whole object would have been
// serialised. Placeholders stand for the items while the small parts are serialised; the text is
// then split around them.

import type { Fragment } from '../site/fragment.ts';

/** The data held a sequence that looks like a placeholder; the caller falls back to the reference path. */
export class SpliceError extends Error {
  override name = 'SpliceError';
}

// A placeholder string that JSON writes as `"\u0000F<n>"`: a NUL character needs escaping, so the
// sequence can only come from a placeholder or from data holding that very character, which the
// count check catches.
const token = (n: number) => `\u0000F${n}`;
const PLACED = /"\\u0000F(\d+)"/g;

/** A spliced-in fragment, and the column at which the text around it puts it. */
export interface Spliced {
  fragment: Fragment;
  column: number;
}

export class Placeholders {
  private readonly list: Fragment[] = [];
  private readonly tokens = new Map<string, string>();

  constructor(private readonly fragments: ReadonlyMap<string, Fragment>) {}

  /** What stands for the rendered text of the file at this metadata-relative path. */
  for(relative: string): string {
    let t = this.tokens.get(relative);
    if (t === undefined) {
      const fragment = this.fragments.get(relative);
      if (!fragment) throw new Error(`no rendered text for ${relative}`);
      t = token(this.list.length);
      this.list.push(fragment);
      this.tokens.set(relative, t);
    }
    return t;
  }

  /** How many placeholders a value holds. */
  count(value: unknown): number {
    if (typeof value === 'string') return value.startsWith('\u0000F') ? 1 : 0;
    if (Array.isArray(value)) return value.reduce((n: number, v) => n + this.count(v), 0);
    if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + this.count(v), 0);
    return 0;
  }

  /** Splits serialised text at the `expected` placeholders it holds. */
  split(text: string, expected: number): (string | Spliced)[] {
    const parts: (string | Spliced)[] = [];
    let last = 0;
    let found = 0;
    // Where the line the next placeholder is on starts, found in the text between placeholders
    // only: searching back from each placeholder went through all of a compact text, which has no
    // line breaks, for every one.
    let lineStart = 0;
    for (const m of text.matchAll(PLACED)) {
      const index = m.index;
      const fragment = this.list[Number(m[1])];
      if (!fragment) throw new SpliceError(`unknown placeholder ${m[1]}`);
      const before = text.slice(last, index);
      const breakAt = before.lastIndexOf('\n');
      if (breakAt >= 0) lineStart = last + breakAt + 1;
      parts.push(before, { fragment, column: index - lineStart });
      last = index + m[0].length;
      found++;
    }
    if (found !== expected) throw new SpliceError(`expected ${expected} placeholders, found ${found}`);
    parts.push(text.slice(last));
    return parts;
  }
}
