// `archive-schema serve` compresses as the compression rule says (src/site/routes.ts,
// COMPRESSION), asked over real HTTP: the fixture archive is built with the real CLI, precompressed
// copies that can be told apart from what serve would make are planted beside some of its files,
// and `serve --port 0` runs in a child process. Every answer is looked at as a client sees it: the
// status, the headers, and the bytes once decoded, which must be the bytes sent without encoding.

import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, http, serveSite, testdir } from './helpers.ts';
import type { HttpResult } from './helpers.ts';

const BASE = 'https://schema.test';
const NOT_FOUND = '{"detail":"Not found."}';

let server: ChildProcess | undefined;
let origin = '';
let dist = '';
/** The copies planted in the site, by their path in it. */
const planted = new Map<string, Buffer>();

/** A brotli copy no on-the-fly compression makes (the best quality, a 1 KiB window): told apart by its bytes. */
const brotliCopy = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 10 } });
/** A gzip copy whose header names a file, which a stream compressed on the fly never does. */
const gzipCopy = (bytes: Buffer) => {
  const gz = gzipSync(bytes, { level: 9 });
  // FLG.FNAME, and the name after the 10-byte header: still a valid gzip member.
  return Buffer.concat([gz.subarray(0, 3), Buffer.from([0x08]), gz.subarray(4, 10), Buffer.from('copy\0'), gz.subarray(10)]);
};

beforeAll(async () => {
  const dir = await testdir();
  const built = await cli(['build', '--base-url', BASE], dir);
  expect(built.code, built.stderr).toBe(0);
  dist = path.join(dir, 'dist');
  const plant = async (file: string, copy: (bytes: Buffer) => Buffer) => {
    const bytes = copy(await readFile(path.join(dist, file.replace(/\.(br|gz)$/, ''))));
    await writeFile(path.join(dist, file), bytes);
    planted.set(file, bytes);
  };
  // The imaging listing and the VO tableset (a document, asked for at a path the rules rewrite) have both copies.
  await plant('api/schema/data_type/imaging.json.br', brotliCopy);
  await plant('api/schema/data_type/imaging.json.gz', gzipCopy);
  await plant('vo/tables.xml.br', brotliCopy);
  await plant('vo/tables.xml.gz', gzipCopy);
  // A browsable page's copy must never be sent: the page is filled in as it is sent.
  await plant('api/schema/data_type/imaging.format-api.html.br', brotliCopy);
  ({ origin, server } = await serveSite(dist));
});

afterAll(() => {
  server?.kill('SIGTERM');
});

/** The request headers that accept these encodings; none at all when undefined. */
const accepting = (acceptEncoding: string | undefined): Record<string, string> =>
  acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding };

const ask = (target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<HttpResult> =>
  http(origin, method, target, headers);

function decoded(r: HttpResult): Buffer {
  const encoding = r.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(r.bytes);
  if (encoding === 'gzip') return gunzipSync(r.bytes);
  expect(encoding).toBeUndefined();
  return r.bytes;
}

/** Headers that belong to the connection or the moment, not to the answer. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const answerHeaders = (r: HttpResult) => Object.fromEntries(Object.entries(r.headers).filter(([name]) => !FRAMING.has(name)));

/** The identity answer of a target, asked once. */
const identities = new Map<string, Promise<HttpResult>>();
function identity(target: string, method = 'GET'): Promise<HttpResult> {
  const key = `${method} ${target}`;
  let known = identities.get(key);
  if (!known) identities.set(key, (known = ask(target, {}, method)));
  return known;
}

// ---- Which answers the rule covers, and how each is sent -----------------------------------------

type How = 'identity' | 'on the fly' | 'precompressed';

interface Row {
  what: string;
  target: string;
  method?: string;
  acceptEncoding?: string;
  status: number;
  /** Content-Encoding, and how the bytes were made. */
  encoding?: 'br' | 'gzip';
  how: How;
  /** Vary as sent; undefined: no Vary at all. */
  vary: string | undefined;
  /** The planted copy that must be what was sent. */
  copy?: string;
}

const API = 'Accept, Accept-Encoding';
const rows: Row[] = [
  // An API listing with both copies beside its file.
  {
    what: 'a listing, asked for with no Accept-Encoding',
    target: '/api/schema/?data_type=imaging',
    status: 200,
    how: 'identity',
    vary: API,
  },
  {
    what: 'a listing with a brotli copy, br accepted',
    target: '/api/schema/?data_type=imaging',
    acceptEncoding: 'br',
    status: 200,
    encoding: 'br',
    how: 'precompressed',
    vary: API,
    copy: 'api/schema/data_type/imaging.json.br',
  },
  {
    what: 'a listing with a gzip copy, gzip accepted',
    target: '/api/schema/?data_type=imaging',
    acceptEncoding: 'gzip',
    status: 200,
    encoding: 'gzip',
    how: 'precompressed',
    vary: API,
    copy: 'api/schema/data_type/imaging.json.gz',
  },
  // A survey with no copies: compressed as it is sent.
  {
    what: 'a survey, br and gzip accepted',
    target: '/api/schema/1/',
    acceptEncoding: 'gzip, deflate, br',
    status: 200,
    encoding: 'br',
    how: 'on the fly',
    vary: API,
  },
  {
    what: 'a survey, gzip accepted',
    target: '/api/schema/1/',
    acceptEncoding: 'gzip',
    status: 200,
    encoding: 'gzip',
    how: 'on the fly',
    vary: API,
  },
  // The browsable page: filled in as it is sent, so never its copy.
  {
    what: 'a browsable page with a copy beside its file',
    target: '/api/schema/?data_type=imaging&format=api',
    acceptEncoding: 'br',
    status: 200,
    encoding: 'br',
    how: 'on the fly',
    vary: API,
  },
  {
    what: 'a browsable page, gzip',
    target: '/api/schema/1/?format=api',
    acceptEncoding: 'gzip',
    status: 200,
    encoding: 'gzip',
    how: 'on the fly',
    vary: API,
  },
  {
    what: 'a browsable 404 page',
    target: '/api/schema/99/?format=api',
    acceptEncoding: 'br',
    status: 404,
    encoding: 'br',
    how: 'on the fly',
    vary: API,
  },
  {
    what: 'an OPTIONS page the edge answers itself',
    method: 'OPTIONS',
    target: '/api/schema/?format=api',
    acceptEncoding: 'br',
    status: 200,
    encoding: 'br',
    how: 'on the fly',
    vary: API,
  },
  // Documents, after the rewrite rules: large ones stream, and the VO tableset has copies.
  {
    what: 'the OpenAPI document',
    target: '/api/openapi.json',
    acceptEncoding: 'br',
    status: 200,
    encoding: 'br',
    how: 'on the fly',
    vary: 'Accept-Encoding',
  },
  {
    what: 'the API reference page',
    target: '/api/docs/',
    acceptEncoding: 'gzip',
    status: 200,
    encoding: 'gzip',
    how: 'on the fly',
    vary: 'Accept-Encoding',
  },
  {
    what: "the VO tableset, from its file's copy",
    target: '/vo/tables',
    acceptEncoding: 'br;q=0.9, gzip',
    status: 200,
    encoding: 'gzip',
    how: 'precompressed',
    vary: 'Accept-Encoding',
    copy: 'vo/tables.xml.gz',
  },
  { what: 'the front page', target: '/', acceptEncoding: 'br', status: 200, encoding: 'br', how: 'on the fly', vary: 'Accept-Encoding' },
  // Not covered by the rule: headers as they were, whatever the request accepts.
  {
    what: 'a small survey (under the minimum length)',
    target: '/api/schema/3/',
    acceptEncoding: 'br, gzip',
    status: 200,
    how: 'identity',
    vary: 'Accept',
  },
  { what: 'a not-found answer', target: '/api/schema/99/', acceptEncoding: 'br, gzip', status: 404, how: 'identity', vary: 'Accept' },
  {
    what: 'a 400 answer',
    target: '/api/schema/?data_type=bogus',
    acceptEncoding: 'br, gzip',
    status: 400,
    how: 'identity',
    vary: 'Accept',
  },
  {
    what: 'a gzip file, which is not compressed again',
    target: '/download/archive.json.gz',
    acceptEncoding: 'gzip',
    status: 200,
    how: 'identity',
    vary: undefined,
  },
  // The site's 404 page (404.html) is a page like any other: compressed as the front page is.
  {
    what: 'a static 404, the site’s 404 page',
    target: '/nowhere.html',
    acceptEncoding: 'br',
    status: 404,
    encoding: 'br',
    how: 'on the fly',
    vary: 'Accept-Encoding',
  },
  // A copy asked for by its own path is a file like any other, outside the API; inside, not found.
  {
    what: 'a copy by its own path outside /api/',
    target: '/vo/tables.xml.br',
    acceptEncoding: 'br',
    status: 200,
    how: 'identity',
    vary: undefined,
    copy: 'vo/tables.xml.br',
  },
];

describe('the compression rule, over HTTP', () => {
  test.each(rows)(
    '$what: $method $target ($acceptEncoding)',
    async ({ target, method = 'GET', acceptEncoding, status, encoding, how, vary, copy }) => {
      const headers = accepting(acceptEncoding);
      const r = await ask(target, headers, method);
      const plain = await identity(target, method);
      expect(r.status).toBe(status);
      expect(r.headers['content-encoding']).toBe(encoding);
      expect(r.headers.vary).toBe(vary);
      if (copy) expect(r.bytes.equals(planted.get(copy) ?? Buffer.alloc(0)), 'the planted copy was sent').toBe(true);
      else expect(decoded(r).equals(plain.bytes), 'decoded, the bytes sent without encoding').toBe(true);
      const etag = plain.headers.etag;
      if (how === 'identity') {
        expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
        if (!copy) expect(r.headers.etag).toBe(etag);
      } else if (how === 'precompressed') {
        expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
        expect(r.headers.etag).toBe(etag?.replace(/"$/, `-${encoding}"`));
      } else {
        expect(r.headers['content-length']).toBeUndefined();
        if (etag) expect(r.headers.etag).toBe(`W/${etag.replace(/"$/, `-${encoding}"`)}`);
      }
      if (method === 'GET') {
        const head = await ask(target, headers, 'HEAD');
        expect(head.status).toBe(r.status);
        expect(head.bytes.length).toBe(0);
        expect(answerHeaders(head)).toEqual(answerHeaders(r));
      }
    },
  );

  test('a precompressed copy is not what serve would have made', async () => {
    const file = await readFile(path.join(dist, 'api/schema/data_type/imaging.json'));
    const fresh = brotliCompressSync(file, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 18 } });
    expect(fresh.equals(planted.get('api/schema/data_type/imaging.json.br') ?? Buffer.alloc(0))).toBe(false);
    expect(brotliDecompressSync(planted.get('api/schema/data_type/imaging.json.br') ?? Buffer.alloc(0)).equals(file)).toBe(true);
    expect(gunzipSync(planted.get('vo/tables.xml.gz') ?? Buffer.alloc(0)).equals(await readFile(path.join(dist, 'vo/tables.xml')))).toBe(
      true,
    );
  });

  test('under /api/ a copy by its own path is not found', async () => {
    const r = await ask('/api/schema/data_type/imaging.json.br', { 'Accept-Encoding': 'br' });
    expect(r.status).toBe(404);
    expect(r.body).toBe(NOT_FOUND);
  });
});

// ---- Accept-Encoding: weights, wildcards, identity ----------------------------------------------

const negotiation: [acceptEncoding: string | undefined, encoding: 'br' | 'gzip' | undefined][] = [
  [undefined, undefined],
  ['', undefined],
  ['identity', undefined],
  ['deflate', undefined],
  ['br', 'br'],
  ['BR', 'br'],
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['gzip, br', 'br'],
  ['br, gzip', 'br'],
  ['gzip;q=1, br;q=1', 'br'],
  ['br;q=0, gzip', 'gzip'],
  ['br;q=0.5, gzip;q=0.8', 'gzip'],
  ['br;q=0.8, gzip;q=0.5', 'br'],
  ['br;q=0, gzip;q=0', undefined],
  ['br;q=0, gzip;q=0.5', 'gzip'],
  ['identity;q=0.9, gzip;q=0.5', undefined],
  ['*', 'br'],
  ['*;q=0.5, gzip', 'gzip'],
  ['*, br;q=0', 'gzip'],
  ['*;q=0', undefined],
  ['gzip;q=0.5, identity', undefined],
  ['gzip;q=0.5, identity;q=0.5', 'gzip'],
  ['br;q=oops, gzip', 'gzip'],
  [' br ; q=0.9 , gzip ; q=0.1 ', 'br'],
];

describe('Accept-Encoding', () => {
  test.each(negotiation)('%j → %s', async (acceptEncoding, encoding) => {
    const r = await ask('/api/schema/1/', accepting(acceptEncoding));
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe(encoding);
    expect(r.headers.vary).toBe(API);
    expect(decoded(r).equals((await identity('/api/schema/1/')).bytes)).toBe(true);
  });
});

// ---- Conditional requests ------------------------------------------------------------------------

describe('If-None-Match', () => {
  test.each([
    ['on the fly', '/api/schema/1/', 'br'],
    ['on the fly, gzip', '/api/schema/1/?format=api', 'gzip'],
    ['precompressed', '/api/schema/?data_type=imaging', 'br'],
    ['identity', '/api/schema/?data_type=imaging', undefined],
    ['a streamed document', '/api/openapi.json', 'gzip'],
  ])('%s: the ETag sent gives 304 with the same Vary and Content-Encoding', async (_how, target, acceptEncoding) => {
    const headers = accepting(acceptEncoding);
    const r = await ask(target, headers);
    const etag = r.headers.etag ?? '';
    expect(etag).not.toBe('');
    for (const condition of [etag, `"other", ${etag}`, '*']) {
      const again = await ask(target, { ...headers, 'If-None-Match': condition });
      expect(again.status, condition).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers.vary).toBe(r.headers.vary);
      expect(again.headers['content-encoding']).toBe(r.headers['content-encoding']);
    }
  });

  test('the ETag of one encoding is not that of another', async () => {
    const target = '/api/schema/1/';
    const etags = await Promise.all([undefined, 'br', 'gzip'].map(async (e) => (await ask(target, accepting(e))).headers.etag));
    expect(new Set(etags).size).toBe(3);
    const [plain = '', br = ''] = etags;
    expect((await ask(target, { 'Accept-Encoding': 'br', 'If-None-Match': plain })).status).toBe(200);
    expect((await ask(target, { 'If-None-Match': br })).status).toBe(200);
    expect((await ask(target, { 'Accept-Encoding': 'gzip', 'If-None-Match': br })).status).toBe(200);
  });
});

// ---- Ranges: always from the identity bytes ---------------------------------------------------------

describe('Range', () => {
  test.each([
    ['a survey', '/api/schema/1/', 'bytes=0-99'],
    ['a listing with copies', '/api/schema/?data_type=imaging', 'bytes=100-'],
    ['a streamed document', '/api/openapi.json', 'bytes=-5000'],
  ])('%s: %s is 206 from the identity bytes, whatever is accepted', async (_what, target, range) => {
    const whole = (await identity(target)).bytes;
    const r = await ask(target, { 'Accept-Encoding': 'br, gzip', Range: range });
    expect(r.status).toBe(206);
    expect(r.headers['content-encoding']).toBeUndefined();
    const m = /^bytes=(\d*)-(\d*)$/.exec(range);
    const [start, end] =
      m?.[1] === '' ? [whole.length - Number(m[2]), whole.length - 1] : [Number(m?.[1]), m?.[2] === '' ? whole.length - 1 : Number(m?.[2])];
    expect(r.headers['content-range']).toBe(`bytes ${start}-${end}/${whole.length}`);
    expect(Number(r.headers['content-length'])).toBe(end - start + 1);
    expect(r.bytes.equals(whole.subarray(start, end + 1))).toBe(true);
    const head = await ask(target, { 'Accept-Encoding': 'br, gzip', Range: range }, 'HEAD');
    expect(answerHeaders(head)).toEqual(answerHeaders(r));
  });

  test('a range past the end is 416, with the length of the file', async () => {
    const r = await ask('/api/schema/1/', { 'Accept-Encoding': 'br', Range: 'bytes=99999999-' });
    expect(r.status).toBe(416);
    expect(r.headers['content-range']).toBe(`bytes */${(await identity('/api/schema/1/')).bytes.length}`);
    expect(r.headers['content-encoding']).toBeUndefined();
  });
});
