// The API's objects, their keys in the order the API writes them: a survey, a release's head, and a
// catalogue or imaging node with everything nested in it, each node as its kind declares it.

import type { ContactYaml, NodeYaml, ReleaseYaml, SurveyYaml } from '../../kinds/data.ts';
import type { ApiContext, ApiObject } from '../../kinds/kind.ts';
import { KINDS } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import { walk } from '../../kinds/walk.ts';
import { formatInstant, isInstant, parseInstant } from '../../vocabularies/instant.ts';

export type { ApiObject } from '../../kinds/kind.ts';

export interface ApiContact {
  email: string;
  name: string;
}

export function contact(c: ContactYaml): ApiContact;
export function contact(c: ContactYaml | null | undefined): ApiContact | null;
export function contact(c: ContactYaml | null | undefined): ApiContact | null {
  return c ? { email: c.email, name: c.name } : null;
}

/**
 * Where a node's fields beyond the API (its kind's `beyondApi`) sit on its API object: under a
 * symbol key, which JSON.stringify, `for … in` and Object.keys all pass over, so that no answer
 * of the API, nor anything made from its JSON, holds them.
 */
export const BEYOND_API: unique symbol = Symbol('fields beyond the API');

/** A node's fields beyond the API, when its kind declares some: what its kind's `beyondApi` made. */
export function beyondApi(object: ApiObject): unknown {
  return (object as Record<symbol, unknown>)[BEYOND_API];
}

/** A timestamp as the API writes it. */
export function instant(text: string): string {
  const parsed = parseInstant(text);
  // Validation has already rejected any timestamp that does not parse.
  if (!isInstant(parsed)) throw new Error(`unvalidated timestamp ${text}: ${parsed.problem}`);
  return formatInstant(parsed);
}

/** A data file's extension as written, or taken from its name (`SpecObj.fits` → `fits`). */
export function fileExtension(node: NodeYaml): string | null {
  if (node.file_extension !== undefined) return node.file_extension;
  const name = node.file_name;
  if (!name) return null;
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1) : null;
}

/** What a built node passes to the nodes nested in it. */
interface Built {
  lists: Map<string, ApiObject[]>;
  created: string;
  updated: string;
  names: () => string[];
}

/**
 * A catalogue or imaging node's API object with every node nested in it, each built as its kind
 * declares (kinds/). `place` names the survey and release it belongs to; nodes without their own
 * created or updated take their parent's.
 */
export function nodeObject(kind: KindType, data: NodeYaml, place: readonly string[]): ApiObject {
  let root: ApiObject | undefined;
  walk<Built | null>(kind, data, null, (type, item, parent) => {
    const n = item as unknown as NodeYaml;
    const declared = KINDS[type];
    const built: Built = {
      lists: new Map(),
      created: n.created !== undefined ? instant(n.created) : (parent?.created ?? ''),
      updated: n.updated !== undefined ? instant(n.updated) : (parent?.updated ?? ''),
      names: () => [...(parent ? parent.names() : place), n.name],
    };
    const context: ApiContext = {
      common: () => ({
        id: n.id,
        name: n.name,
        pretty_name: n.pretty_name ?? null,
        description: n.description ?? null,
        documentation: n.documentation ?? '',
        file_path: n.file_path ?? null,
        file_name: n.file_name ?? null,
        file_extension: fileExtension(n),
        version: n.version ?? null,
        type,
        created: built.created,
        updated: built.updated,
        contact: contact(n.contact),
      }),
      children: (key) => {
        // Filled as the walk reaches them, after this node.
        const list: ApiObject[] = [];
        built.lists.set(key, list);
        return list;
      },
      get names() {
        return built.names();
      },
    };
    if (!declared.api) throw new Error(`${type} declares no API fields`);
    const object = declared.api(item as never, context);
    if (declared.beyondApi) (object as Record<symbol, unknown>)[BEYOND_API] = declared.beyondApi(item as never);
    if (parent) parent.lists.get(declared.nested?.key ?? '')?.push(object);
    else root = object;
    return built;
  });
  if (!root) throw new Error(`${kind}: not an object`);
  return root;
}

/** A survey's object, around the releases it shows. */
export function surveyObject(s: SurveyYaml, url: string, releases: unknown[]): ApiObject {
  return {
    url,
    name: s.name,
    pretty_name: s.pretty_name,
    title: s.title,
    description: s.description,
    pi: s.pi,
    contact: contact(s.contact),
    website: s.website,
    active: s.active,
    type: 'Survey',
    data_releases: releases,
  };
}

/** A release's fields before its `type` and its data. */
export function releaseHead(r: ReleaseYaml): ApiObject {
  return {
    name: r.name,
    pretty_name: r.pretty_name,
    version: r.version,
    data_release_number: r.data_release_number,
    contact: contact(r.contact),
    created: instant(r.created),
    updated: instant(r.updated),
  };
}
