// The change records a build publishes: read and checked as `check` checks them without --base (a
// record that is malformed or contradicts another stops the build, as a metadata error does), and
// recalled from the build cache when neither the records nor the metadata's shapes have changed.

import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.ts';
import type { Recall } from '../pipeline/cache.ts';
import { checkRecords } from './check.ts';
import type { ChangeCheck } from './check.ts';
import type { ChangeRecord } from './record.ts';
import { readRecordFiles } from './records.ts';

/** A record as the changelog reads it: all it says, without the means to point into its file. */
export type PublishedRecord = Omit<ChangeRecord, 'locate' | 'instant'>;

/** The records a build publishes. */
export interface ChangeLog {
  /** Oldest first. */
  records: readonly PublishedRecord[];
  /** Changes exactly when a record does (its name or its bytes), for whatever is made from them alone. */
  key: string;
}

export interface Publishing extends Pick<ChangeCheck, 'files' | 'present' | 'displayRoot'> {
  changesDir: string;
  /**
   * The build cache's recall and a key of the metadata's shapes (ids, names and nesting: all the
   * records are checked against), to check the records only when either changed.
   */
  memo?: { recall: Recall; key: string };
}

/** The name the checked records are kept by in the build cache. */
const RECALLED = 'change-records';

/**
 * The records of a changes folder, checked, and their problems. Checking a thousand records takes
 * seconds (each is parsed and validated, the metadata's every item is listed for them): a rebuild
 * after an edit of a description would spend more on them than on the edit, so with a memo the
 * checked records are kept as JSON and read back while nothing they were checked against changed.
 */
export function publishedRecords(options: Publishing): { log: ChangeLog; diagnostics: Diagnostic[] } {
  const found = readRecordFiles(options.changesDir, options.displayRoot);
  const hash = createHash('sha256').update(found.display(''));
  for (const problem of found.problems) hash.update(`\0problem\0${problem.file}`);
  for (const { name, bytes } of found.files) hash.update(`\0${name}\0${bytes.length}\0`).update(bytes);
  const key = hash.digest('hex');
  const check = () => {
    const checked = checkRecords(found, options);
    return { records: checked.records.map(published), diagnostics: checked.diagnostics };
  };
  const { memo } = options;
  const kept = memo
    ? (JSON.parse(memo.recall(RECALLED, `${memo.key}:${key}`, () => JSON.stringify(check()))) as ReturnType<typeof check>)
    : check();
  return { log: { records: kept.records, key }, diagnostics: kept.diagnostics };
}

function published(record: ChangeRecord): PublishedRecord {
  const { name, file, date, summary, commit, changes } = record;
  return { name, file, date, summary, ...(commit === undefined ? {} : { commit }), changes };
}
