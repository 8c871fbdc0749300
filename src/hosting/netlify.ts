// Netlify's configuration, generated from the route table: the rewrite rules as `[[redirects]]`,
// the documents' and the schema browser's headers as `[[headers]]`, the edge function on /api/*,
// the build command and the cache plugin; and the \`routes\` command,
// which prints, checks or writes the file.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WriteError } from '../destination/output.ts';
import { BROWSER_HEADERS } from './browser.ts';
import {
  API_PREFIX,
  BROWSER_PATHS,
  DOCUMENTS,
  VO_TABLES,
  VO_TABLES_ALIAS,
  documentHeaders,
  documentPaths,
  hostRules,
} from '../site/routes.ts';
import type { HostRule } from '../site/routes.ts';

/** The `[[redirects]]` part of netlify.toml. */
export function renderHostRules(rules: readonly HostRule[] = hostRules()): string {
  const quote = (s: string) => JSON.stringify(s);
  return rules
    .map((r) => {
      const lines = ['[[redirects]]', `  from = ${quote(r.from)}`];
      if (r.query) {
        const pairs = Object.entries(r.query).map(([k, v]) => `${k} = ${quote(v)}`);
        lines.push(`  query = {${pairs.join(', ')}}`);
      }
      lines.push(`  to = ${quote(r.to)}`, `  status = ${r.status}`, `  force = ${r.force}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

/** The whole netlify.toml: build settings, the edge function on /api/*, and the rewrite rules. */
export function renderNetlifyToml(): string {
  return `# Generated from src/site/routes.ts by \`npm run routes\`; edit that file, not this one.
# A test fails when this file and the route table disagree.

[build]
  command = "npm run build"
  publish = "dist"

[build.environment]
  NODE_VERSION = "20"

# Keeps archive-schema's build cache between builds (netlify/plugins/archive-schema-cache).
[[plugins]]
  package = "./netlify/plugins/archive-schema-cache"

# Methods, the Allow header, not-found bodies and the browsable pages' request lines under /api/
# (Netlify's rules cannot do these).
[[edge_functions]]
  path = "${API_PREFIX}*"
  function = "api"

${renderHostRules()}

# The documents' headers: each one's content type, CORS and no type sniffing, at the path it is
# asked at and at its file's own.
${renderDocumentHeaders()}

# The schema browser's security policy, the one its pages declare: on its home page and
# everything under /browse/.
${renderBrowserHeaders()}
`;
}

/** A `[[headers]]` block: the values given to every path `for` matches. */
function headersBlock(path: string, headers: Readonly<Record<string, string>>): string {
  const quote = (s: string) => JSON.stringify(s);
  return [
    '[[headers]]',
    `  for = ${quote(path)}`,
    '  [headers.values]',
    ...Object.entries(headers).map(([name, value]) => `    ${name} = ${quote(value)}`),
  ].join('\n');
}

/** The `[[headers]]` part of netlify.toml for the schema browser: one block per path pattern. */
export function renderBrowserHeaders(): string {
  return BROWSER_PATHS.map((p) => headersBlock(p, BROWSER_HEADERS)).join('\n\n');
}

/** The `[[headers]]` part of netlify.toml: one block per path a document answers at. */
export function renderDocumentHeaders(): string {
  const blocks = DOCUMENTS.flatMap((d) => documentPaths(d).map((p) => headersBlock(p, documentHeaders(d))));
  const aliases = VO_TABLES_ALIAS.globs.map((glob) => headersBlock(glob, documentHeaders(VO_TABLES)));
  return [...blocks, ...aliases].join('\n\n');
}

export type RoutesOutcome = 'printed' | 'written' | 'matches' | 'differs';

/** `routes`: netlify.toml as the route table makes it, printed, compared with `file` or written to it. */
export async function netlifyToml(mode: 'print' | 'check' | 'write', file: string): Promise<{ outcome: RoutesOutcome; text: string }> {
  const text = renderNetlifyToml();
  if (mode === 'print') return { outcome: 'printed', text };
  if (mode === 'check') return { outcome: (await readFile(file, 'utf8').catch(() => '')) === text ? 'matches' : 'differs', text };
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new WriteError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return { outcome: 'written', text };
}

/** `routes` for nginx's script (nginx.ts, renderNjs): compared with the file or written to it. */
export async function hostScript(mode: 'check' | 'write', file: string): Promise<{ outcome: RoutesOutcome; text: string }> {
  const { renderNjs } = await import('./nginx.ts');
  const text = renderNjs();
  if (mode === 'check') return { outcome: (await readFile(file, 'utf8').catch(() => '')) === text ? 'matches' : 'differs', text };
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    throw new WriteError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return { outcome: 'written', text };
}
