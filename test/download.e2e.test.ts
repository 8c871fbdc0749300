// The offline download and the documents, as a client fetches them from `serve`: every document
// answers with its content type, CORS and no sniffing; the files listed in SHA256SUMS verify with
// `sha256sum -c`; archive.json holds each survey exactly as its route gives it; archive.json.gz is
// that text, the same bytes on every build; a rebuild after an edit keeps all of it true. The
// archive served has IFS and spectra facilities (products-fixture.ts): products.csv and
// products.vot list their products as archive.json holds them, for Python's csv module, astropy
// and STILTS votlint; without any, they are a header and a table without rows.

import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DOCUMENTS, DOCUMENT_TYPES, requestTarget } from '../src/site/routes.ts';
import { PROJECT, cli, edit, http, serveSite, tempdir, testdir } from './helpers.ts';
import { extnameText } from '../src/outputs/vo/listings.ts';
import { HOSTILE_TEXT, PRODUCT_FILES, SAMI_FILE } from './products-fixture.ts';

const BASE = 'https://schema.example.org';

let server: ChildProcess | undefined;
let origin = '';
let dir = '';

beforeAll(async () => {
  dir = await testdir(PRODUCT_FILES);
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
    // The front page links relatively (it works from the offline download too); the API's page from the root.
    const pages = [
      { page: await get('/'), prefix: '' },
      { page: await get(requestTarget('detail', { id: 1, format: 'api' })), prefix: '/' },
    ];
    for (const { page, prefix } of pages) {
      expect(page.status).toBe(200);
      for (const at of ['download/', 'api/docs/', 'api/openapi.json', 'vo/tables']) expect(page.body).toContain(`href="${prefix}${at}"`);
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
      expect(page.body).toContain(`<a href="${name}">${name}</a></th><td data-label="What it is">${title}</td>`);
      expect(page.body).toContain(`<code>${sum}</code>`);
    }
    expect(page.body).toContain('sha256sum -c');
    // In the site's shell: its own style sheet, icon and script only, from the site.
    expect([...page.body.matchAll(/<(?:script|link)\b[^>]*/g)].map((m) => m[0])).toEqual([
      '<link rel="icon" href="../browse/icon.svg" type="image/svg+xml"',
      '<link rel="stylesheet" href="../browse/style.css"',
      '<script src="../browse/site.js" defer',
    ]);
    expect(page.body).not.toMatch(/src="https?:/);
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
for name in ['columns.vot', 'regions.vot', 'products.vot', 'tap_schema.vot']:
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
    expect(result.counts['products.vot']).toEqual([6]);
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

// ---- IFS and spectra data products ---------------------------------------------------------------------

interface Product {
  [key: string]: unknown;
  id: number;
  name: string;
  product_key: string;
  dimensions: number[] | null;
  extensions: { name: string }[];
}
interface ArchiveJson {
  surveys: {
    url: string;
    name: string;
    data_releases: {
      name: string;
      ifs: { facilities: { id: number; name: string; products: Product[] }[] } | null;
      spectra: { facilities: { id: number; name: string; products: Product[] }[] } | null;
    }[];
  }[];
}

const PRODUCT_COLUMNS = [
  'survey',
  'release',
  'data_type',
  'facility',
  'facility_id',
  'product',
  'product_id',
  'product_key',
  'product_type',
  'arm',
  'wave_min_ang',
  'wave_max_ang',
  'wave_step_ang',
  'resolving_power',
  'spatial_sampling_arcsec',
  'dimensions',
  'flux_unit',
  'extensions',
  'description',
  'survey_url',
];
const NUMBERS = [
  'facility_id',
  'product_id',
  'wave_min_ang',
  'wave_max_ang',
  'wave_step_ang',
  'resolving_power',
  'spatial_sampling_arcsec',
];

/** Each product of archive.json as products.csv should hold it: text, '' for none, in the listing's order. */
function expectedProducts(archive: ArchiveJson): Record<string, string>[] {
  const none = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  return archive.surveys.flatMap((survey) =>
    survey.data_releases.flatMap((release) =>
      (['ifs', 'spectra'] as const).flatMap((dataType) =>
        (release[dataType]?.facilities ?? []).flatMap((facility) =>
          facility.products.map((p) => ({
            survey: survey.name,
            release: release.name,
            data_type: dataType,
            facility: facility.name,
            facility_id: String(facility.id),
            product: p.name,
            product_id: String(p.id),
            product_key: p.product_key,
            product_type: none(p.product_type),
            arm: none(p.arm),
            wave_min_ang: none(p.wave_min_ang),
            wave_max_ang: none(p.wave_max_ang),
            wave_step_ang: none(p.wave_step_ang),
            resolving_power: none(p.resolving_power),
            spatial_sampling_arcsec: none(p.spatial_sampling_arcsec),
            dimensions: p.dimensions?.join('x') ?? '',
            // The archive's spellings of no unit and no description are empty.
            flux_unit: /^(?:-|none)$/i.test(none(p.flux_unit)) ? '' : none(p.flux_unit),
            extensions: p.extensions.map((e) => extnameText(e.name)).join(' '),
            description: none(p.description) === '-' ? '' : none(p.description),
            survey_url: survey.url,
          })),
        ),
      ),
    ),
  );
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const XML_FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;
/** Text as an XML reader gives it back: each character XML 1.0 forbids is U+FFFD, white space at the ends trimmed. */
const xmlRead = (text: string): string => text.replace(XML_FORBIDDEN, '\uFFFD').replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');

/** A products.csv row as astropy reads products.vot: numbers, arrays of numbers, text as XML gives it back. */
function asVotable(row: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([name, text]): [string, unknown] => {
      if (name === 'dimensions') return [name, text === '' ? [] : text.split('x').map(Number)];
      if (NUMBERS.includes(name)) return [name, text === '' ? null : Number(text)];
      return [name, xmlRead(text)];
    }),
  );
}

// Reads products.csv with Python's csv module and astropy, and products.vot with astropy, any warning
// an error (the imports' own deprecation notices come before).
const READ_PRODUCTS = String.raw`
import csv, json, sys, warnings
import numpy
from astropy.io import ascii
from astropy.io.votable import parse
warnings.simplefilter('error')

def value(v):
    if isinstance(v, numpy.ndarray) and v.ndim == 1:
        return [value(x) for x in v]
    if numpy.ma.is_masked(v):
        return None
    if isinstance(v, numpy.integer):
        return int(v)
    if isinstance(v, numpy.floating):
        return float(v)
    return str(v)

with open('products.csv', newline='', encoding='utf-8') as f:
    reader = csv.DictReader(f, strict=True)
    rows = list(reader)
    header = reader.fieldnames
t = ascii.read('products.csv', format='csv', encoding='utf-8')
vot = parse('products.vot', verify='exception').get_first_table()
print(json.dumps({
    'header': header,
    'csv': rows,
    'astropy_csv': {'names': t.colnames, 'ids': [value(v) for v in t['product_id']]},
    'fields': [{'name': f.name, 'datatype': f.datatype, 'arraysize': f.arraysize, 'ucd': f.ucd,
                'unit': None if f.unit is None else f.unit.to_string('vounit')} for f in vot.fields],
    'vot': [{f.name: value(vot.array[f.name][i]) for f in vot.fields} for i in range(len(vot.array))],
}))
`;

interface ProductsRead {
  header: string[];
  csv: Record<string, string>[];
  astropy_csv: { names: string[]; ids: number[] };
  fields: { name: string; datatype: string; arraysize: string | null; ucd: string | null; unit: string | null }[];
  vot: Record<string, unknown>[];
}

/** products.csv and products.vot of a download folder, as Python reads them; votlint and xmllint have found nothing. */
function readProducts(folder: string): ProductsRead {
  const votlint = spawnSync('stilts', ['votlint', 'votable=products.vot'], { cwd: folder, encoding: 'utf8' });
  expect(votlint.error, 'stilts is not installed; apt-get install stilts').toBeUndefined();
  expect({ status: votlint.status, stdout: votlint.stdout, stderr: votlint.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  const xmllint = spawnSync('xmllint', ['--noout', 'products.vot'], { cwd: folder, encoding: 'utf8' });
  expect(xmllint.status, xmllint.stderr).toBe(0);
  const run = spawnSync('/usr/bin/python3', ['-c', READ_PRODUCTS], { cwd: folder, encoding: 'utf8', maxBuffer: 1 << 26 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ProductsRead;
}

describe('IFS and spectra data products', () => {
  test('products.csv and products.vot hold every product of archive.json, a row each, as Python, astropy and votlint read them', async () => {
    const { folder } = await fetchDownload();
    const archive = JSON.parse(await readFile(path.join(folder, 'archive.json'), 'utf8')) as ArchiveJson;
    const expected = expectedProducts(archive);
    expect(expected.map((p) => `${p.data_type} ${p.product_key}`)).toEqual([
      'ifs alpha.dr2.sami.cube_blue',
      'ifs alpha.dr2.sami.stelkin_velocity',
      'ifs alpha.dr2.sami.cube<&>"]]>é,x',
      'spectra alpha.dr2.aaomega.spectrum',
      'spectra gamma.dr1.hermes.ccd1',
      'spectra gamma.dr1.hermes.ccd2',
    ]);
    const read = readProducts(folder);
    expect(read.header).toEqual(PRODUCT_COLUMNS);
    // The csv module gives back every value exactly, curator text with markup, quotes, controls and line breaks included.
    expect(read.csv).toEqual(expected);
    expect(read.csv[0]?.description).toBe(HOSTILE_TEXT);
    expect(read.csv[0]).toMatchObject({ dimensions: '50x50x2048', extensions: 'PRIMARY VARIANCE WEIGHT', wave_step_ang: '1.04' });
    // An EXTNAME with a space or a quote is quoted as FITS quotes strings, and the list reads back to the names.
    expect(read.csv[3]?.extensions).toBe("PRIMARY 'normalised spectra' 'sky''s spectrum'");
    const names = (text: string) =>
      [...text.matchAll(/'((?:[^']|'')*)'|[^ ']+/g)].map((m) => (m[1] === undefined ? m[0] : m[1].replaceAll("''", "'")));
    const products = archive.surveys.flatMap((s) =>
      s.data_releases.flatMap((r) => [...(r.ifs?.facilities ?? []), ...(r.spectra?.facilities ?? [])].flatMap((f) => f.products)),
    );
    expect(read.csv.map((row) => names(row.extensions ?? ''))).toEqual(products.map((p) => p.extensions.map((e) => e.name)));
    expect(read.astropy_csv).toEqual({ names: PRODUCT_COLUMNS, ids: expected.map((p) => Number(p.product_id)) });
    // astropy reads the VOTable's every value, as its datatypes say; what XML cannot hold is U+FFFD.
    expect(read.fields.map((f) => [f.name, f.datatype, f.arraysize, f.unit])).toEqual(
      PRODUCT_COLUMNS.map((name) => {
        if (name === 'dimensions') return [name, 'long', '*', null];
        if (name.endsWith('_id')) return [name, 'long', null, null];
        if (NUMBERS.includes(name))
          return [name, 'double', null, name.endsWith('_ang') ? '0.1nm' : name.endsWith('arcsec') ? 'arcsec' : null];
        return [name, ['product', 'product_key', 'flux_unit', 'description'].includes(name) ? 'unicodeChar' : 'char', '*', null];
      }),
    );
    expect(read.vot).toEqual(expected.map(asVotable));
    expect(read.vot[0]?.description).toContain('controls \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\x7f\x85 end; Ångström 🔭 שלום');
  });

  test('without IFS or spectra data, products.csv is its header and products.vot a table without rows', async () => {
    const plain = await testdir();
    expect((await cli(['build', '--base-url', BASE], plain)).code).toBe(0);
    const folder = path.join(plain, 'dist/download');
    expect(await readFile(path.join(folder, 'products.csv'), 'utf8')).toBe(`${PRODUCT_COLUMNS.join(',')}\r\n`);
    const read = readProducts(folder);
    expect(read.fields.map((f) => f.name)).toEqual(PRODUCT_COLUMNS);
    expect([read.csv, read.vot, read.astropy_csv.ids]).toEqual([[], [], []]);
    const checked = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: folder, encoding: 'utf8' });
    expect(checked.stdout).toContain('products.csv: OK\nproducts.vot: OK\n');
  });

  test.each([
    [
      'an IFS facility',
      SAMI_FILE,
      ["description: 'Plain text'", "description: 'Plain text, edited'"],
      [',Plain text,', ',"Plain text, edited",'],
      ['<TD>Plain text</TD>', '<TD>Plain text, edited</TD>'],
    ],
    [
      'a spectra facility',
      'gamma/dr1/spectra/hermes.yaml',
      ['arm: green', 'arm: yellow'],
      [',green,', ',yellow,'],
      ['<TD>green</TD>', '<TD>yellow</TD>'],
    ],
  ])(
    'an edit of %s renders only its file again and changes only its rows; the checksums verify',
    async (_name, file, [from = '', to = ''], [csvFrom = '', csvTo = ''], [votFrom = '', votTo = '']) => {
      const again = await testdir(PRODUCT_FILES);
      const cache = ['--cache-dir', 'cache', '--base-url', BASE];
      expect((await cli(['build', ...cache], again)).code).toBe(0);
      const folder = path.join(again, 'dist/download');
      const before = {
        csv: await readFile(path.join(folder, 'products.csv'), 'utf8'),
        vot: await readFile(path.join(folder, 'products.vot'), 'utf8'),
      };
      expect(before.csv.split(csvFrom)).toHaveLength(2);
      expect(before.vot.split(votFrom)).toHaveLength(2);
      await edit(again, `metadata/${file}`, (t) => t.replace(from, to));
      const rebuilt = await cli(['build', ...cache], again);
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      const files = Object.keys(PRODUCT_FILES).length + 10;
      expect(rebuilt.stdout).toContain(`from ${files} metadata files (${files - 1} read from the cache)`);
      // Every other byte as it was: the head, the tail and every other file's rows.
      expect(await readFile(path.join(folder, 'products.csv'), 'utf8')).toBe(before.csv.replace(csvFrom, csvTo));
      expect(await readFile(path.join(folder, 'products.vot'), 'utf8')).toBe(before.vot.replace(votFrom, votTo));
      const checked = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: folder, encoding: 'utf8' });
      expect(checked.status, checked.stdout).toBe(0);
      // The same metadata built afresh, without the cache, gives the same bytes.
      expect((await cli(['build', '--no-cache', '--out', 'fresh', '--base-url', BASE], again)).code).toBe(0);
      for (const name of ['products.csv', 'products.vot', 'SHA256SUMS', 'index.html']) {
        expect((await readFile(path.join(again, 'fresh/download', name))).equals(await readFile(path.join(folder, name))), name).toBe(true);
      }
    },
  );
});
