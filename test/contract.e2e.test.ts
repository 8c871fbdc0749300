// The API contract over real HTTP, on every host the site runs on: the fixture archive is built
// with the real CLI, then served by `archive-schema serve --port 0` in a child process and by a real
// nginx with the configuration `archive-schema nginx` prints, and every row of the contract is
// asked of each. Then the two are asked the same requests and must answer with the same bytes.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newAjv } from '../src/pipeline/ajv.ts';
import { BODIES, compressible, isBrowserFile } from '../src/site/routes.ts';
import { surveyPath } from '../src/outputs/browser/pages/places.ts';
import { CONTENT_SECURITY_POLICY } from '../src/outputs/browser/pages/shell.ts';
import { PROJECT, SKIP_NGINX, cli, http, netlifyHeader, nginxSite, outputCount, serveSite, snapshotTree, testdir } from './helpers.ts';
import type { HttpResult } from './helpers.ts';

const BASE = 'https://schema.test';
const NOT_FOUND = '{"detail":"Not found."}';
const REQUIRED = '{"data_type":["This field is required."]}';
const INVALID = '{"data_type":["Select a valid choice. That choice is not one of the available choices."]}';
const OPTIONS_LIST =
  '{"name":"Schema List","description":"","renders":["application/json","text/html"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}';
const OPTIONS_DETAIL = OPTIONS_LIST.replace('Schema List', 'Schema Instance');

let dist: string;

beforeAll(async () => {
  const dir = await testdir();
  const built = await cli(['build', '--base-url', BASE], dir);
  expect(built.code, built.stderr).toBe(0);
  dist = path.join(dir, 'dist');
});

type Host = 'serve' | 'nginx';
const HOSTS: Host[] = SKIP_NGINX ? ['serve'] : ['serve', 'nginx'];

/** A host over the built site; `stop` ends it. */
async function start(host: Host): Promise<{ origin: string; stop: () => Promise<void> }> {
  if (host === 'nginx') return nginxSite(dist);
  const { origin, server } = await serveSite(dist);
  return {
    origin,
    stop: () => {
      server.kill('SIGTERM');
      return Promise.resolve();
    },
  };
}

/** What these tests read of the API's answers (schemas/api/ describes them whole). */
interface ApiSurvey {
  data_releases: {
    created: string;
    updated: string;
    version: number;
    catalogues: { groups: { tables: { columns: { name: string; ucd: string; unit: string; updated: string }[] }[] }[] } | null;
    imaging: { facilities: { bands: { band_key: string; regions: { fits_header: Record<string, unknown> }[] }[] }[] } | null;
  }[];
}
const json = (r: HttpResult): unknown => JSON.parse(r.body);
const ids = (r: HttpResult) => (json(r) as { url: string }[]).map((s) => Number(/\/api\/schema\/(\d+)\//.exec(s.url)?.[1]));

function expectApiHeaders(r: HttpResult, type: 'json' | 'html'): void {
  expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
  // Answers the compression rule covers vary by Accept-Encoding too, compressed or not.
  const length = r.headers['content-length'] === undefined ? null : Number(r.headers['content-length']);
  expect(r.headers.vary).toBe(compressible(r.headers['content-type'] ?? null, length) ? 'Accept, Accept-Encoding' : 'Accept');
  expect(r.headers['access-control-allow-origin']).toBe('*');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['content-type']).toBe(type === 'json' ? 'application/json' : 'text/html; charset=utf-8');
}

interface Row {
  method?: string;
  target: string;
  status: number;
  type: 'json' | 'html';
  body?: string;
}

const rows: Row[] = [
  // listings, in every format and parameter order
  ...['catalogues', 'imaging', 'ifs', 'spectra'].flatMap((t): Row[] => [
    { target: `/api/schema/?data_type=${t}`, status: 200, type: 'json' },
    { target: `/api/schema/?data_type=${t}&format=api`, status: 200, type: 'html' },
    { target: `/api/schema/?format=api&data_type=${t}`, status: 200, type: 'html' },
    { target: `/api/schema/?data_type=${t}&format=json`, status: 200, type: 'json' },
    { target: `/api/schema/?format=json&data_type=${t}`, status: 200, type: 'json' },
  ]),
  // data_type missing, empty, unknown (values are case-sensitive)
  { target: '/api/schema/', status: 400, type: 'json', body: REQUIRED },
  { target: '/api/schema/?data_type=', status: 400, type: 'json', body: REQUIRED },
  { target: '/api/schema/?data_type', status: 400, type: 'json', body: REQUIRED },
  { target: '/api/schema/?foo=bar', status: 400, type: 'json', body: REQUIRED },
  { target: '/api/schema/?data_type=bogus', status: 400, type: 'json', body: INVALID },
  { target: '/api/schema/?data_type=Imaging', status: 400, type: 'json', body: INVALID },
  { target: '/api/schema/?format=json', status: 400, type: 'json', body: REQUIRED },
  { target: '/api/schema/?data_type=bogus&format=json', status: 400, type: 'json', body: INVALID },
  { target: '/api/schema/?format=api', status: 400, type: 'html' },
  { target: '/api/schema/?data_type=bogus&format=api', status: 400, type: 'html' },
  // format other than api or json: 404, whatever else the request says
  { target: '/api/schema/?data_type=imaging&format=xml', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/?format=API&data_type=imaging', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/?format=xml', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/1/?format=yaml', status: 404, type: 'json', body: NOT_FOUND },
  { method: 'POST', target: '/api/schema/?format=xml', status: 404, type: 'json', body: NOT_FOUND },
  { method: 'OPTIONS', target: '/api/schema/?format=xml', status: 404, type: 'json', body: NOT_FOUND },
  // a survey
  { target: '/api/schema/1/', status: 200, type: 'json' },
  { target: '/api/schema/1/?format=api', status: 200, type: 'html' },
  { target: '/api/schema/1/?format=json', status: 200, type: 'json' },
  { target: '/api/schema/3/', status: 200, type: 'json' },
  { target: '/api/schema/7/?data_type=imaging', status: 200, type: 'json' },
  { target: '/api/schema/7/?format=api&data_type=imaging', status: 200, type: 'html' },
  { target: '/api/schema/7/?data_type=catalogues', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/7/?data_type=catalogues&format=api', status: 404, type: 'html' },
  { target: '/api/schema/7/?data_type=bogus', status: 400, type: 'json', body: INVALID },
  { target: '/api/schema/99/', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/99/?format=api', status: 404, type: 'html' },
  { target: '/api/schema/99/?data_type=imaging', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/abc/', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/-1/', status: 404, type: 'json', body: NOT_FOUND },
  // anything else under /api/, including the files behind the rewrites
  { target: '/api/', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/other', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/1/extra/', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/data_type/imaging.json', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/errors/404.json', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/1/index.json', status: 404, type: 'json', body: NOT_FOUND },
  { target: '/api/schema/%E0%A4%A/', status: 404, type: 'json', body: NOT_FOUND },
  // OPTIONS and other methods
  { method: 'OPTIONS', target: '/api/schema/?data_type=imaging', status: 200, type: 'json', body: OPTIONS_LIST },
  { method: 'OPTIONS', target: '/api/schema/', status: 200, type: 'json', body: OPTIONS_LIST },
  { method: 'OPTIONS', target: '/api/schema/1/', status: 200, type: 'json', body: OPTIONS_DETAIL },
  { method: 'OPTIONS', target: '/api/schema/99/', status: 200, type: 'json', body: OPTIONS_DETAIL },
  { method: 'OPTIONS', target: '/api/schema/?format=api', status: 200, type: 'html' },
  { method: 'OPTIONS', target: '/api/other', status: 404, type: 'json', body: NOT_FOUND },
  ...['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'].flatMap((m): Row[] => [
    { method: m, target: '/api/schema/?data_type=imaging', status: 405, type: 'json', body: `{"detail":"Method \\"${m}\\" not allowed."}` },
    { method: m, target: '/api/schema/1/', status: 405, type: 'json', body: `{"detail":"Method \\"${m}\\" not allowed."}` },
  ]),
  { method: 'POST', target: '/api/schema/99/', status: 405, type: 'json', body: '{"detail":"Method \\"POST\\" not allowed."}' },
  { method: 'DELETE', target: '/api/schema/1/?format=api', status: 405, type: 'html' },
  { method: 'POST', target: '/api/other', status: 404, type: 'json', body: NOT_FOUND },
];

describe.each(HOSTS)('on %s', (host) => {
  let origin: string;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ origin, stop } = await start(host));
  });
  afterAll(async () => {
    await stop?.();
  });
  const get = (target: string, method = 'GET'): Promise<HttpResult> => http(origin, method, target);

  /** Content-Length, where given, is the body's; JSON always gives it. nginx streams the pages, whose request line it fills in. */
  function expectLength(r: HttpResult): void {
    if (r.headers['content-length'] === undefined && host === 'nginx' && r.headers['content-type']?.startsWith('text/html')) return;
    expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
  }

  // pyvo's TAPService('…/vo/') asks for /vo//tables: the VOSI tables, as at /vo/tables.
  test.each(['/vo//tables', '/vo//tables.xml', '/vo//tables/', '/vo///tables'])('%s is the VOSI tables', async (target) => {
    const [asked, own] = await Promise.all([get(target), get('/vo/tables')]);
    expect(asked.status).toBe(200);
    expect(asked.headers['content-type']).toBe(own.headers['content-type']);
    expect(asked.headers['access-control-allow-origin']).toBe('*');
    expect(asked.body).toBe(own.body);
  });

  describe('every contract row over HTTP', () => {
    test.each(rows)('$method $target → $status', async ({ method = 'GET', target, status, type, body }) => {
      const r = await get(target, method);
      expect(r.status).toBe(status);
      expectApiHeaders(r, type);
      if (body !== undefined) expect(r.body).toBe(body);
      if (type === 'html') expect(r.body).toMatch(/^<!DOCTYPE html>/);
      expectLength(r);
    });

    test('HEAD answers as GET: same status and headers, no body', async () => {
      for (const target of [
        '/api/schema/?data_type=imaging',
        '/api/schema/?format=api&data_type=ifs',
        '/api/schema/',
        '/api/schema/99/',
        '/api/schema/99/?format=api',
        '/api/schema/?data_type=x&format=api',
      ]) {
        const g = await get(target);
        const h = await get(target, 'HEAD');
        expect(h.status).toBe(g.status);
        expect(h.body).toBe('');
        // The Date header is the only one that may differ between two requests.
        // Transfer-Encoding frames a body, and a HEAD has none.
        const strip = (headers: Record<string, string>) =>
          Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'date' && name !== 'transfer-encoding'));
        expect(strip(h.headers)).toEqual(strip(g.headers));
      }
    });
  });

  describe('listings by data_type', () => {
    test('a survey is listed for a data type when one of its releases has that data, with only those releases', async () => {
      expect(ids(await get('/api/schema/?data_type=catalogues'))).toEqual([1]);
      expect(ids(await get('/api/schema/?data_type=imaging'))).toEqual([1, 7]);
      const imaging = json(await get('/api/schema/?data_type=imaging')) as { data_releases: Record<string, unknown>[] }[];
      expect(imaging[0]?.data_releases.map((r) => r.name)).toEqual(['dr2']);
      for (const release of imaging.flatMap((s) => s.data_releases)) {
        expect(release).toMatchObject({ catalogues: null, ifs: null, spectra: null });
        expect(release.imaging).toHaveProperty('facilities');
      }
    });

    test.each(['catalogues', 'ifs', 'spectra'])('the %s listing shows the catalogues of releases that have them', async (t) => {
      const list = json(await get(`/api/schema/?data_type=${t}`)) as { data_releases: Record<string, unknown>[] }[];
      expect(list.flatMap((s) => s.data_releases.map((r) => r.name))).toEqual(['dr1', 'dr2']);
      for (const release of list.flatMap((s) => s.data_releases)) {
        expect(release).toMatchObject({ imaging: null, ifs: null, spectra: null });
        expect(release.catalogues).toHaveProperty('groups');
      }
    });

    test('the ifs and spectra listings are the catalogues listing until those shapes are defined', async () => {
      const catalogues = (await get('/api/schema/?data_type=catalogues')).body;
      expect((await get('/api/schema/?data_type=ifs')).body).toBe(catalogues);
      expect((await get('/api/schema/?data_type=spectra')).body).toBe(catalogues);
    });

    test('inactive surveys are listed; a survey without releases is not', async () => {
      const imaging = json(await get('/api/schema/?data_type=imaging')) as { active: boolean }[];
      expect(imaging.map((s) => s.active)).toEqual([true, false]);
      for (const t of ['catalogues', 'imaging', 'ifs', 'spectra']) expect(ids(await get(`/api/schema/?data_type=${t}`))).not.toContain(3);
    });

    test('a survey route shows every kind of data the survey has; filtered, what the listing shows', async () => {
      const whole = json(await get('/api/schema/1/')) as { data_releases: Record<string, unknown>[] };
      expect(whole.data_releases.map((r) => [r.name, r.catalogues !== null, r.imaging !== null])).toEqual([
        ['dr1', true, false],
        ['dr2', true, true],
      ]);
      const listed = (json(await get('/api/schema/?data_type=imaging')) as unknown[])[0];
      expect(json(await get('/api/schema/1/?data_type=imaging'))).toEqual(listed);
      expect(json(await get('/api/schema/3/'))).toMatchObject({ url: `${BASE}/api/schema/3/`, data_releases: [] });
    });

    test('a path without its trailing slash, extra parameters and repeated parameters', async () => {
      const canonical = (await get('/api/schema/?data_type=imaging')).body;
      expect((await get('/api/schema?data_type=imaging')).body).toBe(canonical);
      expect((await get('/api/schema/?data_type=imaging&page=2&x')).body).toBe(canonical);
      expect((await get('/api/schema/?data_type=catalogues&data_type=imaging')).body).toBe(canonical);
      expect((await get('/api/schema/?data_type=imaging&data_type=bogus')).status).toBe(400);
      expect((await get('/api/schema/1')).body).toBe((await get('/api/schema/1/')).body);
      expect((await get('/api/schema/?data_type=imaging&format=')).body).toBe(canonical);
    });
  });

  describe('bodies', () => {
    const responses = JSON.parse(readFileSync(path.join(PROJECT, 'schemas/api/responses.schema.json'), 'utf8')) as {
      definitions: Record<string, { properties?: Record<string, unknown> }>;
    };
    const ajv = newAjv({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addSchema(responses, 'responses.schema.json');
    const validator = (name: string) => {
      const v = ajv.getSchema(`responses.schema.json#/definitions/${name}`);
      if (!v) throw new Error(name);
      return v;
    };

    /** Keys of every object, in order, against the order of its definition's properties. */
    function expectFieldOrder(value: unknown, definition: string): void {
      const def = responses.definitions[definition];
      if (Array.isArray(value)) {
        for (const item of value) expectFieldOrder(item, definition);
        return;
      }
      expect(Object.keys(value as object)).toEqual(Object.keys(def?.properties ?? {}));
      const children: Record<string, string> = {
        contact: 'Contact',
        data_releases: 'DataRelease',
        groups: 'CatalogueGroup',
        tables: 'CatalogueTable',
        columns: 'CatalogueColumn',
        facilities: 'ImagingFacility',
        bands: 'ImagingBand',
        regions: 'ImagingRegion',
      };
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        if (child === null || typeof child !== 'object') continue;
        if (key === 'catalogues') expectFieldOrder((child as { groups: unknown }).groups, 'CatalogueGroup');
        else if (key === 'imaging') expectFieldOrder((child as { facilities: unknown }).facilities, 'ImagingFacility');
        else if (children[key]) expectFieldOrder(child, children[key]);
      }
    }

    test.each([
      '/api/schema/?data_type=catalogues',
      '/api/schema/?data_type=imaging',
      '/api/schema/?data_type=ifs&format=json',
      '/api/schema/?data_type=spectra',
    ])('%s matches the published response schema, field by field in order', async (target) => {
      const body = json(await get(target));
      const validate = validator('SurveyList');
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expectFieldOrder(body, 'Survey');
    });

    test.each(['/api/schema/1/', '/api/schema/7/?format=json', '/api/schema/1/?data_type=imaging'])(
      '%s matches the survey schema',
      async (target) => {
        const body = json(await get(target));
        const validate = validator('Survey');
        expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
        expectFieldOrder(body, 'Survey');
      },
    );

    test('error and OPTIONS bodies match their schemas', async () => {
      expect(validator('NotFound')(json(await get('/api/schema/99/')))).toBe(true);
      expect(validator('DataTypeError')(json(await get('/api/schema/')))).toBe(true);
      expect(validator('DataTypeError')(json(await get('/api/schema/?data_type=x')))).toBe(true);
      expect(validator('MethodNotAllowed')(json(await get('/api/schema/', 'PUT')))).toBe(true);
      expect(validator('Options')(json(await get('/api/schema/', 'OPTIONS')))).toBe(true);
    });

    test('the bodies written for hosts that answer methods from files are what the server answers', async () => {
      for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        expect(readFileSync(path.join(dist, `_errors/405-${m}.json`), 'utf8')).toBe((await get('/api/schema/', m)).body);
      }
      expect(readFileSync(path.join(dist, '_options/list.json'), 'utf8')).toBe((await get('/api/schema/', 'OPTIONS')).body);
      expect(readFileSync(path.join(dist, '_options/detail.json'), 'utf8')).toBe((await get('/api/schema/1/', 'OPTIONS')).body);
      expect(readFileSync(path.join(dist, '_errors/404.json'), 'utf8')).toBe(NOT_FOUND);
    });

    test('JSON is compact UTF-8 with non-ASCII characters as themselves and U+2028 escaped', async () => {
      const r = await get('/api/schema/?data_type=catalogues');
      expect(r.body).toBe(JSON.stringify(JSON.parse(r.body)).replace('\u2028', '\\u2028'));
      expect(r.bytes.includes(Buffer.from('ünïcode'))).toBe(true);
      expect(r.body).toContain('"description":"Line\\u2028separator"');
      expect(r.bytes[0]).toBe('['.charCodeAt(0));
    });

    test('values: timestamps in UTC with six digits, inherited where left out; derived fields', async () => {
      const [survey] = json(await get('/api/schema/?data_type=catalogues')) as ApiSurvey[];
      const dr1 = survey?.data_releases[0];
      expect(dr1?.created).toBe('2015-03-01T00:00:00.000000Z'); // written 2015-03-01T10:00:00+10:00
      expect(dr1?.updated).toBe('2015-04-01T00:00:00.500000Z');
      expect(dr1?.version).toBe(1);
      const table = dr1?.catalogues?.groups[0]?.tables[0];
      expect(table).toMatchObject({ file_extension: 'fits', input_cat: true, created: '2015-01-01T00:00:00.000000Z', contact: null });
      expect(table?.columns.map((c) => [c.name, c.ucd, c.unit, c.updated])).toEqual([
        ['CATAID', 'meta.id;meta.main', '-', '2015-02-01T00:00:00.000000Z'],
        ['Z', 'src.redshift', '-', '2015-03-01T00:00:00.000000Z'],
        ['NOTE', '-', 'None', '2015-02-01T00:00:00.000000Z'],
      ]);
      const [, beta] = json(await get('/api/schema/?data_type=imaging')) as ApiSurvey[];
      expect(beta?.data_releases[0]?.created).toBe('2020-07-01T00:30:00.000000Z'); // 2020-06-30T23:30:00-01:00
      const band = (json(await get('/api/schema/1/?data_type=imaging')) as ApiSurvey).data_releases[0]?.imaging?.facilities[0]?.bands[0];
      expect(band?.band_key).toBe('alpha.dr2.VST.r');
      expect(band?.regions[0]).toMatchObject({ ra_c: '135.0', dec_c: '-0.50', frame: 'icrs', equinox: 'j2000' });
      expect(Object.keys(band?.regions[0]?.fits_header ?? {})).toEqual(['SIMPLE', 'NAXIS', 'NAXIS1', 'NAXIS2', 'CTYPE1', 'CRVAL1']);
    });

    test("survey links are absolute and carry the request's format", async () => {
      const urls = async (target: string) => (json(await get(target)) as { url: string }[]).map((s) => s.url);
      expect(await urls('/api/schema/?data_type=imaging')).toEqual([`${BASE}/api/schema/1/`, `${BASE}/api/schema/7/`]);
      expect(await urls('/api/schema/?data_type=imaging&format=json')).toEqual([
        `${BASE}/api/schema/1/?format=json`,
        `${BASE}/api/schema/7/?format=json`,
      ]);
      expect((json(await get('/api/schema/7/?format=json')) as { url: string }).url).toBe(`${BASE}/api/schema/7/?format=json`);
    });
  });

  describe('the browsable pages (format=api)', () => {
    test('show the request, the status, the headers and the JSON with every url as a link keeping format=api', async () => {
      const page = (await get('/api/schema/?format=api&data_type=imaging')).body;
      // The request as made, parameters in the order given.
      expect(page).toContain('<b>GET</b> /api/schema/?format=api&amp;data_type=imaging');
      // The format links keep the other parameters as written and name the format last.
      expect(page).toContain('<a href="/api/schema/?data_type=imaging&amp;format=json">json</a>');
      expect(page).toContain('<b>HTTP 200 OK</b>');
      expect(page).toContain('<b>Allow:</b> GET, HEAD, OPTIONS');
      expect(page).toContain(`"url": "<a href="${BASE}/api/schema/1/?format=api" rel="nofollow">${BASE}/api/schema/1/?format=api</a>"`);
      expect(page).toContain(`"url": "<a href="${BASE}/api/schema/7/?format=api" rel="nofollow">`);
      // The JSON shown is the listing, indented by four spaces.
      const shown = page.slice(page.indexOf('</span>\n') + 8, page.indexOf('</pre>\n</main>'));
      const text = shown
        .replace(/<a [^>]*>([^<]*)<\/a>/g, '$1')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
      const asJson = (await get('/api/schema/?data_type=imaging&format=json')).body.replaceAll('?format=json', '?format=api');
      expect(JSON.parse(text)).toEqual(JSON.parse(asJson));
    });

    test('one file serves the catalogues, ifs and spectra pages, each showing its own request', async () => {
      const file = (t: string) => readFileSync(path.join(dist, `api/schema/data_type/${t}.format-api.html`));
      expect(file('ifs').equals(file('catalogues'))).toBe(true);
      expect(file('spectra').equals(file('catalogues'))).toBe(true);
      for (const t of ['catalogues', 'ifs', 'spectra']) {
        const r = await get(`/api/schema/?data_type=${t}&format=api`);
        expect(r.body).toContain(`<b>GET</b> /api/schema/?data_type=${t}&amp;format=api</pre>`);
        expectLength(r);
      }
    });

    // A survey's page leads to the survey's page in the schema browser (places.ts puts it there);
    // a listing's, and an error's, to the browser's home page.
    test.each([
      ['/api/schema/1/?format=api', 'alpha'],
      ['/api/schema/1/?format=api&data_type=catalogues', 'alpha'],
      ['/api/schema/7/?data_type=imaging&format=api', 'beta'],
      ['/api/schema/3/?format=api', 'gamma'],
      ['/api/schema/?data_type=imaging&format=api', undefined],
      ['/api/schema/?format=api&data_type=spectra', undefined],
      ['/api/schema/99/?format=api', undefined],
      ['/api/schema/?data_type=bogus&format=api', undefined],
    ])('%s links to the schema browser', async (target, survey) => {
      const page = (await get(target)).body;
      const links = [...page.matchAll(/<a href="([^"]*)">Schema browser<\/a>/g)].map((m) => m[1] ?? '');
      const expected = survey === undefined ? '/' : `/${surveyPath({ survey: { name: survey, url: '', pretty_name: '' } }).join('/')}/`;
      expect(links).toEqual([expected]);
      const browser = await get(expected);
      expect(browser.status).toBe(200);
      expect(browser.body).toContain('<meta http-equiv="Content-Security-Policy"');
      if (survey !== undefined) expect(browser.body).toContain(`href="../../api/schema/${/\/schema\/(\d+)\//.exec(target)?.[1]}/"`);
    });

    test('curator HTML in the data is shown as text, never as markup', async () => {
      const page = (await get('/api/schema/1/?format=api')).body;
      expect(page).toContain('"description": "&lt;p&gt;A survey with &lt;b&gt;HTML&lt;/b&gt; &amp;amp; an ünïcode name.&lt;/p&gt;"');
      expect(page).not.toContain('<b>HTML</b>');
    });

    test('an error page shows the error body and the request as made', async () => {
      const page = (await get('/api/schema/?data_type=bogus&format=api')).body;
      expect(page).toContain('<b>HTTP 400 Bad Request</b>');
      expect(page).toContain('<b>GET</b> /api/schema/?data_type=bogus&amp;format=api');
      expect(page).toContain('"Select a valid choice. That choice is not one of the available choices."');
      const notFound = (await get('/api/schema/99/?format=api')).body;
      expect(notFound).toContain('<b>HTTP 404 Not Found</b>');
      expect(notFound).toContain('"detail": "Not found."');
      const options = (await get('/api/schema/?format=api', 'OPTIONS')).body;
      expect(options).toContain('<b>OPTIONS</b> /api/schema/?format=api');
      expect(options).toContain('"name": "Schema List"');
    });
  });

  // Netlify's header rules come from netlify.toml, which `serve` applies as Netlify reads them; nginx
  // has them from the same route table. The API's answers and the documents keep their headers.
  describe("the schema browser's security policy", () => {
    const BROWSER = [
      '/',
      '/index.html',
      '/browse/alpha/',
      '/browse/alpha/dr2/imaging/VST/r.html',
      '/browse/gamma/index.html',
      '/browse/style.css',
    ];

    test.each(BROWSER)('%s carries the policy its pages declare, to GET, HEAD and a revalidation', async (target) => {
      const r = await get(target);
      expect(r.status).toBe(200);
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      if (r.headers['content-type']?.startsWith('text/html')) {
        const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(r.body)?.[1];
        expect(meta?.replaceAll('&#39;', "'")).toBe(CONTENT_SECURITY_POLICY);
      }
      expect((await get(target, 'HEAD')).headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      const again = await http(origin, 'GET', target, { 'If-None-Match': r.headers.etag ?? '' });
      expect(again.status).toBe(304);
      expect(again.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    });

    test.each([
      '/api/schema/?data_type=catalogues',
      '/api/schema/?data_type=imaging&format=api',
      '/api/schema/1/',
      '/api/schema/1/?format=api',
      '/api/schema/99/',
      '/api/schema/',
      '/api/openapi.json',
      '/api/docs/',
      '/vo/tables',
      '/download/',
      '/download/archive.json',
      '/download/columns.csv',
    ])('%s does not, and keeps its own headers', async (target) => {
      const r = await get(target);
      expect(r.headers['content-security-policy']).toBeUndefined();
      if (target.startsWith('/api/schema/')) expectApiHeaders(r, target.includes('format=api') ? 'html' : 'json');
      else expect(r.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  test('the site root is the landing page, not an API response', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers.allow).toBeUndefined();
    // Its links are relative, so that the same page works from the offline download.
    expect(r.body).toContain('<a href="api/schema/?data_type=catalogues">');
  });
});

describe("netlify.toml's header rules, as Netlify's own parser reads them", () => {
  test("give the schema browser's policy to each of its files, and to no other file of a build", async () => {
    const policyOf = await netlifyHeader('Content-Security-Policy');
    const files = [...(await snapshotTree(dist)).keys()].filter((f) => !f.startsWith('.'));
    expect(files.length).toBe(await outputCount(dist));
    const browser = files.filter((f) => isBrowserFile(f));
    expect(browser).toContain('index.html');
    expect(browser.filter((f) => f.startsWith('browse/')).length).toBeGreaterThan(10);
    for (const file of files) expect(policyOf(`/${file}`), file).toBe(isBrowserFile(file) ? CONTENT_SECURITY_POLICY : undefined);
    // The folders a page is asked at, and the root.
    for (const file of browser.filter((f) => f.endsWith('/index.html')))
      expect(policyOf(`/${file.slice(0, -'index.html'.length)}`)).toBe(CONTENT_SECURITY_POLICY);
    expect(policyOf('/')).toBe(CONTENT_SECURITY_POLICY);
    for (const target of ['/api/schema/', '/api/schema/1/', '/download/', '/api/docs/', '/vo/tables'])
      expect(policyOf(target), target).toBeUndefined();
  });
});

/** Requests beyond the rows: encodings, repeats, odd values, dot segments, every method. */
const probes: { method?: string; target: string }[] = [
  ...rows,
  ...['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'].flatMap((method) =>
    [
      '/api/schema/?data_type=imagin%67',
      '/api/schema/?data_type=..%2F..%2Fetc',
      '/api/schema/?data_type=imaging&data_type=bogus',
      '/api/schema/?data_type=bogus&data_type=imaging&format=api',
      '/api/schema/?format=json&format=api&data_type=imaging',
      '/api/schema/?format=api&format=xml',
      '/api/schema/?data_type=+imaging',
      "/api/schema/?data_type=<b>'x'</b>&format=api",
      '/api/schema/?data_type=%3Cscript%3E&format=api',
      '/api/schema/?data_type=imaging&&x=%ZZ&format=api',
      '/api/schema/./1/?format=api',
      '/api/schema/1/../7/?format=api&data_type=imaging',
      '/api/schema/abc/?format=api',
      '/api/schema?format=api&data_type=ifs',
      '/api/schema/1?format=api',
      '/api/schema/?data_type=imaging&format=api&Format=json',
    ].map((target) => ({ method, target })),
  ),
  ...[
    '/',
    '/index.html',
    '/nothing-here',
    '/.archive-schema-build',
    '/_errors/404.json',
    '/api/openapi.json',
    '/_documents/openapi.json',
    '/api/docs/',
    '/api/docs',
    '/vo/tables',
    '/vo/tables.xml',
    // A VO client given the service's address with a trailing slash.
    '/vo//tables',
    '/vo//tables.xml',
    '/vo//tables/',
    '/vo/tablesx',
    '/vo//nothing-here',
    '/download/',
    '/download',
    '/download/index.html',
    '/download/columns.csv',
    '/download/products.csv',
    '/download/products.vot',
    '/download/browser.zip',
    '/browse/alpha/',
    '/browse/alpha/dr1/catalogues/SpecCat/SpecObj/',
    '/browse/style.css',
    '/browse/nothing-here/',
  ].flatMap((target) => ['GET', 'HEAD', 'POST'].map((method) => ({ method, target }))),
];

describe.skipIf(SKIP_NGINX)('nginx and serve answer alike', () => {
  const hosts: Partial<Record<Host, { origin: string; stop: () => Promise<void> }>> = {};
  beforeAll(async () => {
    hosts.serve = await start('serve');
    hosts.nginx = await start('nginx');
  });
  afterAll(async () => {
    await Promise.all(Object.values(hosts).map((h) => h.stop()));
  });
  const SAME = [
    'content-type',
    'allow',
    'vary',
    'access-control-allow-origin',
    'x-content-type-options',
    'content-encoding',
    'content-security-policy',
  ];

  test.each(probes)('$method $target', async ({ method = 'GET', target }) => {
    const [a, b] = await Promise.all([hosts.serve, hosts.nginx].map((h) => http(h?.origin ?? '', method, target)));
    const seen = (r: HttpResult) => ({
      status: r.status,
      headers: Object.fromEntries(SAME.map((name) => [name, r.headers[name]])),
      body: r.body,
    });
    expect(seen(b as HttpResult)).toEqual(seen(a as HttpResult));
  });

  // Issue 32: an unknown path outside the API got a plain-text "Not Found"; it gets the site's page.
  test.each(['/nothing-here', '/browse/nothing-here/', '/browse/alpha/dr9/', '/download/nothing.csv'])(
    'an unknown path outside the API, %s, is 404 with the site’s HTML 404 page, on both',
    async (target) => {
      const page = readFileSync(path.join(dist, '404.html'), 'utf8');
      for (const host of [hosts.serve, hosts.nginx]) {
        const r = await http(host?.origin ?? '', 'GET', target);
        expect(r.status).toBe(404);
        expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(r.body).toBe(page);
        expect(r.body).toContain('<h1>Page not found</h1>');
        expect(r.body).toContain('id="search"');
      }
    },
  );

  test.each(['/api/nothing-here', '/api/schema/99/', '/api/schema/1/nothing/'])(
    'an unknown path under the API, %s, keeps the API’s JSON 404 body, on both',
    async (target) => {
      for (const host of [hosts.serve, hosts.nginx]) {
        const r = await http(host?.origin ?? '', 'GET', target);
        expect(r.status).toBe(404);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.body).toBe(BODIES.notFound);
      }
    },
  );

  const encoded = [
    '/api/schema/?data_type=catalogues',
    '/api/schema/?format=api&data_type=imaging',
    '/download/archive.json',
    '/api/schema/?data_type=x',
  ];
  test.each(encoded.flatMap((target) => ['gzip, deflate, br', 'br', 'gzip', 'identity'].map((encoding) => ({ target, encoding }))))(
    '$target with Accept-Encoding: $encoding',
    async ({ target, encoding }) => {
      const [a, b] = await Promise.all(
        [hosts.serve, hosts.nginx].map((h) => http(h?.origin ?? '', 'GET', target, { 'Accept-Encoding': encoding })),
      );
      const decoded = (r: HttpResult) =>
        r.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(r.bytes)
          : r.headers['content-encoding'] === 'gzip'
            ? gunzipSync(r.bytes)
            : r.bytes;
      const seen = (r: HttpResult) => ({
        status: r.status,
        encoding: r.headers['content-encoding'],
        vary: r.headers.vary,
        body: decoded(r).toString('utf8'),
      });
      expect(seen(b as HttpResult)).toEqual(seen(a as HttpResult));
    },
  );
});
