// The layout every page of the schema browser shares: the document's head with its security policy
// and style sheet, the header with the site's name and the search box, the breadcrumbs, the main
// content and the footer's links to the API's JSON, the download and the VO files. Every link is
// relative, so that the pages work from the offline download opened as files as well as on the site.

import { escapeHtml, linkFrom, rootOf } from './html.ts';
import type { PagePath } from './html.ts';

/** The policy every page declares: nothing from elsewhere, no inline script or style, no plugins, no forms. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** The style sheet's file below the site's root. */
export const STYLESHEET_PATH = 'browse/style.css';

/** The script every page loads: search, deep links and copy-link buttons (client/site.ts). */
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
  /** The main content, HTML. */
  body: string;
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
  const describe = options.description ? `<meta name="description" content="${escapeHtml(options.description)}">\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CONTENT_SECURITY_POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${describe}<link rel="icon" href="${root}${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${root}${STYLESHEET_PATH}">
<script src="${root}${SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="site-name" href="${root}index.html">${escapeHtml(site)}</a>
<div class="search" role="search">
<label for="search">Search columns</label>
<input type="search" id="search" name="q" placeholder="name, UCD or unit" autocomplete="off" spellcheck="false">
</div>
</header>
${crumbsHtml(options.path, options.crumbs ?? [])}<main id="main">
<h1>${escapeHtml(options.title)}</h1>
${options.body}</main>
${footer(root, options.surveyId)}
</body>
</html>
`;
}

/** A breadcrumb on the page at `from`: a link, or the current page's name when it is the last. */
export function crumbItem(from: PagePath, crumb: Crumb, last: boolean): string {
  return last || crumb.path === undefined
    ? `<li><span aria-current="page">${escapeHtml(crumb.label)}</span></li>`
    : `<li><a href="${linkFrom(from, crumb.path)}">${escapeHtml(crumb.label)}</a></li>`;
}

function crumbsHtml(from: PagePath, crumbs: readonly Crumb[]): string {
  if (crumbs.length === 0) return '';
  const items = crumbs.map((c, i) => crumbItem(from, c, i === crumbs.length - 1));
  return `<nav class="crumbs" aria-label="Breadcrumbs"><ol>${items.join('')}</ol></nav>\n`;
}

/** The footer's first link: the page's survey as JSON, or the API's listing on a page of no survey. */
export function jsonLink(root: string, survey: string | undefined): string {
  const href = survey === undefined ? `${root}api/schema/?data_type=catalogues` : `${root}api/schema/${survey}/`;
  return `<li><a href="${escapeHtml(href)}">${survey === undefined ? 'JSON API' : 'This survey as JSON'}</a></li>`;
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
  const json = jsonLink(root, survey);
  const at = page.lastIndexOf(json);
  if (at < 0) throw new Error(`${path.join('/')}: no link to the survey's JSON to put the footer's links after`);
  return page.slice(0, at + json.length) + footerLinks(root, links) + page.slice(at + json.length);
}

/** Links in a page's footer, on a page `root` below the site's root. */
export function footerLinks(root: string, links: readonly { file: string; label: string }[]): string {
  return links.map((link) => `<li><a href="${escapeHtml(root + link.file)}">${escapeHtml(link.label)}</a></li>`).join('');
}

function footer(root: string, survey: string | undefined): string {
  const links = [
    [`${root}api/docs/`, 'API reference'],
    [`${root}download/index.html`, 'Download'],
    [`${root}download/tables.xml`, 'VO tables'],
    [`${root}download/tap_schema.vot`, 'TAP_SCHEMA'],
    [`${root}download/columns.vot`, 'Columns (VOTable)'],
  ];
  return `<footer class="site"><nav aria-label="Data and documents"><ul>${jsonLink(root, survey)}${links
    .map(([href, label]) => `<li><a href="${escapeHtml(href ?? '')}">${escapeHtml(label ?? '')}</a></li>`)
    .join('')}</ul></nav></footer>`;
}
