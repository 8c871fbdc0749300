// A search over the index: the query as typed (words, and `ucd:`, `unit:`, `type:`, `survey:`,
// `release:` and `kind:` fields), each item ranked against it, and the best first, up to a limit.

import type { Found, Index } from './search-index.ts';

/** The most results shown. */
const LIMIT = 100;

export interface Query {
  text: string;
  words: string[];
  ucd: string[];
  unit: string[];
  /** VOTable types: a datatype alone (`char`, any arraysize) or with its arraysize (`char[*]`). */
  type: string[];
  survey?: string;
  release?: string;
  kind?: string;
}

/** What the panel's menus have chosen ('' for any); a field typed in the box wins over its menu. */
export interface Filters {
  survey: string;
  release: string;
  kind: string;
}

const FIELDS = ['ucd', 'unit', 'type', 'survey', 'release', 'kind'] as const;
type Field = (typeof FIELDS)[number];

/** A field with its value in quotes (to the closing quote, or the end), a field, or a word. */
const TOKEN = /([a-z]+):"([^"]*)"?|\S+/g;

interface Token {
  field?: Field;
  value: string;
  quoted: boolean;
}

function tokens(input: string): Token[] {
  const found: Token[] = [];
  for (const match of input.matchAll(TOKEN)) {
    const [whole, quotedField, quotedValue] = match;
    if (quotedField !== undefined && (FIELDS as readonly string[]).includes(quotedField)) {
      found.push({ field: quotedField as Field, value: (quotedValue ?? '').trim().replace(/\s+/g, ' '), quoted: true });
      continue;
    }
    const field = /^([a-z]+):(.*)$/.exec(whole);
    if (field && (FIELDS as readonly string[]).includes(field[1] ?? ''))
      found.push({ field: field[1] as Field, value: field[2] ?? '', quoted: false });
    else found.push({ value: whole, quoted: false });
  }
  return found;
}

/**
 * An unquoted unit's value and the last token it takes: the longest run of the words after token
 * `at` (none of them a field) that, with its own value, is a unit of the archive.
 */
function longestUnit(list: readonly Token[], at: number, units: ReadonlySet<string>): [value: string, last: number] {
  let value = list[at]?.value ?? '';
  let last = at;
  let longer = value;
  for (let j = at + 1; j < list.length && list[j]?.field === undefined; j++) {
    longer = `${longer} ${list[j]?.value ?? ''}`;
    if (units.has(longer)) [value, last] = [longer, j];
  }
  return [value, last];
}

/**
 * The query in the box, with the menus' choices. A unit with spaces is quoted (`unit:"km s-1"`) or
 * written as it is (`unit:km s-1`): then it runs over the words after it as far as they make the
 * longest unit in `units` (the archive's own), and the words after that are words again.
 */
export function parseQuery(input: string, filters: Filters, units: ReadonlySet<string> = new Set()): Query {
  const query: Query = { text: '', words: [], ucd: [], unit: [], type: [] };
  const free: string[] = [];
  const list = tokens(input.trim().toLowerCase());
  for (let i = 0; i < list.length; i++) {
    const token = list[i];
    if (!token) continue;
    const { field } = token;
    let { value } = token;
    if (field === undefined) {
      free.push(value);
      continue;
    }
    if (field === 'unit' && !token.quoted && value !== '') [value, i] = longestUnit(list, i, units);
    if (value === '') continue;
    if (field === 'ucd') query.ucd.push(value.replace(/^ivoa:/, ''));
    else if (field === 'unit') query.unit.push(value);
    else if (field === 'type') query.type.push(value);
    else query[field] = value;
  }
  query.survey ??= filters.survey || undefined;
  query.release ??= filters.release || undefined;
  query.kind ??= filters.kind || undefined;
  query.words = free;
  query.text = free.join(' ');
  return query;
}

/** Whether the query narrows the search at all: a field, typed or chosen in a menu. */
function narrows(query: Query): boolean {
  return query.ucd.length + query.unit.length + query.type.length > 0 || Boolean(query.survey ?? query.release ?? query.kind);
}

/** Whether an item is in the survey, release and kind asked for, with every UCD word, unit and type asked for. */
function passes(item: Found, query: Query): boolean {
  if (query.survey && item.survey.toLowerCase() !== query.survey) return false;
  if (query.release && item.release.toLowerCase() !== query.release) return false;
  if (query.kind && item.kind !== query.kind) return false;
  // Loops, not every(): this runs for each candidate at each keystroke.
  for (const wanted of query.ucd) if (!item.ucdKey.includes(`;${wanted}`)) return false;
  for (const wanted of query.unit) if (!item.unitKey.includes(` ${wanted} `)) return false;
  for (const wanted of query.type) if (!item.typeKey.includes(` ${wanted} `)) return false;
  return true;
}

/** How well an item answers a query: 0 (its name exactly) to 4, or -1 when it does not. */
function rank(item: Found, query: Query): number {
  if (!passes(item, query)) return -1;
  // Fields alone (`kind:imaging`, `type:double`) list everything they select.
  if (query.words.length === 0) return narrows(query) ? 3 : -1;
  let described = false;
  for (const word of query.words) {
    if (item.lower.includes(word)) continue;
    if (!item.words.includes(` ${word}`)) return -1;
    described = true;
  }
  if (item.lower === query.text) return 0;
  if (item.lower.startsWith(query.text)) return 1;
  if (item.lower.includes(query.text)) return 2;
  return described ? 4 : 3;
}

/** The items that answer a query, best first (then in the archive's order), and how many there are. */
export function search(index: Index, query: Query): { shown: Found[]; total: number } {
  const buckets: Found[][] = [[], [], [], [], []];
  let total = 0;
  const marked = candidates(index, query);
  for (let i = 0; i < index.items.length; i++) {
    if (marked?.[i] === 0) continue;
    const item = index.items[i];
    if (item === undefined) continue;
    const r = rank(item, query);
    if (r < 0) continue;
    total++;
    const bucket = buckets[r];
    if (bucket && bucket.length < LIMIT) bucket.push(item);
  }
  return { shown: buckets.flat().slice(0, LIMIT), total };
}

/**
 * With a word, only the items whose name or description holds the first one are ranked: marked by
 * scanning the two joined texts, far faster than asking each item. Without one, every item is.
 */
function candidates(index: Index, query: Query): Uint8Array | undefined {
  const first = query.words[0];
  if (first === undefined) return undefined;
  const marked = new Uint8Array(index.items.length);
  mark(index.names, index.nameAt, first, marked);
  mark(index.texts, index.textAt, ` ${first}`, marked);
  return marked;
}

/** Marks each item whose text in `joined` (starting at `starts`) holds `needle`. */
function mark(joined: string, starts: Int32Array, needle: string, marked: Uint8Array): void {
  let at = joined.indexOf(needle);
  while (at >= 0) {
    // The item the match is in: the last that starts at or before it.
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= at) low = middle;
      else high = middle - 1;
    }
    marked[low] = 1;
    const next = starts[low + 1];
    at = next === undefined ? -1 : joined.indexOf(needle, next);
  }
}
