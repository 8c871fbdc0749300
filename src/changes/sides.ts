// The two sides of a diff, each a metadata tree (a folder, or a git revision's files) known by
// git's id of each file's bytes; only the files that differ are parsed, with the survey and release
// files above them, so comparing a large archive with a one-file edit reads one group, not all of them.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { classify, fileOf } from '../kinds/registry.ts';
import { assemble } from '../pipeline/assemble.ts';
import { decodeMetadata } from '../pipeline/encoding.ts';
import { readBlobs } from '../pipeline/history.ts';
import { parseMetadata, unreadable } from '../pipeline/parse.ts';
import type { MetadataFile } from '../pipeline/parse.ts';
import { LoadError, listMetadata } from '../pipeline/scan.ts';
import { diffSnapshots } from './diff.ts';
import type { Change } from './diff.ts';
import { filesAt } from './git.ts';
import { snapshotOf } from './snapshot.ts';
import type { NodeState } from './snapshot.ts';

export interface MetadataTree {
  /** How reports name it: `main (1a2b3c4)`, `the working tree`, a folder. */
  label: string;
  /** Metadata-relative path → git's id of its bytes, so that a folder and a revision compare. */
  files: ReadonlyMap<string, string>;
  /** The texts of some of its files; what cannot be read as text is a problem of its file. */
  texts: (relatives: readonly string[]) => Promise<{ entries: { relative: string; text: string }[]; problems: Diagnostic[] }>;
  /** How a file's path is shown in messages. */
  display: (relative: string) => string;
}

/** git's id of a file's bytes (`git hash-object`). */
export function blobId(bytes: Uint8Array, format: 'sha1' | 'sha256' = 'sha1'): string {
  return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * What git's index says of a working tree's files: each file's blob id as staged, and the files
 * whose stamp (size, times) no longer matches what was staged, whose bytes must be read to know.
 */
export interface IndexIds {
  ids: ReadonlyMap<string, string>;
  touched: ReadonlySet<string>;
}

/**
 * The metadata files of a folder, each known by git's id of its bytes. With `index`, a file git's
 * stat cache holds unchanged takes its staged id and is read only if its text is asked for: a
 * large archive's 55 MB read and hashed took half a second, where git answers in a few
 * milliseconds (as `git status` does).
 */
export async function folderTree(
  metadataDir: string,
  options: { displayRoot?: string; label: string; format?: 'sha1' | 'sha256'; index?: IndexIds },
): Promise<MetadataTree> {
  const { root, names, display } = await listMetadata(metadataDir, options.displayRoot ? { displayRoot: options.displayRoot } : {});
  const read = (relative: string): Buffer => {
    try {
      return readFileSync(path.join(root, relative));
    } catch (error) {
      throw new LoadError(`cannot read ${display(relative)}: ${(error as Error).message}`);
    }
  };
  const files = new Map<string, string>();
  for (const relative of names) {
    const staged = options.index?.touched.has(relative) ? undefined : options.index?.ids.get(relative);
    files.set(relative, staged ?? blobId(read(relative), options.format));
  }
  return {
    label: options.label,
    files,
    display,
    texts: (relatives) => {
      const entries: { relative: string; text: string }[] = [];
      const problems: Diagnostic[] = [];
      for (const relative of relatives) {
        const decoded = decodeMetadata(read(relative), display(relative));
        if ('text' in decoded) entries.push({ relative, text: decoded.text });
        else problems.push(decoded.problem);
      }
      return Promise.resolve({ entries, problems });
    },
  };
}

/** The metadata files of a commit, below the metadata folder's path in the repository (`prefix`). */
export async function revisionTree(
  top: string,
  commit: string,
  prefix: string,
  label: string,
  rev = commit.slice(0, 7),
): Promise<MetadataTree> {
  const files = await filesAt(top, commit, prefix);
  const display = (relative: string) => `${rev}:${prefix === '' ? '' : `${prefix}/`}${relative}`;
  return {
    label,
    files,
    display,
    texts: async (relatives) => {
      const texts = await readBlobs(
        top,
        relatives.map((r) => files.get(r) ?? ''),
      );
      return { entries: relatives.map((relative, i) => ({ relative, text: texts[i] ?? '' })), problems: [] };
    },
  };
}

/** A tree with no files: the side before a repository's first commit. */
export function emptyTree(label: string): MetadataTree {
  return { label, files: new Map(), display: (r) => r, texts: () => Promise.resolve({ entries: [], problems: [] }) };
}

/**
 * The survey and release files above the files that changed: every change is placed and named by
 * them, and a group or facility cannot be assembled without them. The others are not read.
 */
function headsOf(changed: ReadonlySet<string>): Set<string> {
  const heads = new Set<string>();
  for (const relative of changed) {
    const placed = classify(relative);
    if (!('kind' in placed) || placed.placement.survey === '') continue;
    const { survey, release } = placed.placement;
    heads.add(fileOf('Survey', { survey, name: survey }));
    if (release !== undefined) heads.add(fileOf('DataRelease', { survey, release, name: release }));
  }
  return heads;
}

/** The files whose bytes differ between two trees, or that only one has. */
export function changedFiles(from: MetadataTree, to: MetadataTree): Set<string> {
  const changed = new Set<string>();
  for (const [relative, id] of from.files) if (to.files.get(relative) !== id) changed.add(relative);
  for (const relative of to.files.keys()) if (!from.files.has(relative)) changed.add(relative);
  return changed;
}

/** The metadata files read of one side, parsed; what cannot be read is a problem of its file. */
async function parsed(tree: MetadataTree, relatives: readonly string[]): Promise<{ files: MetadataFile[]; problems: Diagnostic[] }> {
  const { entries, problems } = await tree.texts(relatives);
  const loaded = parseMetadata(entries, tree.display);
  // Only what keeps a file from being read matters here; `check` reports the rest.
  return { files: loaded.files, problems: [...problems, ...loaded.diagnostics.filter(unreadable)] };
}

export interface Pair {
  before: Map<string, NodeState>;
  after: Map<string, NodeState>;
  changes: Change[];
  /** Files that could not be read on either side: the diff would be incomplete. */
  problems: Diagnostic[];
}

/**
 * Compares two trees: what changed between them, with both sides' states of what it touched. The
 * surveys and releases above it that are the same on both sides are parsed once, from the `to` side.
 */
export async function comparePair(from: MetadataTree, to: MetadataTree): Promise<Pair> {
  const changed = changedFiles(from, to);
  const wanted = (tree: MetadataTree, also: (relative: string) => boolean) =>
    [...tree.files.keys()].filter((relative) => changed.has(relative) || also(relative)).sort();
  const heads = headsOf(changed);
  const after = await parsed(
    to,
    wanted(to, (relative) => heads.has(relative)),
  );
  const before = await parsed(
    from,
    wanted(from, () => false),
  );
  const same = after.files.filter((file) => !changed.has(file.relative));
  const states = {
    before: snapshotOf(assemble([...before.files, ...same]).archive),
    after: snapshotOf(assemble(after.files).archive),
  };
  return { ...states, changes: diffSnapshots(states.before, states.after), problems: [...before.problems, ...after.problems] };
}
