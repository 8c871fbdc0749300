// Parses metadata files: js-yaml builds the data fast and says where a problem is from its events;
// the position-keeping \`yaml\` parser judges only what the two read apart, and what js-yaml cannot
// read, in files small enough for it to read in a few seconds. Either way js-yaml's events are
// checked first, in one pass, for what would make a parser's work grow past the file's size
// (nesting, aliases). Also reads and parses a whole folder, for the commands that rewrite files
// and for a git revision's metadata.

import { createRequire } from 'node:module';
import { CORE_SCHEMA, EVENT_ID, SCALAR_STYLE, YAMLException, constructFromEvents, parseEvents } from 'js-yaml';
import type { Event } from 'js-yaml';
import type * as Yaml from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { LISTED_PER_KIND, Quota, leftOut } from '../diagnostics.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { classify } from '../kinds/registry.ts';
import type { FileKind, Placement } from '../kinds/registry.ts';
import { indentationProblem } from './indentation.ts';
import { MAX_ALIAS_NODES, aliasProblem, duplicateKeys, onlyTheOtherParserJudges } from './limits.ts';
import type { EventProblem } from './limits.ts';
import { eventPositions, lineCounter } from './locate.ts';
import { readMetadataTexts } from './scan.ts';
import type { ScanOptions } from './scan.ts';

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
  /**
   * Whole numbers the text writes as floats (`5.0`, `1e3`), when the fast parser read it: only
   * these can be a whole number written with a fraction where one is expected. Unknown (every
   * number is looked up) for a file the position-keeping parser read.
   */
  floatWholes?: ReadonlySet<number>;
}

export interface LoadResult {
  files: MetadataFile[];
  diagnostics: Diagnostic[];
}

/** A problem that keeps a file from being read at all: what it holds cannot be known. */
export function unreadable(d: Diagnostic): boolean {
  return d.severity === 'error' && (d.rule.startsWith('yaml/') || d.rule === 'layout/not-a-file');
}

export async function loadMetadata(metadataDir: string, options: ScanOptions = {}): Promise<LoadResult> {
  const { entries, display, problems } = await readMetadataTexts(metadataDir, options);
  const loaded = parseMetadata(entries, display);
  return { ...loaded, diagnostics: [...problems, ...loaded.diagnostics] };
}

/**
 * Classifies and parses metadata texts, wherever they came from (the working tree, or a git
 * revision); `display` says how each path is shown.
 */
export function parseMetadata(entries: readonly { relative: string; text: string }[], display: (relative: string) => string): LoadResult {
  const files: MetadataFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { relative, text } of entries) {
    const shown = display(relative);
    const placed = classify(relative);
    if ('problem' in placed) {
      diagnostics.push({ file: shown, line: 0, col: 0, severity: 'error', rule: 'layout/unexpected-file', message: placed.problem });
      continue;
    }
    const parsed = parseFileFast(shown, text);
    for (const d of parsed.diagnostics) diagnostics.push(d);
    if (parsed.file) files.push({ ...parsed.file, relative, kind: placed.kind, placement: placed.placement });
  }
  return { files, diagnostics };
}

type ParsedFile = Pick<MetadataFile, 'display' | 'data' | 'locate' | 'source' | 'text' | 'floatWholes'>;

/**
 * Lines as YAML counts them: a carriage return alone ends a line, as CR LF and LF do. The
 * position-keeping parser does not take it so, and one character for another keeps every offset.
 */
export function normaliseBreaks(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
}

/** Lines that begin a conflict an unfinished merge left in the file. */
const CONFLICT = /^(<{7}|={7}|>{7})( |$)/m;

/** A merge's conflict markers, named as such: the parsers would call them broken YAML. */
export function conflictIn(display: string, text: string): Diagnostic | undefined {
  const found = CONFLICT.exec(text);
  if (!found) return undefined;
  const line = text.slice(0, found.index).split('\n').length;
  const message = `has merge-conflict markers (${found[1] ?? ''}) left by an unfinished merge; resolve the conflict, keep the lines you mean, and remove the markers`;
  return { file: display, line, col: 1, severity: 'error', rule: 'yaml/conflict', message };
}

/** Whether a line is longer than YAML lets a key be (1,024 characters); a scan, where a regular expression would backtrack. */
function hasLongLine(text: string): boolean {
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    const next = end < 0 ? text.length : end;
    if (next - at > 1024) return true;
    at = next + 1;
  }
  return false;
}

/**
 * The deepest nesting of lists and mappings a metadata file may have. Its own go six deep; a file
 * nested far deeper is a mistake, and past a few thousand levels a parser runs out of stack.
 */
export const MAX_DEPTH = 64;

/** A file refused at a place in it. */
function refusal(display: string, position: Position, rule: string, message: string): Diagnostic {
  return { file: display, ...position, severity: 'error', rule, message };
}

function tooDeep(display: string, position: Position): Diagnostic {
  return refusal(
    display,
    position,
    'yaml/too-deep',
    `lists and mappings are nested more than ${MAX_DEPTH} deep here, where metadata nests a few levels; check the indentation and the brackets`,
  );
}

const COMPLEX_KEY = 'a key here is a list or a mapping; keys in metadata files are names: write the key as plain text';
const NULL_KEY = 'a key here is empty or null (`null:`, `~:`, or a value with no key); write the name of the key';

/** Line and column (from 1) of an offset in a text. */
function positionIn(text: string, offset: number): Position {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, col: offset - start + 1 };
}

const FLOAT_WITH_EXPONENT = /^[-+]?(?:\.\d+|\d[\d_]*(?:\.[\d_]*)?)[eE][-+]?\d+$/;

/** Whether a plain scalar is a number written with an exponent too large for a double (1e400). */
function overflows(text: string, start: number, end: number): boolean {
  if (end - start < 4 || end - start > 400) return false;
  const written = text.slice(start, end);
  return FLOAT_WITH_EXPONENT.test(written) && !Number.isFinite(Number(written.replaceAll('_', '')));
}

/**
 * What the two parsers read apart in the text itself, sent to the position-keeping one: a tab in a
 * line's indentation (js-yaml takes some that YAML forbids), a document marker after white space, a
 * directive line, a block scalar with an explicit indentation, an escape beyond U+10FFFF, an
 * explicit key or a value without one, a document end marker, a byte order mark anywhere in the text.
 */
const READ_APART: [RegExp, string][] = [
  [/^ *\t/m, 'a tab in indentation'],
  [/^[ \t]+(?:---|\.\.\.)(?:[ \t]|$)/m, 'a document marker after white space'],
  // A document end marker: js-yaml reads on past it, the position-keeping parser sees a new document.
  [/^\.\.\.(?:[ \t]|$)/m, 'a document end marker (...)'],
  [/^%/m, 'a directive (%)'],
  [/[|>](?:[1-9][+-]?|[+-][1-9])[ \t]*(?:#.*)?$/m, 'a block scalar with an explicit indentation'],
  // An escape beyond Unicode's last character (U+10FFFF): js-yaml makes a broken string of it.
  [/\\U(?!00(?:0[\da-fA-F]|10)[\da-fA-F]{4})[\da-fA-F]{8}/, 'an escape beyond U+10FFFF'],
  // An explicit key or a value with no key (`? key` / `: value` at the start of a line).
  [/^[ \t]*(?:- +)*[?:](?:[ \t]|$)/m, 'an explicit key (?) or a value without a key'],
  [/\ufeff/, 'a byte order mark'],
];

/** The first of what the two parsers read apart in the text itself, and where it is. */
function readApart(text: string): EventProblem | undefined {
  for (const [pattern, what] of READ_APART) {
    const found = pattern.exec(text);
    if (found) return { at: found.index, message: what };
  }
  return undefined;
}

/** How YAML's core schema writes null as a plain scalar. */
const NULL_PLAIN = /^(?:|~|null|Null|NULL)$/;

/**
 * What in js-yaml's events the position-keeping parser must judge, or what is refused at once: an
 * explicit tag, an anchor (`&name: x` is an anchor named `name:` to js-yaml, an error to yaml) or a
 * key that is a collection (which the two parsers read differently, and which metadata never
 * needs), and nesting deeper than MAX_DEPTH.
 */

function eventsNeedingJudgement(events: readonly Event[], text: string): { slow: boolean; deepAt?: number } {
  // Per open collection: whether it is a mapping, and how many children it has had.
  const open: { mapping: boolean; children: number }[] = [];
  let depth = 0;
  for (const event of events) {
    if (event.type === EVENT_ID.POP) {
      const closed = open.pop();
      if (closed && closed.children >= 0) depth--;
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      // %YAML 1.1 makes the position-keeping parser read yes and no as booleans; js-yaml ignores it.
      if (event.directives.length > 0) return { slow: true };
      open.push({ mapping: false, children: -1 });
      continue;
    }
    const parent = open[open.length - 1];
    const isKey = parent !== undefined && parent.mapping && parent.children % 2 === 0;
    if (parent && parent.children >= 0) parent.children++;
    if (event.type !== EVENT_ID.ALIAS && (event.tagStart !== -1 || event.anchorStart !== -1)) return { slow: true };
    // A number too large for a double: js-yaml keeps it as text, the other parser as infinity.
    if (event.type === EVENT_ID.SCALAR && event.style === SCALAR_STYLE.PLAIN && overflows(text, event.valueStart, event.valueEnd)) {
      return { slow: true };
    }
    // A key that is null (`null:`, `~:`, or none at all): js-yaml names it "null", the other parser "".
    if (
      isKey &&
      event.type === EVENT_ID.SCALAR &&
      event.style === SCALAR_STYLE.PLAIN &&
      NULL_PLAIN.test(text.slice(event.valueStart, event.valueEnd))
    ) {
      return { slow: true };
    }
    if (event.type === EVENT_ID.SEQUENCE || event.type === EVENT_ID.MAPPING) {
      if (isKey) return { slow: true };
      depth++;
      if (depth > MAX_DEPTH) return { slow: false, deepAt: event.start };
      open.push({ mapping: event.type === EVENT_ID.MAPPING, children: 0 });
    }
  }
  return { slow: false };
}

/**
 * The most text the position-keeping parser reads: 2 MB, and 100,000 values (counted as line
 * breaks and commas, which is quick). Its time grows with the values, some 20 µs each on a loaded
 * CI machine, and its memory with both, so a larger file is read by js-yaml alone: it must be plain
 * YAML, which every metadata file is (the largest group of a 100,000-column archive is 1 MB and
 * 40,000 lines). Nothing is lost: a larger file is refused where it holds what only the other
 * parser can judge, and its other problems are located from js-yaml's events as any file's are.
 */
export const POSITION_KEEPING_REACH = { chars: 2_000_000, values: 100_000 };

/** About how many values the first `end` characters hold: their line breaks and commas. */
function valuesIn(text: string, end: number): number {
  let values = 0;
  for (let at = 0; at < end; at++) {
    const c = text.charCodeAt(at);
    if (c === 10 || c === 44) values++;
  }
  return values;
}

/** Whether the position-keeping parser may read the first `end` characters of a text. */
function withinReach(text: string, end: number): boolean {
  return end <= POSITION_KEEPING_REACH.chars && valuesIn(text, end) <= POSITION_KEEPING_REACH.values;
}

/** js-yaml's reading of a text: its events, or where and why it stopped; nesting past the limit is said at once. */
type Reading = { events: Event[] } | { stopped: YAMLException } | { deep: Position };

function readEvents(text: string): Reading {
  try {
    return { events: parseEvents(text, { maxDepth: MAX_DEPTH + 1 }) };
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    // Nested past the limit: said here, where the position-keeping parser could run out of stack.
    if (error.reason.startsWith('nesting exceeded maxDepth') && error.mark)
      return { deep: { line: error.mark.line + 1, col: error.mark.column + 1 } };
    return { stopped: error };
  }
}

/** Where js-yaml stopped, in its words: for a file too large for the other parser to say it in its own. */
function stoppedAt(display: string, error: YAMLException): Diagnostic {
  const at = error.mark ? { line: error.mark.line + 1, col: error.mark.column + 1 } : { line: 1, col: 1 };
  return refusal(display, at, 'yaml/syntax', `${firstLine(error.reason)}; fix the YAML syntax here`);
}

/** What a file too large for the position-keeping parser holds that only that parser could judge. */
function tooLargeToJudge(display: string, text: string, problem: EventProblem): Diagnostic {
  const mb = (chars: number) => `${(chars / 1e6).toFixed(1)} MB`;
  const { chars, values } = POSITION_KEEPING_REACH;
  return refusal(
    display,
    positionIn(text, problem.at),
    'yaml/large-file',
    `${problem.message} here, in a file of ${mb(text.length)} and about ${valuesIn(text, text.length).toLocaleString('en')} values: a file over ${mb(chars)} or ${values.toLocaleString('en')} values is read by the fast YAML parser alone, which cannot judge this; write it plainly (metadata needs no tags, anchors, aliases, directives or explicit keys), or split the file`,
  );
}

/**
 * Parses one YAML text the fast way: js-yaml builds the data, and its events say where a value is
 * if a problem must be pointed at. The position-keeping parser runs only where js-yaml fails (to
 * report the syntax error in its words where it is) or where the two read apart; aliases take it
 * too. A line longer than 1,024 characters does as well, where YAML's limit on the length of a
 * key lies and the two parsers part: js-yaml accepts any length. Past POSITION_KEEPING_REACH,
 * js-yaml judges alone.
 */
export function parseFileFast(display: string, given: string): { file?: ParsedFile; diagnostics: Diagnostic[] } {
  const text = normaliseBreaks(given);
  const conflict = conflictIn(display, text);
  if (conflict) return { diagnostics: [conflict] };
  const reading = readEvents(text);
  if ('deep' in reading) return { diagnostics: [tooDeep(display, reading.deep)] };
  // Where js-yaml stopped, the other parser reads only as far: it says what is wrong if it can in time.
  if ('stopped' in reading) {
    const reach = withinReach(text, cutAfter(text, reading.stopped));
    return reach ? parseFile(display, text, reading) : { diagnostics: [stoppedAt(display, reading.stopped)] };
  }
  const small = withinReach(text, text.length);
  const { events } = reading;
  const aliases = aliasProblem(text, events);
  if (aliases) return { diagnostics: [refusal(display, positionIn(text, aliases.at), 'yaml/aliases', aliases.message)] };
  const judged = judgement(display, text, events, small);
  if (judged === 'slow') return parseFile(display, text, reading);
  if (judged) return { diagnostics: [judged] };
  let documents: unknown[];
  try {
    documents = constructFromEvents(events, { source: text, maxAliases: 0 });
  } catch (error) {
    const again = keysGivenTwice(display, text, events);
    if (again.length > 0) return { diagnostics: again };
    if (small) return parseFile(display, text, reading);
    if (error instanceof YAMLException) return { diagnostics: [stoppedAt(display, error)] };
    throw error;
  }
  // None (an empty file) or several: the slow path says which, as it reads them.
  if (documents.length !== 1 && small) return parseFile(display, text, reading);
  return { file: fastFile(display, text, documents[0] ?? null, events), diagnostics: [] };
}

/**
 * Whether the position-keeping parser must judge a text js-yaml read ('slow'), for one within its
 * reach; or, for one beyond, what only that parser could judge, refused where it is.
 */
function judgement(display: string, text: string, events: readonly Event[], small: boolean): 'slow' | Diagnostic | undefined {
  if (!small) {
    const judged = readApart(text) ?? onlyTheOtherParserJudges(text, events);
    return judged && tooLargeToJudge(display, text, judged);
  }
  if (hasLongLine(text) || readApart(text)) return 'slow';
  const judged = eventsNeedingJudgement(events, text);
  if (judged.deepAt !== undefined) return tooDeep(display, positionIn(text, judged.deepAt));
  return judged.slow ? 'slow' : undefined;
}

const DUPLICATE_KEY = 'Map keys must be unique; fix the YAML syntax here';

/** Keys given twice, found in one pass and reported as the other parser reports them: a hundred, and how many more. */
function keysGivenTwice(display: string, text: string, events: readonly Event[]): Diagnostic[] {
  const again = duplicateKeys(text, events);
  const at = lineCounter(text);
  const listed = again.slice(0, LISTED_PER_KIND).map((offset) => refusal(display, at(offset), 'yaml/duplicate-key', DUPLICATE_KEY));
  const first = again[LISTED_PER_KIND];
  if (first !== undefined)
    listed.push(leftOut(refusal(display, at(first), 'yaml/duplicate-key', DUPLICATE_KEY), again.length - LISTED_PER_KIND));
  return listed;
}

/**
 * A file read the fast way, whose positions come from js-yaml's events, read again if a position
 * is asked for. Both parsers agree on every text js-yaml accepts (the fuzzing tests hold them to
 * it), positions included, except that an empty document is an error for js-yaml and null for
 * YAML; the slow path took that one.
 */
function fastFile(display: string, text: string, data: unknown, events: readonly Event[]): ParsedFile {
  const { locate, source } = eventPositions(text, events, MAX_DEPTH + 1);
  return { display, data, text, locate, source, floatWholes: wholesWrittenAsFloats(text, events) };
}

/** Plain scalars written as floats (with a point or an exponent) whose value is a whole number. */
function wholesWrittenAsFloats(text: string, events: readonly Event[]): Set<number> {
  const found = new Set<number>();
  for (const event of events) {
    if (event.type !== EVENT_ID.SCALAR || event.style !== SCALAR_STYLE.PLAIN || event.valueStart < 0) continue;
    // Numbers start with a digit, a sign or a point: most scalars are ruled out by their first character.
    const c = text.charCodeAt(event.valueStart);
    if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) || event.valueEnd - event.valueStart > 400) continue;
    const written = text.slice(event.valueStart, event.valueEnd);
    if (!/[.eE]/.test(written)) continue;
    const value: unknown = CORE_SCHEMA.resolveImplicitScalarTag(written).value;
    if (typeof value === 'number' && Number.isInteger(value)) found.add(value);
  }
  return found;
}

/** The position-keeping parser's reading of a text: its document, errors and positions. */
interface Composed {
  doc: Document;
  at: (offset: number) => Position;
  errors: YamlError[];
}

/**
 * The position-keeping parser's document of a text, read as far as js-yaml read it when it
 * stopped. If the other parser found nothing wrong that far, js-yaml refuses what it accepts (a
 * control character in a double-quoted string): it reads on if it can in time and without nesting
 * deep; else js-yaml says what stopped it.
 */
function composeWithin(display: string, text: string, stopped: YAMLException | undefined): Composed | { diagnostics: Diagnostic[] } {
  let composed = compose(stopped ? text.slice(0, cutAfter(text, stopped)) : text);
  if (stopped && composed?.errors.length === 0) {
    if (!withinReach(text, text.length) || !shallowFrom(text, cutAfter(text, stopped)))
      return { diagnostics: [stoppedAt(display, stopped)] };
    composed = compose(text);
  }
  // Nested so deep the parser ran out of stack: js-yaml, which keeps count, says where.
  return composed ?? { diagnostics: [tooDeep(display, deepestPoint(text))] };
}

/**
 * The parser's errors and warnings as diagnostics, a hundred of each kind; or, where its first
 * error is by a line indented too far or not far enough, one error at that line.
 */
function yamlProblems(display: string, text: string, { doc, at, errors }: Composed): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = (problem: YamlError, severity: Diagnostic['severity']) => {
    // The parser says so when a collection ran it out of stack: that is nesting, said as such.
    if (problem.code === 'RESOURCE_EXHAUSTION') {
      diagnostics.push(tooDeep(display, at(problem.pos[0])));
      return;
    }
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
  const first = errors[0];
  if (first) {
    // A line indented too far or not far enough reads to the parser as something else, and one
    // such mistake can give many errors in its words: one error at the misplaced line says it.
    const misplaced = indentationProblem(text);
    if (misplaced && Math.abs(at(first.pos[0]).line - misplaced.line) <= 1) {
      return [
        {
          file: display,
          line: misplaced.line,
          col: misplaced.col,
          severity: 'error',
          rule: 'yaml/indentation',
          message: `this line ${misplaced.message}`,
        },
      ];
    }
  }
  // A hundred of each kind: a hostile file can hold a million.
  const quota = new Quota<YamlError>();
  for (const error of errors) if (quota.admit(error.code, error)) report(error, 'error');
  for (const { first, count } of quota.leftOut()) {
    report(first, 'error');
    const last = diagnostics.pop();
    if (last) diagnostics.push(leftOut(last, count));
  }
  // An unresolved tag is a warning to the parser; every explicit tag is an error here (below).
  for (const warning of doc.warnings) if (warning.code !== 'TAG_RESOLVE_FAILED') report(warning, 'warning');
  return diagnostics;
}

/** The position-keeping parser's document of a text, its errors (with keys given twice), and positions; none if it ran out of stack. */
function compose(read: string): Composed | undefined {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    // Keys given twice are found below, in one pass: the parser's own check compares each key
    // with every key before it, which a mapping of a million keys turns into hours.
    doc = parseDocument(read, { lineCounter, prettyErrors: false, uniqueKeys: false, strict: true });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return undefined;
  }
  const errors = [...doc.errors, ...duplicateKeysIn(doc)].sort((a, b) => a.pos[0] - b.pos[0]);
  return { doc, at: (offset) => lineCounter.linePos(offset), errors };
}

interface YamlError {
  pos: [number, number];
  code: string;
  message: string;
}

/**
 * Whether the text from an offset on cannot nest deep enough to cost the position-keeping parser
 * more than its size: its brackets are few, and no line holds many dashes (`- - - x` nests a
 * list in a list). Counted without regard to quotes, so it errs towards "deep".
 */
function shallowFrom(text: string, from: number): boolean {
  let brackets = 0;
  let dashes = 0;
  for (let at = from; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c === 91 || c === 123) brackets++;
    else if (c === 45) dashes++;
    else if (c === 10) dashes = 0;
    if (brackets > 10_000 || dashes > 1_000) return false;
  }
  return true;
}

/** Where the position-keeping parser stops reading a text js-yaml stopped in: a little past that place, on its line. */
function cutAfter(text: string, error: YAMLException): number {
  const at = error.mark?.position ?? text.length;
  const end = text.indexOf('\n', at);
  return Math.min(end < 0 ? text.length : end + 1, at + 256);
}

/**
 * Parses one YAML text with the position-keeping parser; syntax problems come back as diagnostics
 * with their positions. js-yaml reads the text first (or has, as `reading`): nesting past the limit
 * is refused, and so are aliases that would expand past theirs, before the other parser builds
 * anything. Where js-yaml stopped, the other parser reads only as far as that place: past it,
 * nesting and aliases were never counted, and a later error is seldom worth reporting before the
 * first is fixed.
 */
export function parseFile(display: string, given: string, known?: Reading): { file?: ParsedFile; diagnostics: Diagnostic[] } {
  const text = normaliseBreaks(given);
  const conflict = conflictIn(display, text);
  if (conflict) return { diagnostics: [conflict] };
  const reading = known ?? readEvents(text);
  if ('deep' in reading) return { diagnostics: [tooDeep(display, reading.deep)] };
  if ('events' in reading) {
    const aliases = aliasProblem(text, reading.events);
    if (aliases) return { diagnostics: [refusal(display, positionIn(text, aliases.at), 'yaml/aliases', aliases.message)] };
  }
  const stopped = 'stopped' in reading ? reading.stopped : undefined;
  const composed = composeWithin(display, text, stopped);
  if ('diagnostics' in composed) return composed;
  const { doc, at, errors } = composed;
  const diagnostics = yamlProblems(display, text, composed);
  if (errors.length > 0) return { diagnostics };
  const directive = /^%\S*/m.exec(text);
  if (
    directive &&
    (doc.directives?.yaml.explicit === true || Object.keys(doc.directives?.tags ?? {}).some((handle) => handle !== '!' && handle !== '!!'))
  ) {
    return {
      diagnostics: [
        ...diagnostics,
        refusal(
          display,
          at(directive.index),
          'yaml/directive',
          `the directive ${directive[0]} is not used in metadata files, which are read as YAML 1.2; remove the line`,
        ),
      ],
    };
  }
  const shape = shapeProblem(doc, text, display, at);
  if (shape) return { diagnostics: [...diagnostics, shape] };
  let data: unknown;
  try {
    // What the aliases expand to was bounded on js-yaml's events when it read the text: the
    // parser's own count walks the whole document again for each alias inside an anchor.
    data = doc.toJS({ maxAliasCount: stopped ? MAX_ALIAS_NODES : -1 });
  } catch (error) {
    // Aliases that expand to too much (a "billion laughs"): pointed at the first of them.
    let first: Position = { line: 1, col: 1 };
    yaml().visit(doc, {
      Alias(_key, node) {
        if (node.range) first = at(node.range[0]);
        return yaml().visit.BREAK;
      },
    });
    diagnostics.push(
      refusal(
        display,
        first,
        'yaml/aliases',
        `${firstLine((error as Error).message)}; metadata files need no aliases (*name): write the values out`,
      ),
    );
    return { diagnostics };
  }
  const locate = (pointer: readonly PathSegment[], where: 'key' | 'value' = 'value'): Position => at(offsetOf(doc, pointer, where));
  const source = (pointer: readonly PathSegment[]): string | undefined => {
    const { node, complete } = nodeAt(doc, pointer);
    return complete && yaml().isScalar(node) && node.range ? text.slice(node.range[0], node.range[1]) : undefined;
  };
  return { file: { display, data, locate, source, text }, diagnostics };
}

/**
 * The first of what the fast path sends here to be judged (eventsNeedingJudgement): an explicit
 * tag, a key that is a collection or null, nesting past MAX_DEPTH. Walked without recursion, so no depth
 * the parser took can exhaust the stack here.
 */
function shapeProblem(doc: Document, text: string, display: string, at: (offset: number) => Position): Diagnostic | undefined {
  const { isAlias, isCollection, isPair, isScalar } = yaml();
  const stack: [unknown, number][] = [[doc.contents, 0]];
  // Nodes are visited in the order they are written, so an alias names the last anchor of its
  // name seen so far, as the parser resolves it (its own resolve walks the whole document again).
  const anchors = new Map<string, YamlNode>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if ((isScalar(node) || isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    if (isAlias(node)) {
      // An alias inside the node it names would make the data contain itself.
      const target = anchors.get(node.source);
      const [start = 0] = node.range ?? [];
      const [from = 0, , to = 0] = target?.range ?? [];
      if (target && start >= from && start < to) {
        return refusal(
          display,
          at(start),
          'yaml/aliases',
          `the alias *${node.source} is inside the value it names, which would contain itself; write the values out`,
        );
      }
    } else if (isScalar(node) || isCollection(node)) {
      const start = node.range?.[0] ?? 0;
      if (node.tag !== undefined) {
        const message = `the tag ${tagText(node.tag)} is not used in metadata files; remove it and write the value plainly (in quotes for a string)`;
        return refusal(display, at(tagStart(text, start)), 'yaml/tag', message);
      }
      if (isCollection(node)) {
        if (depth + 1 > MAX_DEPTH) return tooDeep(display, at(start));
        for (const item of [...node.items].reverse()) {
          if (isPair(item)) {
            if (isCollection(item.key)) return refusal(display, at(item.key.range?.[0] ?? start), 'yaml/complex-key', COMPLEX_KEY);
            if (item.key === null || (isScalar(item.key) && item.key.value === null)) {
              const keyAt = isScalar(item.key) ? item.key.range?.[0] : undefined;
              const valueAt = isScalar(item.value) || isCollection(item.value) ? item.value.range?.[0] : undefined;
              return refusal(display, at(keyAt ?? valueAt ?? start), 'yaml/null-key', NULL_KEY);
            }
            stack.push([item.value, depth + 1], [item.key, depth + 1]);
          } else {
            stack.push([item, depth + 1]);
          }
        }
      }
    }
  }
  return undefined;
}

/**
 * Every key given a second time in its mapping, as the parser reports one (its own check compares
 * each key with every key before it): one walk, a set of key values per mapping.
 */
function duplicateKeysIn(doc: Document): YamlError[] {
  const { isCollection, isMap, isPair, isScalar } = yaml();
  const found: YamlError[] = [];
  const stack: unknown[] = [doc.contents];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (!isCollection(node)) continue;
    const seen = isMap(node) ? new Set<unknown>() : undefined;
    for (const item of node.items) {
      if (!isPair(item)) {
        stack.push(item);
        continue;
      }
      if (seen && isScalar(item.key)) {
        // As the parser compares keys: by value, so that 1 and '1' differ, and NaN is no key's equal.
        const value: unknown = item.key.value;
        const key = typeof value === 'number' && Number.isNaN(value) ? Symbol('NaN') : value;
        if (seen.has(key)) {
          const start = item.key.range?.[0] ?? 0;
          found.push({ pos: [start, start + 1], code: 'DUPLICATE_KEY', message: 'Map keys must be unique' });
        } else seen.add(key);
      }
      stack.push(item.key, item.value);
    }
  }
  return found;
}

/** Where a node's tag begins: the tag is the last token before the node's own text. */
function tagStart(text: string, valueStart: number): number {
  let at = text.lastIndexOf('!', valueStart);
  if (at < 0) return valueStart;
  while (at > 0 && !/\s/.test(text[at - 1] ?? ' ')) at--;
  return at;
}

/** A tag as written: `!!float` for the core schema's, `!foo` for a local one. */
function tagText(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}

/** Where nesting first goes past MAX_DEPTH, as js-yaml counts it. */
function deepestPoint(text: string): Position {
  try {
    parseEvents(text, { maxDepth: MAX_DEPTH });
  } catch (error) {
    if (error instanceof YAMLException && error.mark) return { line: error.mark.line + 1, col: error.mark.column + 1 };
  }
  return { line: 1, col: 1 };
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
      nextPair = pairsOf(node).get(String(segment));
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

/** A mapping's pairs by key text, the first of equal keys, made once: a walk per problem found stays short in a mapping of a million keys. */
const pairIndex = new WeakMap<object, Map<string, Pair>>();

function pairsOf(map: { items: unknown[] }): Map<string, Pair> {
  let index = pairIndex.get(map);
  if (!index) {
    index = new Map();
    for (const item of map.items) {
      if (!yaml().isPair(item)) continue;
      const key = keyText(item.key);
      if (key !== undefined && !index.has(key)) index.set(key, item);
    }
    pairIndex.set(map, index);
  }
  return index;
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
