// Reads the FIELD lists of a VOTable document (versions 1.1 to 1.5, with or without a namespace
// prefix) so `archive-schema import` can turn them into a table's columns. Data rows are not read:
// votableHead passes over every DATA element as the file streams by, so a VOTable of any size costs
// only its metadata.

import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';

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
}

export class VotableError extends Error {
  override name = 'VotableError';
}

/** A node of fast-xml-parser's preserveOrder output: `{ TAG: children, ':@': attributes }` or `{ '#text': text }`. */
type XmlNode = Record<string, unknown>;

const ATTRIBUTES = ':@';
const TEXT = '#text';
const FIELD_ATTRIBUTES = ['ID', 'ucd', 'unit', 'datatype', 'arraysize', 'utype'] as const;
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The deepest nesting of elements read. */
const MAX_DEPTH = 100;

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

/** The parser's refusals, said for a curator: it refuses what a VOTable never holds. */
function parserProblem(message: string): string {
  if (message.startsWith('Maximum nested tags')) {
    return `Elements are nested more than ${MAX_DEPTH} deep, which no VOTable needs (RESOURCE in RESOURCE goes a few levels at most); is this the right file?`;
  }
  const reserved = /Invalid name: "([^"]+)"/.exec(message);
  if (reserved) {
    return `An element or attribute is named "${reserved[1] ?? ''}", which VOTable never uses and which could change how the file is read; remove it`;
  }
  return `The XML cannot be read: ${message}`;
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** Every TABLE in the document (nested RESOURCEs included), with its FIELDs in order. Throws VotableError on malformed XML or a document that is not a VOTABLE. */
export function readVotableTables(xml: string): VotableTable[] {
  const text = xml.replace(/^\uFEFF/, '');
  // Entity declarations are how a small hostile file expands without limit ("billion laughs");
  // VOTable needs none, so any DTD is refused before a parser sees it.
  const declaration = /<!(DOCTYPE|ENTITY)\b/i.exec(text);
  if (declaration) {
    throw new VotableError(
      `The document has a ${declaration[1]?.toUpperCase()} declaration at line ${lineOf(text, declaration.index)}, which is not accepted: entity declarations can make a small file expand without limit, and VOTable needs none (remove it)`,
    );
  }
  try {
    // fast-xml-parser's own validator moved into fast-xml-validator, by the same author.
    SyntaxValidator.validate(text);
  } catch (error) {
    const { line, col, message } = error as { line?: number; col?: number; message: string };
    throw new VotableError(`Not well-formed XML at line ${line ?? 1}${col === undefined ? '' : `, column ${col}`}: ${message}`);
  }
  const parser = new XMLParser({
    // Document order matters: a RESOURCE may hold TABLEs and RESOURCEs interleaved, and the
    // ordered form keeps every repeated element as a list, so no isArray list is needed.
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    // `vot:FIELD` and `FIELD` are the same element: VOTable 1.1-1.5 differ only in the namespace.
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    // The rows can be most of the document; kept as one unparsed string, they cost no objects.
    stopNodes: ['*.DATA'],
    entityDecoder: xmlEntityDecoder(),
    maxNestedTags: MAX_DEPTH,
  });
  let nodes: XmlNode[];
  try {
    nodes = parser.parse(text) as XmlNode[];
  } catch (error) {
    if (error instanceof VotableError) throw error;
    throw new VotableError(parserProblem((error as Error).message));
  }
  const roots = nodes.filter((node) => {
    const tag = tagOf(node);
    return tag !== undefined && !tag.startsWith('?') && !tag.startsWith('#');
  });
  const root = roots[0];
  if (root === undefined) throw new VotableError('Not a VOTable: the document has no root element');
  if (roots.length > 1) throw new VotableError('Not well-formed XML: the document has more than one root element');
  if (tagOf(root) !== 'VOTABLE') throw new VotableError(`Not a VOTable: the root element is <${tagOf(root)}>, not <VOTABLE>`);
  const tables: VotableTable[] = [];
  collectTables(children(root), tables);
  return tables;
}

/** TABLEs in document order, in RESOURCEs nested to any depth. */
function collectTables(nodes: XmlNode[], tables: VotableTable[]): void {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === 'RESOURCE') collectTables(children(node), tables);
    else if (tag === 'TABLE') tables.push(readTable(node, tables.length + 1));
  }
}

function readTable(node: XmlNode, number: number): VotableTable {
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
  return table;
}

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ATTRIBUTES);
}

function children(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const value = tag === undefined ? undefined : node[tag];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

/** An attribute's value, trimmed; an empty one counts as absent (unit="" means no unit). */
function attribute(node: XmlNode, name: string): string | undefined {
  const attributes = node[ATTRIBUTES] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** All text inside an element, CDATA sections included. */
function textOf(node: XmlNode): string {
  const text = node[TEXT];
  if (typeof text === 'string') return text;
  return children(node).map(textOf).join('');
}

/**
 * XML's own entities and character references, decoded in one pass so `&amp;lt;` stays `&lt;`.
 * The parser's default skips character references; an unknown entity is an error, as in any XML
 * parser (HTML's `&nbsp;` does not exist in XML).
 */
function xmlEntityDecoder(): NonNullable<ConstructorParameters<typeof XMLParser>[0]>['entityDecoder'] {
  return {
    setExternalEntities: () => undefined,
    addInputEntities: () => undefined,
    reset: () => undefined,
    setXmlVersion: () => undefined,
    decode: (text: string) =>
      text.replace(/&([^;&\s]*);/g, (whole, name: string) => {
        const reference = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(name);
        if (reference) {
          const code = reference[1] === undefined ? Number(reference[2]) : parseInt(reference[1], 16);
          if (code > 0x10ffff || code === 0) throw new VotableError(`Not well-formed XML: ${whole} is not a character`);
          return String.fromCodePoint(code);
        }
        const replacement = XML_ENTITIES[name];
        if (replacement === undefined) {
          throw new VotableError(`Not well-formed XML: the entity ${whole} is not defined (XML has only &amp; &lt; &gt; &quot; &apos;)`);
        }
        return replacement;
      }),
  };
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
