// The per-file stage of the build: one metadata file in; its diagnostics (with positions), the
// skeleton the cross-file rules need, and, for a catalogue group or imaging facility, its API
// text rendered once, out. A digest depends on the file's text and place only, so it can be
// cached by content and made in any worker thread.

import type { Diagnostic } from './diagnostics.ts';
import { linkedJson } from './browsable.ts';
import { classify, parseFileFast } from './load.ts';
import type { FileKind, MetadataFile, Placement } from './load.ts';
import { encodeJson, facilityNode, groupNode, prettyJson } from './transform.ts';
import { CHILDREN } from './tree.ts';
import type { FacilityYaml, GroupYaml, NodeKind } from './tree.ts';
import { validateFiles } from './validate.ts';
import type { Validators } from './validate.ts';

/** A group's or facility's API object, rendered once: compact JSON, and the browsable page's text. */
export interface Fragment {
  /** Changes exactly when the text changes: the digest's key. */
  key: string;
  /** As in the JSON responses. */
  compact: string;
  /**
   * As the format=api pages show it: indented by four spaces per level, its lines after the first
   * starting at column `indent` (where a survey's own page puts its groups and facilities),
   * escaped for HTML, URLs linked.
   */
  html: string;
  indent: number;
}

/** The column at which a survey's page shows its groups and facilities (a listing adds four). */
export const FRAGMENT_INDENT = 20;

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
  fragment?: Fragment;
}

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

export function digest(relative: string, text: string, key: string, validators: Validators): Digest {
  const placed = classify(relative);
  if ('problem' in placed) throw new Error(`digest of a file outside the layout: ${relative}`);
  const { kind, placement } = placed;
  const parsed = parseFileFast(relative, text);
  const base = { key, relative, kind, placement };
  if (!parsed.file) return { ...base, diagnostics: parsed.diagnostics, valid: false, data: undefined };
  const file: MetadataFile = { ...parsed.file, relative, kind, placement };
  const validated = validateFiles([file], validators);
  const diagnostics = [...parsed.diagnostics, ...validated.diagnostics];
  const valid = validated.valid.length === 1;
  if (kind !== 'catalogue-group' && kind !== 'imaging-facility') return { ...base, diagnostics, valid, data: file.data };
  const rootKind: NodeKind = kind === 'catalogue-group' ? 'CatalogueGroup' : 'ImagingFacility';
  const data = skeleton(rootKind, file.data);
  if (!valid) return { ...base, diagnostics, valid, data };
  const api =
    kind === 'catalogue-group'
      ? groupNode(file.data as GroupYaml)
      : facilityNode(file.data as FacilityYaml, placement.survey, placement.release ?? '');
  const html = linkedJson(prettyJson(api)).replaceAll('\n', `\n${' '.repeat(FRAGMENT_INDENT)}`);
  return { ...base, diagnostics, valid, data, fragment: { key, compact: encodeJson(api), html, indent: FRAGMENT_INDENT } };
}
