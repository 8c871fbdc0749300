// A node of the schema browser's pages, as the API gives it, for the tests that render pages
// (browser-pages, html): every field set, each call with an id of its own.

import type { Node } from '../src/outputs/browser/pages/index.ts';

let nextId = 1;

/** A node named `name` of API type `type`, with `extra` over its defaults. */
export function node(name: string, type: string, extra: Partial<Node> = {}): Node {
  return {
    id: nextId++,
    name,
    pretty_name: null,
    description: `About ${name}`,
    documentation: '',
    file_path: null,
    file_name: null,
    file_extension: null,
    version: null,
    type,
    created: '2020-01-02T00:00:00.000000Z',
    updated: '2020-03-04T05:06:07.000000Z',
    contact: null,
    ...extra,
  };
}
