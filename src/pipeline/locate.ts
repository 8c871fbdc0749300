// Positions in a file the fast path read, from js-yaml's events: where the value (or the key) at a
// path inside the document is, as the position-keeping parser would say it, without running it.

import { CHOMPING_MODE, CORE_SCHEMA, EVENT_ID, SCALAR_STYLE, getScalarValue, parseEvents } from 'js-yaml';
import type { Event, ScalarEvent } from 'js-yaml';

/** A node's place: where it starts, and for a scalar where it ends, as offsets into the text. */
type Placed =
  /** `absent`: a key's value the text does not write at all (`{a, b: 1}`), found at its key. */
  | { kind: 'scalar'; start: number; end: number; absent?: true }
  | { kind: 'list'; start: number; items: Placed[] }
  | { kind: 'mapping'; start: number; pairs: Map<string, { keyStart: number; value: Placed }> };

export type Segment = string | number;

/** Where a path leads in a document: the deepest node found, and the key it was found under. */
export interface Found {
  node?: Placed;
  keyStart?: number;
  complete: boolean;
}

/**
 * The nodes of a document js-yaml read without complaint (no anchors, aliases, tags or keys that
 * are collections: those take the position-keeping parser), with their places.
 */
function placeNodes(text: string, events: readonly Event[]): Placed | undefined {
  return new Placer(text).place(events);
}

class Placer {
  /** Where the last scalar ended, or the last collection started: an empty value or a block scalar's header follows it. */
  private after = 0;

  constructor(private readonly text: string) {}

  place(events: readonly Event[]): Placed | undefined {
    let root: Placed | undefined;
    // Open collections, and for a mapping the key waiting for its value.
    const open: { node: Placed; key?: { text: string; start: number } }[] = [];
    const attach = (node: Placed) => {
      const parent = open[open.length - 1];
      if (!parent) root ??= node;
      else if (parent.node.kind === 'list') parent.node.items.push(node);
      else if (parent.node.kind === 'mapping' && parent.key) {
        // The first of equal keys is the one a path finds, as in the position-keeping parser.
        if (!parent.node.pairs.has(parent.key.text)) parent.node.pairs.set(parent.key.text, { keyStart: parent.key.start, value: node });
        parent.key = undefined;
      }
    };
    for (const event of events) {
      if (event.type === EVENT_ID.SCALAR) {
        const parent = open[open.length - 1];
        const node = this.scalar(event, parent?.node.kind === 'mapping' ? parent.key?.start : undefined);
        // A key: only scalars reach here (keys that are collections take the other parser).
        if (parent?.node.kind === 'mapping' && !parent.key) parent.key = { text: keyTextOf(this.text, event), start: node.start };
        else attach(node);
      } else if (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING) {
        const node: Placed =
          event.type === EVENT_ID.SEQUENCE
            ? { kind: 'list', start: event.start, items: [] }
            : { kind: 'mapping', start: event.start, pairs: new Map() };
        attach(node);
        open.push({ node });
        this.after = event.start;
      } else if (event.type === EVENT_ID.POP) {
        const closed = open.pop()?.node;
        // An empty flow collection (`[]`, `{}`): what follows comes after its opening bracket.
        if (closed?.start === this.after) this.after = closed.start + 1;
      }
    }
    return root;
  }

  /** `keyStart`: for a mapping's value, where its key starts. */
  private scalar(event: ScalarEvent, keyStart: number | undefined): Placed & { kind: 'scalar' } {
    const { text } = this;
    let start = event.valueStart;
    let end = event.valueEnd;
    if (event.valueStart < 0) {
      // An empty value: the position-keeping parser puts it after its indicator (`key:`, `-`) and
      // the spaces after that, on the indicator's line; a key with no colon (`{a, b: 1}`) has no
      // value there, and is found at the key.
      const colon = keyStart === undefined ? undefined : afterColon(text, this.after);
      if (keyStart !== undefined && colon === undefined) return { kind: 'scalar', start: keyStart, end: keyStart, absent: true };
      start = end = colon ?? afterIndicator(text, this.after);
    } else if (event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED) {
      start--;
      end++;
    } else if (event.style === SCALAR_STYLE.LITERAL_BLOCK || event.style === SCALAR_STYLE.FOLDED_BLOCK) {
      // From its header (`|`, `>-`), which js-yaml's offsets leave out, to its last line that is
      // not blank, unless blank lines are kept (`|+`): js-yaml's offsets take them all.
      start = nextSignificant(text, this.after);
      if (event.chomping !== CHOMPING_MODE.KEEP) end = afterLastContent(text, event.valueStart, event.valueEnd);
    }
    this.after = end;
    return { kind: 'scalar', start, end };
  }
}

/** The end of the last line between two offsets that holds more than white space, with its line break. */
function afterLastContent(text: string, start: number, end: number): number {
  let last = end - 1;
  while (last >= start && isBlank(text[last])) last--;
  // Only blank lines: up to the last line break (spaces after it, at the end of the text, are not the scalar's).
  if (last < start) return text.lastIndexOf('\n', end - 1) >= start ? text.lastIndexOf('\n', end - 1) + 1 : start;
  const lineEnd = text.indexOf('\n', last);
  return lineEnd < 0 || lineEnd >= end ? end : lineEnd + 1;
}

/** A key as the position-keeping parser compares it with a path's segment: its value, as text. */
function keyTextOf(text: string, event: ScalarEvent): string {
  const value = getScalarValue(text, event);
  if (event.style !== SCALAR_STYLE.PLAIN) return value;
  return String(CORE_SCHEMA.resolveImplicitScalarTag(value).value);
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * The offset of the next character that is part of a node after `from`: past white space, line
 * breaks, comments, closing brackets, commas, and one indicator (`:`, `-`, `?`) with the spaces
 * after it.
 */
function nextSignificant(text: string, from: number): number {
  let at = skipBetween(text, pastDocumentStart(text, from));
  const c = text[at];
  if (c === ':' || c === '-' || c === '?') at = skipBetween(text, at + 1);
  return at;
}

/** At the start of the text: past its document start marker (`---`) and the spaces after it, if it has one. */
function pastDocumentStart(text: string, from: number): number {
  if (from !== 0) return from;
  let at = skipBetween(text, 0);
  if (!text.startsWith('---', at) || !(at + 3 === text.length || isBlank(text[at + 3]))) return from;
  at += 3;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** Past blanks, comments and the ends of flow collections. */
function skipBetween(text: string, from: number): number {
  let at = from;
  for (;;) {
    const c = text[at];
    if (isBlank(c) || c === ']' || c === '}' || c === ',') at++;
    else if (c === '#' && (at === 0 || isBlank(text[at - 1]))) {
      const end = text.indexOf('\n', at);
      at = end < 0 ? text.length : end;
    } else return at;
  }
}

/** After a key's colon and the spaces after it, or undefined if no colon follows the key. */
function afterColon(text: string, from: number): number | undefined {
  let at = from;
  for (;;) {
    const c = text[at];
    if (isBlank(c)) at++;
    else if (c === '#' && isBlank(text[at - 1])) {
      const end = text.indexOf('\n', at);
      at = end < 0 ? text.length : end;
    } else break;
  }
  if (text[at] !== ':') return undefined;
  at++;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** Where an empty value sits: after the next indicator and the spaces after it, on its line. */
function afterIndicator(text: string, from: number): number {
  const start = pastDocumentStart(text, from);
  if (start !== from) return start;
  let at = skipBetween(text, from);
  const c = text[at];
  if (c !== ':' && c !== '-' && c !== '?') return at;
  at++;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/**
 * Walks a path into the placed document, as the position-keeping parser's walk does: when the
 * path does not resolve all the way (a missing key), the walk stops at the deepest node found,
 * which is where a curator would add the key.
 */
export function follow(root: Placed | undefined, pointer: readonly Segment[]): Found {
  let node = root;
  let keyStart: number | undefined;
  let depth = 0;
  for (const segment of pointer) {
    let next: Placed | undefined;
    let nextKey: number | undefined;
    if (node?.kind === 'mapping') {
      const pair = node.pairs.get(String(segment));
      next = pair?.value;
      nextKey = pair?.keyStart;
    } else if (node?.kind === 'list' && typeof segment === 'number') {
      next = node.items[segment];
    }
    if (next === undefined) break;
    node = next;
    keyStart = nextKey;
    depth++;
  }
  return { ...(node ? { node } : {}), ...(keyStart !== undefined ? { keyStart } : {}), complete: depth === pointer.length };
}

export interface Position {
  line: number;
  col: number;
}

/** Line and column (from 1) of offsets in a text, by a binary search of where its lines start. */
export function lineCounter(text: string): (offset: number) => Position {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - (starts[low] ?? 0) + 1 };
  };
}

/**
 * `locate` and `source` of a file the fast path read, answered from js-yaml's events as the
 * position-keeping parser answers them, placed when a position is first asked for. The events are
 * held only weakly meanwhile: a file checked at once (a problem to report) finds them still there,
 * and one kept long (the curator commands load every file) does not keep several times its text
 * alive; js-yaml reads the text again if they are gone.
 */
export function eventPositions(
  text: string,
  events: readonly Event[],
  maxDepth: number,
): {
  locate: (pointer: readonly Segment[], where?: 'key' | 'value') => Position;
  source: (pointer: readonly Segment[]) => string | undefined;
} {
  const held = new WeakRef(events);
  let placed: { root: Placed | undefined; at: (offset: number) => Position } | undefined;
  const placedNodes = () => (placed ??= { root: placeNodes(text, held.deref() ?? parseEvents(text, { maxDepth })), at: lineCounter(text) });
  return {
    locate(pointer, where = 'value') {
      const { root, at } = placedNodes();
      const found = follow(root, pointer);
      if (where === 'key' && found.keyStart !== undefined) return at(found.keyStart);
      return at(found.node?.start ?? 0);
    },
    source(pointer) {
      const found = follow(placedNodes().root, pointer);
      return found.complete && found.node?.kind === 'scalar' && !found.node.absent
        ? text.slice(found.node.start, found.node.end)
        : undefined;
    },
  };
}
