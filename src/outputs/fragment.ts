// Renders a group's or facility's fragment (site/fragment.ts) from its data: its API object's
// compact JSON, its text as the browsable pages show it, and the texts every other output declares
// (units.ts). Run once per metadata file, in the digest step, whose result the cache keeps.

import { createHash } from 'node:crypto';
import type { NodeYaml } from '../kinds/data.ts';
import { nodesKeyOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { encodeJson } from './api/encode.ts';
import { nodeObject } from './api/objects.ts';
import type { ApiObject } from './api/objects.ts';
import { unitTextsOf } from './registry.ts';
import { manyTextName } from './output.ts';
import type { UnitPlace, UnitTextDeclaration } from './output.ts';
import { INDENT } from '../site/plan.ts';
import { FRAGMENT_INDENT, encodeAlone } from '../site/fragment.ts';
import type { Encode, Fragment, UnitText } from '../site/fragment.ts';
import { linkedJson, pageJson } from './browsable/page.ts';

/** The number of line breaks in a text. */
function lineBreaks(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * Renders a group or facility (`place`: its survey's and release's names); `key` identifies its
 * text. `encode` makes the texts' bytes (for a TextScratch's, good only until it is reset).
 */
export function renderFragment(
  kind: KindType,
  data: NodeYaml,
  place: readonly string[],
  key: string,
  source: string,
  encode: Encode = encodeAlone,
): Fragment {
  const api = nodeObject(kind, data, place);
  const html = linkedJson(pageJson(api));
  const pageBreaks = lineBreaks(html);
  const page = encode(html.replaceAll('\n', `\n${INDENT.repeat(FRAGMENT_INDENT)}`));
  const surveyPage = encode(html.replaceAll('\n', `\n${INDENT.repeat(FRAGMENT_INDENT - 1)}`));
  const compact = encode(encodeJson(api));
  const unitPlace = { survey: place[0] ?? '', release: place[1] ?? '' };
  const texts: Record<string, UnitText> = {};
  for (const declared of unitTextsOf(kind)) {
    const many = !('render' in declared);
    for (const [name, made] of renderUnitTexts(declared, api, unitPlace, kind, compact)) {
      const bytes = typeof made === 'string' ? encode(made) : made;
      const hash = many ? { hash: createHash('sha1').update(bytes).digest('base64url') } : {};
      texts[name] = { bytes, marks: declared.filled ? countNuls(bytes) : 0, ...hash };
    }
  }
  return { key, source, compact, page, pageBreaks, surveyPage, texts, ...census(api), children: childNames(kind, data) };
}

function childNames(kind: KindType, data: NodeYaml): string[] {
  const list = nodesKeyOf(kind);
  const nodes = list === undefined ? undefined : (data as unknown as Record<string, unknown>)[list];
  return Array.isArray(nodes) ? nodes.map((node) => String((node as { name: unknown }).name)) : [];
}

function countNuls(bytes: Uint8Array): number {
  let n = 0;
  for (let at = bytes.indexOf(0); at >= 0; at = bytes.indexOf(0, at + 1)) n++;
  return n;
}

/** The nodes of each type in an API object (anything with a `type`), and their latest `updated`. */
function census(api: ApiObject): { counts: Record<string, number>; latest: string } {
  const counts: Record<string, number> = {};
  let latest = '';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as ApiObject;
    if (typeof node.type === 'string') {
      counts[node.type] = (counts[node.type] ?? 0) + 1;
      if (typeof node.updated === 'string' && node.updated > latest) latest = node.updated;
    }
    for (const key in node) if (typeof node[key] === 'object') visit(node[key]);
  };
  visit(api);
  return { counts, latest };
}

/** Every text a declaration renders for one file, by the name it is kept as. */
export function renderUnitTexts(
  declared: UnitTextDeclaration,
  api: ApiObject,
  place: UnitPlace,
  kind: KindType,
  compact: Uint8Array,
): [string, Uint8Array | string][] {
  if ('render' in declared) return [[declared.name, declared.render(api, place, compact)]];
  return Object.entries(declared.renderMany(api, place, kind)).map(([name, text]) => [manyTextName(declared.name, name), text]);
}
