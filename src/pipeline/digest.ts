// The per-file stage of the build: one metadata file in; its diagnostics (with positions), the
// skeleton the cross-file rules need, and, for a catalogue group or imaging facility, its API
// text rendered once, out. A digest depends on the file's text and place only, so it can be
// cached by content and made in any worker thread.

import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.ts';
import type { NodeYaml } from '../kinds/data.ts';
import { KINDS, childrenOf, classify, sectionOf } from '../kinds/registry.ts';
import type { FileKind, KindType, Placement } from '../kinds/registry.ts';
import { walk } from '../kinds/walk.ts';
import type { Item } from '../kinds/walk.ts';
import type { Encode, Fragment } from '../site/fragment.ts';
import { decodeMetadata } from './encoding.ts';
import { parseFileFast } from './parse.ts';
import type { MetadataFile } from './parse.ts';
import { validateFiles } from './validate.ts';
import type { Validators } from './validate.ts';

export interface Digest {
  key: string;
  relative: string;
  kind: FileKind;
  placement: Placement;
  /** Problems in this file alone, positioned; `file` is the metadata-relative path. */
  diagnostics: Diagnostic[];
  /** Whether the file parsed and passed its schema. */
  valid: boolean;
  /**
   * What later stages read: all of a survey, release or retired file; for groups and
   * facilities only ids, names, timestamps and the nesting (the rules need no more).
   */
  data: unknown;
  /**
   * A hash of `data`: equal shapes give the cross-file rules equal inputs, so a rebuild after an
   * edit that leaves every shape as it was (a description, a unit) need not run them again.
   */
  shape: string;
  fragment?: Fragment;
}

/** The parts of a node the cross-file rules read. */
const SKELETON_KEYS = ['id', 'name', 'created', 'updated'];

/** A group's or facility's nodes with only what the rules read, and their nesting. */
function skeleton(kind: KindType, data: unknown): unknown {
  let root: Item | undefined;
  walk<Item | null>(kind, data, null, (type, item, parent) => {
    const out: Item = {};
    for (const key of SKELETON_KEYS) if (key in item) out[key] = item[key];
    // Each list the node has, even if empty, as it was written.
    for (const child of childrenOf(type)) if (Array.isArray(item[child.key])) out[child.key] = [];
    const key = KINDS[type].nested?.key;
    if (parent && key) (parent[key] as Item[]).push(out);
    else root = out;
    return out;
  });
  return root ?? data;
}

/** JSON, not v8's serialiser: that writes equal strings differently depending on how they were made. */
function shapeOf(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('hex');
}

/**
 * Renders a group's or facility's texts (outputs/fragment.ts): handed in by whoever digests, so
 * that this stage knows what a fragment is but not how any output renders one.
 */
export type Render = (kind: KindType, data: NodeYaml, place: readonly string[], key: string, source: string, encode?: Encode) => Fragment;

/** With `render`, a valid group's or facility's texts are rendered too; `encode` makes their bytes (site/fragment.ts). */
export function digest(relative: string, bytes: Uint8Array, key: string, validators: Validators, render?: Render, encode?: Encode): Digest {
  const placed = classify(relative);
  if ('problem' in placed) throw new Error(`digest of a file outside the layout: ${relative}`);
  const { kind, placement } = placed;
  const base = { key, relative, kind, placement };
  const decoded = decodeMetadata(bytes, relative);
  if (!('text' in decoded)) return { ...base, diagnostics: [decoded.problem], valid: false, data: undefined, shape: '' };
  const parsed = parseFileFast(relative, decoded.text);
  if (!parsed.file) return { ...base, diagnostics: parsed.diagnostics, valid: false, data: undefined, shape: '' };
  const file: MetadataFile = { ...parsed.file, relative, kind, placement };
  const validated = validateFiles([file], validators);
  const diagnostics = [...parsed.diagnostics, ...validated.diagnostics];
  const valid = validated.valid.length === 1;
  if (kind === 'Retired' || !sectionOf(kind)) return { ...base, diagnostics, valid, data: file.data, shape: shapeOf(file.data) };
  const data = skeleton(kind, file.data);
  const shape = shapeOf(data);
  if (!valid || !render) return { ...base, diagnostics, valid, data, shape };
  const fragment = render(kind, file.data as NodeYaml, [placement.survey, placement.release ?? ''], key, relative, encode);
  return { ...base, diagnostics, valid, data, shape, fragment };
}
