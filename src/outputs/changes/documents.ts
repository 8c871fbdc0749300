// The changelog's documents, where the route table (site/routes.ts) puts them: the Atom feed and the
// records as JSON, both at the site's root, outside the API's paths.

import { DOCUMENTS } from '../../site/routes.ts';

function fileAt(path: string): string {
  const document = DOCUMENTS.find((d) => d.path === path);
  if (!document) throw new Error(`the route table has no document at ${path}`);
  return document.file;
}

export const FEED_PATH = '/changes.atom';
export const JSON_PATH = '/changes.json';

/** Their files below the output folder. */
export const FEED_FILE = fileAt(FEED_PATH);
export const JSON_FILE = fileAt(JSON_PATH);

/** A file's absolute address on the site. */
export function addressOf(baseUrl: string, file: string): string {
  return `${baseUrl}/${file}`;
}
