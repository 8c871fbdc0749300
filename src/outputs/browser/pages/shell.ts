// The layout every page of the schema browser shares: the document's head with its security policy
// and style sheet, the header with the site's name and the search box, the breadcrumbs, the main
// content and the footer's links to the API's JSON, the download and the VO files. Every link is
// relative, so that the pages work from the offline download opened as files as well as on the site.

import { html, joinHtml } from '../../html.ts';
import type { Html } from '../../html.ts';
import { linkFrom, rootOf } from './html.ts';
import type { PagePath } from './html.ts';

/** The policy every page declares: nothing from elsewhere, no inline script or style, no plugins, no forms. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The style sheet's file below the site's root. */
export const STYLESHEET_PATH = 'browse/style.css';

/** The script every page loads: search, deep links and copy-link buttons (client/main.ts). */
export const SCRIPT_PATH = 'browse/site.js';

/** The site's icon: a small picture of its own, so that no browser asks the site's root for one. */
export const ICON_PATH = 'browse/icon.svg';

/** The icon's picture: a catalogue's rows under a star. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f5fbf"/>' +
  '<path d="M16 4l2.6 5.4 5.9.8-4.3 4.1 1 5.8-5.2-2.8-5.2 2.8 1-5.8-4.3-4.1 5.9-.8z" fill="#fff"/>' +
  '<path d="M7 23h18M7 27h18" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>\n';

/** The site's name when none is given. */
export const SITE_NAME = 'Archive schema';

export interface Crumb {
  label: string;
  /** The page it links to; the current page (the last crumb) has none. */
  path?: PagePath;
}

export interface ShellOptions {
  /** Where the page is: its folders below the site's root (`[]` for the home page). */
  path: PagePath;
  /** The page's own title; the document's title adds the site's name. */
  title: string;
  /** The main content. */
  body: Html;
  /** The way here from the home page, the current page last. */
  crumbs?: readonly Crumb[];
  site?: string;
  /** The survey the page belongs to: its id links the footer to its JSON route. */
  surveyId?: string;
  /** A short description for the document's head (text). */
  description?: string;
}

/** A whole page around its content. */
export function shell(options: ShellOptions): string {
  const root = rootOf(options.path);
  const site = options.site ?? SITE_NAME;
  const title = options.title === site ? site : `${options.title} – ${site}`;
  const describe = options.description && html`<meta name="description" content="${options.description}">\n`;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${describe}<link rel="icon" href="${root}${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${root}${STYLESHEET_PATH}">
<script src="${root}${SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="site-name" href="${root}index.html">${site}</a>
<div class="search" role="search">
<label for="search">Search columns</label>
<input type="search" id="search" name="q" placeholder="name, UCD or unit" autocomplete="off" spellcheck="false">
</div>
</header>
${crumbsHtml(options.path, options.crumbs ?? [])}<main id="main">
<h1>${options.title}</h1>
${options.body}</main>
${footer(root, options.surveyId)}
</body>
</html>
`.text;
}

/** A breadcrumb on the page at `from`: a link, or the current page's name when it is the last. */
export function crumbItem(from: PagePath, crumb: Crumb, last: boolean): Html {
  return last || crumb.path === undefined
    ? html`<li><span aria-current="page">${crumb.label}</span></li>`
    : html`<li><a href="${linkFrom(from, crumb.path)}">${crumb.label}</a></li>`;
}

function crumbsHtml(from: PagePath, crumbs: readonly Crumb[]): Html {
  if (crumbs.length === 0) return html``;
  const items = crumbs.map((c, i) => crumbItem(from, c, i === crumbs.length - 1));
  return html`<nav class="crumbs" aria-label="Breadcrumbs"><ol>${items}</ol></nav>\n`;
}

/** The footer's first link: the page's survey as JSON, or the API's listing on a page of no survey. */
export function jsonLink(root: string, survey: string | undefined): Html {
  const href = survey === undefined ? `${root}api/schema/?data_type=catalogues` : `${root}api/schema/${survey}/`;
  return html`<li><a href="${href}">${survey === undefined ? 'JSON API' : 'This survey as JSON'}</a></li>`;
}

/** The footer's links after the first, each from the site's root. */
const FOOTER_LINKS = [
  ['api/docs/', 'API reference'],
  ['download/index.html', 'Download'],
  ['download/tables.xml', 'VO tables'],
  ['download/tap_schema.vot', 'TAP_SCHEMA'],
  ['download/columns.vot', 'Columns (VOTable)'],
] as const;

function footer(root: string, survey: string | undefined): Html {
  const links = FOOTER_LINKS.map(([href, label]) => html`<li><a href="${root + href}">${label}</a></li>`);
  return html`<footer class="site"><nav aria-label="Data and documents"><ul>${jsonLink(root, survey)}${links}</ul></nav></footer>`;
}

/**
 * A page with more links in its footer (another output's: PageNotes), each to a file below the
 * site's root, put in after its first link (the survey's JSON).
 */
export function withFooterLinks(
  page: string,
  path: PagePath,
  survey: string | undefined,
  links: readonly { file: string; label: string }[],
): string {
  if (links.length === 0) return page;
  const root = rootOf(path);
  const json = jsonLink(root, survey).text;
  const at = page.lastIndexOf(json);
  if (at < 0) throw new Error(`${path.join('/')}: no link to the survey's JSON to put the footer's links after`);
  return page.slice(0, at + json.length) + footerLinks(root, links) + page.slice(at + json.length);
}

/** Links in a page's footer, on a page `root` below the site's root. */
export function footerLinks(root: string, links: readonly { file: string; label: string }[]): string {
  return joinHtml(
    links.map((link) => html`<li><a href="${root + link.file}">${link.label}</a></li>`),
    '',
  ).text;
}
