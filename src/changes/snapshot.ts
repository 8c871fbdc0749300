// A flat view of an archive for comparing two of them: every survey, release and node under a key
// that keeps its meaning (kind and id; a release by its survey's id and its name), with its own fields.

import { KINDS, SECTIONS, childrenOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { walk } from '../kinds/walk.ts';
import { rootsOf } from '../pipeline/assemble.ts';
import type { Archive } from '../pipeline/assemble.ts';
import type { MetadataFile, PathSegment } from '../pipeline/parse.ts';

/** A node's own fields: everything it says but its children and its timestamps. */
export type Fields = Record<string, unknown>;

export interface NodeState {
  key: string;
  kind: KindType;
  /** Undefined for a release, which has no id. */
  id?: number;
  /** The id of the survey it belongs to (a survey's own). */
  survey: number;
  /** The name of the release it belongs to (a release's own); undefined for a survey. */
  release?: string;
  /** The key of what it sits in: a release for a group or facility, a group for a table; '' for a survey. */
  parent: string;
  /** Names from the survey down to its own. */
  names: string[];
  fields: Fields;
  /** Its own `updated`, as written, if it has one. */
  updated?: string;
  /** Where it comes in the tree: compared element by element (ids and release numbers by value). */
  order: (number | string)[];
  file: MetadataFile;
  /** Where it is in its file, worked out when asked for (when something is reported at it). */
  pointer: () => PathSegment[];
}

export type Snapshot = ReadonlyMap<string, NodeState>;

export const surveyKey = (id: number): string => `Survey:${id}`;
export const releaseKey = (survey: number, name: string): string => `DataRelease:${survey}/${name}`;
export const nodeKey = (kind: KindType, id: number): string => `${kind}:${id}`;

/**
 * Timestamps say when a node changed, not what changed: a stamped edit would otherwise show every
 * node it touched twice.
 */
const TIMESTAMPS = new Set(['created', 'updated']);

const CHILD_KEYS = new Map<KindType, Set<string>>(Object.values(KINDS).map((k) => [k.type, new Set(childrenOf(k.type).map((c) => c.key))]));

function ownFields(kind: KindType, item: object): Fields {
  const children = CHILD_KEYS.get(kind);
  const fields: Fields = {};
  for (const [key, value] of Object.entries(item)) if (!TIMESTAMPS.has(key) && !children?.has(key)) fields[key] = value;
  return fields;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const nameOf = (item: { name?: unknown }, fallback: string): string => (typeof item.name === 'string' ? item.name : fallback);
const updatedOf = (item: { updated?: unknown }): string | undefined => (typeof item.updated === 'string' ? item.updated : undefined);

/**
 * Every survey, release and node of an archive by its key. With `only`, the nodes inside groups and
 * facilities come from those files alone (metadata-relative paths): the files that changed, when
 * every other file is the same on both sides. Items without a whole-number id cannot be matched
 * and are left out (the metadata's checks report them).
 */
export function snapshotOf(archive: Archive, only?: ReadonlySet<string>): Map<string, NodeState> {
  const states = new Map<string, NodeState>();
  for (const survey of archive.surveys) {
    const data = survey.data as unknown as Record<string, unknown>;
    if (!isId(data.id)) continue;
    const sid = data.id;
    const surveyName = nameOf(data, String(sid));
    const skey = surveyKey(sid);
    states.set(skey, {
      key: skey,
      kind: 'Survey',
      id: sid,
      survey: sid,
      parent: '',
      names: [surveyName],
      fields: ownFields('Survey', data),
      order: [sid],
      file: survey.file,
      pointer: () => [],
    });
    for (const release of survey.releases) {
      const rdata = release.data as unknown as Record<string, unknown>;
      const rname = nameOf(rdata, release.file.placement.release ?? '');
      const rkey = releaseKey(sid, rname);
      const rorder = [sid, typeof rdata.data_release_number === 'number' ? rdata.data_release_number : 0, rname];
      const rstate: NodeState = {
        key: rkey,
        kind: 'DataRelease',
        survey: sid,
        release: rname,
        parent: skey,
        names: [surveyName, rname],
        fields: ownFields('DataRelease', rdata),
        order: rorder,
        file: release.file,
        pointer: () => [],
      };
      const rupdated = updatedOf(rdata);
      if (rupdated !== undefined) rstate.updated = rupdated;
      states.set(rkey, rstate);
      for (const [section, { kind: rootKind }] of SECTIONS.entries()) {
        for (const { file, data: root } of rootsOf(release, rootKind)) {
          if (only && !only.has(file.relative)) continue;
          addNodes(states, rootKind, root, { file, survey: sid, release: rname, parent: rstate, order: [...rorder, section] });
        }
      }
    }
  }
  return states;
}

interface Place {
  file: MetadataFile;
  survey: number;
  release: string;
  parent: NodeState;
  order: (number | string)[];
}

/** A group or facility and everything nested in it. */
function addNodes(states: Map<string, NodeState>, rootKind: KindType, root: unknown, place: Place): void {
  walk<{ state: NodeState; pointer: () => PathSegment[] } | null>(rootKind, root, null, (kind, item, parent, index) => {
    if (!isId(item.id)) return undefined;
    const up = parent?.state ?? place.parent;
    const listKey = KINDS[kind].nested?.key;
    const pointer: () => PathSegment[] = parent && listKey ? () => [...parent.pointer(), listKey, index] : () => [];
    const state: NodeState = {
      key: nodeKey(kind, item.id),
      kind,
      id: item.id,
      survey: place.survey,
      release: place.release,
      parent: up.key,
      names: [...up.names, nameOf(item, String(item.id))],
      fields: ownFields(kind, item),
      order: parent ? [...up.order, item.id] : [...place.order, item.id],
      file: place.file,
      pointer,
    };
    const updated = updatedOf(item);
    if (updated !== undefined) state.updated = updated;
    states.set(state.key, state);
    return { state, pointer };
  });
}

/** Orders states by where they come in the tree. */
export function compareOrder(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}
