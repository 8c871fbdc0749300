// The OpenAPI description through a second, independent checker: Redocly's linter (its command, as
// CI or a person would run it) with its recommended rules, less the two that do not fit a DRF API
// served as static files: no security scheme (the API is public), and paths that end in a slash.

import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { DOCUMENTS, VIEWS } from '../src/site/routes.ts';
import { OPENAPI_PATH } from '../src/outputs/openapi/document.ts';
import { planOpenapi } from '../src/outputs/openapi/plan.ts';
import { PROJECT, tempdir } from './helpers.ts';

const CONFIG = `extends:
  - recommended
rules:
  security-defined: off
  no-path-trailing-slash: off
`;

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

test('Redocly lint finds no error, and warns only where the API answers no 2xx or no 4xx by design', async () => {
  const dir = await tempdir();
  const file = DOCUMENTS.find((d) => d.path === OPENAPI_PATH)?.file;
  const plan = planOpenapi().find((p) => p.path === file);
  await writeFile(path.join(dir, 'openapi.json'), (plan?.pieces ?? []).map((p) => (typeof p === 'string' ? p : '')).join(''));
  await writeFile(path.join(dir, 'redocly.yaml'), CONFIG);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(PROJECT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
    // No usage report and no update check: the tests reach no network.
    { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
  );
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(report.totals.errors).toBe(0);

  // Where the warnings are, and why each is right:
  const at = (p: Problem) => decodeURIComponent(p.location[0]?.pointer ?? '').replace(/~1/g, '/');
  const views = new Set(Object.values(VIEWS).map((v) => v.path));
  const documents = new Set(DOCUMENTS.map((d) => d.path));
  const unexpected = report.problems.filter((p) => {
    const m = /^#\/paths\/(.+)\/([a-z]+)\/responses$/.exec(at(p));
    if (!m) return true;
    // The read-only API refuses PUT, POST, DELETE, PATCH and TRACE: those operations are only 405 (or 404).
    if (p.ruleId === 'operation-2xx-response') return !(views.has(m[1] ?? '') && !['get', 'head', 'options'].includes(m[2] ?? ''));
    // A document is a file that is always there: it answers 200 and nothing else.
    if (p.ruleId === 'operation-4xx-response') return !documents.has(m[1] ?? '');
    return true;
  });
  expect(unexpected).toEqual([]);
});
