// The preview server under hostile requests. The fixture archive is built with the real CLI, a
// secret is planted beside the built folder, symbolic links inside the site point out of it, and
// `archive-schema serve --port 0` runs in a child process. Every request below must leave the site
// folder shut (404, or 400 for a target that is not a path), never answer 500, never show the
// secret, the build's marker or any other dot-file, and never stop the server: after each one a
// plain GET of the listing `serve` itself suggests still answers 200. Requests a client library
// would refuse to send, or would tidy up first, go over a raw TCP socket.

import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROJECT, http, testdir } from './helpers.ts';
import type { HttpResult } from './helpers.ts';

const BIN = path.join(PROJECT, 'bin/archive-schema.js');
/** Written into every file planted outside the site and into its dot-files: no body may hold it. */
const SECRET = 'hostile-request-secret-7d1c5e09';
/** Sent as a cookie with odd methods: a TRACE that echoes the request would show it. */
const COOKIE = 'session=hostile-cookie-4b6a2f';
const MARKER = '.archive-schema-output';

const NOT_FOUND = '{"detail":"Not found."}';
const INVALID = '{"data_type":["Select a valid choice. That choice is not one of the available choices."]}';
const OPTIONS_LIST =
  '{"name":"Schema List","description":"","renders":["application/json","text/html"],"parses":["application/json","application/x-www-form-urlencoded","multipart/form-data"]}';
const OPTIONS_DETAIL = OPTIONS_LIST.replace('Schema List', 'Schema Instance');
const notAllowed = (method: string) => `{"detail":"Method \\"${method}\\" not allowed."}`;

// Long targets. A segment over 255 bytes is longer than any file name can be; 8 KB of path made
// of short segments is over PATH_MAX; 8 KB of query is over what most servers log.
const SEGMENT_300 = 'a'.repeat(300);
const DIGITS_256 = '9'.repeat(256);
const DIGITS_1000 = '9'.repeat(1000);
const PATH_8K = 'abcdefg/'.repeat(1024);
const QUERY_8K = `pad=${'q'.repeat(8192)}`;

let server: ChildProcess | undefined;
let origin = '';
/** The request `serve` suggests when it starts (the first listing): the server's pulse. */
let health = '';
/** Everything the server wrote to stderr. */
let stderr = '';
/** Bodies that must never appear: the marker's text and the first line of /etc/passwd. */
let markerText = '';
let passwd: string | undefined;
/** A survey id the build has, and one it has not, whose folder is a link out of the site. */
let survey = '';
/** The built site the server serves. */
let dist = '';
const OUTSIDE_ID = '987654321';
/** A file in the site, its bytes at first and after a rebuild (the same length, other bytes). */
const RESUMABLE = 'resumable.txt';
const RESUMABLE_FIRST = 'the first version of a download, long enough to be resumed part way\n'.repeat(40);
const RESUMABLE_SECOND = RESUMABLE_FIRST.toUpperCase();

beforeAll(async () => {
  const dir = await testdir();
  dist = path.join(dir, 'dist');
  await promisify(execFile)(process.execPath, [BIN, 'build', '--metadata', path.join(dir, 'metadata'), '--out', dist, '--no-cache'], {
    cwd: dir,
  });
  markerText = await readFile(path.join(dist, MARKER), 'utf8');
  passwd = await readFile('/etc/passwd', 'utf8').then(
    (text) => text.split('\n')[0] || undefined,
    () => undefined,
  );

  // Outside the site, beside it: a file and a folder holding the secret.
  const outside = path.join(dir, 'outside');
  await writeFile(path.join(dir, 'secret.txt'), `${SECRET} (beside the site)\n`);
  await mkdir(outside);
  for (const name of ['secret.txt', 'index.html', 'index.json']) await writeFile(path.join(outside, name), `${SECRET} (${name} outside)\n`);

  // Inside the site: links out of it, links within it, a loop, a dangling link, and dot-files.
  await symlink('../outside', path.join(dist, 'linkdir'));
  await symlink(outside, path.join(dist, 'linkabs'));
  await symlink('../secret.txt', path.join(dist, 'linkfile.txt'));
  await symlink('/etc', path.join(dist, 'etc'));
  await symlink('index.html', path.join(dist, 'inner.html'));
  await symlink(MARKER, path.join(dist, 'marker.txt'));
  await symlink('loop', path.join(dist, 'loop'));
  await symlink('../nowhere', path.join(dist, 'dangling'));
  const outsideSurvey = path.join(dist, 'api/schema', OUTSIDE_ID);
  expect(existsSync(outsideSurvey)).toBe(false);
  await symlink(outside, outsideSurvey);
  await writeFile(path.join(dist, '.hidden'), `${SECRET} (.hidden)\n`);
  await mkdir(path.join(dist, '.git'));
  await writeFile(path.join(dist, '.git/config'), `${SECRET} (.git/config)\n`);
  await writeFile(path.join(dist, 'api/.hidden'), `${SECRET} (api/.hidden)\n`);
  // A download a client resumes, which a later build changes.
  await writeFile(path.join(dist, RESUMABLE), RESUMABLE_FIRST);

  // Vitest sets NODE_ENV=test, under which libraries may keep their errors to themselves; the server
  // runs here as a user runs it.
  const env = { ...process.env };
  delete env.NODE_ENV;
  const child = spawn(process.execPath, [BIN, 'serve', '--dir', dist, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env });
  server = child;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const suggested = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/\S+) \(try (http:\/\/\S+)\)/.exec(out);
      if (m?.[1] && m[2]) {
        origin = m[1];
        resolve(m[2]);
      }
    });
    child.once('exit', (code) => {
      reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
  });
  const url = new URL(suggested);
  health = url.pathname + url.search;
  const listing = await http(origin, 'GET', health);
  expect(listing.status).toBe(200);
  const first = (JSON.parse(listing.body) as { url: string }[])[0];
  survey = /\/api\/schema\/(\d+)\//.exec(first?.url ?? '')?.[1] ?? '';
  expect(survey).not.toBe('');
});

afterAll(() => {
  server?.kill('SIGTERM');
});

// ---- helpers -----------------------------------------------------------------------------------

type Status = number | readonly number[];

/** A target with its placeholders filled: `{survey}` an existing survey, `{outside}` the linked one. */
const fill = (target: string) => target.replaceAll('{survey}', survey).replaceAll('{outside}', OUTSIDE_ID);

/** For messages: a long target shortened. */
const shown = (target: string) => (target.length > 80 ? `${target.slice(0, 60)}…(${target.length} chars)` : target);

const STACK_FRAME = /^\s+at .*:\d+:\d+\)?$/m;

/** What no answer may be, whatever was asked: a 5xx, a stack trace, or anything from outside. */
function expectNothingLeaked(body: string, status: number | undefined, what: string): void {
  if (status !== undefined) expect(status, `${what}: no 5xx`).toBeLessThan(500);
  expect(body.includes(SECRET), `${what}: shows a file outside the site or a dot-file`).toBe(false);
  expect(body.includes(markerText), `${what}: shows the build's marker`).toBe(false);
  if (passwd) expect(body.includes(passwd), `${what}: shows /etc/passwd`).toBe(false);
  expect(body, `${what}: shows a stack trace`).not.toMatch(STACK_FRAME);
}

function expectStatus(actual: number | undefined, expected: Status, what: string): void {
  const allowed = typeof expected === 'number' ? [expected] : expected;
  expect(allowed, `${what} answered ${actual ?? 'nothing'}`).toContain(actual);
}

/** The server still runs and still answers a plain GET. */
async function expectAlive(): Promise<void> {
  expect(server?.exitCode, 'serve has exited').toBeNull();
  const r = await http(origin, 'GET', health);
  expect(r.status, `GET ${health} after the hostile request`).toBe(200);
}

async function ask(method: string, target: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  const r = await http(origin, method, target, headers);
  expectNothingLeaked(r.body, r.status, `${method} ${shown(target)}`);
  return r;
}

interface RawResult {
  /** Whether any answer came back before the connection closed. */
  answered: boolean;
  status?: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends exactly these bytes on a fresh connection and reads the first answer until the server closes.
 * No timer ends the read: a server that leaves the connection open fails the test at its timeout
 * (a 5 s timer cut answers short on a busy machine, and took a server that never closed for one that did).
 */
function raw(bytes: string | Buffer): Promise<RawResult> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the server refused the request is an answer too: what came before it counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      resolve(parseResponse(Buffer.concat(chunks)));
    });
    socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  });
}

function parseResponse(bytes: Buffer): RawResult {
  if (bytes.length === 0) return { answered: false, headers: {}, body: '' };
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1');
  let body = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  const status = /^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1];
  return { answered: true, status: status === undefined ? undefined : Number(status), headers, body: body.toString('utf8') };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** A well-formed request line and headers for `raw`, asking the server to close afterwards. */
const request = (method: string, target: string) =>
  `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nCookie: ${COOKIE}\r\n\r\n`;

// ---- path traversal ----------------------------------------------------------------------------

type Row = [description: string, method: string, target: string, status: Status, body?: string];

const traversal: Row[] = [
  ['a ../ segment climbs no higher than the site', 'GET', '/../secret.txt', 404],
  ['many ../ segments do not reach /etc/passwd', 'GET', '/../../../../../../../../etc/passwd', 404],
  ['../ after a real folder stays in the site', 'GET', '/_errors/../../secret.txt', 404],
  ['../ after the API prefix stays in the site', 'GET', '/api/../../secret.txt', 404],
  ['dots encoded as %2e%2e are not a way up', 'GET', '/%2e%2e/secret.txt', 404],
  ['dots and slash encoded upper-case %2E%2E%2F are not a way up', 'GET', '/%2E%2E%2Fsecret.txt', 404],
  ['a half-encoded .%2e is not a way up', 'GET', '/.%2e/secret.txt', 404],
  ['an encoded slash ..%2f is not a way up', 'GET', '/..%2fsecret.txt', 404],
  ['repeated ..%2f does not reach /etc/passwd', 'GET', '/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd', 404],
  ['fully encoded %2e%2e%2f does not reach /etc/passwd', 'GET', '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd', 404],
  ['double-encoded %252e%252e is decoded once only', 'GET', '/%252e%252e/secret.txt', 404],
  ['double-encoded %252e%252e%252f is decoded once only', 'GET', '/%252e%252e%252fsecret.txt', 404],
  ['overlong UTF-8 dots %c0%ae%c0%ae are not dots', 'GET', '/%c0%ae%c0%ae/secret.txt', 404],
  ['overlong UTF-8 slash %c0%af is not a slash', 'GET', '/%c0%ae%c0%ae%c0%afsecret.txt', 404],
  ['IIS-style %u002e is not a dot', 'GET', '/%u002e%u002e/secret.txt', 404],
  ['a backslash ..\\ is not a way up', 'GET', '/..\\secret.txt', 404],
  ['backslashes ..\\..\\ do not reach /etc/passwd', 'GET', '/..\\..\\..\\..\\etc\\passwd', 404],
  ['an encoded backslash ..%5c is not a way up', 'GET', '/..%5csecret.txt', 404],
  ['an encoded backslash before dots %5c..%5c is not a way up', 'GET', '/%5c..%5c..%5csecret.txt', 404],
  ['a path parameter ..;/ is not a way up', 'GET', '/..;/secret.txt', 404],
  ['a ./ segment then ../ stays in the site', 'GET', '/./../secret.txt', 404],
  ['a ./ segment inside the site still finds the site file', 'GET', '/./index.html', 200],
  ['a doubled slash //etc/passwd is a path, not a host', 'GET', '//etc/passwd', 404],
  ['a tripled slash ///etc/passwd is a path, not a host', 'GET', '///etc/passwd', 404],
  ['a doubled slash then ../ stays in the site', 'GET', '//../secret.txt', 404],
  ['an absolute-form target http://x/../../etc/passwd stays in the site', 'GET', 'http://x/../../etc/passwd', 404],
  ['an absolute-form target http://x/../secret.txt stays in the site', 'GET', 'http://x/../secret.txt', 404],
  ['an absolute-form target with %2e%2e stays in the site', 'GET', 'http://x/%2e%2e/secret.txt', 404],
  ['an absolute-form file:///etc/passwd target is not a file URL', 'GET', 'file:///etc/passwd', [400, 404]],
  ['a NUL byte %00 alone names no file', 'GET', '/%00', 404],
  ['a NUL byte before an extension does not cut the name', 'GET', '/index.html%00.json', 404],
  ['a NUL byte after a name does not cut the name', 'GET', '/index.html%00', 404],
  ['a NUL byte inside ../ is not a way up', 'GET', '/..%00/secret.txt', 404],
  ['a double-encoded NUL %2500 is not a NUL', 'GET', '/index.html%2500.json', 404],
  ['a lone % is not an escape', 'GET', '/%', 404],
  ['a malformed escape %zz', 'GET', '/%zz', 404],
  ['bytes that are not UTF-8 %ff%fe', 'GET', '/%ff%fe', 404],
  // Under /api/ the rewrite rules run first; the not-found answer is the API's.
  ['%2e%2e as a survey id is not a way up', 'GET', '/api/schema/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt/', 404, NOT_FOUND],
  ['..%2f as a survey id is not a way up', 'GET', '/api/schema/..%2f..%2f..%2fsecret.txt/', 404, NOT_FOUND],
  ['..%2f after a survey is not a way up', 'GET', '/api/schema/{survey}/..%2f..%2f..%2f..%2fsecret.txt', 404, NOT_FOUND],
  ['overlong UTF-8 dots as a survey id', 'GET', '/api/schema/%c0%ae%c0%ae/', 404, NOT_FOUND],
  ['a NUL byte after a survey id is not that survey', 'GET', '/api/schema/{survey}%00/', 404, NOT_FOUND],
  ['a backslash after a survey id is not that survey', 'GET', '/api/schema/{survey}%5c/', 404, NOT_FOUND],
  ['backslashes and dots after a survey id are not that survey', 'GET', '/api/schema/{survey}%5c..%5c..%5csecret.txt/', 404, NOT_FOUND],
  ['a backslash-escape after a survey id is not that survey', 'GET', '/api/schema/{survey}%5c1/', 404, NOT_FOUND],
];

describe('path traversal in every encoding stays inside the built site', () => {
  test.each(traversal)('%s', async (_description, method, target, status, body) => {
    const r = await ask(method, fill(target));
    expectStatus(r.status, status, `${method} ${fill(target)}`);
    if (body !== undefined) expect(r.body).toBe(body);
    await expectAlive();
  });
});

// ---- symbolic links ----------------------------------------------------------------------------

const links: Row[] = [
  ['a link to a folder outside: a file in it', 'GET', '/linkdir/secret.txt', 404],
  ['a link to a folder outside: its index', 'GET', '/linkdir/', 404],
  ['a link to a folder outside: its index.html named', 'GET', '/linkdir/index.html', 404],
  ['a link to a folder outside: the link itself', 'GET', '/linkdir', 404],
  ['a link to a folder outside through an encoded slash', 'GET', '/linkdir%2fsecret.txt', 404],
  ['an absolute link to a folder outside', 'GET', '/linkabs/secret.txt', 404],
  ['a link to a file outside', 'GET', '/linkfile.txt', 404],
  ['a link to a file outside, asked with HEAD', 'HEAD', '/linkfile.txt', 404],
  ['a link to /etc: /etc/passwd', 'GET', '/etc/passwd', 404],
  ['a link to /etc: the folder', 'GET', '/etc/', 404],
  ['a link to /etc: /etc/hostname', 'GET', '/etc/hostname', 404],
  ['a survey folder linked outside: the survey route', 'GET', '/api/schema/{outside}/', 404, NOT_FOUND],
  ['a survey folder linked outside: the JSON format', 'GET', '/api/schema/{outside}/?format=json', 404, NOT_FOUND],
  ['a survey folder linked outside: the browsable page', 'GET', '/api/schema/{outside}/?format=api', 404],
  ['a survey folder linked outside: its file by name', 'GET', '/api/schema/{outside}/index.json', 404, NOT_FOUND],
  ['a link inside the site to a site file may be served', 'GET', '/inner.html', [200, 404]],
  ["a link inside the site to the build's marker", 'GET', '/marker.txt', 404],
  ['a dangling link', 'GET', '/dangling', 404],
  ['a link that loops on itself', 'GET', '/loop', 404],
  ['a path through a link that loops on itself', 'GET', '/loop/x', 404],
];

describe('symbolic links never lead out of the site', () => {
  test.each(links)('%s', async (_description, method, target, status, body) => {
    const r = await ask(method, fill(target));
    expectStatus(r.status, status, `${method} ${fill(target)}`);
    if (body !== undefined) expect(r.body).toBe(body);
    await expectAlive();
  });
});

// ---- dot-files ---------------------------------------------------------------------------------

const dotFiles: Row[] = [
  ["the build's marker", 'GET', `/${MARKER}`, 404],
  ["the build's marker, asked with HEAD", 'HEAD', `/${MARKER}`, 404],
  ["the build's marker with its dot encoded", 'GET', '/%2earchive-schema-output', 404],
  ["the build's marker with its dot encoded upper-case", 'GET', '/%2Earchive-schema-output', 404],
  ["the build's marker with a letter encoded", 'GET', '/.%61rchive-schema-output', 404],
  ["the build's marker as a folder", 'GET', `/${MARKER}/`, 404],
  ["the build's marker after a doubled slash", 'GET', `//${MARKER}`, 404],
  ["the build's marker after a ./ segment", 'GET', `/./${MARKER}`, 404],
  ["the build's marker after a ../ segment", 'GET', `/api/../${MARKER}`, 404],
  ["the build's marker with a NUL byte after it", 'GET', `/${MARKER}%00`, 404],
  ["the build's marker with a query", 'GET', `/${MARKER}?format=json`, 404],
  ["the build's marker as an absolute-form target", 'GET', `http://x/${MARKER}`, 404],
  ["the build's marker reached from a survey id", 'GET', `/api/schema/..%2f..%2f${MARKER}/`, 404, NOT_FOUND],
  ['a hidden file', 'GET', '/.hidden', 404],
  ['a hidden file with its dot encoded', 'GET', '/%2ehidden', 404],
  ['a file in a hidden folder', 'GET', '/.git/config', 404],
  ['a hidden folder', 'GET', '/.git/', 404],
  ['a hidden file under the API', 'GET', '/api/.hidden', 404, NOT_FOUND],
];

describe("the build's marker and other dot-files are never served", () => {
  test.each(dotFiles)('%s', async (_description, method, target, status, body) => {
    const r = await ask(method, target);
    expectStatus(r.status, status, `${method} ${target}`);
    if (body !== undefined) expect(r.body).toBe(body);
    await expectAlive();
  });
});

// ---- long URLs ---------------------------------------------------------------------------------

const TOO_LONG = [400, 404, 414, 431];

const longUrls: Row[] = [
  ['a 300-character path segment', 'GET', `/${SEGMENT_300}`, TOO_LONG],
  ['a 300-character file name with an extension', 'GET', `/${SEGMENT_300}.json`, TOO_LONG],
  ['a 300-character survey id is not found', 'GET', `/api/schema/${SEGMENT_300}/`, 404, NOT_FOUND],
  ['a 256-digit survey id is not found (docs: unknown id)', 'GET', `/api/schema/${DIGITS_256}/`, 404, NOT_FOUND],
  ['a 256-digit survey id without its trailing slash is not found', 'GET', `/api/schema/${DIGITS_256}`, 404, NOT_FOUND],
  ['a 256-digit survey id with a data_type is not found', 'GET', `/api/schema/${DIGITS_256}/?data_type=catalogues`, 404, NOT_FOUND],
  [
    'a 256-digit survey id with an invalid data_type is a 400 (docs: rule 4 first)',
    'GET',
    `/api/schema/${DIGITS_256}/?data_type=bogus`,
    400,
    INVALID,
  ],
  ['a 256-digit survey id as a browsable page is not found', 'GET', `/api/schema/${DIGITS_256}/?format=api`, 404],
  ['a 256-digit survey id with an unknown format is not found', 'GET', `/api/schema/${DIGITS_256}/?format=xml`, 404, NOT_FOUND],
  ['a 256-digit survey id answers OPTIONS with its metadata (docs: any id)', 'OPTIONS', `/api/schema/${DIGITS_256}/`, 200, OPTIONS_DETAIL],
  ['a 256-digit survey id answers POST with 405 (docs: id not looked at)', 'POST', `/api/schema/${DIGITS_256}/`, 405, notAllowed('POST')],
  ['a 1000-digit survey id is not found', 'GET', `/api/schema/${DIGITS_1000}/`, 404, NOT_FOUND],
  ['an 8 KB path outside the API', 'GET', `/${PATH_8K}`, TOO_LONG],
  ['an 8 KB path ending in a file name', 'GET', `/${PATH_8K}index.html`, TOO_LONG],
  ['an 8 KB path under the API is not found', 'GET', `/api/${PATH_8K}`, 404, NOT_FOUND],
  ['an 8 KB path under a survey is not found', 'GET', `/api/schema/{survey}/${PATH_8K}`, 404, NOT_FOUND],
  ['an 8 KB query on a page that does not exist', 'GET', `/nowhere.html?${QUERY_8K}`, TOO_LONG],
  ['an 8 KB data_type is not a valid choice', 'GET', `/api/schema/?data_type=${'q'.repeat(8192)}`, 400, INVALID],
  ['an 8 KB format is an unknown format', 'GET', `/api/schema/{survey}/?format=${'q'.repeat(8192)}`, 404, NOT_FOUND],
  // docs/api.md: "Extra query parameters are ignored", however long.
  ['an 8 KB extra query parameter on a survey is ignored (docs)', 'GET', `/api/schema/{survey}/?${QUERY_8K}`, 200],
];

describe('long URLs answer 4xx, never 500', () => {
  test.each(longUrls)('%s', async (_description, method, target, status, body) => {
    const r = await ask(method, fill(target));
    expectStatus(r.status, status, `${method} ${shown(fill(target))}`);
    if (body !== undefined) expect(r.body).toBe(body);
    await expectAlive();
  });

  test('an 8 KB extra query parameter gives the same survey as none', async () => {
    const plain = await ask('GET', fill('/api/schema/{survey}/'));
    const padded = await ask('GET', fill(`/api/schema/{survey}/?${QUERY_8K}`));
    expect(padded.body).toBe(plain.body);
  });

  test('a request line over 16 KB is refused, and the server carries on', async () => {
    const r = await raw(request('GET', `/${'a'.repeat(17_000)}`));
    expectNothingLeaked(r.body, r.status, 'a 17 KB request line');
    if (r.answered) expectStatus(r.status, [400, 414, 431], 'a 17 KB request line');
    await expectAlive();
  });
});

// ---- methods -----------------------------------------------------------------------------------

const ODD_METHODS = ['TRACE', 'PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS', 'PROPFIND', 'CONNECT', 'FOO'];

const methods: Row[] = [
  // Outside /api/ the site is static files: GET and HEAD only (src/hosting/serve.ts), OPTIONS included.
  ...ODD_METHODS.map((m): Row => [`${m} on the static page /index.html is 405`, m, '/index.html', 405]),
  ...['POST', 'OPTIONS', 'DELETE'].map((m): Row => [`${m} on the root page / is 405`, m, '/', 405]),
  ['POST on the marker is 405, and shows nothing', 'POST', `/${MARKER}`, 405],
  ['PUT on a ../ path is 405, and writes nothing', 'PUT', '/../secret.txt', 405],
  ['DELETE on a link out of the site is 405', 'DELETE', '/linkfile.txt', 405],
  // Under /api/ the contract (docs/api.md, "Methods"): OPTIONS is metadata, any other method 405 naming it.
  ...['TRACE', 'PUT', 'DELETE', 'POST', 'PATCH', 'PROPFIND', 'CONNECT', 'FOO'].map((m): Row => [
    `${m} on the listing is 405 naming the method`,
    m,
    '/api/schema/?data_type=catalogues',
    405,
    notAllowed(m),
  ]),
  ['OPTIONS on the listing is its metadata', 'OPTIONS', '/api/schema/?data_type=catalogues', 200, OPTIONS_LIST],
  ['DELETE on a survey is 405 naming the method', 'DELETE', '/api/schema/{survey}/', 405, notAllowed('DELETE')],
  ['POST on a path that is not a route is 404', 'POST', '/api/nowhere', 404, NOT_FOUND],
  ['TRACE with a ../ path under the API is 404', 'TRACE', '/api/schema/..%2f..%2f..%2fsecret.txt/', 404, NOT_FOUND],
];

describe('odd methods: 405 with Allow outside the API, the contract under it', () => {
  test.each(methods)('%s', async (_description, method, target, status, body) => {
    const what = `${method} ${fill(target)}`;
    const r = await raw(request(method, fill(target)));
    expect(r.answered, `${what}: the server closed the connection without answering`).toBe(true);
    expectNothingLeaked(r.body, r.status, what);
    expectStatus(r.status, status, what);
    const api = target.startsWith('/api/');
    if (api) expect(r.headers.allow, what).toBe('GET, HEAD, OPTIONS');
    else expect(r.headers.allow, what).toBe('GET, HEAD');
    if (body !== undefined) expect(r.body, what).toBe(body);
    // A TRACE that echoed the request would hand its cookies to a script.
    expect(r.body.includes(COOKIE), `${what}: echoes the request`).toBe(false);
    await expectAlive();
  });
});

// ---- HEAD --------------------------------------------------------------------------------------

/** Headers that belong to the connection or the moment, not to the answer. */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const answerHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !FRAMING.has(name)));

const heads: [description: string, target: string][] = [
  ['the root page', '/'],
  ['the static page', '/index.html'],
  ['a page that does not exist', '/nowhere.html'],
  ["the build's marker", `/${MARKER}`],
  ['a ../ path', '/../secret.txt'],
  ['a link out of the site', '/linkfile.txt'],
  ['the listing', '/api/schema/?data_type=catalogues'],
  ['a survey', '/api/schema/{survey}/'],
  ['a 256-digit survey id', `/api/schema/${DIGITS_256}/`],
  ['a browsable page', '/api/schema/?data_type=catalogues&format=api'],
];

describe('HEAD answers with the headers of GET and no body', () => {
  test.each(heads)('HEAD on %s', async (_description, target) => {
    const get = await ask('GET', fill(target));
    const head = await ask('HEAD', fill(target));
    expect(head.status).toBe(get.status);
    expect(head.bytes.length).toBe(0);
    expect(answerHeaders(head.headers)).toEqual(answerHeaders(get.headers));
    await expectAlive();
  });
});

// ---- malformed requests over a raw socket ------------------------------------------------------

const REFUSED = [400];

const malformed: [description: string, bytes: string | Buffer, status: Status][] = [
  ['a request line with no HTTP version', 'GET /index.html\r\n\r\n', REFUSED],
  // The first bytes of a TLS ClientHello: https spoken to the http port.
  ['garbage bytes (TLS spoken to the http port)', Buffer.from('160301020001000200030300fffe0d0a0d0a', 'hex'), REFUSED],
  ['garbage text with control bytes', '\x00\x01\x02 hello there\r\n\r\n', REFUSED],
  ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nThis line has no colon\r\n\r\n', REFUSED],
  ['a header over 16 KB', `GET / HTTP/1.1\r\nHost: localhost\r\nX-Long: ${'a'.repeat(17_000)}\r\n\r\n`, [400, 431]],
  [
    'Content-Length and Transfer-Encoding together (request smuggling)',
    'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /../secret.txt HTTP/1.1\r\nHost: localhost\r\n\r\n',
    REFUSED,
  ],
  [
    'two different Content-Length headers',
    'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    REFUSED,
  ],
  ['a Content-Length that is not a number', 'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n', REFUSED],
  ['the target * with GET', request('GET', '*'), REFUSED],
  ['the target * with OPTIONS', request('OPTIONS', '*'), REFUSED],
  ['a target without a leading slash', request('GET', 'index.html'), REFUSED],
  ['a relative ../ target', request('GET', '../secret.txt'), REFUSED],
  ['a raw NUL byte in the target', request('GET', '/index.html\x00.json'), REFUSED],
  ['a raw space in the target', request('GET', '/index .html'), REFUSED],
  ['raw overlong UTF-8 bytes in the target', request('GET', '/\xc0\xae\xc0\xae/secret.txt'), REFUSED],
  ['HTTP/1.1 without a Host header', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', REFUSED],
  ['an HTTP version that does not exist', 'GET / HTTP/9.9\r\nHost: localhost\r\nConnection: close\r\n\r\n', [400, 505]],
  ['an obsolete folded header line', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\r\n  folded\r\nConnection: close\r\n\r\n', REFUSED],
  ['a control byte in a header value', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\x01b\r\nConnection: close\r\n\r\n', REFUSED],
  ['a space before a header colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-A : a\r\nConnection: close\r\n\r\n', REFUSED],
];

describe('malformed requests are refused (400, or the connection closed) and the server carries on', () => {
  test.each(malformed)('%s', async (description, bytes, status) => {
    const r = await raw(bytes);
    expectNothingLeaked(r.body, r.status, description);
    if (r.answered) expectStatus(r.status, status, description);
    await expectAlive();
  });
});

// ---- hostile headers ---------------------------------------------------------------------------

const headerRows: [description: string, target: string, headers: Record<string, string>, status: Status][] = [
  ['a range past the end of a file', '/index.html', { Range: 'bytes=99999999-' }, 416],
  ['a malformed range', '/index.html', { Range: 'bytes=x-y' }, [200, 416]],
  ['a range on the marker', `/${MARKER}`, { Range: 'bytes=0-10' }, 404],
  ['a range on a link out of the site', '/linkfile.txt', { Range: 'bytes=0-10' }, 404],
  ['JSON error pages asked for on a ../ path', '/../secret.txt', { Accept: 'application/json' }, 404],
  ['JSON error pages asked for through a looping link', '/loop/x', { Accept: 'application/json' }, 404],
  ['another Host header', '/../secret.txt', { Host: 'evil.example' }, 404],
];

describe('hostile headers change nothing about what is served', () => {
  test.each(headerRows)('%s', async (_description, target, headers, status) => {
    const r = await ask('GET', target, headers);
    expectStatus(r.status, status, `GET ${target}`);
    await expectAlive();
  });
});

// ---- conditional requests ------------------------------------------------------------------------

// If-Range (RFC 9110, 13.1.5): the range only while the file is the one the client validated, with
// its strong ETag; otherwise the whole file, 200. Answering 206 to a validator that no longer
// matches spliced the start of one version to the end of another in a resumed download.
describe('a range with If-Range is sent only while the file is unchanged', () => {
  let etag = '';
  beforeAll(async () => {
    const r = await ask('GET', `/${RESUMABLE}`);
    expect(r.body).toBe(RESUMABLE_FIRST);
    etag = r.headers.etag ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
  });
  const ranged = (ifRange: string) => ask('GET', `/${RESUMABLE}`, { Range: 'bytes=100-199', 'If-Range': ifRange });

  test("with the file's ETag: 206 and the range", async () => {
    const r = await ranged(etag);
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes 100-199/${RESUMABLE_FIRST.length}`);
    expect(r.body).toBe(RESUMABLE_FIRST.slice(100, 200));
  });

  test.each([
    ['an ETag the file never had', () => '"0123456789abcdef"'],
    ["the weak form of the file's ETag (a weak validator never matches If-Range)", () => `W/${etag}`],
    ['a date (no file answer has a Last-Modified for it to match)', () => new Date(Date.now() + 86_400_000).toUTCString()],
    ['a date long past', () => 'Thu, 01 Jan 1970 00:00:00 GMT'],
    ["the ETag of the file's gzip answer, which names other bytes", () => `${etag.slice(0, -1)}-gzip"`],
    ['something that is neither', () => 'bogus'],
  ])('with %s: 200 and the whole file', async (_name, ifRange) => {
    const r = await ranged(ifRange());
    expect(r.status).toBe(200);
    expect(r.headers['content-range']).toBeUndefined();
    expect(r.headers['last-modified']).toBeUndefined();
    expect(r.body).toBe(RESUMABLE_FIRST);
    await expectAlive();
  });

  test('If-Range without a Range is ignored: 200 and the whole file', async () => {
    const r = await ask('GET', `/${RESUMABLE}`, { 'If-Range': '"0123456789abcdef"' });
    expect(r.status).toBe(200);
    expect(r.body).toBe(RESUMABLE_FIRST);
  });

  test('a download resumed after the file changed gets the new file whole, never two versions spliced', async () => {
    await writeFile(path.join(dist, RESUMABLE), RESUMABLE_SECOND);
    try {
      const r = await ranged(etag);
      expect(r.status).toBe(200);
      expect(r.headers['content-range']).toBeUndefined();
      expect(r.body).toBe(RESUMABLE_SECOND);
      expect(r.headers.etag).not.toBe(etag);
      // Resumed again with the new ETag, the range is of the new file.
      const again = await ranged(r.headers.etag ?? '');
      expect(again.status).toBe(206);
      expect(again.body).toBe(RESUMABLE_SECOND.slice(100, 200));
    } finally {
      await writeFile(path.join(dist, RESUMABLE), RESUMABLE_FIRST);
    }
  });
});

// ---- requests that are complete but unreadable -------------------------------------------------------

/** Every answer in what came back: a second status line would be a second answer to one request. */
const statusLines = (body: string, r: RawResult) => [r.status, ...[...body.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))];

describe('a request that cannot be read is answered once, 400, and the connection closed', () => {
  // Node's parser takes a request line with no version for an HTTP/0.9 request and waits for
  // headers that never come: the connection stayed open, with no answer, until a timeout.
  test.each([
    ['GET / with no version, and nothing after it', 'GET /\r\n', 'Bad Request\n'],
    ['a version-less line ending in LF alone', 'GET /index.html\n', 'Bad Request\n'],
    ['a version-less line after empty lines', '\r\n\r\nGET /\r\n', 'Bad Request\n'],
    ['a version-less HEAD', 'HEAD /\r\n', ''],
  ])('%s', async (_name, bytes, body) => {
    const r = await raw(bytes);
    expect(r.answered).toBe(true);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers.connection).toBe('close');
    expect(r.body).toBe(body);
    await expectAlive();
  });

  // A body in chunks that are not chunks: the method was answered (405) and then a 400 followed it
  // on the same connection; a GET got the 400 alone. The body is looked at before any answer, as
  // nginx does, and its request is a bad one whatever the method.
  test.each(
    ['GET', 'HEAD', 'POST', 'OPTIONS', 'DELETE', 'PROPFIND'].flatMap((method) =>
      ['/index.html', '/api/schema/?data_type=catalogues', '/api/schema/{survey}/', '/nowhere'].map((target) => ({ method, target })),
    ),
  )('a body in chunks that are not chunks: $method $target', async ({ method, target }) => {
    const r = await raw(
      `${method} ${fill(target)} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
    );
    expect(statusLines(r.body, r)).toEqual([400]);
    expect(r.headers['content-length']).toBe('12');
    expect(r.body).toBe(method === 'HEAD' ? '' : 'Bad Request\n');
    await expectAlive();
  });

  test('a body in good chunks is read past, and the method answered as without one', async () => {
    const r = await raw(
      `POST /index.html HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n`,
    );
    expect(statusLines(r.body, r)).toEqual([405]);
    expect(r.headers.allow).toBe('GET, HEAD');
  });
});

// ---- the server's own output -------------------------------------------------------------------

describe('after all of the above', () => {
  test('the server is still running', async () => {
    await expectAlive();
  });

  /** What the server printed on stderr, one distinct line each, shortened (a line of spaces is no line). */
  const printed = () =>
    [...new Set(stderr.split('\n').map((line) => line.trim()))].filter((line) => line !== '').map((line) => shown(line));

  test('the server printed no error dump and no stack trace', () => {
    expect(printed().filter((line) => /\bError\b|^at \S+:\d+:\d+|^at .*\(\S+:\d+:\d+\)$/.test(line))).toEqual([]);
  });

  test('the server printed nothing at all on stderr for hostile requests', () => {
    expect(printed()).toEqual([]);
  });
});
