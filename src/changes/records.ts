// The change records of an archive: every *.yaml file of the changes folder, read and checked one
// by one (record.ts), in the order they happened. What the published changelog reads: loadRecords.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { decodeMetadata } from '../pipeline/encoding.ts';
import { LoadError } from '../pipeline/scan.ts';
import { compareRecords, parseRecord } from './record.ts';
import type { ChangeRecord } from './record.ts';

export interface RecordSet {
  /** The records that read without a problem, oldest first. */
  records: ChangeRecord[];
  /** Every problem of every record, each at its place. */
  diagnostics: Diagnostic[];
  /** Whether the folder is there: an archive keeps change records once it has one. */
  exists: boolean;
}

/** Records from their texts (file name in the folder → text), wherever they came from. Pure. */
export function parseRecords(entries: readonly { name: string; text: string }[], display: (name: string) => string): RecordSet {
  const records: ChangeRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { name, text } of entries) {
    const parsed = parseRecord(name, display(name), text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.record) records.push(parsed.record);
  }
  return { records: records.sort(compareRecords), diagnostics, exists: true };
}

/** A changes folder's record files as they are on disk, before they are read as records. */
export interface RecordFiles {
  /** Each YAML file's name and bytes, by name. */
  files: { name: string; bytes: Uint8Array }[];
  /** Entries that cannot be records (a folder named like one), each at its place. */
  problems: Diagnostic[];
  /** Whether the folder is there. */
  exists: boolean;
  /** The path of a file in the folder as messages show it. */
  display: (name: string) => string;
}

/**
 * The YAML files of a changes folder, by name (a README or other notes beside them are left
 * alone), paths shown relative to `displayRoot`. A folder that is not there holds no files.
 */
export function readRecordFiles(changesDir: string, displayRoot: string = path.dirname(path.resolve(changesDir))): RecordFiles {
  const dir = path.resolve(changesDir);
  const display = (name: string) => path.relative(displayRoot, path.join(dir, name)).split(path.sep).join('/');
  let names: string[];
  const problems: Diagnostic[] = [];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => {
        if (!/\.ya?ml$/i.test(entry.name)) return false;
        if (entry.isFile()) return true;
        problems.push({
          file: display(entry.name),
          line: 0,
          col: 0,
          severity: 'error',
          rule: 'changes/not-a-file',
          message: 'is not a regular file; a change record is a YAML file in the changes folder itself: replace it with the file',
        });
        return false;
      })
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], problems: [], exists: false, display };
    throw new LoadError(`cannot read the change records in ${display('')}: ${(error as Error).message}`);
  }
  const files = names.map((name) => {
    try {
      return { name, bytes: readFileSync(path.join(dir, name)) };
    } catch (error) {
      throw new LoadError(`cannot read ${display(name)}: ${(error as Error).message}`);
    }
  });
  return { files, problems, exists: true, display };
}

/** Records from their files' bytes (readRecordFiles): each decoded, read and checked on its own. */
export function recordsOf(found: RecordFiles): RecordSet {
  if (!found.exists) return { records: [], diagnostics: [], exists: false };
  const problems = [...found.problems];
  const entries: { name: string; text: string }[] = [];
  for (const { name, bytes } of found.files) {
    const decoded = decodeMetadata(bytes, found.display(name));
    if ('text' in decoded) entries.push({ name, text: decoded.text });
    else problems.push(decoded.problem);
  }
  const set = parseRecords(entries, found.display);
  return { ...set, diagnostics: [...problems, ...set.diagnostics] };
}

/**
 * Every record in a changes folder, paths shown relative to `displayRoot`. A folder that is not
 * there holds no records.
 */
export function loadRecords(changesDir: string, displayRoot: string = path.dirname(path.resolve(changesDir))): RecordSet {
  return recordsOf(readRecordFiles(changesDir, displayRoot));
}
