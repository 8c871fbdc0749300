// The XML the importers read (VOTables, VOSI tablesets), read the same safe way: no DTD (so no
// entity expansion), nesting refused past a depth before any parser keeps a stack of it, well-formedness
// located at a line and column, then fast-xml-parser's ordered form with namespace prefixes removed.

import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';

export class XmlError extends Error {
  override name = 'XmlError';
}

/** A node of fast-xml-parser's preserveOrder output: `{ TAG: children, ':@': attributes }` or `{ '#text': text }`. */
export type XmlNode = Record<string, unknown>;

const ATTRIBUTES = ':@';
const TEXT = '#text';
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The deepest nesting of elements read. */
export const MAX_DEPTH = 100;

export interface XmlReading {
  /** The kind of document, in messages, as in "VOTable needs none": "VOTable", "VODataService". */
  what: string;
  /** What its elements nest like at most, in the message for deeper nesting. */
  nesting: string;
  /** Elements kept as their unparsed text (`*.DATA`): they cost no objects. */
  stopNodes?: string[];
}

/**
 * The document's top-level nodes, in order. Throws XmlError, with a line and column where there
 * is one, for a DTD, nesting past MAX_DEPTH, XML that is not well formed and an undefined entity.
 */
export function parseXml(xml: string, reading: XmlReading): XmlNode[] {
  const text = xml.replace(/^\uFEFF/, '');
  // Entity declarations are how a small hostile file expands without limit ("billion laughs");
  // these documents need none, so any DTD is refused before a parser sees it.
  const declaration = /<!(DOCTYPE|ENTITY)\b/i.exec(text);
  if (declaration) {
    throw new XmlError(
      `The document has a ${declaration[1]?.toUpperCase()} declaration at line ${lineOf(text, declaration.index)}, which is not accepted: entity declarations can make a small file expand without limit, and ${reading.what} needs none (remove it)`,
    );
  }
  refuseDeepNesting(text, reading);
  try {
    // fast-xml-parser's own validator moved into fast-xml-validator, by the same author.
    SyntaxValidator.validate(text);
  } catch (error) {
    const { line, col, message } = error as { line?: number; col?: number; message: string };
    throw new XmlError(`Not well-formed XML at line ${line ?? 1}${col === undefined ? '' : `, column ${col}`}: ${message}`);
  }
  const parser = new XMLParser({
    // Document order matters (a RESOURCE may hold TABLEs and RESOURCEs interleaved), and the
    // ordered form keeps every repeated element as a list, so no isArray list is needed.
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    // `vot:FIELD` and `FIELD` are the same element: versions differ only in the namespace.
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    stopNodes: reading.stopNodes ?? [],
    entityDecoder: xmlEntityDecoder(),
    maxNestedTags: MAX_DEPTH,
  });
  try {
    return parser.parse(text) as XmlNode[];
  } catch (error) {
    if (error instanceof XmlError) throw error;
    throw new XmlError(parserProblem((error as Error).message, reading));
  }
}

/** The one root element of a parsed document; XmlError when it has none or several. */
export function rootOf(nodes: XmlNode[], what: string): XmlNode {
  const roots = nodes.filter((node) => {
    const tag = tagOf(node);
    return tag !== undefined && !tag.startsWith('?') && !tag.startsWith('#');
  });
  const root = roots[0];
  if (root === undefined) throw new XmlError(`Not a ${what}: the document has no root element`);
  if (roots.length > 1) throw new XmlError('Not well-formed XML: the document has more than one root element');
  return root;
}

/** The parser's refusals, said for a curator: it refuses what these documents never hold. */
function parserProblem(message: string, reading: XmlReading): string {
  if (message.startsWith('Maximum nested tags')) {
    return `Elements are nested more than ${MAX_DEPTH} deep, which no ${reading.what} needs (${reading.nesting}); is this the right file?`;
  }
  const reserved = /Invalid name: "([^"]+)"/.exec(message);
  if (reserved) {
    return `An element or attribute is named "${reserved[1] ?? ''}", which ${reading.what} never uses and which could change how the file is read; remove it`;
  }
  return `The XML cannot be read: ${message}`;
}

/**
 * Refuses elements nested more than MAX_DEPTH deep, at the start tag that goes too deep, before
 * a parser keeps a stack of them: the validator's message for 200,000 unclosed RESOURCEs was
 * that whole stack, on one line, placed at line 1. A scan of tags, comments, CDATA sections and
 * processing instructions, each passed over once; what it cannot close, the validator reports.
 */
function refuseDeepNesting(text: string, reading: XmlReading): void {
  let depth = 0;
  for (let at = text.indexOf('<'); at >= 0;) {
    const skipped = SKIPPED.find(([open]) => text.startsWith(open, at));
    let end: number;
    if (skipped) {
      end = text.indexOf(skipped[1], at + skipped[0].length);
      if (end < 0) return;
      end += skipped[1].length - 1;
    } else {
      end = tagEnd(text, at);
      if (end < 0) return;
      if (text[at + 1] === '/') depth--;
      else if (text[end - 1] !== '/' && ++depth > MAX_DEPTH) {
        const name = /^<([^\s/>]*)/.exec(text.slice(at, at + 100))?.[1] ?? '';
        throw new XmlError(
          `Elements are nested more than ${MAX_DEPTH} deep at line ${lineOf(text, at)}, column ${at - text.lastIndexOf('\n', at - 1)} (<${name.slice(0, 40)}>), which no ${reading.what} needs (${reading.nesting}); is this the right file?`,
        );
      }
    }
    at = text.indexOf('<', end + 1);
  }
}

/** What the scan passes over whole: comments, CDATA sections, processing instructions, declarations. */
const SKIPPED: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

/** Where a tag that starts at `at` ends: its `>` outside quoted attribute values, or -1. */
function tagEnd(text: string, at: number): number {
  let quote = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

export function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ATTRIBUTES);
}

export function children(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  const value = tag === undefined ? undefined : node[tag];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

/** The child elements named `tag`, in order. */
export function childrenNamed(node: XmlNode, tag: string): XmlNode[] {
  return children(node).filter((child) => tagOf(child) === tag);
}

/** An attribute's value, trimmed; an empty one counts as absent (unit="" means no unit). */
export function attribute(node: XmlNode, name: string): string | undefined {
  const attributes = node[ATTRIBUTES] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** All text inside an element, CDATA sections included. */
export function textOf(node: XmlNode): string {
  const text = node[TEXT];
  if (typeof text === 'string') return text;
  return children(node).map(textOf).join('');
}

/**
 * The text of the first child named `tag`, its XML white space (space, tab, CR, LF) folded as an
 * xs:token's is; undefined when absent or empty. Other white space (U+2028) is text.
 */
export function childText(node: XmlNode, tag: string): string | undefined {
  const child = children(node).find((c) => tagOf(c) === tag);
  const text =
    child === undefined
      ? ''
      : textOf(child)
          .replace(/[ \t\r\n]+/g, ' ')
          .replace(/^ | $/g, '');
  return text === '' ? undefined : text;
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
          if (code > 0x10ffff || code === 0) throw new XmlError(`Not well-formed XML: ${whole} is not a character`);
          return String.fromCodePoint(code);
        }
        const replacement = XML_ENTITIES[name];
        if (replacement === undefined) {
          throw new XmlError(`Not well-formed XML: the entity ${whole} is not defined (XML has only &amp; &lt; &gt; &quot; &apos;)`);
        }
        return replacement;
      }),
  };
}

export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
