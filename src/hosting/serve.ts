// The local server that behaves as the deployed site does: Netlify's own redirect engine reads
// the project's netlify.toml to route each request, Netlify's own header parser reads its header
// rules (`[[headers]]`), which are applied to what the files answer, the edge policy (edge.ts, the code Netlify
// runs at the edge) answers methods and finishes every /api/ response, and the files of the built
// site are sent as a static host sends them: with an ETag, byte ranges, and compressed by the
// rule every host follows (routes.ts, COMPRESSION). It exists to preview and to test; production
// never depends on it.
//
// It is built to keep up with a plain static file server: the engine's answer for a request is
// remembered (it depends on nothing but the request), a file's bytes go from the disk to the
// socket through Node streams (never through web streams, which cost more than the rest of a
// small request), and nothing holds a whole file in memory.

import { createHash } from 'node:crypto';
import { close, createReadStream, lstatSync, open as openFd, read, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import type { Transform } from 'node:stream';
import { parseAllHeaders } from '@netlify/headers-parser';
import { RedirectsHandler } from '@netlify/redirects';
import { UsageError } from '../errors.ts';
import { STATIC_METHOD_NOT_ALLOWED, answerBeforeFiles, isApiPath, policy, withDocumentHeaders } from './edge.ts';
import { COMPRESSION, ENCODING_SUFFIX, NOT_FOUND_PAGE, compressible, documentAt } from '../site/routes.ts';
import type { Answer } from './edge.ts';
import type { Encoding } from '../site/routes.ts';
import { NETLIFY_TOML } from '../project.ts';
import { MARKER } from '../destination/output.ts';

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  /** The built site, usually dist/. */
  dir: string;
  port?: number;
  host?: string;
  /** netlify.toml to route with; defaults to the project's own. */
  config?: string;
}

export interface RunningServer {
  server: Server;
  /** Where it listens, e.g. http://127.0.0.1:8080. */
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = path.resolve(options.dir);
  const config = options.config ?? NETLIFY_TOML;
  try {
    statSync(path.join(dir, MARKER));
  } catch {
    throw new UsageError(`${options.dir} holds no build; run \`npm run build\` first (or pass the built folder with --dir)`);
  }
  try {
    statSync(config);
  } catch {
    throw new UsageError(`cannot read ${config}; pass the site's netlify.toml with --config`);
  }
  const redirects = new RedirectsHandler({
    configPath: config,
    projectDir: path.dirname(config),
    publicDir: dir,
    configRedirects: [],
    jwtSecret: '',
    jwtRoleClaim: '',
  });
  const route = rememberedRoutes(redirects);
  const rules = await headerRules(config);
  const files = staticFiles(dir);
  // The answers begun on each connection and not yet finished: an error found after one has begun
  // (a body that turns out not to be chunks) can only close the connection, never add an answer.
  const pending = new WeakMap<Duplex, Set<ServerResponse>>();
  const server = createServer((req, res) => {
    const socket = req.socket;
    // Refused already, as its first line came (an HTTP/0.9 request): nothing more is sent.
    if (socket.writableEnded || socket.destroyed) return;
    const answers = pending.get(socket) ?? new Set<ServerResponse>();
    pending.set(socket, answers.add(res));
    res.once('close', () => answers.delete(res));
    const answer = () => {
      respond(req, res, route, files, rules).catch((error: unknown) => {
        // A bug in this server, not in the request: say so plainly and keep serving.
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`internal error in archive-schema serve: ${(error as Error).message}\n`);
      });
    };
    // A body is never read, but what of it came with the request is parsed before the request is
    // answered, as nginx does: one that is not what its framing says (chunks that are not chunks)
    // makes the request a bad one, answered 400 by clientError below and by nothing else.
    if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0') answer();
    else
      setImmediate(() => {
        if (!socket.writableEnded && !socket.destroyed) answer();
      });
  });
  // A request line without a version (`GET /`, HTTP/0.9) is complete as it is, but Node's parser
  // waits for headers that never come, and the connection stays open until a timeout: it is
  // refused as soon as the line is in.
  server.on('connection', (socket: Duplex) => {
    refuseVersionless(socket);
  });
  // Node's parser never hands these to the request handler: CONNECT goes to its own event, and a
  // method it does not know is a client error. Both get the answer any other method gets.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    answerRaw(socket, req.method ?? 'CONNECT', req.url ?? '/');
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    const answers = [...(pending.get(socket) ?? [])];
    if (!socket.writable || answers.some((res) => res.headersSent)) {
      socket.destroy();
      return;
    }
    const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString('latin1') ?? '');
    if (error.code === 'HPE_INVALID_METHOD' && line) {
      answerRaw(socket, line[1] ?? '', line[2] ?? '/');
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    else socket.end(badRequest(answers.some((res) => res.req.method === 'HEAD')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new UsageError(`port ${options.port} is in use; pass another with --port`) : error);
    });
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host ?? DEFAULT_HOST;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function respond(req: IncomingMessage, res: ServerResponse, route: Router, files: StaticFiles, rules: HeaderRules): Promise<void> {
  const method = req.method ?? 'GET';
  // A request line without a version is read as HTTP/0.9, which no client of a site sends; HTTP/2
  // is not spoken in plain text.
  if (req.httpVersionMajor !== 1) {
    const [status, text] = req.httpVersionMajor === 0 ? [400, 'Bad Request'] : [505, 'HTTP Version Not Supported'];
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    res.end(`${text}\n`);
    return;
  }
  // The request target is a path; a fixed origin keeps `//x` from being read as a host name.
  const raw = req.url ?? '/';
  let url: URL;
  try {
    url = new URL(raw.startsWith('/') ? `http://localhost${raw}` : raw);
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('malformed request target\n');
    return;
  }
  // Methods other than GET and HEAD never reach the files under /api/; answering them here
  // also avoids building a web Request for methods the Request class refuses (TRACE, CONNECT).
  const own = answerBeforeFiles(method, url);
  if (own) {
    await deliver(req, res, fromAnswer(own));
    return;
  }
  // Outside /api/ the site is static files, which answer GET and HEAD, as a static host's do.
  if (!isApiPath(url.pathname) && method !== 'GET' && method !== 'HEAD') {
    await deliver(req, res, fromAnswer(STATIC_METHOD_NOT_ALLOWED));
    return;
  }
  const bodies: FileBodies = new Map();
  const document = documentAt(url.pathname);
  // A document's folder asked for without its slash is its file, as on the other hosts.
  const asked = document && !isApiPath(url.pathname) && `${url.pathname}/` === document.path ? new URL(`/${document.file}`, url) : url;
  const fileLayer = () => routeAndServe(asked, req.headers, route, files, bodies);
  // The API and the documents get what Netlify's edge function and headers rules give them.
  const response =
    isApiPath(url.pathname) && (method === 'GET' || method === 'HEAD')
      ? await policy(method, url, fileLayer)
      : document
        ? withDocumentHeaders(document, await withNotFoundPage(await fileLayer(), req.headers, files, bodies))
        : await withNotFoundPage(await fileLayer(), req.headers, files, bodies);
  const out = response instanceof Response ? fromResponse(response, bodies) : fromAnswer(response);
  // Outside the API, what the files answered also gets the values of the header rules its path
  // matches (the schema browser's policy; the documents' own headers, again).
  if (!isApiPath(url.pathname) && out.status < 400) for (const [name, value] of rules(url.pathname)) out.headers[name] = value;
  await deliver(req, res, out);
}

// ---- Header rules: netlify.toml's [[headers]], as Netlify reads them ----------------------------

/** The header values the rules give a path: names in lower case, values as written. */
type HeaderRules = (pathname: string) => [string, string][];

/**
 * The `[[headers]]` rules of the configuration, read by Netlify's own parser: every rule whose
 * `for` matches the path asked for (a `*` part matches anything below, a trailing slash is
 * optional, case is ignored) adds its values, a later rule's winning, as Netlify's CLI applies them.
 */
async function headerRules(config: string): Promise<HeaderRules> {
  const { headers, errors } = await parseAllHeaders({ headersFiles: [], netlifyConfigPath: config, configHeaders: [], minimal: false });
  const [error] = errors;
  if (error) throw new UsageError(`cannot read the header rules of ${config}: ${error.message.split('\n')[0] ?? ''}`);
  const rules = headers.flatMap((h) =>
    'forRegExp' in h
      ? [{ test: h.forRegExp, values: Object.entries(h.values).map(([n, v]): [string, string] => [n.toLowerCase(), v]) }]
      : [],
  );
  return (pathname) => {
    const given = new Map<string, string>();
    for (const rule of rules) if (rule.test.test(pathname)) for (const [name, value] of rule.values) given.set(name, value);
    return [...given];
  };
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') web.set(name, value);
    else if (Array.isArray(value)) for (const v of value) web.append(name, v);
  }
  return web;
}

// ---- Routing: Netlify's engine, its answers remembered -------------------------------------------

type Match = Awaited<ReturnType<RedirectsHandler['match']>>;
type Router = (url: URL, headers: IncomingHttpHeaders) => Promise<Match>;

/** How many answers of the engine are kept, and the longest request they are kept for. */
const ROUTE_MEMORY = { entries: 4096, keyLength: 2048 };

/**
 * The engine's `match()`, remembered per request. Matching a request against the rules in the
 * engine's WebAssembly took most of the time of a small request (over half of it, profiled),
 * while its answer depends only on the request's URL and on what its rules' conditions can name:
 * the language (Accept-Language, or an X-Language header), the country (X-Country) and cookies.
 * So the answer is kept per URL and those headers, in a bounded map that forgets its oldest
 * entry first; a request with cookies is matched afresh every time (a role's JWT expires), as
 * is one whose answer asks to sign the proxied request (the signature expires too).
 */
function rememberedRoutes(redirects: RedirectsHandler): Router {
  const remembered = new Map<string, { match: Match }>();
  return async (url, headers) => {
    const key =
      headers.cookie === undefined
        ? `${url.href}\n${headers['accept-language'] ?? ''}\n${String(headers['x-language'] ?? '')}\n${String(headers['x-country'] ?? '')}`
        : undefined;
    const known = key === undefined ? undefined : remembered.get(key);
    if (known) return known.match;
    const match = await redirects.match(new Request(url, { headers: webHeaders(headers) }));
    if (key !== undefined && key.length <= ROUTE_MEMORY.keyLength && !match?.error && !match?.headers['x-nf-sign']) {
      if (remembered.size >= ROUTE_MEMORY.entries) remembered.delete(remembered.keys().next().value ?? '');
      remembered.set(key, { match });
    }
    return match;
  };
}

/**
 * What the host does behind the edge: match the rewrite rules, then serve a file.
 *
 * This is the one place that compensates for where @netlify/redirects differs from Netlify's
 * CDN: its `handle()` serves a rewrite's file with 200 whatever the rule's status, and treats
 * status 400 as a redirect. So only `match()` is used: the rule's status is applied to the file
 * here, and only 301, 302, 303, 307 and 308 redirect.
 */
async function routeAndServe(
  url: URL,
  headers: IncomingHttpHeaders,
  route: Router,
  files: StaticFiles,
  bodies: FileBodies,
): Promise<Response> {
  // The engine puts a path's parts into its targets with RE2 rewrites, where a backslash is an
  // escape: `/api/schema/1%5c1/` became survey 1, and each such request printed a page of RE2's
  // complaints. No rule and no file of a built site has a backslash in its path.
  if (safeDecode(url.pathname)?.includes('\\') ?? true) return notFound();
  let match: Match;
  try {
    match = await route(url, headers);
  } catch {
    // The engine decodes the path and throws on a malformed escape (%E0%A4%A): no rule and
    // no file can have such a name.
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '9' } });
  }
  if (!match || match.external) return files(url.pathname, headers, bodies);
  if ([301, 302, 303, 307, 308].includes(match.statusCode)) {
    return new Response(null, { status: match.statusCode, headers: { Location: match.targetRelative } });
  }
  if (!match.force) {
    const source = await files(url.pathname, headers, bodies);
    if (source.status !== 404) return source;
    await source.body?.cancel();
  }
  const served = await files(match.target.pathname, headers, bodies);
  if (served.status !== 200 || match.statusCode === 200) return served;
  return new Response(served.body, { status: match.statusCode, headers: served.headers });
}

/**
 * A 404 outside the API as Netlify answers it: the site's 404 page, with the status kept. A site
 * without one (built before it had one) keeps the plain answer.
 */
async function withNotFoundPage(found: Response, headers: IncomingHttpHeaders, files: StaticFiles, bodies: FileBodies): Promise<Response> {
  if (found.status !== 404) return found;
  // Only the encoding is asked for: a range or a condition was about the address asked for, not this page.
  const page = await files(`/${NOT_FOUND_PAGE}`, { 'accept-encoding': headers['accept-encoding'] }, bodies);
  if (page.status !== 200) {
    await page.body?.cancel();
    return found;
  }
  await found.body?.cancel();
  return new Response(page.body, { status: 404, headers: page.headers });
}

function safeDecode(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

// Its length is said, so that the compression rule can see that it does not cover it.
const notFound = () =>
  new Response('Not Found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '10' } });

// ---- Files ----------------------------------------------------------------------------------------

/**
 * The file a request path names inside the site, or undefined when it names none that may be
 * served: a path no file can have (a NUL byte, a name over 255 bytes, a malformed escape), a
 * hidden file (the build's own marker; a built site has no other), or one that leads out of the
 * site, through `..` in any encoding or through a symbolic link.
 */
export function fileInSite(root: string, pathname: string): string | undefined {
  return siteFile(root, pathname)?.real;
}

/** fileInSite, with the path as asked for beside the real one. */
function siteFile(root: string, pathname: string): { asked: string; real: string } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const segments = decoded.split('/').filter((s) => s !== '');
  // A segment starting with a dot is hidden, and `.` and `..` are among them.
  if (segments.some((s) => s.startsWith('.') || Buffer.byteLength(s) > 255)) return undefined;
  const asked = path.join(root, ...segments);
  let real: string;
  try {
    real = realpathSync.native(asked);
  } catch {
    // Not there, or not a path the system takes (a link loop, a path too long): no file.
    return undefined;
  }
  return real === root || real.startsWith(root + path.sep) ? { asked, real } : undefined;
}

/**
 * The bytes a file answer stands for, kept beside the Response the file layer gives: the edge
 * only passes a file's body on or replaces it, and a web stream costs more than all the rest of a
 * small request, so a file's Response carries no body of its own (or, for an HTML file, one that
 * opens the file only when read) and FILE_HEADER names its entry here. `deliver` sends the file
 * itself from the disk when the body that reaches it is still the one given here.
 */
interface FileBody {
  /** The file to read (the real path, inside the site). */
  file: string;
  /** Its path in the site, for the compression rule. */
  relative: string;
  /** Its whole size, and the bytes to send: all of them, or one range. */
  size: number;
  start: number;
  end: number;
  /** The body the Response was given: an HTML file's, which the edge may read and fill in. */
  web: ReadableStream<Uint8Array> | null;
  /** The whole file's bytes, when it is small and they were kept as its ETag was taken. */
  bytes?: Buffer | undefined;
}

type FileBodies = Map<string, FileBody>;

/** Names a response's entry in its request's FileBodies; never sent. */
const FILE_HEADER = 'x-archive-schema-file';

type StaticFiles = (pathname: string, headers: IncomingHttpHeaders, bodies: FileBodies) => Promise<Response>;

/** Content types by file name ending: those of the files a site holds, as the mime database gives them. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml',
  '.xsd': 'application/xml',
  '.gz': 'application/gzip',
  '.zip': 'application/zip',
  '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

/** The folder the site's path leads to, followed through the link a build publishes it with. */
function siteRoot(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}

/**
 * The built folder's files as a static host serves them: a folder answers with its index.html,
 * a symbolic link as the last part of the path is not served (nor anything fileInSite refuses),
 * and every file has its content type, Accept-Ranges, and an ETag that is a hash of its bytes
 * (kept until the file changes). A Range header is answered with 206 and one range of the file's
 * bytes, or 416 when no range it names is in the file. Conditional requests are answered in
 * `deliver`, once the encoding, and so the ETag, is known.
 */
function staticFiles(dir: string): StaticFiles {
  const etag = etags();
  let next = 0;
  return async (pathname, headers, bodies) => {
    // Where the site is now: a build publishes a new folder by switching the link at `dir`.
    const root = siteRoot(dir);
    if (root === undefined) return notFound();
    const wanted = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
    const found = siteFile(root, wanted);
    if (!found) return notFound();
    const { asked, real } = found;
    let stats: Stats | undefined;
    try {
      if (real !== asked && lstatSync(asked).isSymbolicLink()) return notFound();
      stats = statSync(real);
    } catch {
      return notFound();
    }
    if (!stats.isFile()) return notFound();
    const type = CONTENT_TYPES[path.extname(asked).toLowerCase()];
    const known = await etag(real, stats);
    const head: Record<string, string> = {
      'accept-ranges': 'bytes',
      'content-length': String(stats.size),
      etag: known.etag,
      ...(type ? { 'content-type': type } : {}),
    };
    let status = 200;
    let [start, end] = [0, stats.size - 1];
    const range = headers.range;
    if (range && stats.size > 0 && rangeStillValid(headers['if-range'], known.etag)) {
      const first = firstRange(range, stats.size);
      if (first) {
        status = 206;
        [start, end] = first;
        head['content-range'] = `bytes ${start}-${end}/${stats.size}`;
        head['content-length'] = String(end - start + 1);
      } else {
        status = 416;
        head['content-range'] = `bytes */${stats.size}`;
        head['content-length'] = '0';
      }
    }
    // The edge reads a file's body only to fill in a browsable page's request line: those are HTML.
    const web = status !== 416 && type?.startsWith('text/html') ? fileStream(real, start, end) : null;
    const id = String(next++);
    bodies.set(id, {
      file: real,
      relative: path.relative(root, real).split(path.sep).join('/'),
      size: stats.size,
      start,
      end,
      web,
      bytes: known.bytes,
    });
    head[FILE_HEADER] = id;
    return new Response(web, { status, headers: head });
  };
}

/**
 * Whether a Range header is to be answered, as If-Range decides it (RFC 9110, 13.1.5): always
 * without one; with an entity tag, only when it is the file's own strong ETag (a weak tag never
 * matches, and the tag of a compressed answer names other bytes); with a date, never, as no file
 * answer says when it was last modified. Otherwise the whole file is sent with 200, so a client
 * resuming the download of a file that has changed since gets the new file whole, never the start
 * of one version and the end of another.
 */
function rangeStillValid(ifRange: string | string[] | undefined, etag: string): boolean {
  if (ifRange === undefined) return true;
  // Sent twice, it names no one validator.
  return typeof ifRange === 'string' && etag.startsWith('"') && ifRange.trim() === etag;
}

/** The first satisfiable range of a Range header, as serve-handler's range-parser read it; undefined: 416. */
function firstRange(header: string, size: number): [number, number] | undefined {
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq) !== 'bytes') return undefined;
  for (const spec of header.slice(eq + 1).split(',')) {
    const m = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(spec);
    if (!m || (m[1] === '' && m[2] === '')) continue;
    let start = m[1] === '' ? NaN : Number(m[1]);
    let end = m[2] === '' ? NaN : Number(m[2]);
    if (Number.isNaN(start)) [start, end] = [size - end, size - 1];
    else if (Number.isNaN(end)) end = size - 1;
    end = Math.min(end, size - 1);
    if (start >= 0 && start <= end) return [start, end];
  }
  return undefined;
}

/** Files up to this size are read in one go; larger ones stream in chunks of this size. */
const CHUNK = 64 * 1024;

/**
 * A file's ETag: the SHA-1 of its name's ending and its bytes, as serve-handler made it (so ETags
 * are what they were), computed once per version of the file (its size, time and inode) and by one
 * reading however many requests ask at once. '' when the file cannot be read.
 */
/** What is known of a file's version: its ETag, and its bytes when the file is small. */
interface Known {
  etag: string;
  bytes?: Buffer | undefined;
}

/** Files up to this size are kept in memory once read for their ETag, up to KEPT_BYTES in all. */
const SMALL_FILE = 64 * 1024;
const KEPT_BYTES = 32 * 1024 * 1024;

/**
 * Each file's ETag (a hash of its bytes), kept until the file changes. A small file's bytes are
 * kept with it, within a budget: a small answer then costs no open, read and close of its own,
 * which took a third of the time of a small survey's route.
 */
function etags(): (file: string, stats: Stats) => Known | Promise<Known> {
  const known = new Map<string, { version: string; found: Known | Promise<Known> }>();
  let kept = 0;
  return (file, stats) => {
    const version = `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
    const cached = known.get(file);
    if (cached?.version === version) return cached.found;
    if (cached) {
      const old = cached.found;
      if (!(old instanceof Promise)) kept -= old.bytes?.length ?? 0;
    }
    const entry: { version: string; found: Known | Promise<Known> } = { version, found: { etag: '' } };
    const keep = stats.size <= SMALL_FILE && kept + stats.size <= KEPT_BYTES;
    const reading: Promise<Known> = keep ? readAndHash(file, stats.size) : hashOf(file).then((etag) => ({ etag }));
    entry.found = reading.then(
      (found: Known) => {
        kept += found.bytes?.length ?? 0;
        return (entry.found = found);
      },
      () => {
        if (known.get(file) === entry) known.delete(file);
        return { etag: '' };
      },
    );
    known.set(file, entry);
    return entry.found;
  };
}

/** A small file's bytes and its ETag; the bytes only when they are the size its stats said. */
async function readAndHash(file: string, size: number): Promise<Known> {
  const bytes = await readFile(file);
  const etag = `"${createHash('sha1').update(path.extname(file)).update('-').update(bytes).digest('hex')}"`;
  return bytes.length === size ? { etag, bytes } : { etag };
}

function hashOf(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha1').update(path.extname(file)).update('-');
    createReadStream(file, { highWaterMark: CHUNK })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(`"${hash.digest('hex')}"`));
  });
}

/** Bytes of a file as a web stream that opens the file when first read, and closes it when done or cancelled. */
function fileStream(file: string, start: number, end: number): ReadableStream<Uint8Array> {
  let handle: FileHandle | undefined;
  let done = false;
  let position = start;
  const finish = async (): Promise<void> => {
    done = true;
    const opened = handle;
    handle = undefined;
    await opened?.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        try {
          handle ??= await open(file, 'r');
          // Cancelled while the file was being opened.
          if (done) {
            await finish();
            return;
          }
          const length = Math.max(0, Math.min(CHUNK, end + 1 - position));
          const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
          if (bytesRead === 0) {
            await finish();
            controller.close();
            return;
          }
          position += bytesRead;
          controller.enqueue(new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead));
        } catch (error) {
          await finish().catch(() => undefined);
          controller.error(error);
        }
      },
      cancel: finish,
    },
    // Nothing is read before someone asks: a body that is never read never opens its file.
    { highWaterMark: 0 },
  );
}

/** `length` bytes of a file from `start`, read in one go. */
function readBytes(file: string, start: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    openFd(file, 'r', (error, fd) => {
      if (error) {
        reject(error);
        return;
      }
      const buffer = Buffer.allocUnsafe(length);
      read(fd, buffer, 0, length, start, (readError, bytesRead) => {
        close(fd, () => {
          if (readError) reject(readError);
          else if (bytesRead !== length) reject(new Error(`${file} changed while it was read`));
          else resolve(buffer);
        });
      });
    });
  });
}

// ---- Sending: compression, conditional requests, the body ------------------------------------------

/** An answer about to be sent: its status, its headers (names in lower case) and its body. */
interface Outgoing {
  status: number;
  headers: Record<string, string>;
  body: Body;
}

type Body =
  | { kind: 'none' }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'file'; file: FileBody }
  | { kind: 'web'; stream: ReadableStream<Uint8Array> };

/** Statuses whose answers carry no representation: no content, not modified, no such range. */
const BODILESS = new Set([204, 304, 416]);

function fromAnswer(answer: Answer): Outgoing {
  const bytes = Buffer.from(answer.body ?? '', 'utf8');
  const headers: Record<string, string> = {};
  const named: Record<string, string> = { 'content-length': String(bytes.length) };
  for (const [name, value] of Object.entries(answer.headers)) named[name.toLowerCase()] = value;
  // In the order a Headers object gives them, as the edge's own answers have them on Netlify.
  for (const name of Object.keys(named).sort()) headers[name] = named[name] ?? '';
  return { status: answer.status, headers, body: { kind: 'bytes', bytes } };
}

function fromResponse(response: Response, bodies: FileBodies): Outgoing {
  const headers: Record<string, string> = {};
  let id: string | undefined;
  response.headers.forEach((value, name) => {
    if (name === FILE_HEADER) id = value;
    else headers[name] = value;
  });
  const file = id === undefined ? undefined : bodies.get(id);
  // A file's own bytes, unless the edge gave the answer another body (or none).
  if (response.body === file?.web && !BODILESS.has(response.status))
    return { status: response.status, headers, body: { kind: 'file', file } };
  return { status: response.status, headers, body: response.body ? { kind: 'web', stream: response.body } : { kind: 'none' } };
}

/**
 * Sends an answer as a static host following the compression rule does (routes.ts, COMPRESSION):
 * an answer the rule covers says `Vary: Accept-Encoding`, compressed or not, and is compressed
 * when the request accepts an encoding. A file's precompressed copy beside it (`build
 * --precompress`) is sent when there is one, with its length; otherwise the bytes are compressed
 * as they are sent, with no length, and the ETag becomes weak, as nginx makes it. Either way the
 * ETag names the encoding, so that If-None-Match answers 304 for the bytes the client holds.
 *
 * A Range request is answered from the identity bytes (206, Content-Range, no Content-Encoding),
 * as it was before compression: resuming a download then asks for the bytes of the file itself,
 * whose offsets do not change with the encoding a request happens to accept.
 *
 * HEAD gets exactly the headers GET gets: nothing here depends on the method but the body.
 */
async function deliver(req: IncomingMessage, res: ServerResponse, out: Outgoing): Promise<void> {
  const { headers } = out;
  let { status, body } = out;
  const length = representationLength(status, headers);
  let compress: Encoding | undefined;
  if (!BODILESS.has(status) && status >= 200 && !headers['content-encoding'] && compressible(headers['content-type'] ?? null, length)) {
    headers.vary = withVary(headers.vary);
    const header = req.headers['accept-encoding'];
    let encoding = status === 206 ? undefined : acceptedEncoding(header);
    if (encoding) {
      // A copy the request accepts is sent before anything compressed as it goes, as nginx's static
      // modules come before its filters: archive.json goes as archive.json.gz to a browser.
      const file = body.kind === 'file' && status === 200 ? body.file : undefined;
      const copies = file
        ? [encoding, ...COMPRESSION.encodings.filter((e) => e !== encoding && acceptable(header, e))].map((e) => ({
            e,
            copy: precompressedCopy(file, e),
          }))
        : [];
      const found = copies.find((c) => c.copy);
      if (found) encoding = found.e;
      const copy = found?.copy;
      if (copy) {
        body = { kind: 'file', file: copy };
        headers['content-length'] = String(copy.size);
      } else {
        delete headers['content-length'];
        compress = encoding;
      }
      headers['content-encoding'] = encoding;
      if (headers.etag) headers.etag = encodedEtag(headers.etag, encoding, !copy);
    }
  }
  if (!headers.etag) delete headers.etag;
  // As serve-handler answered: If-None-Match is looked at when no range is asked for.
  if (status === 200 && headers.etag && req.headers.range === undefined && matchesAny(req.headers['if-none-match'], headers.etag)) {
    status = 304;
    delete headers['content-length'];
    compress = undefined;
  }
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || BODILESS.has(status) || body.kind === 'none') {
    if (body.kind === 'web') await body.stream.cancel().catch(() => undefined);
    res.end();
    return;
  }
  try {
    await send(res, body, compress, length);
  } catch {
    // The client went away, or the file changed while it was read: the answer is cut short.
    res.destroy();
  }
}

async function send(res: ServerResponse, body: Exclude<Body, { kind: 'none' }>, encoding: Encoding | undefined, length: number | null) {
  if (!encoding && body.kind === 'bytes') {
    res.end(body.bytes);
    return;
  }
  if (body.kind === 'file' && body.file.bytes) {
    const bytes = body.file.bytes.subarray(body.file.start, body.file.end + 1);
    if (!encoding) {
      res.end(bytes);
      return;
    }
    await pipeline(Readable.from([bytes]), compressor(encoding, length), res);
    return;
  }
  if (!encoding && body.kind === 'file' && body.file.end - body.file.start < CHUNK) {
    res.end(await readBytes(body.file.file, body.file.start, body.file.end - body.file.start + 1));
    return;
  }
  const source =
    body.kind === 'bytes'
      ? Readable.from([body.bytes])
      : body.kind === 'file'
        ? createReadStream(body.file.file, { start: body.file.start, end: body.file.end, highWaterMark: CHUNK })
        : // The DOM's ReadableStream where the DOM's types are loaded too (tsconfig.browser-tests.json).
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- Node.js's own without them
          Readable.fromWeb(body.stream as NodeReadableStream<Uint8Array>);
  if (encoding) await pipeline(source, compressor(encoding, length), res);
  else await pipeline(source, res);
}

/** The length of the whole representation, if known: a range's is after the slash of its Content-Range. */
function representationLength(status: number, headers: Record<string, string>): number | null {
  const length = status === 206 ? /\/(\d+)$/.exec(headers['content-range'] ?? '')?.[1] : headers['content-length'];
  return length === undefined ? null : Number(length);
}

function withVary(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  return names.includes('accept-encoding') || names.includes('*') ? vary : `${vary}, Accept-Encoding`;
}

/**
 * The encoding an Accept-Encoding header asks for (RFC 9110, 12.5.3): the acceptable one with the
 * highest weight, the rule's order of preference deciding ties (with each other and with the
 * identity); none when the header is absent, when no encoding is acceptable (`br;q=0`, or neither
 * named nor covered by `*`), or when the identity weighs more (`gzip;q=0.5, identity`). `x-gzip`
 * is gzip.
 */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') weight = Number(value.trim());
    }
    if (!Number.isFinite(weight) || weight < 0 || weight > 1) continue;
    const key = coding === 'x-gzip' ? 'gzip' : coding;
    weights.set(key, Math.max(weights.get(key) ?? 0, weight));
  }
  // Unnamed, the identity weighs as little as the least weighed coding named (as negotiator has
  // it): `br;q=0.5, gzip;q=0.8` still asks for an encoding.
  const any = weights.get('*');
  const least = Math.min(1, ...[...weights.values()].filter((weight) => weight > 0));
  const identity = weights.get('identity') ?? (any === 0 ? 0 : least);
  let best: Encoding | undefined;
  let bestWeight = 0;
  for (const encoding of COMPRESSION.encodings) {
    const weight = weights.get(encoding) ?? any ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best && bestWeight >= identity ? best : undefined;
}

/** Whether an Accept-Encoding header names an encoding with a weight above 0 (`x-gzip` is gzip). */
function acceptable(header: string | undefined, encoding: Encoding): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if ((coding === 'x-gzip' ? 'gzip' : coding) !== encoding) return false;
    const q = params.map((p) => p.split('=')).find(([key = '']) => key.trim().toLowerCase() === 'q')?.[1];
    return q === undefined || Number(q.trim()) > 0;
  });
}

/** The ETag of an encoding of the bytes an identity ETag names: the encoding inside the quotes. */
function encodedEtag(etag: string, encoding: Encoding, weak: boolean): string {
  const m = /^(W\/)?"([^"]*)"$/.exec(etag);
  if (!m) return '';
  return `${weak || m[1] ? 'W/' : ''}"${m[2]}-${encoding}"`;
}

/** Whether an If-None-Match header names this ETag (the weak comparison) or is `*`. */
function matchesAny(condition: string | undefined, etag: string): boolean {
  if (condition === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return condition.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === mine);
}

/**
 * The precompressed copy of a whole file, if there is one: a plain file (not a link) beside it,
 * which `build --precompress` writes (and the download's archive.json.gz is, for archive.json).
 * A browsable page never has one.
 */
function precompressedCopy(body: FileBody, encoding: Encoding): FileBody | undefined {
  if (body.start !== 0 || body.end !== body.size - 1) return undefined;
  const suffix = ENCODING_SUFFIX[encoding];
  const file = body.file + suffix;
  const stats = lstatSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile()) return undefined;
  return { file, relative: body.relative + suffix, size: stats.size, start: 0, end: stats.size - 1, web: null };
}

/**
 * On-the-fly compression: brotli at quality 5 with a 256 KiB window (as small as a whole page
 * compresses within 2% of the default 4 MiB one, and 50 answers at once hold 100 MB of windows,
 * not 600), told the size when it is known; gzip at level 6.
 */
function compressor(encoding: Encoding, size: number | null): Transform {
  if (encoding === 'gzip') return createGzip({ level: 6 });
  return createBrotliCompress({
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 5,
      [zlib.BROTLI_PARAM_LGWIN]: 18,
      ...(size === null ? {} : { [zlib.BROTLI_PARAM_SIZE_HINT]: size }),
    },
  });
}

/**
 * A request that cannot be read, written straight to the connection, which then closes: as nginx
 * answers one, and without a body to HEAD.
 */
function badRequest(head: boolean): string {
  const body = 'Bad Request\n';
  return `HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${head ? '' : body}`;
}

/** The longest first line looked at: Node's parser refuses a longer request line by itself. */
const FIRST_LINE = 16 * 1024;

/**
 * Watches the first line of a connection and refuses it (400, then the connection closes) when it
 * is a method and a target with no HTTP version. Empty lines before it are skipped, as a server
 * does (RFC 9112, 2.2). Only the first request of a connection is looked at: a client that speaks
 * HTTP/0.9 sends one request and no other on it.
 */
function refuseVersionless(socket: Duplex): void {
  let seen = '';
  const look = (chunk: Buffer): void => {
    seen += chunk.toString('latin1');
    const text = seen.replace(/^(\r?\n)+/, '');
    const end = text.indexOf('\n');
    if (end < 0 && seen.length < FIRST_LINE) return;
    socket.removeListener('data', look);
    if (end >= 0 && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^ ]+$/.test(text.slice(0, end).replace(/\r$/, ''))) {
      socket.end(badRequest(text.startsWith('HEAD ')));
    }
  };
  // Before Node's parser sees the same bytes, so that this answer is the only one.
  socket.prependListener('data', look);
}

/** The answer to a method the site never serves, written straight to the connection, which then closes. */
function answerRaw(socket: Duplex, method: string, target: string): void {
  let url: URL;
  try {
    url = new URL(target.startsWith('/') ? `http://localhost${target}` : `http://localhost/${target}`);
  } catch {
    url = new URL('http://localhost/');
  }
  const answer = answerBeforeFiles(method, url) ?? {
    status: 405,
    headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'Method Not Allowed\n',
  };
  const body = Buffer.from(answer.body ?? '', 'utf8');
  const headers: Record<string, string> = { ...answer.headers };
  // Sent as it is, but said to vary as every answer the compression rule covers.
  if (compressible(headers['Content-Type'] ?? null, body.length)) headers.Vary = withVary(headers.Vary);
  const head = Object.entries({ ...headers, 'Content-Length': String(body.length), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const reason = answer.status === 404 ? 'Not Found' : answer.status === 200 ? 'OK' : 'Method Not Allowed';
  if (socket.writable) socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${answer.status} ${reason}\r\n${head}\r\n`, 'latin1'), body]));
  else socket.destroy();
}
