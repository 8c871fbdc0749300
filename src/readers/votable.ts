// Reads the FIELD lists of a VOTable document (versions 1.1 to 1.5, with or without a namespace
// prefix) so `archive-schema import` can turn them into a table's columns. Data rows are not read
// for that: votableHead passes over every DATA element as the file streams by, so a VOTable of any
// size costs only its metadata. A TAP_SCHEMA dump's rows, which are the metadata, can be asked for.

import { XmlError, attribute, children, childrenNamed, parseXml, rootOf, tagOf, textOf } from './xml.ts';
import type { XmlNode } from './xml.ts';

export interface VotableField {
  name: string;
  ucd?: string;
  unit?: string;
  datatype?: string;
  arraysize?: string;
  description?: string;
  utype?: string;
  ID?: string;
}

export interface VotableTable {
  name?: string;
  ID?: string;
  fields: VotableField[];
  /** Its TABLEDATA rows, when asked for: each cell's text, null for an empty one. */
  rows?: (string | null)[][];
  /** When asked for rows of a TABLE whose DATA is not TABLEDATA: what it is (BINARY2). */
  serialisation?: string;
}

export class VotableError extends Error {
  override name = 'VotableError';
}

const FIELD_ATTRIBUTES = ['ID', 'ucd', 'unit', 'datatype', 'arraysize', 'utype'] as const;

/** The most text kept from a VOTable once its DATA is left out: far more than any table's FIELDs. */
export const MAX_HEAD_CHARS = 256_000_000;

const DATA_OR_SKIPPED = /<!--|<!\[CDATA\[|<((?:[A-Za-z_][\w.-]*:)?)DATA(?=[\s/>])/g;
/** Enough text to hold any of the markers searched for, so that one split across chunks is found whole. */
const LOOKAHEAD = 256;

/**
 * A VOTable's text with each DATA element left out (its line breaks kept, so that line numbers
 * still point into the file), read from chunks as they come: the rows of a table are never held.
 * Comments and CDATA sections are passed over whole, so a DATA inside them is not taken for one.
 */
export function votableHead(chunks: Iterable<string>): string {
  const kept: string[] = [];
  let size = 0;
  const iterator = chunks[Symbol.iterator]();
  let buffer = '';
  let done = false;
  let line = 1;
  /** Reads another chunk onto the buffer; false at the end of the file. */
  const more = (): boolean => {
    if (done) return false;
    const next = iterator.next();
    if (next.done === true) done = true;
    else buffer += next.value;
    return !done;
  };
  /** Moves past the first `count` characters of the buffer: kept, or left out but for their line breaks. */
  const advance = (count: number, skip: boolean) => {
    const text = buffer.slice(0, count);
    const lines = countLines(text);
    line += lines;
    const out = skip ? '\n'.repeat(lines) : text;
    kept.push(out);
    size += out.length;
    if (size > MAX_HEAD_CHARS) {
      throw new VotableError(
        `The document is over ${MAX_HEAD_CHARS.toLocaleString('en')} characters even without its DATA; is it a VOTable?`,
      );
    }
    buffer = buffer.slice(count);
  };
  /**
   * The first match of `pattern` in what is left of the file, moving past what comes before it
   * (kept or skipped) as more is read; undefined at the end of the file, with everything passed.
   */
  const next = (pattern: RegExp, skip: boolean): RegExpExecArray | undefined => {
    for (;;) {
      pattern.lastIndex = 0;
      const found = pattern.exec(buffer);
      // A match near the end may be the start of a longer one (a DATA tag cut by the chunk).
      if (found && (done || found.index + found[0].length <= buffer.length - LOOKAHEAD)) {
        advance(found.index, skip);
        return found;
      }
      if (!found) advance(Math.max(0, buffer.length - LOOKAHEAD), skip);
      if (!more()) {
        if (found) {
          advance(found.index, skip);
          return found;
        }
        advance(buffer.length, skip);
        return undefined;
      }
    }
  };
  /** Moves past `end` (a comment's or CDATA section's), kept or skipped; false if the file ends first. */
  const passThrough = (end: string, skip: boolean): boolean => {
    for (let from = 0; ;) {
      const at = buffer.indexOf(end, from);
      if (at >= 0) {
        advance(at + end.length, skip);
        return true;
      }
      from = Math.max(0, buffer.length - end.length);
      if (!more()) return false;
    }
  };
  const unclosed = (what: string, at: number) => new VotableError(`Not well-formed XML: the ${what} at line ${at} is never closed`);
  for (;;) {
    const found = next(DATA_OR_SKIPPED, false);
    if (!found) return kept.join('');
    const start = line;
    if (found[0] === '<!--' || found[0] === '<![CDATA[') {
      const comment = found[0] === '<!--';
      advance(found[0].length, false);
      if (!passThrough(comment ? '-->' : ']]>', false)) throw unclosed(comment ? 'comment' : 'CDATA section', start);
      continue;
    }
    // A DATA element: left out from its start tag to its end tag, CDATA and comments passed over.
    let tagEnd = buffer.indexOf('>');
    while (tagEnd < 0 && buffer.length < 1_000_000 && more()) tagEnd = buffer.indexOf('>');
    if (tagEnd < 0) throw unclosed('DATA tag', start);
    const empty = buffer[tagEnd - 1] === '/';
    advance(tagEnd + 1, true);
    if (empty) continue;
    const close = new RegExp(`<!--|<!\\[CDATA\\[|</${(found[1] ?? '').replaceAll('.', '\\.')}DATA\\s*>`, 'g');
    for (;;) {
      const inner = next(close, true);
      if (!inner) throw unclosed('DATA element', start);
      const end = inner[0] === '<!--' ? '-->' : inner[0] === '<![CDATA[' ? ']]>' : undefined;
      if (end === undefined) {
        advance(inner[0].length, true);
        break;
      }
      advance(inner[0].length, true);
      if (!passThrough(end, true)) throw unclosed('DATA element', start);
    }
  }
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** How a VOTable's nesting is described when it goes too deep. */
const READING = { what: 'VOTable', nesting: 'RESOURCE in RESOURCE goes a few levels at most', stopNodes: ['*.DATA'] };

/**
 * Every TABLE in the document (nested RESOURCEs included), with its FIELDs in order, and with
 * `rows` its TABLEDATA rows too. Throws VotableError on malformed XML or a document that is not a
 * VOTABLE.
 */
export function readVotableTables(xml: string, options: { rows?: boolean } = {}): VotableTable[] {
  let root: XmlNode;
  try {
    root = rootOf(parseXml(xml, READING), 'VOTable');
  } catch (error) {
    if (error instanceof XmlError) throw new VotableError(error.message);
    throw error;
  }
  if (tagOf(root) !== 'VOTABLE') throw new VotableError(`Not a VOTable: the root element is <${tagOf(root)}>, not <VOTABLE>`);
  const tables: VotableTable[] = [];
  collectTables(children(root), tables, options.rows === true);
  return tables;
}

/** TABLEs in document order, in RESOURCEs nested to any depth. */
function collectTables(nodes: XmlNode[], tables: VotableTable[], rows: boolean): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === 'RESOURCE') collectTables(children(node), tables, rows);
    else if (tag === 'TABLE') tables.push(readTable(node, tables.length + 1, rows));
  }
}

function readTable(node: XmlNode, number: number, rows: boolean): VotableTable {
  const table: VotableTable = { fields: [] };
  const name = attribute(node, 'name');
  const id = attribute(node, 'ID');
  if (name !== undefined) table.name = name;
  if (id !== undefined) table.ID = id;
  const label = name ?? id ?? `number ${number}`;
  for (const child of children(node)) {
    if (tagOf(child) !== 'FIELD') continue;
    const fieldName = attribute(child, 'name') ?? attribute(child, 'ID');
    if (fieldName === undefined) {
      throw new VotableError(`FIELD ${table.fields.length + 1} of TABLE ${label} has no name attribute`);
    }
    const field: VotableField = { name: fieldName };
    for (const key of FIELD_ATTRIBUTES) {
      const value = attribute(child, key);
      if (value !== undefined) field[key] = value;
    }
    const description = children(child).find((grandchild) => tagOf(grandchild) === 'DESCRIPTION');
    if (description !== undefined) {
      const text = textOf(description).replace(/\s+/g, ' ').trim();
      if (text !== '') field.description = text;
    }
    table.fields.push(field);
  }
  const data = childrenNamed(node, 'DATA')[0];
  if (rows && data !== undefined) Object.assign(table, readData(textOf(data), label));
  return table;
}

/**
 * A TABLE's rows from the text of its DATA element, each cell's text or null for an empty TD; or,
 * for rows serialised otherwise (BINARY, BINARY2, FITS), which serialisation that is.
 */
function readData(inner: string, label: string): Pick<VotableTable, 'rows' | 'serialisation'> {
  let nodes: XmlNode[];
  try {
    nodes = parseXml(`<DATA>${inner}</DATA>`, READING);
  } catch (error) {
    if (error instanceof XmlError) throw new VotableError(`The DATA of TABLE ${label}: ${error.message}`);
    throw error;
  }
  const serialisation = children(rootOf(nodes, 'VOTable')).find((c) => tagOf(c) !== '#text');
  const tag = serialisation === undefined ? undefined : tagOf(serialisation);
  if (serialisation === undefined || tag === undefined) return { rows: [] };
  if (tag !== 'TABLEDATA') return { serialisation: tag };
  return {
    rows: childrenNamed(serialisation, 'TR').map((tr) =>
      childrenNamed(tr, 'TD').map((td) => {
        const text = textOf(td);
        return text === '' ? null : text;
      }),
    ),
  };
}
