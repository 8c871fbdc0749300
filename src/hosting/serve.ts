// The local server that behaves as the deployed site does: Netlify's own redirect engine reads
// the project's netlify.toml to route each request, serve-handler serves the files, and the edge
// policy (edge.ts, the code Netlify runs at the edge) answers methods and finishes every /api/
// response. It exists to preview and to test; production never depends on it.

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { RedirectsHandler } from '@netlify/redirects';
import serveHandler from 'serve-handler';
import { UsageError } from '../errors.ts';
import { STATIC_METHOD_NOT_ALLOWED, answerBeforeFiles, handle, isApiPath, withDocumentHeaders } from './edge.ts';
import { documentAt } from './routes.ts';
import type { Answer } from './edge.ts';
import { NETLIFY_TOML } from '../project.ts';
import { MARKER } from '../destination/folder.ts';

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
    await stat(path.join(dir, MARKER));
  } catch {
    throw new UsageError(`${options.dir} holds no build; run \`npm run build\` first (or pass the built folder with --dir)`);
  }
  try {
    await stat(config);
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
  const files = staticFiles(dir);
  const server = createServer((req, res) => {
    respond(req, res, redirects, files).catch((error: unknown) => {
      // A bug in this server, not in the request: say so plainly and keep serving.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`internal error in archive-schema serve: ${(error as Error).message}\n`);
    });
  });
  // Node's parser never hands these to the request handler: CONNECT goes to its own event, and a
  // method it does not know is a client error. Both get the answer any other method gets.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    answerRaw(socket, req.method ?? 'CONNECT', req.url ?? '/');
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/1\.[01]\r?\n/.exec(error.rawPacket?.toString('latin1') ?? '');
    if (error.code === 'HPE_INVALID_METHOD' && line) {
      answerRaw(socket, line[1] ?? '', line[2] ?? '/');
      return;
    }
    // What Node answers by itself when no one listens.
    const [status, text] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
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

async function respond(req: IncomingMessage, res: ServerResponse, redirects: RedirectsHandler, files: StaticFiles): Promise<void> {
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
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  // Methods other than GET and HEAD never reach the files under /api/; answering them here
  // also avoids building a web Request for methods the Request class refuses (TRACE, CONNECT).
  const own = answerBeforeFiles(method, url);
  if (own) {
    sendAnswer(res, method, own);
    return;
  }
  // Outside /api/ the site is static files, which answer GET and HEAD, as a static host's do.
  if (!isApiPath(url.pathname) && method !== 'GET' && method !== 'HEAD') {
    sendAnswer(res, method, STATIC_METHOD_NOT_ALLOWED);
    return;
  }
  const fileLayer = () => routeAndServe(method, url, headers, redirects, files);
  const document = documentAt(url.pathname);
  // The API and the documents get what Netlify's edge function and headers rules give them.
  const response =
    isApiPath(url.pathname) && (method === 'GET' || method === 'HEAD')
      ? await handle(new Request(url, { method, headers }), fileLayer)
      : document
        ? withDocumentHeaders(document, await fileLayer())
        : await fileLayer();
  await sendResponse(res, response);
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
  method: string,
  url: URL,
  headers: Headers,
  redirects: RedirectsHandler,
  files: StaticFiles,
): Promise<Response> {
  // The engine puts a path's parts into its targets with RE2 rewrites, where a backslash is an
  // escape: `/api/schema/1%5c1/` became survey 1, and each such request printed a page of RE2's
  // complaints. No rule and no file of a built site has a backslash in its path.
  if (safeDecode(url.pathname)?.includes('\\') ?? true) return notFound();
  let match: Awaited<ReturnType<RedirectsHandler['match']>>;
  try {
    match = await redirects.match(new Request(url, { headers }));
  } catch {
    // The engine decodes the path and throws on a malformed escape (%E0%A4%A): no rule and
    // no file can have such a name.
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  if (!match || match.external) return files(method, url.pathname, headers);
  if ([301, 302, 303, 307, 308].includes(match.statusCode)) {
    return new Response(null, { status: match.statusCode, headers: { Location: match.targetRelative } });
  }
  if (!match.force) {
    const source = await files(method, url.pathname, headers);
    if (source.status !== 404) return source;
    await source.body?.cancel();
  }
  const served = await files(method, match.target.pathname, headers);
  if (served.status !== 200 || match.statusCode === 200) return served;
  return new Response(served.body, { status: match.statusCode, headers: served.headers });
}

type StaticFiles = (method: string, pathname: string, headers: Headers) => Promise<Response>;

function safeDecode(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

const notFound = () => new Response('Not Found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/**
 * The file a request path names inside the site, or undefined when it names none that may be
 * served: a path no file can have (a NUL byte, a name over 255 bytes, a malformed escape), a
 * hidden file (the build's own marker; a built site has no other), or one that leads out of the
 * site, through `..` in any encoding or through a symbolic link.
 */
export function fileInSite(root: string, pathname: string): string | undefined {
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
  const file = path.join(root, ...segments);
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // Not there, or not a path the system takes (a link loop, a path too long): no file. The file
    // layer must not be asked, or it answers 500 for the latter.
    return undefined;
  }
  return real === root || real.startsWith(root + path.sep) ? real : undefined;
}

/** serve-handler over the built folder, answering with a web Response. */
function staticFiles(dir: string): StaticFiles {
  const root = realpathSync(dir);
  const config = { public: root, cleanUrls: false, directoryListing: false, etag: true, symlinks: false };
  return async (method, pathname, headers) => {
    // A folder answers with its index.html, as on Netlify.
    const wanted = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
    if (!fileInSite(root, wanted)) return notFound();
    const fakeRequest = Object.assign(Readable.from([]), {
      method,
      url: wanted,
      headers: Object.fromEntries(headers.entries()),
    }) as unknown as IncomingMessage;
    const capture = new ResponseCapture();
    const done = capture.response();
    await serveHandler(fakeRequest, capture as unknown as ServerResponse, config);
    const response = await done;
    // Netlify sends no Content-Disposition; serve-handler's would name the file behind a rewrite.
    response.headers.delete('content-disposition');
    return response;
  };
}

/** Enough of a ServerResponse for serve-handler to write into, turned into a web Response. */
class ResponseCapture extends PassThrough {
  statusCode = 200;
  private readonly head = new Headers();
  private started = false;
  private resolveHead: (r: Response) => void = () => undefined;

  response(): Promise<Response> {
    return new Promise((resolve) => {
      this.resolveHead = resolve;
    });
  }

  setHeader(name: string, value: string | number | string[]): this {
    this.head.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.head.get(name) ?? undefined;
  }

  writeHead(status: number, headers?: Record<string, string | number>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.head.set(name, String(value));
    this.start();
    return this;
  }

  // serve-handler ends some responses (error pages) without calling writeHead first.
  override end(...args: unknown[]): this {
    this.start();
    return (super.end as (...a: unknown[]) => this).apply(this, args);
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const body = [204, 304].includes(this.statusCode) ? null : this.webBody();
    this.resolveHead(new Response(body, { status: this.statusCode, headers: this.head }));
  }

  /**
   * The captured bytes as a web stream. Not Readable.toWeb: on Node 20 it throws from inside an
   * event handler when the stream is cancelled while data still flows. A cancelled body is
   * drained instead, so the file behind it is read to its end and closed.
   */
  private webBody(): ReadableStream<Uint8Array> {
    let cancelled = false;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) this.pause();
        });
        this.once('end', () => {
          if (!cancelled) controller.close();
        });
        this.once('error', (error) => {
          if (!cancelled) controller.error(error);
        });
        this.pause();
      },
      pull: () => {
        this.resume();
      },
      cancel: () => {
        cancelled = true;
        this.resume();
      },
    });
  }
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
  const head = Object.entries({ ...answer.headers, 'Content-Length': String(body.length), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const reason = answer.status === 404 ? 'Not Found' : answer.status === 200 ? 'OK' : 'Method Not Allowed';
  if (socket.writable) socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${answer.status} ${reason}\r\n${head}\r\n`, 'latin1'), body]));
  else socket.destroy();
}

function sendAnswer(res: ServerResponse, method: string, answer: Answer): void {
  const body = answer.body ?? '';
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(method === 'HEAD' ? undefined : body);
}

async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Node drops the body of a HEAD response by itself; the headers stay as for GET.
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
}
