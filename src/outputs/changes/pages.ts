// The changelog's pages in the schema browser: the archive's (browse/changes.html), each survey's
// and each release's (changes.html beside its page), every record newest first, each at an anchor
// the browser's pages link to ("added", "last changed"), with what it changed there.

import type { PublishedRecord } from '../../changes/published.ts';
import { linkFrom, rootOf } from '../browser/pages/html.ts';
import { html, joinHtml } from '../html.ts';
import type { Html } from '../html.ts';
import type { PagePath } from '../browser/pages/html.ts';
import { shell, withFooterLinks } from '../browser/pages/shell.ts';
import type { Crumb } from '../browser/pages/shell.ts';
import { FEED_FILE, JSON_FILE } from './documents.ts';
import { changelogHref, folderOf, recordId } from './places.ts';
import type { Places } from './places.ts';
import { recordBody } from './record.ts';
import type { Scope, SectionLink } from './record.ts';

/** One changelog: where it is, what it covers, and the narrower changelogs it leads to. */
export interface Changelog {
  /** The folder its page is in (changes.html there). */
  folder: PagePath;
  scope: Scope;
  /** What it covers, as readers know it: "the archive", "GAMA", "GAMA Data Release 4". */
  title: string;
  /** The survey's and release's folder names, for the breadcrumbs. */
  names: { survey?: string; release?: string; surveyLabel?: string; releaseLabel?: string };
  /** The survey's id, for the footer's link to its JSON. */
  surveyId?: number;
  /** Its records, newest first. */
  records: readonly PublishedRecord[];
  /** Narrower changelogs: each survey's on the archive's, each release's on a survey's. */
  narrower: readonly { label: string; folder: PagePath }[];
}

/** Home, the survey and the release (their pages), and the changelog itself. */
function crumbsOf(log: Changelog): Crumb[] {
  const { survey, release, surveyLabel, releaseLabel } = log.names;
  const crumbs: Crumb[] = [{ label: 'Home', path: [] }];
  if (survey !== undefined) crumbs.push({ label: surveyLabel ?? survey, path: folderOf(survey) });
  if (survey !== undefined && release !== undefined) crumbs.push({ label: releaseLabel ?? release, path: folderOf(survey, release) });
  return [...crumbs, { label: 'Changes' }];
}

/** Section heads link to the survey's or release's page, where the archive still has it. */
function sectionLinks(from: PagePath, places: Places): SectionLink {
  return ({ survey, release }) => {
    const name = places.surveyName(survey);
    if (name === undefined) return undefined;
    if (release === undefined) return linkFrom(from, folderOf(name));
    return places.hasRelease(survey, release) ? linkFrom(from, folderOf(name, release)) : undefined;
  };
}

function recordArticle(record: PublishedRecord, log: Changelog, places: Places, link: SectionLink): Html {
  const id = recordId(record);
  return html`<article class="card record" id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${record.summary} <a class="permalink" href="#${id}" aria-label="Link to this change">#</a></h2>
${recordBody(record, log.scope, places, link)}</article>
`;
}

/** A changelog's page, with the feed's address in its head for feed readers to find. */
export function changelogPage(log: Changelog, places: Places, links: readonly { file: string; label: string }[]): string {
  const from = log.folder;
  const root = rootOf(from);
  const count = log.records.length;
  const others = log.narrower.map((n) => html`<a href="${changelogHref(from, n.folder)}">${n.label}</a>`);
  const narrower = log.narrower.length > 0 && html`<p>${log.scope.survey === undefined ? 'By survey' : 'By release'}: ${joinHtml(others, ' · ')}</p>
`;
  const articles = log.records.map((record) => recordArticle(record, log, places, sectionLinks(from, places)));
  const body = html`<p class="lead">What changed in ${log.title}, newest first, as the archive's change records tell it: ${count} ${count === 1 ? 'record' : 'records'}. Also as an <a href="${root + FEED_FILE}">Atom feed</a> and as <a href="${root + JSON_FILE}">JSON</a>.</p>
${narrower}${articles}`;
  const survey = log.surveyId === undefined ? undefined : String(log.surveyId);
  const page = shell({
    path: from,
    title: log.scope.survey === undefined ? 'Changes' : `${log.title}: changes`,
    body,
    crumbs: crumbsOf(log),
    ...(survey === undefined ? {} : { surveyId: survey }),
    description: `What changed in ${log.title}, as the archive's change records tell it.`,
  });
  const feed = html`<link rel="alternate" type="application/atom+xml" title="Changes (Atom)" href="${root + FEED_FILE}">
`;
  return withFooterLinks(page.replace('</head>', `${feed.text}</head>`), from, survey, links);
}
