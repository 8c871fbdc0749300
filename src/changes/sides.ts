// The two sides of a diff, each a metadata tree (a folder, or a git revision's files) known by a
// hash of each file's bytes; only the files that differ are parsed, with every survey's and
// release's, so comparing a large archive with a one-file edit reads one group, not all of them.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { classify } from '../kinds/registry.ts';
import { assemble } from '../pipeline/assemble.ts';
import { decodeMetadata } from '../pipeline/encoding.ts';
import { readBlobs } from '../pipeline/history.ts';
import { parseMetadata, unreadable } from '../pipeline/parse.ts';
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

/** The metadata files of a folder, read whole (a large archive's 55 MB take a quarter of a second). */
export async function folderTree(
  metadataDir: string,
  options: { displayRoot?: string; label: string; format?: 'sha1' | 'sha256' },
): Promise<MetadataTree> {
  const { root, names, display } = await listMetadata(metadataDir, options.displayRoot ? { displayRoot: options.displayRoot } : {});
  const bytes = new Map<string, Buffer>();
  const files = new Map<string, string>();
  for (const relative of names) {
    let read: Buffer;
    try {
      read = readFileSync(path.join(root, relative));
    } catch (error) {
      throw new LoadError(`cannot read ${display(relative)}: ${(error as Error).message}`);
    }
    bytes.set(relative, read);
    files.set(relative, blobId(read, options.format));
  }
  return {
    label: options.label,
    files,
    display,
    texts: (relatives) => {
      const entries: { relative: string; text: string }[] = [];
      const problems: Diagnostic[] = [];
      for (const relative of relatives) {
        const decoded = decodeMetadata(bytes.get(relative) ?? new Uint8Array(), display(relative));
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

/** Surveys and releases are read on both sides whatever changed: every change is placed and named by them. */
function isHead(relative: string): boolean {
  const placed = classify(relative);
  return 'kind' in placed && (placed.kind === 'Survey' || placed.kind === 'DataRelease');
}

/** The files whose bytes differ between two trees, or that only one has. */
export function changedFiles(from: MetadataTree, to: MetadataTree): Set<string> {
  const changed = new Set<string>();
  for (const [relative, id] of from.files) if (to.files.get(relative) !== id) changed.add(relative);
  for (const relative of to.files.keys()) if (!from.files.has(relative)) changed.add(relative);
  return changed;
}

/** One side, as far as a diff needs it: its surveys and releases, and the nodes of the files that changed. */
async function sideOf(
  tree: MetadataTree,
  changed: ReadonlySet<string>,
): Promise<{ states: Map<string, NodeState>; problems: Diagnostic[] }> {
  const wanted = [...tree.files.keys()].filter((r) => changed.has(r) || isHead(r)).sort();
  const { entries, problems } = await tree.texts(wanted);
  const parsed = parseMetadata(entries, tree.display);
  const states = snapshotOf(assemble(parsed.files).archive);
  // Only what keeps a file from being read matters here; `check` reports the rest.
  return { states, problems: [...problems, ...parsed.diagnostics.filter(unreadable)] };
}

export interface Pair {
  before: Map<string, NodeState>;
  after: Map<string, NodeState>;
  changes: Change[];
  /** Files that could not be read on either side: the diff would be incomplete. */
  problems: Diagnostic[];
}

/** Compares two trees: what changed between them, with both sides' states of what it touched. */
export async function comparePair(from: MetadataTree, to: MetadataTree): Promise<Pair> {
  const changed = changedFiles(from, to);
  const [before, after] = await Promise.all([sideOf(from, changed), sideOf(to, changed)]);
  return {
    before: before.states,
    after: after.states,
    changes: diffSnapshots(before.states, after.states),
    problems: [...before.problems, ...after.problems],
  };
}
