// `stamp`: sets `updated` on every node whose own content changed since a base revision, and
// `created` (with `updated`) on nodes that are new, so curators never type a timestamp. A node
// already stamped in this change is left alone, so stamping twice changes nothing.

import path from 'node:path';
import { isMap } from 'yaml';
import type { Document } from 'yaml';
import type { NodeYaml, ReleaseYaml } from '../kinds/data.ts';
import { KINDS, KIND_TYPES, childrenOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { walk } from '../kinds/walk.ts';
import { walkNodes } from '../pipeline/assemble.ts';
import type { Archive } from '../pipeline/assemble.ts';
import { archiveAt } from '../pipeline/history.ts';
import { loadMetadata, unreadable } from '../pipeline/parse.ts';
import type { MetadataFile, PathSegment } from '../pipeline/parse.ts';
import { readSchema } from '../pipeline/validate.ts';
import { RewriteError, keyOrder, openDocument, printCanonical, setInOrder, writeAtomically } from './rewrite.ts';

export interface StampOptions {
  metadataDir: string;
  displayRoot: string;
  /** The revision to compare with; HEAD compares with the last commit. */
  base: string;
  /** The instant to write, e.g. 2026-11-22T05:40:12Z. */
  now: string;
}

export interface StampChange {
  file: string;
  what: string;
}

export interface StampResult {
  /** The timestamps written. */
  stamped: StampChange[];
  /** New nodes that carry their timestamps already, with the new nodes inside them that take theirs. */
  seen: StampChange[];
}

/** The node's own content: everything but its timestamps and its children. */
function ownContent(kind: KindType, node: object): string {
  const children = new Set(childrenOf(kind).map((c) => c.key));
  const entries = Object.entries(node)
    .filter(([key]) => key !== 'created' && key !== 'updated' && !children.has(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

interface Known {
  content: string;
  updated: string | undefined;
}

/** A release by its place (releases have no ids), any other node by its kind and id. */
const releaseKey = (survey: string, release: string) => `DataRelease:${survey}/${release}`;
const nodeKey = (kind: KindType, id: number) => `${kind}:${id}`;

function baseIndex(archive: Archive): Map<string, Known> {
  const index = new Map<string, Known>();
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      index.set(releaseKey(survey.data.name, release.data.name), {
        content: ownContent('DataRelease', release.data),
        updated: release.data.updated,
      });
    }
  }
  for (const n of walkNodes(archive))
    index.set(nodeKey(n.kind, n.node.id), { content: ownContent(n.kind, n.node), updated: n.node.updated });
  return index;
}

/** Each kind's keys in schema order, so a new key lands where `fmt` would put it. */
function orders(): Map<KindType, string[]> {
  return new Map(
    KIND_TYPES.map((kind) => {
      const { file, pointer } = KINDS[kind].schema;
      const schema = pointer.reduce<Record<string, unknown> | undefined>(
        (at, key) => at?.[key] as Record<string, unknown> | undefined,
        readSchema(file),
      );
      return [kind, keyOrder(schema)];
    }),
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export async function stamp(options: StampOptions): Promise<StampResult> {
  const loaded = await loadMetadata(options.metadataDir, { displayRoot: options.displayRoot });
  const broken = loaded.diagnostics.find(unreadable);
  if (broken) throw new RewriteError(`${broken.message}; nothing was changed`, broken);
  const base = baseIndex((await archiveAt(options.base, options.metadataDir)).archive);
  const order = orders();
  const stamped: StampChange[] = [];
  const seen: StampChange[] = [];
  const edits = new Map<MetadataFile, { doc: Document; notes: string[] }>();
  const edit = (file: MetadataFile, pointer: PathSegment[], kind: KindType, values: Record<string, string>, note: string) => {
    let entry = edits.get(file);
    if (!entry) {
      entry = { doc: openDocument(file.display, file.text), notes: [] };
      edits.set(file, entry);
    }
    const map = entry.doc.getIn(pointer, true) ?? (pointer.length === 0 ? entry.doc.contents : undefined);
    if (!isMap(map)) throw new RewriteError(`${file.display}: cannot find ${pointer.join('.') || 'the top mapping'} to stamp`);
    for (const [key, value] of Object.entries(values)) setInOrder(map, key, value, order.get(kind) ?? [], entry.doc);
    entry.notes.push(note);
  };
  /** Stamps a node as it needs; says whether it is new since the base. */
  const visit = (
    file: MetadataFile,
    pointer: PathSegment[],
    kind: KindType,
    key: string,
    node: NodeYaml | ReleaseYaml,
    label: string,
  ): boolean => {
    const known = base.get(key);
    if (!known) {
      const values: Record<string, string> = {};
      if (node.created === undefined) values.created = options.now;
      if (node.updated === undefined) values.updated = options.now;
      if (Object.keys(values).length > 0) edit(file, pointer, kind, values, `${Object.keys(values).join(' and ')} on new ${label}`);
      return true;
    }
    if (known.content !== ownContent(kind, node) && known.updated === node.updated) {
      edit(file, pointer, kind, { updated: options.now }, `updated on ${label}`);
    }
    return false;
  };
  for (const file of loaded.files) {
    if (file.kind !== 'DataRelease' || typeof file.data !== 'object' || file.data === null) continue;
    const release = file.data as ReleaseYaml;
    visit(
      file,
      [],
      'DataRelease',
      releaseKey(file.placement.survey, file.placement.release ?? ''),
      release,
      `${KINDS.DataRelease.word} "${release.name}"`,
    );
  }
  for (const file of loaded.files) {
    if (file.kind === 'Retired' || file.kind === 'Survey' || file.kind === 'DataRelease') continue;
    /** Where each node is, and the nearest new node that is stamped already, whose timestamps new nodes inside take. */
    interface Place {
      pointer: PathSegment[];
      isNew: boolean;
      stampedNew?: { label: string; inherited: number };
    }
    const tops: NonNullable<Place['stampedNew']>[] = [];
    walk<Place | null>(file.kind, file.data, null, (kind, item, parent, index) => {
      const node = item as unknown as NodeYaml;
      if (typeof node.id !== 'number') return undefined;
      const key = KINDS[kind].nested?.key;
      const pointer = parent && key ? [...parent.pointer, key, index] : [];
      const label = `${KINDS[kind].word} "${node.name}" (id ${node.id})`;
      if (parent?.isNew && !base.has(nodeKey(kind, node.id))) {
        // Inside a node that is itself new, inheriting its timestamps is right.
        if (parent.stampedNew) parent.stampedNew.inherited++;
        return { pointer, isNew: true, ...(parent.stampedNew ? { stampedNew: parent.stampedNew } : {}) };
      }
      const isNew = visit(file, pointer, kind, nodeKey(kind, node.id), node, label);
      const stampedNew = isNew && node.created !== undefined && node.updated !== undefined ? { label, inherited: 0 } : undefined;
      if (stampedNew) tops.push(stampedNew);
      return { pointer, isNew, ...(stampedNew ? { stampedNew } : {}) };
    });
    for (const top of tops) {
      const inside =
        top.inherited > 0
          ? `; the ${plural(top.inherited, 'new node')} inside it ${top.inherited === 1 ? 'takes' : 'take'} its timestamps`
          : '';
      seen.push({ file: file.display, what: `new ${top.label} has its created and updated already${inside}` });
    }
  }
  for (const [file, { doc, notes }] of edits) {
    const text = printCanonical(doc, file.kind, file.display);
    await writeAtomically(path.join(path.resolve(options.metadataDir), file.relative), text, file.display);
    for (const what of notes) stamped.push({ file: file.display, what });
  }
  return { stamped, seen };
}

/** Now, to the second, as stamp writes it. */
export function nowInstant(date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
