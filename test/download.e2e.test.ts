// The offline download and the documents, as a client fetches them from `serve`: every document
// answers with its content type, CORS and no sniffing; the files listed in SHA256SUMS verify with
// `sha256sum -c`; archive.json holds each survey exactly as its route gives it; archive.json.gz is
// that text, the same bytes on every build; a rebuild after an edit keeps all of it true.

import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCUMENTS, DOCUMENT_TYPES, requestTarget } from '../src/hosting/routes.ts';
import { PROJECT, cli, edit, http, serveSite, tempdir, testdir } from './helpers.ts';

const BASE = 'https://schema.example.org';

let server: ChildProcess | undefined;
let origin = '';
let dir = '';

beforeAll(async () => {
  dir = await testdir();
  const built = await cli(['build', '--base-url', BASE], dir);
  expect(built.code, built.stderr).toBe(0);
  ({ origin, server } = await serveSite(path.join(dir, 'dist')));
});

afterAll(() => {
  server?.kill('SIGTERM');
});

const get = (target: string, method = 'GET') => http(origin, method, target);

/** Every file SHA256SUMS lists, fetched over HTTP into a folder with the list itself. */
async function fetchDownload(): Promise<{ folder: string; names: string[] }> {
  const folder = await tempdir();
  const sums = await get('/download/SHA256SUMS');
  expect(sums.status).toBe(200);
  await writeFile(path.join(folder, 'SHA256SUMS'), sums.bytes);
  const names = sums.body
    .trimEnd()
    .split('\n')
    .map((line) => {
      const m = /^[0-9a-f]{64} {2}(\S+)$/.exec(line);
      expect(m, line).not.toBeNull();
      return m?.[1] ?? '';
    });
  for (const name of names) {
    const file = await get(`/download/${name === 'index.html' ? '' : name}`);
    expect(file.status, name).toBe(200);
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), file.bytes);
  }
  return { folder, names };
}

describe('documents', () => {
  test.each(DOCUMENTS.map((d) => [d.path, d] as const))('%s answers with its type, CORS and no sniffing', async (_path, document) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await get(document.path, method);
      expect(res.status, `${method} ${document.path}`).toBe(200);
      expect(res.headers['content-type']).toBe(DOCUMENT_TYPES[document.type]);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-encoding']).toBeUndefined();
      if (method === 'HEAD') expect(res.bytes.length).toBe(0);
      else expect(res.bytes.length).toBeGreaterThan(0);
    }
    const post = await get(document.path, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  test('the front page and a survey’s browsable page link the download and the documents', async () => {
    const pages = [await get('/'), await get(requestTarget('detail', { id: 1, format: 'api' }))];
    for (const page of pages) {
      expect(page.status).toBe(200);
      for (const at of ['/download/', '/api/docs/', '/api/openapi.json', '/vo/tables']) expect(page.body).toContain(`href="${at}"`);
    }
  });
});

describe('the download', () => {
  test('every file SHA256SUMS lists verifies with sha256sum -c, the page included', async () => {
    const { folder, names } = await fetchDownload();
    expect(names).toEqual(expect.arrayContaining(['archive.json', 'archive.json.gz', 'index.html']));
    expect(names).not.toContain('SHA256SUMS');
    const checked = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: folder, encoding: 'utf8' });
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stdout.trimEnd().split('\n')).toEqual(names.map((n) => `${n}: OK`));
  });

  test('the page lists each file with what it is, its size and its checksum, and says how to verify', async () => {
    const page = await get('/download/');
    const sums = await get('/download/SHA256SUMS');
    for (const line of sums.body.trimEnd().split('\n')) {
      const [sum = '', name = ''] = line.split('  ');
      if (name === 'index.html') continue;
      const title = DOCUMENTS.find((d) => d.path === `/download/${name}`)?.title ?? '';
      expect(page.body).toContain(`<a href="${name}">${name}</a></td><td>${title}</td>`);
      expect(page.body).toContain(`<code>${sum}</code>`);
    }
    expect(page.body).toContain('sha256sum -c');
    expect(page.body).not.toMatch(/<(script|link)\b|src="https?:/);
  });

  test('archive.json holds every survey byte for byte as its route gives it, with counts and the latest update', async () => {
    const text = (await get('/download/archive.json')).body;
    const archive = JSON.parse(text) as {
      schema_version: string;
      generated: string;
      counts: Record<string, number>;
      surveys: { url: string }[];
    };
    expect(Object.keys(archive)).toEqual(['schema_version', 'generated', 'counts', 'surveys']);
    expect(archive.schema_version).toMatch(/^\d+\.\d+$/);
    let at = 0;
    const counts: Record<string, number> = {};
    let latest = '';
    for (const survey of archive.surveys) {
      const route = await get(new URL(survey.url).pathname);
      expect(route.status).toBe(200);
      const found = text.indexOf(route.body, at);
      expect(found, survey.url).toBeGreaterThan(at);
      at = found + route.body.length;
      JSON.parse(route.body, (key, value: unknown) => {
        if (key === 'type' && typeof value === 'string') counts[value] = (counts[value] ?? 0) + 1;
        if (key === 'updated' && typeof value === 'string' && value > latest) latest = value;
        return value;
      });
    }
    expect(archive.surveys.length).toBeGreaterThan(0);
    expect(Object.fromEntries(Object.entries(archive.counts).filter(([, n]) => n > 0))).toEqual(counts);
    expect(archive.generated).toBe(latest);
  });

  test('archive.json.gz is archive.json, with no name or time in its header, and Python and gzip read it', async () => {
    const json = (await get('/download/archive.json')).bytes;
    const gz = (await get('/download/archive.json.gz')).bytes;
    expect(gunzipSync(gz).equals(json)).toBe(true);
    // The header every member has (download/gzip.ts): deflate, no flags (no name, no comment),
    // time 0, operating system unknown.
    expect([...gz.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    const folder = await tempdir();
    await writeFile(path.join(folder, 'archive.json.gz'), gz);
    expect(spawnSync('gzip', ['-t', 'archive.json.gz'], { cwd: folder }).status).toBe(0);
    const python = spawnSync(
      '/usr/bin/python3',
      ['-c', 'import gzip,sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())', 'archive.json.gz'],
      {
        cwd: folder,
        maxBuffer: 1 << 28,
      },
    );
    expect(python.status, python.stderr.toString()).toBe(0);
    expect(python.stdout.equals(json)).toBe(true);
  });

  test('a rebuild after an edit: the same files, new checksums that verify, gzip still archive.json', async () => {
    const again = await testdir();
    const cache = ['--cache-dir', 'cache', '--base-url', BASE];
    expect((await cli(['build', ...cache], again)).code).toBe(0);
    const first = await readFile(path.join(again, 'dist/download/archive.json.gz'));
    await edit(again, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) =>
      t.replace('name: RA\n', 'name: RA\n        description: Right ascension, edited.\n'),
    );
    const rebuilt = await cli(['build', ...cache], again);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const folder = path.join(again, 'dist/download');
    const json = await readFile(path.join(folder, 'archive.json'));
    expect(json.toString()).toContain('Right ascension, edited.');
    const gz = await readFile(path.join(folder, 'archive.json.gz'));
    expect(gz.equals(first)).toBe(false);
    expect(gunzipSync(gz).equals(json)).toBe(true);
    const checked = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: folder, encoding: 'utf8' });
    expect(checked.status, checked.stdout).toBe(0);
    // The same metadata built afresh, without the cache, gives the same bytes.
    expect((await cli(['build', '--no-cache', '--out', 'fresh', '--base-url', BASE], again)).code).toBe(0);
    for (const name of ['archive.json', 'archive.json.gz', 'SHA256SUMS', 'index.html']) {
      expect((await readFile(path.join(again, 'fresh/download', name))).equals(await readFile(path.join(folder, name))), name).toBe(true);
    }
  });
});

describe('the VO documents, read from the site by the real VO tools', () => {
  test('pyvo reads /vo/tables over HTTP and finds every catalogue column of columns.csv, with its unit and UCD; astropy reads the VOTables without a warning', async () => {
    const { folder } = await fetchDownload();
    const script = String.raw`
import csv, json, sys, warnings
from pyvo.io.vosi import parse_tables
from astropy.io.votable import parse
# Any warning from reading the documents fails (the imports' own deprecation notices come before).
warnings.simplefilter('error')
tableset = parse_tables(sys.argv[1] + '/vo/tables', pedantic=True)
found = {}
for schema in tableset.tableset.schemas:
    for table in schema.tables:
        for column in table.columns:
            found[(table.name, column.name)] = [column.unit or '', column.ucd or '']
with open('columns.csv', newline='', encoding='utf-8') as f:
    listed = [[r['column'], r['unit'], r['ucd']] for r in csv.DictReader(f)]
counts = {}
for name in ['columns.vot', 'regions.vot', 'tap_schema.vot']:
    counts[name] = [len(t.array) for t in parse(name, verify='exception').iter_tables()]
print(json.dumps({'found': sorted([list(k) + v for k, v in found.items()]), 'listed': listed, 'counts': counts}))
`;
    const run = spawnSync('/usr/bin/python3', ['-c', script, origin], { cwd: folder, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { found: string[][]; listed: string[][]; counts: Record<string, number[]> };
    // Every column listed is in the tableset under its own name, with the same unit and UCD.
    expect(result.listed.length).toBeGreaterThan(0);
    expect(result.found.length).toBe(result.listed.length);
    const byColumn = result.found
      .map(([, column = '', unit = '', ucd = '']) => [column.replace(/^"|"$/g, ''), unit, ucd].join('\t'))
      .sort();
    expect(byColumn).toEqual(result.listed.map((row) => row.join('\t')).sort());
    expect(result.counts['columns.vot']).toEqual([result.listed.length]);
    expect(result.counts['regions.vot']?.[0]).toBeGreaterThan(0);
    // TAP_SCHEMA: schemas, tables, columns (and the empty keys and key_columns).
    expect(result.counts['tap_schema.vot']?.[2]).toBe(result.listed.length);
  });

  test('the served tableset validates against the VODataService XSDs, offline', async () => {
    const folder = await tempdir();
    await writeFile(path.join(folder, 'tables.xml'), (await get('/vo/tables')).bytes);
    const checked = spawnSync(
      'xmllint',
      ['--nonet', '--noout', '--schema', path.join(PROJECT, 'schemas/vo/VOSITables-v1.0.xsd'), 'tables.xml'],
      {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, XML_CATALOG_FILES: path.join(PROJECT, 'schemas/vo/catalog.xml') },
      },
    );
    expect(checked.status, checked.stderr).toBe(0);
    expect(checked.stderr).toBe('tables.xml validates\n');
  });
});
