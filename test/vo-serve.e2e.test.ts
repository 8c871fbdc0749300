// A VO client against the served site: pyvo (Debian's python3-pyvo) given the VO service's
// address as people write it, with or without a trailing slash. With the slash, pyvo asks for
// `/vo//tables`, which was a 404 (routes.ts, VO_TABLES_ALIAS).

import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, serveSite, testdir } from './helpers.ts';

let origin = '';
let server: ChildProcess | undefined;
/** The table names the built tableset lists, in its order. */
let tables: string[] = [];

beforeAll(async () => {
  const dir = await testdir();
  const built = await cli(['build'], dir);
  expect(built.code, built.stderr).toBe(0);
  const dist = path.join(dir, 'dist');
  tables = [...(await readFile(path.join(dist, 'vo/tables.xml'), 'utf8')).matchAll(/<table[^>]*>\s*<name>([^<]*)<\/name>/g)].map(
    (m) => m[1] ?? '',
  );
  expect(tables.length).toBeGreaterThan(0);
  ({ origin, server } = await serveSite(dist));
});

afterAll(() => {
  server?.kill('SIGTERM');
});

// pyvo's TAPService reads the VOSI tables at the service's address + "/tables".
const PYVO = String.raw`
import json, sys, pyvo
service = pyvo.dal.TAPService(sys.argv[1])
print(json.dumps(list(service.tables.keys())))
`;

function pyvoTables(base: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/usr/bin/python3', ['-c', PYVO, base], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, stdout, stderr });
    });
  });
}

describe("pyvo's TAPService reads the tables", () => {
  test.each([
    ['without a trailing slash', '/vo'],
    ['with a trailing slash (it asks for /vo//tables)', '/vo/'],
  ])('%s: %s', async (_, at) => {
    const run = await pyvoTables(`${origin}${at}`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(tables);
  });
});
