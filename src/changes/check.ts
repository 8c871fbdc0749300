// What `check` says of the change records: each record read and located (record.ts), the records
// agreeing with one another and with the metadata; and with --base, released data changed only as
// recorded corrections, and the pull request's changes in its new records.

import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { assemble } from '../pipeline/assemble.ts';
import type { Archive } from '../pipeline/assemble.ts';
import { parseMetadata } from '../pipeline/parse.ts';
import type { MetadataFile } from '../pipeline/parse.ts';
import { sectionOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { diffSnapshots, keyOf } from './diff.ts';
import { filesAt, topOf } from './git.ts';
import { readRecordFiles, recordsOf } from './records.ts';
import type { RecordFiles } from './records.ts';
import type { ChangeRecord } from './record.ts';
import { coverage, recordsAgree, releasedGuard } from './rules.ts';
import { snapshotOf } from './snapshot.ts';
import type { NodeState } from './snapshot.ts';

export interface ChangeCheck {
  changesDir: string;
  metadataDir: string;
  /** Folder that reported paths are relative to. */
  displayRoot?: string;
  /** Every metadata file that parsed, valid or not, and the metadata-relative paths of all found. */
  files: readonly MetadataFile[];
  present: ReadonlySet<string>;
  /** The revision compared with, as `check --base` reads it (pipeline/history.ts). */
  base?: { rev: string; archive: Archive; texts: ReadonlyMap<string, string> };
}

/** The metadata-relative paths of the files whose text differs from the base's, or that only one side has. */
function changedSince(files: readonly MetadataFile[], base: ReadonlyMap<string, string>): Set<string> {
  const changed = new Set<string>();
  const now = new Set<string>();
  for (const file of files) {
    now.add(file.relative);
    if (base.get(file.relative) !== file.text) changed.add(file.relative);
  }
  for (const relative of base.keys()) if (!now.has(relative)) changed.add(relative);
  return changed;
}

/** The names of the records in the changes folder at a revision (none when it is outside the repository). */
async function recordsAt(changesDir: string, rev: string): Promise<Set<string>> {
  const dir = path.resolve(changesDir);
  let top: string;
  try {
    top = await topOf(path.dirname(dir));
  } catch {
    return new Set();
  }
  const prefix = path.relative(top, dir).split(path.sep).join('/');
  if (prefix.startsWith('..')) return new Set();
  return new Set([...(await filesAt(top, rev, prefix)).keys()].filter((name) => !name.includes('/')));
}

/**
 * The archive with the whole data of the files asked for: a group's or facility's data as the check
 * keeps it is only its skeleton (ids, names and nesting), so their texts are read again here.
 */
function fullArchive(files: readonly MetadataFile[], wanted: ReadonlySet<string>, present: ReadonlySet<string>): Archive {
  const kept = files.filter((f) => !wanted.has(f.relative) || !sectionOf(f.kind as KindType));
  const again = files.filter((f) => wanted.has(f.relative) && sectionOf(f.kind as KindType));
  const shown = new Map(again.map((f) => [f.relative, f.display]));
  const parsed = parseMetadata(
    again.map((f) => ({ relative: f.relative, text: f.text })),
    (relative) => shown.get(relative) ?? relative,
  );
  return assemble([...kept, ...parsed.files], present).archive;
}

/**
 * The files that hold a mapping: a file that parsed to nothing or to a list (an empty release.yaml)
 * has its own error, and the archive is assembled without it.
 */
function mappings(files: readonly MetadataFile[]): MetadataFile[] {
  return files.filter((f) => typeof f.data === 'object' && f.data !== null && !Array.isArray(f.data));
}

/** What a records folder holds, read and checked: its records, oldest first, and every problem with them. */
export interface CheckedRecords {
  records: ChangeRecord[];
  diagnostics: Diagnostic[];
  /** Whether the folder is there. */
  exists: boolean;
}

/**
 * The records of a changes folder, each read on its own and all held to one history that agrees
 * with the metadata (`files`, every file that parsed; `present`, the paths of all found): what
 * `check` says of them without --base, and what a build publishes. With the metadata's states when
 * there are records (for checkChanges, which compares more).
 */
export function checkRecords(
  found: RecordFiles,
  options: Pick<ChangeCheck, 'files' | 'present'>,
): CheckedRecords & { states: Map<string, NodeState> } {
  const loaded = recordsOf(found);
  if (loaded.records.length === 0) return { ...loaded, states: new Map() };
  const current = assemble(mappings(options.files), options.present).archive;
  const states = snapshotOf(current);
  const retired = new Set((current.retired?.entries ?? []).map((e) => `${e.kind}:${e.id}`));
  const diagnostics = [...loaded.diagnostics, ...recordsAgree(loaded.records, { has: (key) => states.has(key), retired })];
  return { records: loaded.records, diagnostics, exists: loaded.exists, states };
}

export async function checkChanges(options: ChangeCheck): Promise<Diagnostic[]> {
  const loaded = checkRecords(readRecordFiles(options.changesDir, options.displayRoot), options);
  const { states } = loaded;
  const diagnostics = [...loaded.diagnostics];
  const base = options.base;
  if (!base) return diagnostics;
  const files = mappings(options.files);
  const atBase = await recordsAt(options.changesDir, base.rev);
  const fresh = loaded.records.filter((r) => !atBase.has(r.name));
  // Only the files that changed can hold a change: every other file's items are the same on both
  // sides. The files of what the new records name are compared too, so that a record of a change
  // that is no longer there is noticed.
  const compared = changedSince(files, base.texts);
  for (const record of fresh)
    for (const entry of record.changes) {
      const file = states.get(keyOf(entry))?.file.relative;
      if (file !== undefined) compared.add(file);
    }
  const before = snapshotOf(base.archive, compared);
  const after = snapshotOf(fullArchive(files, compared, options.present), compared);
  const changes = diffSnapshots(before, after);
  diagnostics.push(...releasedGuard({ before, after, changes, records: fresh }));
  // An archive keeps change records once it has a changes folder; until then, none is asked for.
  if (loaded.exists || atBase.size > 0) diagnostics.push(...coverage({ base: base.rev, before, after, changes, records: fresh }));
  return diagnostics;
}
