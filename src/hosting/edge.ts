// What a static host's rewrite rules cannot do, done in front of them: answer methods other than
// GET and HEAD (OPTIONS metadata, 405), put the API's headers (Allow among them) on every
// response under /api/, and give not-found and bad-request answers the API's bodies (docs/api.md).
// Netlify runs this as an edge function (netlify/edge-functions/api.ts) and `serve` runs the same
// code, so the preview behaves as the deployed site does. It imports only from src/ and uses only
// web-standard APIs, because Netlify's Deno runtime loads these files as they are.

import { REQUEST, pageJson, renderBrowsable, requestHtml } from '../outputs/browsable/page.ts';
import {
  API_PREFIX,
  BODIES,
  CONTENT_TYPES,
  apiHeaders,
  documentAt,
  documentHeaders,
  lastParam,
  methodNotAllowedBody,
  optionsBody,
  requestFormat,
  viewOf,
} from '../site/routes.ts';
import type { Document, View } from '../site/routes.ts';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** A body to send instead of the static file's; undefined keeps the file's body. */
  body?: string;
}

export function isApiPath(pathname: string): boolean {
  return pathname === API_PREFIX.slice(0, -1) || pathname.startsWith(API_PREFIX);
}

/** An answer with its body rendered in the request's format: JSON, or the browsable page. */
function answer(view: View | undefined, method: string, url: URL, status: number, json: string): Answer {
  if (view && requestFormat(url.searchParams) === 'api') {
    // HEAD is answered as GET, Content-Length included, so the page shows the GET it stands for.
    const shown = method === 'HEAD' ? 'GET' : method;
    const body = renderBrowsable({
      view,
      request: { method: shown, target: url.pathname + url.search },
      status,
      pretty: pageJson(JSON.parse(json)),
    });
    return { status, headers: apiHeaders(CONTENT_TYPES.html), body };
  }
  return { status, headers: apiHeaders(CONTENT_TYPES.json), body: json };
}

/**
 * Answers given before any file is looked at: every method but GET and HEAD. DRF negotiates the
 * format first (an unknown one is 404 whatever the method), then routes, then dispatches on the
 * method: OPTIONS gets the view's metadata, anything else 405.
 */
export function answerBeforeFiles(method: string, url: URL): Answer | undefined {
  if (!isApiPath(url.pathname) || method === 'GET' || method === 'HEAD') return undefined;
  // A document under /api/ (the OpenAPI description, its page) is a file, as any outside it.
  if (documentAt(url.pathname)) return STATIC_METHOD_NOT_ALLOWED;
  const route = viewOf(url.pathname);
  if (requestFormat(url.searchParams) === 'unknown' || !route) {
    return answer(undefined, method, url, 404, BODIES.notFound);
  }
  if (method === 'OPTIONS') return answer(route.view, method, url, 200, optionsBody(route.view));
  return answer(route.view, method, url, 405, methodNotAllowedBody(method));
}

/**
 * Finishes what the static files answered for a GET or HEAD: adds the API's headers, gives
 * any 404 the API's body (a rewrite to a file that does not exist, such as an unknown
 * survey id, reaches here as the host's own 404 page), and renders a 400 or 404 as the browsable
 * page when the request asked for format=api.
 */
export function answerAfterFiles(method: string, url: URL, status: number, contentType: string | null): Answer {
  const route = viewOf(url.pathname);
  if (status === 404) return answer(route?.view, method, url, 404, BODIES.notFound);
  if (status === 400 && route) {
    // The files answer format=api errors with their JSON bodies; which body it was follows from
    // the query the same way the rules chose it: a missing or empty data_type on the list.
    const dataType = lastParam(url.searchParams, 'data_type');
    const json = route.view === 'list' && !dataType ? BODIES.required : BODIES.invalid;
    return answer(route.view, method, url, 400, json);
  }
  const type = contentType?.startsWith('text/html') ? CONTENT_TYPES.html : CONTENT_TYPES.json;
  return { status, headers: apiHeaders(type) };
}

/**
 * The whole policy over web-standard Request and Response: `next` is whatever serves the static
 * files behind the rewrite rules (Netlify's `context.next()`, or `serve`'s file layer).
 */
export async function handle(request: Request, next: () => Promise<Response>): Promise<Response> {
  const out = await policy(request.method, new URL(request.url), next);
  return out instanceof Response ? out : toResponse(request.method, out);
}

/**
 * The policy itself: either the files' response, finished, or an answer of its own (an error or
 * OPTIONS body), given as data so that `serve` sends it as bytes without building web objects.
 */
export async function policy(method: string, url: URL, next: () => Promise<Response>): Promise<Response | Answer> {
  const document = documentAt(url.pathname);
  if (document && (method === 'GET' || method === 'HEAD')) return withDocumentHeaders(document, await next());
  if (!isApiPath(url.pathname)) return next();
  const own = answerBeforeFiles(method, url);
  if (own) return own;
  const res = await next();
  const finished = answerAfterFiles(method, url, res.status, res.headers.get('content-type'));
  if (finished.body !== undefined) {
    await res.body?.cancel();
    return finished;
  }
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(finished.headers)) headers.set(name, value);
  const view = viewOf(url.pathname)?.view;
  if (view && finished.status === 200 && finished.headers['Content-Type'] === CONTENT_TYPES.html)
    return withRequest(view, method, url, res, headers);
  return new Response(res.body, { status: finished.status, headers });
}

/** What a static host answers a method other than GET and HEAD. */
export const STATIC_METHOD_NOT_ALLOWED: Answer = {
  status: 405,
  headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' },
  body: 'Method Not Allowed\n',
};

/** A document's file as served, with the document's own headers (its type, CORS, no sniffing). */
export function withDocumentHeaders(document: Document, res: Response): Response {
  if (res.status !== 200 && res.status !== 304) return res;
  const headers = new Headers(res.headers);
  for (const [name, value] of Object.entries(documentHeaders(document))) headers.set(name, value);
  return new Response(res.body, { status: res.status, headers });
}

const encoder = new TextEncoder();
const MARK = encoder.encode(REQUEST);

/**
 * A browsable page from a file, with its request line and format links filled in for the request
 * as made (browsable.ts, REQUEST). The mark sits in the page's first kilobytes, so only the
 * opening chunks are looked at; the rest streams through untouched. Content-Length grows by
 * exactly the filling, so HEAD can say it without reading the page.
 */
async function withRequest(view: View, method: string, url: URL, res: Response, headers: Headers): Promise<Response> {
  const fill = encoder.encode(requestHtml(view, method === 'HEAD' ? 'GET' : method, url.pathname + url.search));
  const length = headers.get('content-length');
  if (length !== null) headers.set('content-length', String(Number(length) - MARK.length + fill.length));
  if (method === 'HEAD' || !res.body) return new Response(null, { status: 200, headers });
  // Typed: read by Node.js's types (the lint's), a body's chunks are any.
  const reader: ReadableStreamDefaultReader<Uint8Array> = res.body.getReader();
  let head = new Uint8Array(0);
  let at = -1;
  let done = false;
  while (at < 0 && !done && head.length < 65_536) {
    const next = await reader.read();
    done = next.done;
    if (next.value) head = concat(head, next.value);
    at = indexOf(head, MARK);
  }
  const first = at < 0 ? head : concat(head.subarray(0, at), fill, head.subarray(at + MARK.length));
  if (at < 0 && length !== null) headers.set('content-length', length);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: 200, headers });
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function toResponse(method: string, a: Answer): Response {
  const body = a.body ?? '';
  const headers = new Headers(a.headers);
  headers.set('Content-Length', String(new TextEncoder().encode(body).byteLength));
  return new Response(method === 'HEAD' ? null : body, { status: a.status, headers });
}
