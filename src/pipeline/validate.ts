// The JSON Schema pass: checks each metadata file against the schema of its kind (schemas/*.json)
// and turns every ajv error into a diagnostic at file:line:col that says what was expected.

import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, KeywordCxt, Options, ValidateFunction } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import { Quota, leftOut } from '../diagnostics.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { FILE_KINDS, fileDeclaration, kindListedAs } from '../kinds/registry.ts';
import type { FileKind } from '../kinds/registry.ts';
import type { MetadataFile, PathSegment } from './parse.ts';
import { ajvVersion, codegen, newAjv, standaloneSource } from './ajv.ts';
import { CHECKS } from './checks.ts';
import { SCHEMA_DIR, codeFile } from '../project.ts';
import { MAX_MARKUP_DEPTH, markupTooDeep } from '../vocabularies/markup.ts';
import type { Finding } from './checks.ts';
import { VOTABLE_DATATYPES, datatypeMeant } from '../vocabularies/datatypes.ts';

/** The schema file for each kind of metadata file. */
export const SCHEMA_FILES = Object.fromEntries(FILE_KINDS.map((f) => [f.kind, f.schema])) as Record<FileKind, string>;

const SHARED_SCHEMAS = ['common.schema.json'];

/** The validators compiled ahead of time by `npm run compile`, next to this module in lib/. */
export const PRECOMPILED = codeFile('pipeline/validators.cjs');

export function readSchema(file: string, dir: URL = SCHEMA_DIR): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, unknown>;
}

export type Validators = Record<FileKind, ValidateFunction>;

/** Findings of the `x-check` keyword for the file being validated, with where they were found. */
let findings: { finding: Finding; instancePath: string }[] = [];

/** Whole numbers of the file being validated where its schema expects one (WHOLE), with where they are. */
let wholes: { value: number; instancePath: string }[] = [];

/**
 * The check added to every place a schema expects an integer: a number written `5.0` or
 * `9007199254740993.0` is one to ajv and js-yaml alike (the second, silently, another one), so how
 * it was written is looked at after validation, where the file's text is at hand.
 */
const WHOLE = 'whole';

function runChecks(names: string | string[], value: unknown, instancePath: string): boolean {
  let ok = true;
  for (const name of Array.isArray(names) ? names : [names]) {
    if (name === WHOLE) {
      if (typeof value === 'number' && Number.isInteger(value)) wholes.push({ value, instancePath });
      continue;
    }
    const check = CHECKS[name];
    if (!check) throw new Error(`unknown x-check "${name}" in a schema`);
    for (const finding of check(value)) {
      findings.push({ finding, instancePath });
      if (finding.severity === 'error') ok = false;
    }
  }
  return ok;
}

/** The schema files' names and texts, and a hash of them and of ajv's version: what validators are made from. */
function schemaTexts(dir: URL): { texts: [string, string][]; hash: string } {
  const texts = [...SHARED_SCHEMAS, ...Object.values(SCHEMA_FILES)].map((file): [string, string] => [
    file,
    readFileSync(new URL(file, dir), 'utf8'),
  ]);
  // What the schemas are made into before ajv compiles them (refs inlined, WHOLE added) counts too.
  const hash = createHash('sha256').update(ajvVersion()).update(`\0refs inlined\0${WHOLE}`);
  for (const [file, text] of texts) hash.update(`\0${file}\0${text}`);
  return { texts, hash: hash.digest('hex') };
}

/**
 * An Ajv instance holding the metadata schemas. Never `useDefaults`, `coerceTypes` or
 * `removeAdditional`: they would rewrite the curators' data instead of reporting on it. The schemas
 * are ours, and a test holds them to the draft-07 meta-schema: checking them again on every run
 * would cost more than compiling the one a rebuild needs.
 */
function schemaAjv(texts: readonly [string, string][], options: Options = {}): Ajv {
  // strictTypes looks at each schema by itself: inlined (below), a definition shared by contexts of
  // other types ({type: [object, null]} where only an object fits) would be called a mistake.
  // A test compiles the schemas as written with it.
  const ajv = newAjv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
    validateSchema: false,
    ...options,
  });
  // Shown by editors when a pattern fails; our messages use it too.
  ajv.addKeyword('patternErrorMessage');
  // Names how a message suggests the value meant when an enum refuses one (SUGGESTERS).
  ajv.addKeyword('x-suggest');
  // Checks that a schema cannot express (src/checks.ts), run in the schema pass so that they are
  // reported together with every other problem of the file. The keyword's code calls runChecks by
  // that name, so that it also runs in the validators compiled ahead of time.
  const { _, instancePath } = codegen();
  ajv.addKeyword({
    keyword: 'x-check',
    schemaType: ['string', 'array'],
    code(cxt: KeywordCxt) {
      const run = cxt.gen.scopeValue('func', { ref: runChecks, code: _`runChecks` });
      cxt.pass(_`${run}(${cxt.schemaCode}, ${cxt.data}, ${instancePath} + ${cxt.it.errorPath})`);
    },
  });
  const schemas = new Map(texts.map(([file, text]) => [file, JSON.parse(text) as unknown]));
  for (const [file, schema] of schemas) ajv.addSchema(withWholeNumberChecks(withRefsInlined(schema, file, schemas)) as object, file);
  return ajv;
}

/**
 * The schema with every `$ref` replaced by what it refers to. ajv compiles a reference it cannot
 * inline (one whose target holds references of its own, as a column's does) into a call, and
 * joins the errors found so far with the call's by Array.concat: a table of 300,000 columns with
 * an error each copied those errors some 10^10 times. Inlined, each error is pushed once.
 */
function withRefsInlined(schema: unknown, file: string, schemas: ReadonlyMap<string, unknown>, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefsInlined(item, file, schemas, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref: ref, ...rest } = schema as Record<string, unknown>;
  const node = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withRefsInlined(value, file, schemas, seen)]));
  if (typeof ref !== 'string') return ref === undefined ? node : { ...node, $ref: ref };
  const [target = '', pointer = ''] = ref.split('#');
  const targetFile = target === '' ? file : target;
  if (seen.includes(`${targetFile}#${pointer}`)) throw new Error(`schema ${file} refers to itself through ${ref}, which cannot be inlined`);
  let found: unknown = schemas.get(targetFile);
  for (const segment of pointer.split('/').slice(1)) found = (found as Record<string, unknown> | undefined)?.[segment];
  if (found === undefined) throw new Error(`schema ${file} refers to ${ref}, which is not there`);
  const inlined = withRefsInlined(found, targetFile, schemas, [...seen, `${targetFile}#${pointer}`]);
  // Keywords beside a reference apply with it, as ajv applies them.
  return Object.keys(node).length === 0 ? inlined : { ...node, allOf: [...((node.allOf as unknown[] | undefined) ?? []), inlined] };
}

/** The schema with the WHOLE check added wherever it expects an integer (`"type": "integer"`). */
function withWholeNumberChecks(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withWholeNumberChecks);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withWholeNumberChecks(value)]));
  const type: unknown = node.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    const checks: unknown = node['x-check'];
    node['x-check'] = checks === undefined ? WHOLE : [...(Array.isArray(checks) ? (checks as unknown[]) : [checks]), WHOLE];
  }
  return node;
}

/** The validators compiled in this process, by the hash of what they were made from. */
const compiledNow = new Map<string, Validators>();

/**
 * The validator of each kind of file: those compiled ahead of time when they were made from these
 * very schemas (and this ajv), else compiled now, each when first used (a rebuild after one edit
 * needs one).
 */
export function compileValidators(dir: URL = SCHEMA_DIR, precompiled: URL = PRECOMPILED): Validators {
  const { texts, hash } = schemaTexts(dir);
  const ready = loadPrecompiled(precompiled, hash);
  if (ready) return ready;
  // Compiled once per process for the same schemas: a process that checks again and again (the
  // tests, which run the sources) pays ajv's compile once.
  const known = compiledNow.get(hash);
  if (known) return known;
  const ajv = schemaAjv(texts);
  const compiled = {} as Validators;
  for (const [kind, file] of Object.entries(SCHEMA_FILES) as [FileKind, string][]) {
    let validate: ValidateFunction | undefined;
    Object.defineProperty(compiled, kind, {
      enumerable: true,
      get() {
        validate ??= ajv.getSchema(file) as ValidateFunction | undefined;
        if (!validate) throw new Error(`schema ${file} did not compile`);
        return validate;
      },
    });
  }
  compiledNow.set(hash, compiled);
  return compiled;
}

function loadPrecompiled(file: URL, hash: string): Validators | undefined {
  let module: { schemas?: string; create?: (run: typeof runChecks) => Validators };
  try {
    module = createRequire(import.meta.url)(fileURLToPath(file)) as typeof module;
  } catch {
    return undefined;
  }
  return module.schemas === hash && module.create ? module.create(runChecks) : undefined;
}

/**
 * Compiles the validators ahead of time into a CommonJS module (ajv's standalone code), which
 * loads in a few milliseconds where ajv takes a tenth of a second to load and compile: every worker
 * thread of a cold build, and every rebuild after an edit, starts sooner. `npm run compile` writes
 * it into lib/; it names the hash of what it was made from, and is not used for anything else.
 */
export function writePrecompiledValidators(dir: URL = SCHEMA_DIR, file: URL = PRECOMPILED): void {
  const { texts, hash } = schemaTexts(dir);
  const code = standaloneSource(schemaAjv(texts, { code: { source: true } }), SCHEMA_FILES);
  const source = [
    '// Generated from schemas/ by `npm run compile` (src/validate.ts); do not edit.',
    '"use strict";',
    `exports.schemas = ${JSON.stringify(hash)};`,
    'exports.create = function (runChecks) {',
    'const exports = {};',
    code,
    'return exports;',
    '};',
    '',
  ].join('\n');
  const target = fileURLToPath(file);
  writeFileSync(`${target}.tmp`, source);
  renameSync(`${target}.tmp`, target);
}

/** Validates each file; returns the diagnostics and the files that passed. */
export function validateFiles(
  files: readonly MetadataFile[],
  validators: Validators = compileValidators(),
): { valid: MetadataFile[]; diagnostics: Diagnostic[] } {
  const passing: MetadataFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const validate = validators[file.kind];
    findings = [];
    wholes = [];
    const unsafe = unpublishable(file);
    const valid = validate(file.data);
    const fractions = wholeNumbersWritten(file, wholes);
    const passed = valid && unsafe.length === 0 && fractions.length === 0;
    // Each problem is described (and located) only if it is listed: a hostile file can hold a million.
    const quota = new Quota<() => Diagnostic | undefined>();
    const listed: Diagnostic[] = [];
    const list = (kind: string, describe: () => Diagnostic | undefined) => {
      if (!quota.admit(kind, describe)) return;
      const diagnostic = describe();
      if (diagnostic) listed.push(diagnostic);
    };
    for (const { finding, instancePath } of findings) list(finding.rule, () => describeFinding(file, instancePath, finding));
    for (const { kind, describe } of unsafe) list(kind, describe);
    for (const { kind, describe } of fractions) list(kind, describe);
    if (!passed) for (const error of validate.errors ?? []) list(error.keyword, () => describeError(file, error));
    for (const { first, count } of quota.leftOut()) {
      const diagnostic = first();
      if (diagnostic) listed.push(leftOut(diagnostic, count));
    }
    for (const d of dedupe(listed)) diagnostics.push(d);
    if (passed) passing.push(file);
  }
  return { valid: passing, diagnostics };
}

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Control characters (C0, DEL and C1), which no name may hold. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x01-\x1f\x7f-\x9f]/;

type Problem = 'integer' | 'nul' | 'surrogate' | 'control' | 'markup';

/** The texts the schema browser shows as curator HTML (through its sanitiser). */
const HTML_KEYS = new Set(['description', 'documentation']);

/** A problem found in a file, described (and located) only when it is listed. */
interface Found {
  kind: string;
  describe: () => Diagnostic | undefined;
}

/**
 * Values JSON cannot publish as written, which a schema type lets through: whole numbers beyond
 * 2^53 − 1 (`9007199254740993` would be published as …992), NUL characters (`"\0"`) and lone
 * halves of surrogate pairs (`"\uD800"`), in values and in keys; and control characters in names,
 * which the VO outputs cannot write (XML has no place for them), so that two names differing only
 * in one became the same name there. (Infinities and NaN fail every schema type: ajv's numbers are finite.)
 */
function unpublishable(file: MetadataFile): Found[] {
  const found: { pointer: PathSegment[]; problem: Problem; key?: boolean }[] = [];
  const text = (value: string, key?: boolean) => {
    if (value.includes('\0')) found.push({ pointer: [...pointer], problem: 'nul', ...(key ? { key } : {}) });
    if (LONE_SURROGATE.test(value)) found.push({ pointer: [...pointer], problem: 'surrogate', ...(key ? { key } : {}) });
    const at = pointer[pointer.length - 1];
    // A node's name (a contact's is a person's, never a key of the VO tables).
    if (!key && at === 'name' && pointer[pointer.length - 2] !== 'contact' && CONTROL.test(value))
      found.push({ pointer: [...pointer], problem: 'control' });
    if (!key && typeof at === 'string' && HTML_KEYS.has(at) && markupTooDeep(value))
      found.push({ pointer: [...pointer], problem: 'markup' });
  };
  // One path, grown and shrunk as the walk goes: copied only for what is found.
  const pointer: PathSegment[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'number') {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) found.push({ pointer: [...pointer], problem: 'integer' });
    } else if (typeof value === 'string') {
      text(value);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        pointer.push(i);
        visit(value[i]);
        pointer.pop();
      }
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        pointer.push(key);
        text(key, true);
        visit((value as Record<string, unknown>)[key]);
        pointer.pop();
      }
    }
  };
  visit(file.data);
  // A large whole number is a problem only written as one: 1.0E38 is a float, and floats may be
  // large (where a whole number is expected, wholeNumbers says so). Decided here, as few are.
  const problems = found.filter(({ pointer, problem }) => problem !== 'integer' || INTEGER_WRITTEN.test(file.source(pointer) ?? ''));
  return problems.map(({ pointer, problem, key }) => ({
    kind: problem,
    describe: () => describeUnpublishable(file, pointer, problem, key),
  }));
}

function describeUnpublishable(file: MetadataFile, pointer: PathSegment[], problem: Problem, key?: boolean): Diagnostic {
  const written = file.source(pointer);
  const { line, col } = file.locate(pointer, key ? 'key' : 'value');
  const place = describePlace(file.data, pointer);
  const subject = place === '' ? 'the file' : place;
  const value = getIn(file.data, pointer);
  const control = typeof value === 'string' ? CONTROL.exec(value)?.[0] : undefined;
  const message = {
    integer: `${subject} is ${written ?? ''}, beyond 9007199254740991 (2^53 − 1), the largest whole number JSON readers keep exactly; it would be published as ${String(Number((written ?? '').replaceAll('_', '')))}: write a smaller number`,
    nul: `${key ? 'the key of ' : ''}${subject} holds a NUL character (\\0), which metadata cannot publish; remove it`,
    surrogate: `${key ? 'the key of ' : ''}${subject} holds half of a surrogate pair (an escape such as "\\uD800" alone), which is not a character and cannot be written as UTF-8; write the character itself`,
    control: `${subject} holds a control character (${escapeOf(control ?? '')}), which a name cannot hold: the VO tables cannot write it, and names differing only in one would be the same name there; remove it`,
    markup: `${subject} nests HTML elements more than ${MAX_MARKUP_DEPTH} deep (an element never closed holds all that follows it), which the schema browser cannot show in reasonable time; close each element you open, or write the text without markup`,
  }[problem];
  const rule = {
    integer: 'values/unsafe-integer',
    nul: 'values/nul',
    surrogate: 'values/surrogate',
    control: 'values/control-character',
    markup: 'values/markup-depth',
  }[problem];
  return { file: file.display, line, col, severity: 'error', rule, message };
}

/**
 * Whole numbers where a whole number is expected (an id, a release number) but written with a
 * fraction or an exponent (`5.0`, `1e3`, `9007199254740993.0`, which is read as …992). Only the
 * values the fast parser saw written so are looked up in the text; the others are whole as written.
 */
function wholeNumbersWritten(file: MetadataFile, found: readonly { value: number; instancePath: string }[]): Found[] {
  const problems: Found[] = [];
  for (const { value, instancePath } of found) {
    if (file.floatWholes && !file.floatWholes.has(value)) continue;
    const pointer = pointerOf(instancePath);
    const written = file.source(pointer);
    if (written === undefined || INTEGER_WRITTEN.test(written)) continue;
    problems.push({
      kind: 'whole-number',
      describe: () => {
        const place = describePlace(file.data, pointer);
        const { line, col } = file.locate(pointer);
        const exact = Number.isSafeInteger(value)
          ? `write ${value}`
          : `it would be published as ${value}: write a whole number within ±9007199254740991 (2^53 − 1)`;
        const message = `${place === '' ? 'the file' : place} is written as ${written}, where a whole number is expected; ${exact}`;
        return { file: file.display, line, col, severity: 'error', rule: 'values/whole-number', message };
      },
    });
  }
  return problems;
}

/** A number written as a whole number: in decimal, hexadecimal or octal. */
const INTEGER_WRITTEN = /^[-+]?(\d[\d_]*|0x[\da-f_]+|0o[0-7_]+)$/i;

const escapeOf = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

function getIn(data: unknown, pointer: readonly PathSegment[]): unknown {
  let node = data;
  for (const segment of pointer) node = (node as Record<string | number, unknown> | undefined)?.[segment];
  return node;
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}:${d.line}:${d.col}:${d.rule}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function pointerOf(instancePath: string): PathSegment[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** A readable name for a place in a file: `table "SpecObj" > column "Z" > ucd`. */
export function describePlace(data: unknown, pointer: readonly PathSegment[]): string {
  const parts: string[] = [];
  let node: unknown = data;
  let container = '';
  for (const [i, segment] of pointer.entries()) {
    const next = (node as Record<string | number, unknown> | undefined)?.[segment];
    if (typeof segment === 'number') {
      const name = (next as { name?: unknown } | undefined)?.name;
      const kind = kindListedAs(container)?.label ?? 'item';
      parts.push(typeof name === 'string' || typeof name === 'number' ? `${kind} "${name}"` : `${kind} ${segment + 1}`);
    } else if (!kindListedAs(segment) || i === pointer.length - 1) {
      // A list's key is said by its items ("table 2"), unless the list itself is meant.
      parts.push(segment);
    }
    container = typeof segment === 'string' ? segment : '';
    node = next;
  }
  return parts.join(' > ');
}

function describeError(file: MetadataFile, error: ErrorObject): Diagnostic | undefined {
  const pointer = pointerOf(error.instancePath);
  const place = describePlace(file.data, pointer);
  const subject = place === '' ? 'the file' : place;
  const make = (message: string, rule: string, at: readonly PathSegment[] = pointer, where: 'key' | 'value' = 'value'): Diagnostic => {
    const { line, col } = file.locate(at, where);
    return { file: file.display, line, col, severity: 'error', rule: rule.includes('/') ? rule : `schema/${rule}`, message };
  };
  const value = error.data;
  // Numbers are shown as written (135.0, not 135): that is what the curator will look for.
  const found = describeValue(value, file.source(pointer));
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      if (pointer.length === 0 && (value === null || value === undefined)) {
        return make(
          `the file is empty; ${fileDeclaration(file.kind).described} file needs at least the keys ${requiredKeys(error).join(', ')}`,
          'required',
        );
      }
      return make(`${subject} is missing the required key "${missing}"; add it`, 'required');
    }
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = allowed.length > 0 ? closest(key, allowed) : undefined;
      const place2 = describePlace(file.data, [...pointer, key]);
      const hint =
        near !== undefined && distance(key, near) <= Math.max(2, Math.floor(key.length / 3))
          ? `did you mean "${near}"?`
          : `the keys allowed here are ${allowed.join(', ')}`;
      return make(
        `unknown key "${key}"${place2.includes(' > ') ? ` in ${place2.slice(0, place2.lastIndexOf(' > '))}` : ''}; ${hint}`,
        'unknown-key',
        [...pointer, key],
        'key',
      );
    }
    case 'type': {
      if (pointer.length === 0 && (value === null || value === undefined)) {
        // Empty, only comments, or only `---`.
        return make(
          `the file is empty; ${fileDeclaration(file.kind).described} file needs at least the keys ${requiredKeys(error).join(', ')}`,
          'required',
        );
      }
      const expected = (error.params as { type: string | string[] }).type;
      const list = Array.isArray(expected) ? expected : expected.split(',');
      return make(`${subject} must be ${typeWords(list)}, found ${found}${typeHint(list, value, pointer, file.source(pointer))}`, 'type');
    }
    case 'pattern': {
      const hint = (error.parentSchema as { patternErrorMessage?: string } | undefined)?.patternErrorMessage;
      if (error.propertyName !== undefined) {
        const keyPath = [...pointer, error.propertyName];
        return make(
          `key "${error.propertyName}" in ${subject} ${hint ?? `must match ${(error.params as { pattern: string }).pattern}`}`,
          'pattern',
          keyPath,
          'key',
        );
      }
      return make(
        `${subject} ${hint ?? `must match the pattern ${(error.params as { pattern: string }).pattern}`}, found ${found}`,
        'pattern',
      );
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
      const suggester = SUGGESTERS[(error.parentSchema as { 'x-suggest'?: string } | undefined)?.['x-suggest'] ?? ''];
      const meant = typeof value === 'string' ? suggester?.(value) : undefined;
      const near =
        meant !== undefined ? JSON.stringify(meant) : typeof value === 'string' ? closest(JSON.stringify(value), allowed) : undefined;
      const hint =
        near !== undefined && (suggester !== undefined || distance(JSON.stringify(value), near) <= 3) ? `; did you mean ${near}?` : '';
      return make(`${subject} must be one of ${allowed.join(', ')}, found ${found}${hint}`, 'enum');
    }
    case 'x-check':
      // Its findings are reported by describeFinding.
      return undefined;
    case 'propertyNames':
      // The inner error (pattern on the key) already says what is wrong.
      return undefined;
    case 'format': {
      const format = (error.params as { format: string }).format;
      const words: Record<string, string> = {
        email: 'an e-mail address such as team@example.org',
        uri: 'an absolute address such as https://example.org/',
      };
      return make(`${subject} must be ${words[format] ?? `in ${format} format`}, found ${found}`, 'format');
    }
    case 'minimum':
    case 'exclusiveMinimum': {
      const limit = (error.params as { limit: number }).limit;
      const words = error.keyword === 'minimum' ? `at least ${limit}` : `greater than ${limit}`;
      return make(`${subject} must be ${words}, found ${found}`, error.keyword);
    }
    case 'minLength':
      return make(`${subject} must not be empty; write a value or remove the key if it is optional`, 'min-length');
    case 'minItems':
    case 'maxItems':
    case 'additionalItems':
      return make(`${subject} must be a pair [value, comment], found ${found}`, 'fits-card');
    default:
      return make(`${subject} ${error.message ?? 'is not valid'}`, error.keyword);
  }
}

/**
 * What a value an enum refuses most likely means, by the name a schema gives in `x-suggest`; a
 * named suggester always suggests one (the nearest name, when nothing better is known).
 */
const SUGGESTERS: Record<string, (value: string) => string | undefined> = {
  'votable-datatype': (value) => datatypeMeant(value) ?? closest(value, [...VOTABLE_DATATYPES]),
};

function describeFinding(file: MetadataFile, instancePath: string, finding: Finding): Diagnostic {
  const base = pointerOf(instancePath);
  const pointer = [...base, ...(finding.at ?? [])];
  // A finding inside a FITS card points at the value ([keyword, 0]) but reads as the keyword's.
  const named = [...pointer];
  while (typeof named[named.length - 1] === 'number' && named.length > base.length) named.pop();
  const place = describePlace(file.data, named);
  const { line, col } = file.locate(pointer, finding.where ?? 'value');
  const subject = place === '' ? 'the file' : place;
  return { file: file.display, line, col, severity: finding.severity, rule: finding.rule, message: `${subject} ${finding.message}` };
}

function requiredKeys(error: ErrorObject): string[] {
  const schema = error.parentSchema as { required?: string[] } | undefined;
  return schema?.required ?? [];
}

function typeWords(types: string[]): string {
  const words: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'an integer',
    boolean: 'true or false',
    object: 'a mapping (key: value lines)',
    array: 'a list',
    null: 'null',
  };
  const named = types.map((t) => words[t] ?? t);
  return named.length <= 1 ? (named[0] ?? 'something else') : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

export function describeValue(value: unknown, written?: string): string {
  if (value === null || value === undefined) return 'nothing (null)';
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (typeof value !== 'number') return `a ${typeof value}`;
  return `the number ${written !== undefined && Number(written) === value ? written : String(value)}`;
}

function typeHint(expected: string[], value: unknown, pointer: readonly PathSegment[], written: string | undefined): string {
  const key = pointer[pointer.length - 1];
  if (expected.includes('string') && (typeof value === 'number' || typeof value === 'boolean')) {
    const text = (written ?? String(value)).replaceAll("'", "''");
    return typeof key === 'string'
      ? `; quote it to keep it as written, e.g. ${key}: '${text}'`
      : `; quote it to keep it as written: '${text}'`;
  }
  if (expected.includes('object') && typeof value === 'string' && key === 'contact') {
    return '; write it as {name: …, email: …}';
  }
  if (expected.includes('array') && (value === null || value === undefined)) {
    return '; write [] for an empty list';
  }
  return '';
}
