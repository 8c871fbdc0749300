// The per-file stage of the build: one metadata file in; its diagnostics (with positions), the
// skeleton the cross-file rules need, and, for a catalogue group or imaging facility, its API
// text rendered once, out. A digest depends on the file's text and place only, so it can be
// cached by content and made in any worker thread.

import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics.ts';
import { linkedJson } from '../outputs/browsable.ts';
import { classify, parseFileFast } from './load.ts';
import type { FileKind, MetadataFile, Placement } from './load.ts';
import { encodeJson, facilityNode, groupNode, prettyJson } from '../outputs/api.ts';
import { CHILDREN } from './assemble.ts';
import type { FacilityYaml, GroupYaml, NodeKind } from './assemble.ts';
import { validateFiles } from './validate.ts';
import type { Validators } from './validate.ts';

/**
 * Bytes an output is made of: in memory, or a file of the build cache that the writer copies
 * from as it writes, so that a rebuild never holds the unchanged texts in memory. The file's size
 * is known from the cache's entry, so a text damaged since it was stored is noticed as it is copied.
 */
export type Bytes = Uint8Array | { file: string; size: number };

/**
 * A group's or facility's API object, rendered once as UTF-8 bytes: its compact JSON, and its text
 * as the format=api pages show it (indented by four spaces per level, escaped for HTML, URLs
 * linked, lines after the first starting at FRAGMENT_INDENT). Bytes, not strings, so that neither
 * a worker's hand-over, the cache nor the writer has to encode them again.
 */
export interface Fragment {
  /** Changes exactly when the text changes: the digest's key. */
  key: string;
  compact: Bytes;
  page: Bytes;
}

/**
 * The column at which a listing's page shows groups and facilities. A survey's own page shows
 * them four columns further out, and the writer shifts the text as it writes (write.ts): a
 * rebuild after one edit rewrites every listing but only one survey's pages, so the listing's
 * column is the one kept ready.
 */
export const FRAGMENT_INDENT = 24;

const encoder = new TextEncoder();

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

/** The node at the top of a group's or facility's file. */
export const ROOT_KIND: Partial<Record<FileKind, NodeKind>> = { 'catalogue-group': 'CatalogueGroup', 'imaging-facility': 'ImagingFacility' };

/** The parts of a node the cross-file rules read. */
const SKELETON_KEYS = ['id', 'name', 'created', 'updated'];

function skeleton(kind: NodeKind, node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of SKELETON_KEYS) if (key in source) out[key] = source[key];
  const children = CHILDREN[kind];
  const list = children ? source[children.key] : undefined;
  if (children && Array.isArray(list)) out[children.key] = list.map((child) => skeleton(children.kind, child));
  return out;
}

/** JSON, not v8's serialiser: that writes equal strings differently depending on how they were made. */
function shapeOf(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('hex');
}

export function digest(relative: string, text: string, key: string, validators: Validators): Digest {
  const placed = classify(relative);
  if ('problem' in placed) throw new Error(`digest of a file outside the layout: ${relative}`);
  const { kind, placement } = placed;
  const parsed = parseFileFast(relative, text);
  const base = { key, relative, kind, placement };
  if (!parsed.file) return { ...base, diagnostics: parsed.diagnostics, valid: false, data: undefined, shape: '' };
  const file: MetadataFile = { ...parsed.file, relative, kind, placement };
  const validated = validateFiles([file], validators);
  const diagnostics = [...parsed.diagnostics, ...validated.diagnostics];
  const valid = validated.valid.length === 1;
  const rootKind = ROOT_KIND[kind];
  if (!rootKind) return { ...base, diagnostics, valid, data: file.data, shape: shapeOf(file.data) };
  const data = skeleton(rootKind, file.data);
  const shape = shapeOf(data);
  if (!valid) return { ...base, diagnostics, valid, data, shape };
  const api =
    kind === 'catalogue-group'
      ? groupNode(file.data as GroupYaml)
      : facilityNode(file.data as FacilityYaml, placement.survey, placement.release ?? '');
  const html = linkedJson(prettyJson(api));
  const page = encoder.encode(html.replaceAll('\n', `\n${' '.repeat(FRAGMENT_INDENT)}`));
  return { ...base, diagnostics, valid, data, shape, fragment: { key, compact: encoder.encode(encodeJson(api)), page } };
}
