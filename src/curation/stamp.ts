// `stamp`: sets `updated` on every node whose own content changed since a base revision, and
// `created` (with `updated`) on nodes that are new, so curators never type a timestamp. A node
// already stamped in this change is left alone, so stamping twice changes nothing.

import path from 'node:path';
import { isMap } from 'yaml';
import type { Document, YAMLMap } from 'yaml';
import { archiveAt } from '../pipeline/history.ts';
import { loadMetadata } from '../pipeline/load.ts';
import type { MetadataFile, PathSegment } from '../pipeline/load.ts';
import { RewriteError, fileSchema, keyOrder, openDocument, printCanonical, setInOrder, writeAtomically } from './rewrite.ts';
import { CHILDREN, NODE_KIND_WORDS, walkNodes } from '../pipeline/assemble.ts';
import type { Archive, NodeKind, NodeYaml, ReleaseYaml } from '../pipeline/assemble.ts';
import { readSchema } from '../pipeline/validate.ts';

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

/** The node's own content: everything but its timestamps and its children. */
function ownContent(kind: NodeKind | 'release', node: object): string {
  const children = kind === 'release' ? undefined : CHILDREN[kind]?.key;
  const entries = Object.entries(node)
    .filter(([key]) => key !== 'created' && key !== 'updated' && key !== children)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

interface Known {
  content: string;
  updated: string | undefined;
}

function baseIndex(archive: Archive): Map<string, Known> {
  const index = new Map<string, Known>();
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      index.set(`release:${survey.data.name}/${release.data.name}`, { content: ownContent('release', release.data), updated: release.data.updated });
    }
  }
  for (const n of walkNodes(archive)) {
    index.set(`${n.kind}:${n.node.id}`, { content: ownContent(n.kind, n.node), updated: n.node.updated });
  }
  return index;
}

/** Schema key orders by node kind, so a new key lands where `fmt` would put it. */
function orders(): Record<NodeKind | 'release', string[]> {
  const group = readSchema('catalogue-group.schema.json') as { properties: object; definitions: Record<string, { properties: object }> };
  const facility = readSchema('imaging-facility.schema.json') as { properties: object; definitions: Record<string, { properties: object }> };
  return {
    release: keyOrder(fileSchema('release').schema),
    CatalogueGroup: Object.keys(group.properties),
    CatalogueTable: Object.keys(group.definitions.table?.properties ?? {}),
    CatalogueColumn: Object.keys(group.definitions.column?.properties ?? {}),
    ImagingFacility: Object.keys(facility.properties),
    ImagingBand: Object.keys(facility.definitions.band?.properties ?? {}),
    ImagingRegion: Object.keys(facility.definitions.region?.properties ?? {}),
  };
}

export async function stamp(options: StampOptions): Promise<StampChange[]> {
  const loaded = await loadMetadata(options.metadataDir, { displayRoot: options.displayRoot });
  const broken = loaded.diagnostics.find((d) => d.severity === 'error' && d.rule.startsWith('yaml/'));
  if (broken) throw new RewriteError(`${broken.file}:${broken.line}:${broken.col} is not valid YAML (${broken.message}); nothing was changed`);
  const base = baseIndex((await archiveAt(options.base, options.metadataDir)).archive);
  const order = orders();
  const changes: StampChange[] = [];
  const edits = new Map<MetadataFile, { doc: Document; notes: string[] }>();
  const edit = (file: MetadataFile, pointer: PathSegment[], kind: NodeKind | 'release', values: Record<string, string>, note: string) => {
    let entry = edits.get(file);
    if (!entry) {
      entry = { doc: openDocument(file.display, file.text), notes: [] };
      edits.set(file, entry);
    }
    const map = entry.doc.getIn(pointer, true) ?? (pointer.length === 0 ? entry.doc.contents : undefined);
    if (!isMap(map)) throw new RewriteError(`${file.display}: cannot find ${pointer.join('.') || 'the top mapping'} to stamp`);
    for (const [key, value] of Object.entries(values)) setInOrder(map as YAMLMap, key, value, order[kind], entry.doc);
    entry.notes.push(note);
  };
  /** Returns whether the node is new since the base. */
  const visit = (file: MetadataFile, pointer: PathSegment[], kind: NodeKind | 'release', key: string, node: NodeYaml | ReleaseYaml, label: string, parentIsNew = false): boolean => {
    const known = base.get(key);
    if (!known && parentIsNew) {
      // Inside a node that is itself new, inheriting its timestamps is right.
      return true;
    }
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
    if (file.kind !== 'release') continue;
    const release = file.data as ReleaseYaml;
    if (typeof file.data !== 'object' || file.data === null) continue;
    visit(file, [], 'release', `release:${file.placement.survey}/${file.placement.release}`, release, `release "${release.name}"`);
  }
  for (const file of loaded.files) {
    if (file.kind !== 'catalogue-group' && file.kind !== 'imaging-facility') continue;
    const rootKind: NodeKind = file.kind === 'catalogue-group' ? 'CatalogueGroup' : 'ImagingFacility';
    const walk = (kind: NodeKind, node: NodeYaml, pointer: PathSegment[], parentIsNew: boolean) => {
      if (typeof node !== 'object' || node === null || typeof node.id !== 'number') return;
      const isNew = visit(file, pointer, kind, `${kind}:${node.id}`, node, `${NODE_KIND_WORDS[kind]} "${node.name}" (id ${node.id})`, parentIsNew);
      const children = CHILDREN[kind];
      const list = children ? (node as unknown as Record<string, unknown>)[children.key] : undefined;
      if (children && Array.isArray(list)) list.forEach((child, i) => walk(children.kind, child as NodeYaml, [...pointer, children.key, i], isNew));
    };
    walk(rootKind, file.data as NodeYaml, [], false);
  }
  for (const [file, { doc, notes }] of edits) {
    const text = printCanonical(doc, file.kind, file.display);
    await writeAtomically(path.join(path.resolve(options.metadataDir), file.relative), text);
    for (const what of notes) changes.push({ file: file.display, what });
  }
  return changes;
}

/** Now, to the second, as stamp writes it. */
export function nowInstant(date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
