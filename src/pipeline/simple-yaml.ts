// Reads the YAML that metadata files are written in, line by line: block mappings and lists, plain
// and quoted scalars on one line, and one-line flow lists and mappings of scalars, as `fmt` writes
// them and curators copy them. It is several times faster than building js-yaml's events, and the
// build reads every file of a cold build through it. Anything else it declines (`undefined`), and
// js-yaml reads the file as before: it never guesses. Where it gives data, that data is what js-yaml
// gives for the text (the parser fuzzing holds it to that), scalars resolved by js-yaml's own core
// schema.

import { CORE_SCHEMA } from 'js-yaml';

/**
 * Characters whose reading it leaves to js-yaml: controls (tabs and carriage returns among them),
 * C1 controls, surrogates, byte order marks, non-characters and Unicode's own line separators.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSURE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;

/**
 * Keys it takes: names, of at most 1,024 characters (YAML's limit for a key on its line, which
 * js-yaml does not keep). Not null, a boolean, a number or `__proto__`, which js-yaml reads specially.
 */
const KEY = /^[A-Za-z_][A-Za-z0-9_./-]{0,1023}$/;
const NOT_KEYS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', '__proto__']);

/** Characters a plain scalar it takes may not start with (indicators, quotes and comments). */
const NOT_PLAIN_START = new Set('[]{}\'"|>!&*%@`#,?:'.split(''));

/** Flow collections inside flow collections are declined. */
const FLOW_INDICATOR = /[[\]{}]/;

/** A number written with an exponent. */
const EXPONENT = /^[-+]?(?:\.\d+|\d[\d_]*(?:\.[\d_]*)?)[eE][-+]?\d+$/;

/** Far deeper than metadata nests (six levels); deeper files go to js-yaml, which bounds them. */
const MAX_DEPTH = 32;

/** A value read, boxed so that `undefined` can mean "declined". */
interface Read {
  value: unknown;
}

/** An open block collection: the column its keys or dashes are at. */
interface Open {
  column: number;
  list?: unknown[];
  map?: Record<string, unknown>;
}

/** The text's data as js-yaml reads it, or `undefined` where the text is not written as this reader reads. */
export function readSimpleYaml(text: string): Read | undefined {
  if (UNSURE.test(text)) return undefined;
  let root: unknown[] | Record<string, unknown> | undefined;
  const open: Open[] = [];
  // A key whose value is on the lines after it: a nested list or mapping, or else null.
  let pending: { map: Record<string, unknown>; key: string; column: number } | undefined;
  // The column of the last key or dash given a scalar: a line indented further would continue it.
  let scalarAt = -1;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    let column = 0;
    while (line.charCodeAt(column) === 32) column++;
    // Blank lines and comments.
    if (column === line.length || line.charCodeAt(column) === 35) continue;
    if (column > scalarAt) {
      // A plain scalar's next line, or a line indented under a quoted one.
      if (scalarAt >= 0) return undefined;
    }
    scalarAt = -1;
    // Document markers and directives.
    if (column === 0 && (line.startsWith('---') || line.startsWith('...') || line.startsWith('%'))) return undefined;
    let rest = line.slice(column, spacesEnd(line));
    while (open.length > 0 && (open[open.length - 1] as Open).column > column) open.pop();
    if (pending && column <= pending.column) {
      pending.map[pending.key] = null;
      pending = undefined;
    }
    let top = open[open.length - 1];
    if (rest === '-' || rest.startsWith('- ')) {
      // A list item: a scalar, a flow collection, or the first key of a mapping.
      if (pending || !top) {
        if (!pending && root !== undefined) return undefined;
        const list: unknown[] = [];
        if (pending) pending.map[pending.key] = list;
        else root = list;
        pending = undefined;
        top = { column, list };
        open.push(top);
      }
      if (!top.list || top.column !== column || rest === '-') return undefined;
      let at = 2;
      while (rest.charCodeAt(at) === 32) at++;
      rest = rest.slice(at);
      const itemColumn = column + at;
      if (rest === '' || rest === '-' || rest.startsWith('- ') || rest.startsWith('#')) return undefined;
      if (keyEnd(rest) < 0) {
        const read = value(rest);
        if (!read) return undefined;
        top.list.push(read.value);
        scalarAt = column;
        continue;
      }
      const map: Record<string, unknown> = {};
      top.list.push(map);
      top = { column: itemColumn, map };
      open.push(top);
      column = itemColumn;
    } else if (pending || !top) {
      // The first key of a mapping: nested under a pending key, or the document's own.
      if (!pending && root !== undefined) return undefined;
      const map: Record<string, unknown> = {};
      if (pending) pending.map[pending.key] = map;
      else root = map;
      pending = undefined;
      top = { column, map };
      open.push(top);
    }
    if (open.length > MAX_DEPTH) return undefined;
    // A key, and its value on this line or the next ones.
    const colon = keyEnd(rest);
    if (colon < 0 || !top.map || top.column !== column) return undefined;
    const key = rest.slice(0, colon);
    if (!KEY.test(key) || NOT_KEYS.has(key) || Object.prototype.hasOwnProperty.call(top.map, key)) return undefined;
    const after = rest.slice(spacesAfter(rest, colon + 1));
    if (after === '' || after.startsWith('#')) {
      top.map[key] = null;
      pending = { map: top.map, key, column };
      continue;
    }
    const read = value(after);
    if (!read) return undefined;
    top.map[key] = read.value;
    scalarAt = column;
  }
  if (pending) pending.map[pending.key] = null;
  return root === undefined ? undefined : { value: root };
}

/** Where a line's leading `key:` ends (its colon), if the line starts with one; else -1. */
function keyEnd(text: string): number {
  const at = text.indexOf(':');
  if (at <= 0 || (at + 1 < text.length && text.charCodeAt(at + 1) !== 32)) return -1;
  return at;
}

/** A value written after a key or a dash, with any comment after it. */
function value(written: string): Read | undefined {
  const first = written[0];
  if (first === '[' || first === '{') return flow(written);
  if (first === "'" || first === '"') {
    // The quoted scalar ends at the last quote before a comment, or at the end of the line.
    let text = written;
    const hash = text.lastIndexOf(' #');
    if (hash > 0) {
      const before = text.slice(0, spacesEnd(text, hash));
      if (before.length > 1 && before.endsWith(first)) text = before;
    }
    return quoted(text);
  }
  const hash = written.indexOf(' #');
  return plain(hash < 0 ? written : written.slice(0, spacesEnd(written, hash)), false);
}

/** A plain scalar, resolved as js-yaml's core schema resolves it (null, booleans, numbers, else text). */
function plain(text: string, inFlow: boolean): Read | undefined {
  const first = text[0];
  if (first === undefined || NOT_PLAIN_START.has(first)) return undefined;
  if (first === '-' && (text.length === 1 || text[1] === ' ')) return undefined;
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) return undefined;
  if (inFlow && text.includes(',')) return undefined;
  const { value } = CORE_SCHEMA.resolveImplicitScalarTag(text);
  // Infinities, and numbers too large for a double (1e400), which js-yaml keeps as text and yaml
  // reads as infinity: the fast path sends those to yaml, to be refused where they are.
  if (typeof value === 'number' ? !Number.isFinite(value) : typeof value === 'string' && EXPONENT.test(text)) return undefined;
  return { value };
}

/** A quoted scalar that is the whole of `text`: single-quoted, or double-quoted with no escapes. */
function quoted(text: string): Read | undefined {
  const quote = text.charAt(0);
  if (text.length < 2 || !text.endsWith(quote)) return undefined;
  const inner = text.slice(1, -1);
  if (quote === '"') return inner.includes('"') || inner.includes('\\') ? undefined : { value: inner };
  // In single quotes, '' is a quote; a lone one would have ended the scalar.
  if (inner.replaceAll("''", '').includes("'")) return undefined;
  return { value: inner.replaceAll("''", "'") };
}

/** A one-line flow list or mapping of scalars: `[a, 'b', 3]`, `{name: A, email: a@example.org}`. */
function flow(written: string): Read | undefined {
  const close = written.startsWith('[') ? ']' : '}';
  const end = written.indexOf(close);
  if (end < 0) return undefined;
  const after = written.slice(end + 1);
  // Nothing after it but a comment, which needs a space before it.
  if (after !== '' && !/^ +#/.test(after)) return undefined;
  const body = written.slice(1, end);
  if (FLOW_INDICATOR.test(body)) return undefined;
  const items = spacesAfter(body, 0) === body.length ? [] : flowItems(body);
  if (!items) return undefined;
  if (close === ']') {
    const list: unknown[] = [];
    for (const item of items) {
      const read = flowScalar(item);
      if (!read) return undefined;
      list.push(read.value);
    }
    return { value: list };
  }
  const map: Record<string, unknown> = {};
  for (const item of items) {
    const colon = item.indexOf(': ');
    if (colon < 0) return undefined;
    const key = item.slice(0, colon);
    if (!KEY.test(key) || NOT_KEYS.has(key) || Object.prototype.hasOwnProperty.call(map, key)) return undefined;
    const read = flowScalar(item.slice(spacesAfter(item, colon + 2)));
    if (!read) return undefined;
    map[key] = read.value;
  }
  return { value: map };
}

function flowScalar(item: string): Read | undefined {
  const first = item[0];
  return first === "'" || first === '"' ? quoted(item) : plain(item, true);
}

/** A flow collection's items, split at commas outside quotes; `undefined` for an empty item. */
function flowItems(body: string): string[] | undefined {
  const items: string[] = [];
  let at = 0;
  for (;;) {
    while (body.charCodeAt(at) === 32) at++;
    const quote = body[at];
    let end: number;
    if (quote === "'" || quote === '"') {
      // To the closing quote ('' inside single quotes is a quote), then to the comma.
      let close = body.indexOf(quote, at + 1);
      while (quote === "'" && close >= 0 && body[close + 1] === "'") close = body.indexOf(quote, close + 2);
      if (close < 0) return undefined;
      end = body.indexOf(',', close);
      if (end < 0) end = body.length;
      if (spacesAfter(body, close + 1) !== end) return undefined;
      items.push(body.slice(at, close + 1));
    } else {
      end = body.indexOf(',', at);
      if (end < 0) end = body.length;
      const item = body.slice(at, spacesEnd(body, end));
      if (item === '') return undefined;
      items.push(item);
    }
    if (end >= body.length) return items;
    at = end + 1;
  }
}

// Only spaces are trimmed: JavaScript's trim takes every Unicode space (a no-break space among
// them), which YAML keeps as part of a scalar.

/** Where the spaces that end `text` before `end` begin. */
function spacesEnd(text: string, end = text.length): number {
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return end;
}

/** Where the spaces that start at `at` in `text` end. */
function spacesAfter(text: string, at: number): number {
  while (text.charCodeAt(at) === 32) at++;
  return at;
}
