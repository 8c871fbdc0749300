// What a metadata file may hold, judged on js-yaml's events before either parser builds anything
// from them: what aliases expand to, keys given twice; and, for a file too large for the
// position-keeping parser, what only that parser can judge. Each pass is one walk of the events,
// so a hostile file costs no more than any other of its size.

import { CORE_SCHEMA, EVENT_ID, SCALAR_STYLE, getScalarValue } from 'js-yaml';
import type { Event } from 'js-yaml';

/**
 * The nodes the aliases of a file may expand to, together. Metadata needs no aliases; one or two
 * that repeat a contact are harmless, and "a billion laughs" (aliases of aliases) is refused
 * before anything is built from it.
 */
export const MAX_ALIAS_NODES = 100;

/** A problem found on the events, at an offset of the text. */
export interface EventProblem {
  at: number;
  message: string;
}

/**
 * The first alias of a file whose aliases expand to more than MAX_ALIAS_NODES nodes, or an alias
 * inside the value it names (which would make the data contain itself). A node an anchor names
 * counts with what its own aliases expand to, so sizes multiply as the expansion would.
 */
export function aliasProblem(text: string, events: readonly Event[]): EventProblem | undefined {
  // Per open collection: its size so far, and its anchor's name if it has one.
  const open: { size: number; anchor?: string }[] = [];
  const sizes = new Map<string, number>();
  let expanded = 0;
  let first: number | undefined;
  const add = (size: number) => {
    const top = open[open.length - 1];
    if (top) top.size = Math.min(top.size + size, Number.MAX_SAFE_INTEGER);
  };
  for (const event of events) {
    if (event.type === EVENT_ID.ALIAS) {
      const name = text.slice(event.anchorStart, event.anchorEnd);
      const star = Math.max(0, event.anchorStart - 1);
      first ??= star;
      if (open.some((o) => o.anchor === name)) {
        return { at: star, message: `the alias *${name} is inside the value it names, which would contain itself; write the values out` };
      }
      const size = sizes.get(name) ?? 1;
      expanded += size;
      if (expanded > MAX_ALIAS_NODES) {
        return {
          at: first,
          message: `the aliases (*name) here and below expand to more than ${MAX_ALIAS_NODES} nodes, as an attack on the parser would; metadata files need no aliases: write the values out`,
        };
      }
      add(size);
    } else if (event.type === EVENT_ID.SCALAR) {
      if (event.anchorStart >= 0) sizes.set(text.slice(event.anchorStart, event.anchorEnd), 1);
      add(1);
    } else if (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING) {
      open.push({ size: 1, ...(event.anchorStart >= 0 ? { anchor: text.slice(event.anchorStart, event.anchorEnd) } : {}) });
    } else if (event.type === EVENT_ID.POP) {
      const closed = open.pop();
      if (closed?.anchor !== undefined) sizes.set(closed.anchor, closed.size);
      if (closed) add(closed.size);
    }
  }
  return undefined;
}

/** A scalar key as the position-keeping parser tells keys apart: by value, a number from a string. */
function keyIdentity(text: string, event: Event): string | undefined {
  if (event.type !== EVENT_ID.SCALAR) return undefined;
  const value = getScalarValue(text, event);
  if (event.style !== SCALAR_STYLE.PLAIN) return `string:${value}`;
  const resolved: unknown = CORE_SCHEMA.resolveImplicitScalarTag(value).value;
  return `${typeof resolved}:${String(resolved)}`;
}

/** The start of a scalar as the position-keeping parser places it: its opening quote, if it has one. */
export function scalarStart(event: Event): number {
  if (event.type !== EVENT_ID.SCALAR) return event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING ? event.start : 0;
  const quoted = event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED;
  return quoted ? event.valueStart - 1 : event.valueStart;
}

/** Every key given a second time in its mapping, at the later key; one pass, a set of keys per open mapping. */
export function duplicateKeys(text: string, events: readonly Event[]): number[] {
  const open: { keys?: Set<string>; children: number }[] = [];
  const found: number[] = [];
  for (const event of events) {
    if (event.type === EVENT_ID.POP) {
      open.pop();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      open.push({ children: 0 });
      continue;
    }
    const parent = open[open.length - 1];
    if (parent?.keys && parent.children % 2 === 0) {
      const key = keyIdentity(text, event);
      if (key !== undefined) {
        if (parent.keys.has(key)) found.push(scalarStart(event));
        else parent.keys.add(key);
      }
    }
    if (parent) parent.children++;
    if (event.type === EVENT_ID.MAPPING) open.push({ keys: new Set(), children: 0 });
    else if (event.type === EVENT_ID.SEQUENCE) open.push({ children: 0 });
  }
  return found;
}

/** Implicit keys longer than this are refused by YAML (and read by js-yaml at any length). */
const MAX_KEY_CHARS = 1024;

/**
 * What in a file over the position-keeping parser's limit that parser alone could judge: the
 * first tag, anchor or alias, key that is a collection, null or over 1,024 characters, or second
 * document, and what it is, for a message. (A file within the limit is read by that parser.)
 */
export function onlyTheOtherParserJudges(text: string, events: readonly Event[]): EventProblem | undefined {
  const open: { mapping: boolean; children: number }[] = [];
  let documents = 0;
  for (const event of events) {
    if (event.type === EVENT_ID.POP) {
      open.pop();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      documents++;
      open.push({ mapping: false, children: 0 });
      continue;
    }
    const parent = open[open.length - 1];
    const isKey = parent !== undefined && parent.mapping && parent.children % 2 === 0;
    if (parent) parent.children++;
    const at = event.type === EVENT_ID.ALIAS ? Math.max(0, event.anchorStart - 1) : scalarStart(event);
    if (documents > 1) return { at, message: 'a second YAML document (after ---)' };
    if (event.type === EVENT_ID.ALIAS) return { at, message: 'an alias (*name)' };
    if (event.tagStart >= 0) return { at: event.tagStart, message: `a tag (${text.slice(event.tagStart, event.tagEnd)})` };
    if (event.anchorStart >= 0) return { at: event.anchorStart - 1, message: 'an anchor (&name)' };
    if (isKey && (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING)) {
      return { at, message: 'a key that is a list or a mapping' };
    }
    if (isKey && event.type === EVENT_ID.SCALAR) {
      if (event.valueStart < 0 || (event.style === SCALAR_STYLE.PLAIN && keyIdentity(text, event) === 'object:null')) {
        return { at, message: 'a key that is empty or null' };
      }
      if (event.valueEnd - event.valueStart > MAX_KEY_CHARS) return { at, message: `a key longer than ${MAX_KEY_CHARS} characters` };
    }
    if (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING)
      open.push({ mapping: event.type === EVENT_ID.MAPPING, children: 0 });
  }
  return undefined;
}
