// The browsable rendering (`format=api`): an HTML page showing what DRF's browsable API shows:
// the request, the status, the response headers and the JSON indented for reading, with URLs as
// links. It imports only from src/ and web-standard APIs: the edge function renders error pages,
// and fills in the request of pages written as files, with it too.

import { CONTENT_TYPES, DATA_TYPES, DOCUMENTS, HEADERS, VIEWS, browserSurveyPath, requestTarget } from '../../site/routes.ts';
import type { View } from '../../site/routes.ts';
import { html, joinHtml, raw } from '../html.ts';
import type { Html } from '../html.ts';

export const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
};

export interface BrowsablePage {
  view: View;
  /** The request the page answers; a page written to a file leaves it out (see REQUEST). */
  request?: { method: string; target: string };
  status: number;
  /** The response body as JSON indented for reading (pageJson). */
  pretty: string;
  /**
   * The survey a detail page shows, by name: the page links to the survey's page in the schema
   * browser. Without one (a listing, an error) it links to the browser's home page.
   */
  survey?: string;
}

/**
 * The JSON a page shows, indented one tab per level: the pages set tabs four columns wide, so it
 * reads as DRF's four spaces, and the largest pages are half the size. JSON writes a tab inside a
 * string as \t, so every tab in the text is indentation.
 */
export function pageJson(value: unknown): string {
  return JSON.stringify(value, null, '\t').replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Escapes the JSON's text, which goes between tags only, where quotes need no escaping (keeps large
 * pages smaller): the one escaping of its own, for text too large to go through `html` twice.
 */
function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c] ?? c);
}

// A JSON string token that is an http(s) address and nothing else. In indented JSON every string
// token starts after white space, "[", ":" or ","; a quote inside a string is escaped (\") and so
// follows a backslash, and no address character is a quote, backslash or space.
const LINK = /(?<=[\s[:,])"(https?:\/\/[^"\\\s]+)"/g;

/**
 * Escapes the JSON text and turns every string value that is an http(s) address into a link.
 * Curator HTML inside the data stays text: it is escaped before anything else happens.
 */
export function linkedJson(pretty: string): string {
  const escaped = escapeText(pretty);
  return escaped.includes('"http') ? escaped.replace(LINK, '"<a href="$1" rel="nofollow">$1</a>"') : escaped;
}

const STYLE = `body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#222;background:#fafafa}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 16px;background:#2c3e50;color:#fff;padding:10px 24px;font-weight:600}
header nav{font-weight:400;overflow-wrap:anywhere}header nav a{color:#fff}
main{max-width:1100px;margin:0 auto;padding:16px 24px}
nav.crumbs{color:#666;margin-bottom:8px}nav.crumbs a{color:#2a6ebb}
h1{font-size:24px;margin:8px 0 16px}
.formats{float:right;font-size:13px}.formats a{margin-left:8px;color:#2a6ebb}
pre{background:#fff;border:1px solid #ddd;border-radius:4px;padding:10px 12px;overflow:auto;white-space:pre-wrap;word-break:break-word;tab-size:4}
pre a{color:#2a6ebb}.meta b{color:#444}`;

/**
 * Where a page shows its request: the breadcrumbs, the view's name, the format links and the
 * request line. A page written as a file answers several requests (the ifs and spectra listings
 * share the catalogues listing's bytes, and parameters come in any order), so the file leaves
 * this empty and the edge (edge.ts) fills it in with the request as made, as DRF shows it.
 */
export const REQUEST = '<!--request-->';

/**
 * What fills REQUEST for a request to a view. Plain string work, so that every host computes it
 * alike: nginx runs the same steps in its script (hosting/nginx.ts, NJS), from the same target.
 */
export function requestHtml(view: View, method: string, target: string): string {
  return requestMarkup(view, method, target).text;
}

function requestMarkup(view: View, method: string, target: string): Html {
  const q = target.indexOf('?');
  const query = q < 0 ? '' : target.slice(q + 1);
  // The list needs a data type: the request's when it names one, else the first.
  const asked = lastQueryValue(query, 'data_type');
  const dataType = DATA_TYPES.find((t) => t === asked) ?? DATA_TYPES[0];
  const name = VIEWS[view].name;
  const list = VIEWS.list.name;
  const listLink = requestTarget('list', { data_type: dataType, format: 'api' });
  const crumbs = view === 'list' ? html`${list}` : html`<a href="${listLink}">${list}</a> / ${name}`;
  return html`<nav class="crumbs" aria-label="Breadcrumbs">${crumbs}</nav>
<h1>${name}</h1>
<div class="formats">Formats:<a href="${withFormat(target, 'json')}">json</a><a href="${withFormat(target, 'api')}">api</a></div>
<pre class="request"><b>${method}</b> ${target}</pre>`;
}

/** A query part's name or value as a form decodes it: `+` is a space, then percent escapes (kept as they are when malformed). */
export function formDecode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The last value the query gives a name (`''` for a bare name), or null. */
export function lastQueryValue(query: string, name: string): string | null {
  let value: string | null = null;
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if (part !== '' && formDecode(eq < 0 ? part : part.slice(0, eq)) === name) value = eq < 0 ? '' : formDecode(part.slice(eq + 1));
  }
  return value;
}

/** The target with its format parameters replaced by one for `format`, the other parameters kept as written. */
export function withFormat(target: string, format: string): string {
  const q = target.indexOf('?');
  const kept = (q < 0 ? '' : target.slice(q + 1)).split('&').filter((part) => {
    const eq = part.indexOf('=');
    return part !== '' && formDecode(eq < 0 ? part : part.slice(0, eq)) !== 'format';
  });
  return `${q < 0 ? target : target.slice(0, q)}?${[...kept, `format=${format}`].join('&')}`;
}

export function renderBrowsable(page: BrowsablePage): string {
  const [head, tail] = browsableFrame(page);
  return `${head}${linkedJson(page.pretty)}${tail}`;
}

/** The page around its JSON: what comes before the escaped, linked JSON text, and after it. */
export function browsableFrame(page: Omit<BrowsablePage, 'pretty'>): [string, string] {
  const name = VIEWS[page.view].name;
  const statusLine = `HTTP ${page.status} ${STATUS_TEXT[page.status] ?? ''}`.trimEnd();
  const request = page.request ? requestMarkup(page.view, page.request.method, page.request.target) : raw(REQUEST);
  // The headers of the JSON answer the page shows, as DRF's page shows them.
  const headers = [
    ['Allow', HEADERS.Allow ?? ''],
    ['Content-Type', CONTENT_TYPES.json],
    ['Vary', HEADERS.Vary ?? ''],
  ].map(([header = '', value = '']) => html`<b>${header}:</b> ${value}`);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${name} – archive-schema</title>
<style>${raw(STYLE)}</style>
</head>
<body>
<header>archive-schema API <nav aria-label="Site"><a href="${browserLink(page.survey)}">Schema browser</a> · ${NAV}</nav></header>
<main>
${request}
<pre class="response"><span class="meta"><b>${statusLine}</b>
${joinHtml(headers, '\n')}
</span>
${BODY}</pre>
</main>
</body>
</html>
`.text.split(BODY) as [string, string];
}

const BODY = '\u0000body\u0000';

/** The schema browser's page of what a page shows: its survey's, or its home page at the site's root. */
export function browserLink(survey: string | undefined): string {
  return survey === undefined ? '/' : browserSurveyPath(survey);
}

/** Where a reader goes from any page: the documents named for the navigation. */
const NAV = joinHtml(
  DOCUMENTS.flatMap((d) => (d.nav ? [html`<a href="${d.path}">${d.nav}</a>`] : [])),
  ' · ',
);
