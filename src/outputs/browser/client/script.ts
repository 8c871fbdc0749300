// The text of `browse/site.js`: the client's one function (site.ts) as the compiler wrote it into
// lib/, called at once. Written this way the script is type-checked and linted with the rest of the
// code and needs no bundler; the function uses nothing from outside itself. The text is always read
// from lib/, whether the build runs from there or from src/ (the tests), so both give the same bytes.

import { readFileSync } from 'node:fs';
import { COMPILED_DIR } from '../../../project.ts';

const COMPILED = 'outputs/browser/client/site.js';

let text: string | undefined;

/** The script for a site built for `baseUrl` (where the offline copy's links to the API lead). */
export function siteScriptText(baseUrl: string): string {
  if (text === undefined) {
    let compiled: string;
    try {
      compiled = readFileSync(`${COMPILED_DIR}${COMPILED}`, 'utf8');
    } catch (error) {
      throw new Error(`the browser's script is not compiled (${(error as Error).message}): run npm run compile`, { cause: error });
    }
    const body = compiled.replace(/^\/\/# sourceMappingURL=.*$/m, '').trimEnd();
    if (!/^export function siteScript\(/m.test(body)) throw new Error(`lib/${COMPILED} does not hold the browser's script`);
    text = `'use strict';\n${body.replace(/^export function siteScript\(/m, 'function siteScript(')}\n`;
  }
  return `${text}siteScript(${JSON.stringify(baseUrl).replace(/</g, '\\u003c')});\n`;
}
