// Reads metadata/**/*.yaml, works out what kind of file each is from where it sits, and parses it
// with source positions kept, so every later stage can point a problem at file:line:col.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fg from 'fast-glob';
import { load as loadYaml } from 'js-yaml';
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';
import { ArchiveSchemaError, EXIT } from '../errors.ts';
import { classify } from '../kinds/registry.ts';
import type { FileKind, Placement } from '../kinds/registry.ts';

// The position-keeping parser is loaded when a position is first asked for: a build that finds
// nothing wrong never loads it.
let yamlModule: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml);

export type PathSegment = string | number;

export interface Position {
  line: number;
  col: number;
}

export interface MetadataFile {
  /** Path as shown to curators, e.g. `metadata/gama/dr2/catalogues/SpecCat.yaml`. */
  display: string;
  /** Path relative to the metadata folder, with `/` separators. */
  relative: string;
  kind: FileKind;
  placement: Placement;
  /** The parsed content, as plain JSON-like data. */
  data: unknown;
  /** Position of the value (or, with `at: 'key'`, of the key) at a path inside the document. */
  locate(pointer: readonly PathSegment[], at?: 'key' | 'value'): Position;
  /** The scalar at a path exactly as written in the file, e.g. `135.0` where the data has 135. */
  source(pointer: readonly PathSegment[]): string | undefined;
  /** The whole text of the file. */
  text: string;
}

export interface LoadResult {
  files: MetadataFile[];
  /** Metadata-relative paths of files in the layout that did not parse. */
  unparsed: string[];
  diagnostics: Diagnostic[];
}

export interface LoadOptions {
  /** Folder that displayed paths are relative to; defaults to the metadata folder's parent. */
  displayRoot?: string;
}

/** Thrown for trouble that is not the metadata's fault: the folder is missing or unreadable. */
export class LoadError extends ArchiveSchemaError {
  override name = 'LoadError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

export interface MetadataTexts {
  entries: { relative: string; text: string }[];
  /** How a metadata-relative path is shown. */
  display: (relative: string) => string;
}

/** Every .yaml and .yml file under the metadata folder, in a stable order, with its text. */
export async function readMetadataTexts(metadataDir: string, options: LoadOptions = {}): Promise<MetadataTexts> {
  const { root, names, display } = await listMetadata(metadataDir, options);
  return { entries: names.map((relative) => ({ relative, text: readMetadataFile(root, relative).toString('utf8') })), display };
}

/** The metadata files' relative paths, sorted, and how each is shown. */
async function listMetadata(metadataDir: string, options: LoadOptions): Promise<{ root: string; names: string[]; display: (relative: string) => string }> {
  const root = path.resolve(metadataDir);
  const displayRoot = path.resolve(options.displayRoot ?? path.dirname(root));
  const shown = toDisplay(path.relative(displayRoot, root) || '.');
  let names: string[];
  try {
    const info = await stat(root);
    if (!info.isDirectory()) throw new LoadError(`${shown} is not a folder; pass the metadata folder with --metadata`);
    names = await fg(['**/*.yaml', '**/*.yml'], { cwd: root, onlyFiles: true, followSymbolicLinks: false });
  } catch (error) {
    if (error instanceof LoadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError(`metadata folder ${shown} does not exist; pass the right folder with --metadata`);
    throw new LoadError(`cannot read metadata folder ${shown}: ${(error as Error).message}`);
  }
  // Sorted so that reports and outputs never depend on the order the file system lists files in.
  names.sort();
  return { root, names, display: (relative) => toDisplay(path.relative(displayRoot, path.join(root, relative))) };
}

function readMetadataFile(root: string, relative: string): Buffer {
  try {
    return readFileSync(path.join(root, relative));
  } catch (error) {
    throw new LoadError(`cannot read ${relative}: ${(error as Error).message}`);
  }
}

/** A file's version as the file system tells it without reading the file: size, inode, modification and change times. */
export type Stamp = string;

/** What a scan found of a file: a hash of its bytes, and the bytes if they had to be read. */
export interface ScannedFile {
  relative: string;
  hash: string;
  /** The bytes, read now or when first asked for. */
  bytes(): Buffer;
}

/** Hashes recorded by an earlier scan, by relative path. */
export type ScanIndex = Record<string, { stamp: Stamp; hash: string }>;

/** How long after its last change a file's stamp is trusted: changes within one tick of the clock share a stamp. */
const SETTLED_NS = 2_000_000_000n;

/**
 * Every metadata file with a SHA-256 of its bytes. A file whose stamp is the one `known` recorded
 * is not read: its recorded hash stands. A change always moves the change time (ctime), which no
 * tool can set back, so an edit is never missed; a file changed in the last two seconds is not
 * recorded, as a second change within the same clock tick could keep its stamp.
 */
export async function scanMetadata(
  metadataDir: string,
  options: LoadOptions & { known?: ScanIndex; /** The time to count from, in nanoseconds since 1970 (for tests). */ now?: bigint } = {},
): Promise<{ files: ScannedFile[]; index: ScanIndex; display: (relative: string) => string }> {
  const { root, names, display } = await listMetadata(metadataDir, options);
  const known = options.known ?? {};
  const index: ScanIndex = {};
  const now = options.now ?? BigInt(Date.now()) * 1_000_000n;
  const files = names.map((relative): ScannedFile => {
    let info;
    try {
      info = statSync(path.join(root, relative), { bigint: true });
    } catch (error) {
      throw new LoadError(`cannot read ${relative}: ${(error as Error).message}`);
    }
    const stamp = `${info.size}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
    const recorded = known[relative];
    let bytes: Buffer | undefined;
    const read = () => (bytes ??= readMetadataFile(root, relative));
    const hash = recorded?.stamp === stamp ? recorded.hash : createHash('sha256').update(read()).digest('hex');
    if (now - info.ctimeNs > SETTLED_NS && now - info.mtimeNs > SETTLED_NS) index[relative] = { stamp, hash };
    return { relative, hash, bytes: read };
  });
  return { files, index, display };
}

export async function loadMetadata(metadataDir: string, options: LoadOptions = {}): Promise<LoadResult> {
  const { entries, display } = await readMetadataTexts(metadataDir, options);
  return parseMetadata(entries, display);
}

/**
 * Classifies and parses metadata texts, wherever they came from (the working tree, or a git
 * revision); `display` says how each path is shown.
 */
export function parseMetadata(entries: readonly { relative: string; text: string }[], display: (relative: string) => string): LoadResult {
  const files: MetadataFile[] = [];
  const unparsed: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { relative, text } of entries) {
    const shown = display(relative);
    const placed = classify(relative);
    if ('problem' in placed) {
      diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', rule: 'layout/unexpected-file', message: placed.problem });
      continue;
    }
    const parsed = parseFileFast(shown, text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.file) files.push({ ...parsed.file, relative, kind: placed.kind, placement: placed.placement });
    else unparsed.push(relative);
  }
  return { files, unparsed, diagnostics };
}

function toDisplay(relativePath: string): string {
  return relativePath.split(path.sep).join('/');
}

type ParsedFile = Pick<MetadataFile, 'display' | 'data' | 'locate' | 'source' | 'text'>;

/**
 * Parses one YAML text the fast way: js-yaml builds the data, and the position-keeping parser
 * runs only if something asks where a value is (a problem to report), or if js-yaml fails (to
 * report the syntax error where it is). Aliases take the slow path too, which bounds them.
 */
export function parseFileFast(display: string, text: string): { file?: ParsedFile; diagnostics: Diagnostic[] } {
  let data: unknown;
  try {
    data = loadYaml(text, { maxAliases: 0 });
  } catch {
    return parseFile(display, text);
  }
  // Both parsers agree on every text js-yaml accepts (a test holds them to it), except that an
  // empty document is an error for js-yaml and null for YAML; the slow path took that one.
  let slow: ParsedFile | undefined;
  const positions = (): ParsedFile => {
    slow ??= parseFile(display, text).file;
    if (!slow) throw new Error(`${display}: js-yaml read this file but yaml cannot; please report it`);
    return slow;
  };
  return {
    file: {
      display,
      data,
      text,
      locate: (pointer, where) => positions().locate(pointer, where),
      source: (pointer) => positions().source(pointer),
    },
    diagnostics: [],
  };
}

/** Parses one YAML text; syntax problems come back as diagnostics with their positions. */
export function parseFile(display: string, text: string): { file?: ParsedFile; diagnostics: Diagnostic[] } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const at = (offset: number): Position => lineCounter.linePos(offset);
  const diagnostics: Diagnostic[] = [];
  const report = (problem: { pos: [number, number]; code: string; message: string }, severity: Diagnostic['severity']) => {
    const { line, col } = at(problem.pos[0]);
    const message = firstLine(problem.message);
    diagnostics.push({
      file: display,
      line,
      col,
      severity,
      rule: `yaml/${problem.code.toLowerCase().replaceAll('_', '-')}`,
      message: severity === 'error' ? `${message}; fix the YAML syntax here` : message,
    });
  };
  for (const error of doc.errors) report(error, 'error');
  for (const warning of doc.warnings) report(warning, 'warning');
  if (doc.errors.length > 0) return { diagnostics };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    diagnostics.push({ file: display, line: 1, col: 1, severity: 'error', rule: 'yaml/aliases', message: `${firstLine((error as Error).message)}; expand the aliases into plain YAML` });
    return { diagnostics };
  }
  const locate = (pointer: readonly PathSegment[], where: 'key' | 'value' = 'value'): Position =>
    at(offsetOf(doc, pointer, where));
  const source = (pointer: readonly PathSegment[]): string | undefined => {
    const { node, complete } = nodeAt(doc, pointer);
    return complete && yaml().isScalar(node) && node.range ? text.slice(node.range[0], node.range[1]) : undefined;
  };
  return { file: { display, data, locate, source, text }, diagnostics };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}

/**
 * Walks a path into the YAML document. When the path does not resolve all the way (a missing key),
 * the walk stops at the deepest node found, which is where a curator would add the key.
 */
function nodeAt(doc: Document, pointer: readonly PathSegment[]): { node: unknown; pair?: Pair; complete: boolean } {
  let node: unknown = doc.contents;
  let pair: Pair | undefined;
  let depth = 0;
  for (const segment of pointer) {
    if (yaml().isAlias(node)) node = node.resolve(doc);
    let next: unknown;
    let nextPair: Pair | undefined;
    if (yaml().isMap(node)) {
      nextPair = node.items.find((item) => yaml().isPair(item) && keyText(item.key) === String(segment));
      next = nextPair?.value;
    } else if (yaml().isSeq(node) && typeof segment === 'number') {
      next = node.items[segment];
    }
    if (next === undefined && nextPair === undefined) break;
    node = next;
    pair = nextPair;
    depth++;
    if (next === null || next === undefined) break;
  }
  return { node, ...(pair ? { pair } : {}), complete: depth === pointer.length };
}

function offsetOf(doc: Document, pointer: readonly PathSegment[], where: 'key' | 'value'): number {
  const { node, pair } = nodeAt(doc, pointer);
  if (where === 'key' && pair && isNode(pair.key)) return pair.key.range?.[0] ?? 0;
  if (isNode(node)) return node.range?.[0] ?? 0;
  if (pair && isNode(pair.key)) return pair.key.range?.[0] ?? 0;
  return 0;
}

function isNode(value: unknown): value is YamlNode {
  return typeof value === 'object' && value !== null && 'range' in value;
}

function keyText(key: unknown): string | undefined {
  if (yaml().isScalar(key)) return String(key.value);
  return undefined;
}
