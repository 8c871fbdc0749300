// Rewriting curators' YAML files safely: the yaml package's document API keeps comments and
// layout, every file is put in one canonical form (key order from the schemas, block style but
// for contacts and FITS cards, quotes only where YAML needs them), and nothing is written when
// the file has merge-conflict markers or broken YAML, or when the result would not parse back.

import { randomBytes } from 'node:crypto';
import { chmod, chown, open, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, LineCounter, YAMLMap, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Node as YamlNode, Pair } from 'yaml';
import { ArchiveSchemaError, EXIT, remedyFor } from '../errors.ts';
import type { Place } from '../errors.ts';
import type { FileKind } from '../kinds/registry.ts';
import { decodeMetadata } from '../pipeline/encoding.ts';
import { conflictIn, normaliseBreaks } from '../pipeline/parse.ts';
import { MAX_FILE_BYTES } from '../pipeline/scan.ts';
import { SCHEMA_FILES, readSchema } from '../pipeline/validate.ts';

/** A file a writing command refused to touch (a conflict, broken YAML), or could not read or write: nothing was changed. */
/** Whether a path exists (a file or a folder): what `new` and `import` refuse to write over. */
export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

export class RewriteError extends ArchiveSchemaError {
  override name = 'RewriteError';

  constructor(detail: string, place?: Place) {
    super(detail, EXIT.invalid, place);
  }
}

/** A metadata file could not be written (a permission, a full disk); it was left as it was. */
export class RewriteIoError extends ArchiveSchemaError {
  override name = 'RewriteIoError';

  constructor(display: string, error: unknown) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const remedy = remedyFor(code);
    const reason =
      code === '' ? (error as Error).message : `${code}: ${(error as Error).message.replace(/^\w+: /, '').split(',')[0] ?? ''}`;
    super(`cannot write ${display} (${reason}); it was left as it was${remedy ? `; ${remedy}` : ''}`, EXIT.trouble);
  }
}

/** The options every rewritten file is printed with. */
export const CANONICAL = {
  indent: 2,
  indentSeq: true,
  lineWidth: 0,
  minContentWidth: 0,
  flowCollectionPadding: false,
  singleQuote: true,
  defaultStringType: 'PLAIN',
  defaultKeyType: 'PLAIN',
} as const;

/** Characters nobody can see in an editor: control and format characters, line separators. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]/;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'g');

/** Parses a file for rewriting; refuses merge conflicts and broken YAML. */
export function openDocument(display: string, given: string): Document {
  const text = normaliseBreaks(given);
  const conflict = conflictIn(display, text);
  if (conflict) throw new RewriteError(`${conflict.message}; nothing was changed`, conflict);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, keepSourceTokens: false });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new RewriteError(`is not valid YAML (${error.message.split('\n')[0]}); fix it first, nothing was changed`, {
      file: display,
      line,
      col,
    });
  }
  return doc;
}

// ---- Canonical form --------------------------------------------------------------------------------

type Schema = Record<string, unknown>;

const schemaCache = new Map<string, Schema>();
function schemaFile(file: string): Schema {
  let schema = schemaCache.get(file);
  if (!schema) {
    schema = readSchema(file);
    schemaCache.set(file, schema);
  }
  return schema;
}

/** Follows $ref and allOf to the schema that lists an object's properties. */
function resolve(schema: Schema | undefined, file: string): { schema: Schema | undefined; file: string } {
  let current = schema;
  let where = file;
  for (let hops = 0; current && hops < 10; hops++) {
    const ref = current.$ref as string | undefined;
    const allOf = current.allOf as Schema[] | undefined;
    if (ref) {
      const [target = '', pointer = ''] = ref.split('#');
      if (target) where = target;
      current = pointer
        .split('/')
        .filter(Boolean)
        .reduce<Schema | undefined>((s, key) => s?.[key] as Schema | undefined, schemaFile(where));
    } else if (allOf?.length === 1) {
      current = allOf[0];
    } else {
      break;
    }
  }
  return { schema: current, file: where };
}

export function keyOrder(schema: Schema | undefined): string[] {
  return Object.keys((schema?.properties as Schema | undefined) ?? {});
}

/** The schema of a file kind, for its top-level mapping. */
export function fileSchema(kind: FileKind): { schema: Schema; file: string } {
  const file = SCHEMA_FILES[kind];
  return { schema: schemaFile(file), file };
}

/** Puts a document in canonical form, in place. */
export function canonicalise(doc: Document, kind: FileKind): void {
  const { schema, file } = fileSchema(kind);
  const top = isMap(doc.contents) ? doc.contents : undefined;
  const first = top?.items[0];
  canonicaliseNode(doc.contents, schema, file, '');
  // Comments above the first key head the whole file (the schema comment among them): they stay
  // on top whichever key sorts first.
  const head = top?.items[0];
  if (first && head && first !== head && isScalar(first.key) && isScalar(head.key) && first.key.commentBefore) {
    head.key.commentBefore = [first.key.commentBefore, head.key.commentBefore].filter(Boolean).join('\n');
    first.key.commentBefore = undefined;
  }
}

function canonicaliseNode(node: YamlNode | null, schema: Schema | undefined, file: string, key: string): void {
  const { schema: resolved, file: where } = resolve(schema, file);
  if (isScalar(node)) {
    // The printer picks the plainest style that reads back as the same value; text with
    // invisible characters stays double-quoted so they can be written as escapes.
    node.type = typeof node.value === 'string' && INVISIBLE.test(node.value) ? 'QUOTE_DOUBLE' : undefined;
    return;
  }
  if (isMap(node)) {
    // A contact is one short line; everything else is block style.
    node.flow = key === 'contact';
    if (key !== 'fits_header') sortPairs(node, keyOrder(resolved));
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : '';
      if (isScalar(pair.key)) pair.key.type = undefined;
      const properties = resolved?.properties as Record<string, Schema> | undefined;
      const child = key === 'fits_header' ? undefined : (properties?.[k] ?? (resolved?.additionalProperties as Schema | undefined));
      if (key === 'fits_header') {
        // A FITS card, [value, comment], on one line.
        if (isSeq(pair.value)) pair.value.flow = true;
        for (const item of isSeq(pair.value) ? pair.value.items : []) canonicaliseNode(item as YamlNode, undefined, where, '');
        continue;
      }
      canonicaliseNode(pair.value as YamlNode | null, child, where, k);
    }
    return;
  }
  if (isSeq(node)) {
    node.flow = node.items.length === 0;
    const items = resolved?.items as Schema | undefined;
    for (const item of node.items) canonicaliseNode(item as YamlNode, items, where, '');
  }
}

function sortPairs(map: YAMLMap, order: string[]): void {
  const rank = (pair: Pair) => {
    const k = isScalar(pair.key) ? String(pair.key.value) : '';
    const index = order.indexOf(k);
    return index < 0 ? order.length : index;
  };
  // A stable sort keeps unknown keys (which check reports) in their written order, at the end.
  const sorted = map.items.map((pair, i) => ({ pair, i })).sort((a, b) => rank(a.pair) - rank(b.pair) || a.i - b.i);
  // The blank line before the first key belongs to the mapping's start, not to whichever key moved.
  const first = map.items[0];
  const spaceBefore = first && isScalar(first.key) ? first.key.spaceBefore : undefined;
  map.items = sorted.map((s) => s.pair);
  if (first && isScalar(first.key) && first !== map.items[0]) first.key.spaceBefore = undefined;
  const head = map.items[0];
  if (head && isScalar(head.key) && spaceBefore) head.key.spaceBefore = spaceBefore;
}

/** Sets `key` in a mapping, placed where the schema order puts it when the key is new. */
export function setInOrder(map: YAMLMap, key: string, value: unknown, order: readonly string[], doc: Document): void {
  const existing = map.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
  if (existing) {
    existing.value = doc.createNode(value);
    return;
  }
  const pair = doc.createPair(key, value);
  const rank = order.indexOf(key);
  const index = map.items.findIndex((p) => isScalar(p.key) && order.indexOf(String(p.key.value)) > rank);
  if (index < 0) map.items.push(pair);
  else map.items.splice(index, 0, pair);
}

/** Prints a document in canonical form and proves the text parses back to the same data. */
export function printCanonical(doc: Document, kind: FileKind, display: string): string {
  canonicalise(doc, kind);
  // The printer leaves invisible characters raw even in double quotes; escape them, which is
  // safe because canonicalise double-quotes every string that has one.
  const text = doc.toString(CANONICAL).replace(INVISIBLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const back = parseDocument(text, { uniqueKeys: true });
  if (back.errors.length > 0) {
    throw new RewriteError(
      `${display}: the rewritten YAML would not parse (${back.errors[0]?.message.split('\n')[0]}); nothing was changed. This is a bug in archive-schema.`,
    );
  }
  if (JSON.stringify(back.toJS()) !== JSON.stringify(doc.toJS())) {
    throw new RewriteError(
      `${display}: the rewritten YAML would read back differently; nothing was changed. This is a bug in archive-schema.`,
    );
  }
  return text;
}

/** Reads a file to rewrite. */
export async function readForRewrite(file: string, display: string): Promise<{ text: string; doc: Document }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new RewriteError(`cannot read ${display}: ${(error as Error).message}`);
  }
  if (bytes.length > MAX_FILE_BYTES) {
    throw new RewriteError(
      `is ${(bytes.length / 1e6).toFixed(1)} MB, over the ${MAX_FILE_BYTES / 1e6} MB a metadata file may be; nothing was changed`,
      { file: display, line: 0, col: 0 },
    );
  }
  const decoded = decodeMetadata(bytes, display);
  if (!('text' in decoded)) throw new RewriteError(`${decoded.problem.message}; nothing was changed`, decoded.problem);
  return { text: decoded.text, doc: openDocument(display, decoded.text) };
}

/**
 * A file's name cut to 200 bytes, whole characters, for the temporary file beside it: a name the
 * file system takes (up to 255 bytes) would not leave room for the temporary file's own part.
 */
function shortened(name: string): string {
  if (Buffer.byteLength(name) <= 200) return name;
  let cut = '';
  for (const char of name) {
    if (Buffer.byteLength(cut + char) > 200) break;
    cut += char;
  }
  return cut;
}

/**
 * Replaces a file's content in one rename, so an editor or a crash never sees half a file, and
 * keeps what the file was: a symbolic link stays a link (its target is rewritten), and the file
 * keeps its mode and, where this user may set it, its owner. A file with other hard links, or
 * whose owner cannot be kept, is written in place instead, so that the links and the owner stay.
 */
export async function writeAtomically(file: string, text: string, display = file): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const info = await stat(target).catch(() => undefined);
  const temp = path.join(path.dirname(target), `.${shortened(path.basename(target))}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    if (info && info.nlink > 1) {
      await writeInPlace(target, text);
      return;
    }
    await writeFile(temp, text, info ? { mode: info.mode & 0o7777 } : {});
    if (info) {
      const owned = await chown(temp, info.uid, info.gid).then(
        () => true,
        () => info.uid === process.getuid?.() && info.gid === process.getgid?.(),
      );
      if (!owned) {
        await rm(temp, { force: true });
        await writeInPlace(target, text);
        return;
      }
      // writeFile's mode passes through the umask, and chown clears set-id bits: set it as it was.
      await chmod(temp, info.mode & 0o7777);
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw new RewriteIoError(display, error);
  }
}

/** Writes over a file's own bytes: its inode, and so its owner, mode and hard links, stay. */
async function writeInPlace(file: string, text: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const bytes = Buffer.from(text, 'utf8');
    await handle.write(bytes, 0, bytes.length, 0);
    await handle.truncate(bytes.length);
  } finally {
    await handle.close();
  }
}
