// One change record (changes/<date>-<summary>.yaml): its shape, read from its text with every
// problem at file:line:col (schemas/change-record.schema.json, then what a schema cannot say), and
// written back as text. A record holds all the changelog says of a change, so it needs no history.

import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import type { Diagnostic } from '../diagnostics.ts';
import { KINDS } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { newAjv } from '../pipeline/ajv.ts';
import { parseFileFast } from '../pipeline/parse.ts';
import type { PathSegment, Position } from '../pipeline/parse.ts';
import { describeValue, pointerOf, readSchema } from '../pipeline/validate.ts';
import { compareInstants, isInstant, parseInstant } from '../vocabularies/instant.ts';
import type { Instant } from '../vocabularies/instant.ts';
import { keyOf, sameValue } from './diff.ts';
import type { Change, ChangeType } from './diff.ts';
import { changeEntry } from './report.ts';
import type { Fields } from './snapshot.ts';

export const RECORD_SCHEMA = 'change-record.schema.json';

export interface Correction {
  reason: string;
}

/** A change as a record keeps it: marked, for released data, as the correction of a mistake. */
export interface RecordedChange extends Change {
  correction?: Correction;
  /** Where the entry is in its record: ['changes', 3]. */
  at: PathSegment[];
}

export interface ChangeRecord {
  /** The file's name in the changes folder: `2026-03-02-stellar-masses.yaml`. */
  name: string;
  /** Its path as messages show it. */
  file: string;
  /** When the change was made, in UTC to the second: 2026-03-02T10:15:00Z. */
  date: string;
  summary: string;
  /** The commit a backfilled record was written from. */
  commit?: string;
  changes: RecordedChange[];
  /** Where a place in the file is, for messages. */
  locate: (pointer: readonly PathSegment[], where?: 'key' | 'value') => Position;
  /** The date as an instant, for ordering. */
  instant: Instant;
}

/** What a record is made from before it is written. */
export interface RecordDraft {
  date: string;
  summary: string;
  commit?: string;
  changes: readonly (Change & { correction?: Correction })[];
}

// ---- Reading ---------------------------------------------------------------------------------------------

let validator: ValidateFunction | undefined;

/** The record schema's validator, compiled when a record is first read (a build reads none). */
function validate(): ValidateFunction {
  if (validator) return validator;
  const ajv = newAjv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  ajv.addKeyword('patternErrorMessage');
  validator = ajv.compile(readSchema(RECORD_SCHEMA));
  return validator;
}

/** A place in a record as curators read it: `change 3 > old`. */
function placeOf(pointer: readonly PathSegment[]): string {
  return pointer
    .map((segment, i) =>
      typeof segment === 'number' ? (pointer[i - 1] === 'changes' ? `change ${segment + 1}` : `item ${segment + 1}`) : segment,
    )
    .filter((part, i) => !(pointer[i] === 'changes' && typeof pointer[i + 1] === 'number'))
    .join(' > ');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  object: 'a mapping (key: value lines)',
  array: 'a list',
  boolean: 'true or false',
};

/** One schema error as a diagnostic at its place. */
function describe(error: ErrorObject, file: string, data: unknown, locate: ChangeRecord['locate']): Diagnostic {
  const pointer = pointerOf(error.instancePath);
  const subject = pointer.length === 0 ? 'the record' : placeOf(pointer);
  const at = (message: string, rule: string, where: PathSegment[] = pointer, key: 'key' | 'value' = 'value'): Diagnostic => ({
    file,
    ...locate(where, key),
    severity: 'error',
    rule: `schema/${rule}`,
    message,
  });
  const found = describeValue(error.data);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      if (pointer.length === 0 && (data === null || data === undefined))
        return at('the file is empty; a change record needs at least the keys date, summary and changes', 'required');
      return at(`${subject} is missing the required key "${missing}"; add it`, 'required');
    }
    case 'additionalProperties': {
      const key = (error.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = closest(key, allowed);
      const hint =
        distance(key, near) <= Math.max(2, Math.floor(key.length / 3))
          ? `did you mean "${near}"?`
          : `the keys allowed here are ${allowed.join(', ')}`;
      return at(`unknown key "${key}" in ${subject}; ${hint}`, 'unknown-key', [...pointer, key], 'key');
    }
    case 'type': {
      if (pointer.length === 0)
        return at('the file is empty or not a mapping; a change record needs at least the keys date, summary and changes', 'required');
      const expected = (error.params as { type: string }).type;
      return at(`${subject} must be ${TYPE_WORDS[expected] ?? expected}, found ${found}`, 'type');
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: string[] }).allowedValues;
      const near = typeof error.data === 'string' ? closest(error.data, allowed) : undefined;
      const hint =
        near !== undefined && typeof error.data === 'string' && distance(error.data, near) <= 3 ? `; did you mean "${near}"?` : '';
      return at(`${subject} must be one of ${allowed.join(', ')}, found ${found}${hint}`, 'enum');
    }
    case 'pattern': {
      const hint =
        (error.parentSchema as { patternErrorMessage?: string } | undefined)?.patternErrorMessage ?? 'is not written as expected';
      return at(`${subject} ${hint}, found ${found}`, 'pattern');
    }
    case 'minLength':
      return at(`${subject} must not be empty`, 'min-length');
    case 'minItems':
      return at(`${subject} must list at least one change; a change that changes nothing needs no record: remove the file`, 'min-items');
    case 'minimum':
      return at(`${subject} must be a positive whole number, found ${found}`, 'minimum');
    default:
      return at(`${subject} ${error.message ?? 'is not valid'}`, error.keyword);
  }
}

function problem(file: string, position: Position, rule: string, message: string): Diagnostic {
  return { file, ...position, severity: 'error', rule, message };
}

/** A kind and id as messages name them: `catalogue column 2001`, `release gama/dr4`. */
export function itemWords(change: Pick<Change, 'kind' | 'id' | 'path'>): string {
  return change.kind === 'DataRelease' ? `release ${change.path}` : `${KINDS[change.kind].word} ${change.id ?? ''}`;
}

/** What an entry must say to name one item and what happened to it: what the schema cannot express. */
function entryProblems(entry: Record<string, unknown>): { message: string; at?: string }[] {
  const kind = entry.kind as KindType;
  const type = entry.change as ChangeType;
  const has = (key: string) => entry[key] !== undefined;
  const found: { message: string; at?: string }[] = [];
  const needs = kind === 'Survey' ? ['id'] : kind === 'DataRelease' ? ['survey', 'release'] : ['id', 'survey', 'release'];
  const never = kind === 'Survey' ? ['survey', 'release'] : kind === 'DataRelease' ? ['id'] : [];
  for (const key of needs) if (!has(key)) found.push({ message: `names a ${KINDS[kind].word} without its "${key}"; add it` });
  for (const key of never)
    if (has(key)) found.push({ message: `gives "${key}", which a ${KINDS[kind].word} entry does not have; remove it`, at: key });
  if (type === 'added' && (!has('new') || has('old')))
    found.push({ message: 'is an addition: it gives the added fields under "new", and no "old"', ...(has('old') ? { at: 'old' } : {}) });
  if (type === 'removed' && (!has('old') || has('new')))
    found.push({ message: 'is a removal: it gives the removed fields under "old", and no "new"', ...(has('new') ? { at: 'new' } : {}) });
  if (type !== 'changed' && has('moved_from'))
    found.push({
      message: `is ${type === 'added' ? 'an addition' : 'a removal'}, which moves nothing; remove "moved_from"`,
      at: 'moved_from',
    });
  if (type === 'changed') {
    const fields = new Set([
      ...Object.keys((entry.old as Fields | undefined) ?? {}),
      ...Object.keys((entry.new as Fields | undefined) ?? {}),
    ]);
    const same = [...fields].filter(
      (f) =>
        Object.hasOwn((entry.old as Fields | undefined) ?? {}, f) &&
        sameValue((entry.old as Fields)[f], (entry.new as Fields | undefined)?.[f]),
    );
    if (fields.size === 0 && !has('moved_from'))
      found.push({ message: 'is a change that changes nothing: give the fields old and new, or remove the entry' });
    for (const f of same) found.push({ message: `gives the same ${f} old and new; a field that did not change is left out`, at: 'new' });
  }
  return found;
}

function recordedChange(entry: Record<string, unknown>, at: PathSegment[]): RecordedChange {
  const text = (key: string) => (typeof entry[key] === 'string' ? entry[key] : undefined);
  const num = (key: string) => (typeof entry[key] === 'number' ? entry[key] : undefined);
  const kind = entry.kind as KindType;
  const id = num('id');
  const release = text('release');
  const movedFrom = text('moved_from');
  const correction = entry.correction as Correction | undefined;
  return {
    change: entry.change as ChangeType,
    kind,
    ...(id !== undefined ? { id } : {}),
    survey: kind === 'Survey' ? (id ?? 0) : (num('survey') ?? 0),
    ...(release !== undefined ? { release } : {}),
    path: text('path') ?? '',
    ...(movedFrom !== undefined ? { movedFrom } : {}),
    ...(entry.old !== undefined ? { old: entry.old as Fields } : {}),
    ...(entry.new !== undefined ? { new: entry.new as Fields } : {}),
    ...(correction ? { correction: { reason: correction.reason } } : {}),
    at,
  };
}

/**
 * Reads one record from its text. Every problem comes back located, and a record with any problem
 * comes back without its data: a half-read record would be published half right.
 */
export function parseRecord(name: string, file: string, text: string): { record?: ChangeRecord; diagnostics: Diagnostic[] } {
  if (!name.endsWith('.yaml')) {
    const hint = name.endsWith('.yml') ? `rename it ${name.slice(0, -4)}.yaml` : 'records are YAML files named *.yaml';
    return { diagnostics: [problem(file, { line: 0, col: 0 }, 'changes/file-name', `is not read as a change record; ${hint}`)] };
  }
  const parsed = parseFileFast(file, text);
  if (!parsed.file) return { diagnostics: parsed.diagnostics };
  const { data } = parsed.file;
  const locate = parsed.file.locate;
  const check = validate();
  if (!check(data)) return { diagnostics: (check.errors ?? []).map((e) => describe(e, file, data, locate)) };
  const raw = data as { date: string; summary: string; commit?: string; changes: Record<string, unknown>[] };
  const diagnostics: Diagnostic[] = [];
  const instant = parseInstant(raw.date);
  if (!isInstant(instant)) diagnostics.push(problem(file, locate(['date']), 'changes/date', `date "${raw.date}" ${instant.problem}`));
  if (/[\r\n]/.test(raw.summary))
    diagnostics.push(problem(file, locate(['summary']), 'changes/summary', 'summary must be one line; say more in the pull request'));
  const seen = new Map<string, number>();
  const changes = raw.changes.map((entry, i) => {
    const at: PathSegment[] = ['changes', i];
    for (const p of entryProblems(entry))
      diagnostics.push(
        problem(file, locate(p.at ? [...at, p.at] : at, p.at ? 'key' : 'value'), 'changes/entry', `change ${i + 1} ${p.message}`),
      );
    const change = recordedChange(entry, at);
    const key = keyOf(change);
    const first = seen.get(key);
    if (first !== undefined)
      diagnostics.push(
        problem(
          file,
          locate(at),
          'changes/conflict',
          `change ${i + 1} is about ${itemWords(change)} again (change ${first + 1} is too); a record says once what happened to each item: merge the two`,
        ),
      );
    else seen.set(key, i);
    return change;
  });
  if (diagnostics.length > 0 || !isInstant(instant)) return { diagnostics };
  return {
    record: {
      name,
      file,
      date: utcDate(instant),
      summary: raw.summary,
      ...(raw.commit ? { commit: raw.commit } : {}),
      changes,
      locate,
      instant,
    },
    diagnostics,
  };
}

/** An instant in UTC, to the second: 2026-03-02T10:15:00Z. */
function utcDate(instant: Instant): string {
  return `${new Date(instant.epochMs).toISOString().slice(0, 19)}Z`;
}

/** Records in the order they happened: by date, then by file name (the same date: as the files sort). */
export function compareRecords(a: ChangeRecord, b: ChangeRecord): number {
  return compareInstants(a.instant, b.instant) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

// ---- Writing ----------------------------------------------------------------------------------------------

/** A record's text: the schema comment for editors, then date, summary, commit and the changes. */
export function recordText(draft: RecordDraft, schemaPath: string): string {
  // The writing parser is loaded only by the commands that write records.
  const { Document } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const data = {
    date: draft.date,
    summary: draft.summary,
    ...(draft.commit ? { commit: draft.commit } : {}),
    changes: draft.changes.map((c) => ({ ...changeEntry(c), ...(c.correction ? { correction: { reason: c.correction.reason } } : {}) })),
  };
  const doc = new Document(data);
  doc.commentBefore = ` yaml-language-server: $schema=${schemaPath}`;
  const text = doc.toString({ lineWidth: 0 });
  // What is written must read back as the same data, or the record would say something else.
  const back = parseFileFast('record', text).file?.data;
  if (JSON.stringify(back) !== JSON.stringify(data)) throw new Error('a change record does not read back as it was written');
  return text;
}

/** A file name for a record: its date's day and a few words of its summary, unused in the folder. */
export function recordName(date: string, summary: string, taken: ReadonlySet<string>): string {
  const words = summary
    .toLowerCase()
    .normalize('NFKD')
    // Accents go with their letters: Ångström is angstrom.
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .slice(0, 6)
    .join('-')
    .slice(0, 48)
    .replace(/-+$/, '');
  const stem = `${date.slice(0, 10)}-${words || 'change'}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stem}.yaml` : `${stem}-${n}.yaml`;
    if (!taken.has(name)) return name;
  }
}
