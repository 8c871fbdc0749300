// The text of `browse/site.js`: one line that tells the script the address the site was built for,
// then the client script (client/, bundled by scripts/compile.mjs into lib/client/site.js). The
// bundle is always read from lib/, whether the build runs from there or from src/ (the tests), so
// both give the same bytes; the build's code never imports the client's.

import { readFileSync } from 'node:fs';
import { COMPILED_DIR } from '../../project.ts';
import { script } from './search.ts';

/** The bundle below lib/. */
const BUNDLE = 'client/site.js';

let bundle: string | undefined;

/** The script for a site built for `baseUrl` (where the offline copy's links to the API lead). */
export function siteScriptText(baseUrl: string): string {
  bundle ??= readBundle();
  // A global, as the search data's is: the bundle reads it as it starts (client/site.ts).
  return `self.archiveSite = ${script({ url: baseUrl })};\n${bundle}`;
}

function readBundle(): string {
  try {
    return readFileSync(`${COMPILED_DIR}${BUNDLE}`, 'utf8');
  } catch (error) {
    throw new Error(`the browser's script is not bundled (${(error as Error).message}): run npm run compile`, { cause: error });
  }
}
