// The browser's home page (every survey), a survey's page (its releases) and a release's page (its
// catalogue groups and its imaging, IFS and spectra facilities).

import { html, joinHtml } from '../../html.ts';
import type { Html } from '../../html.ts';
import { contactHtml, count, day, descriptionHtml, displayName, facts, linkFrom, plural, surveyId } from './html.ts';
import type { PagePath } from './html.ts';
import { KIND_LABEL, idOf, parentPath, releaseCrumbs, releasePath, surveyCrumbs, surveyPath } from './places.ts';
import type { DataKind, ReleasePlace, SurveyPlace } from './places.ts';
import { shell } from './shell.ts';
import type { DataRelease, Survey } from './types.ts';

/** How much a release holds. */
export interface ReleaseCounts {
  groups: number;
  tables: number;
  columns: number;
  facilities: number;
  bands: number;
  regions: number;
  products: number;
}

export function releaseCounts(release: DataRelease): ReleaseCounts {
  const groups = release.catalogues?.groups ?? [];
  const imaging = release.imaging?.facilities ?? [];
  const others = [...(release.ifs?.facilities ?? []), ...(release.spectra?.facilities ?? [])];
  const tables = groups.flatMap((g) => g.tables);
  const bands = imaging.flatMap((f) => f.bands);
  return {
    groups: groups.length,
    tables: tables.length,
    columns: tables.reduce((n, t) => n + t.columns.length, 0),
    facilities: imaging.length + others.length,
    bands: bands.length,
    regions: bands.reduce((n, b) => n + b.regions.length, 0),
    products: others.reduce((n, f) => n + f.products.length, 0),
  };
}

/** A release's counts as a short sentence: "4 tables, 120 columns; 2 bands, 6 regions". */
export function countsText(c: ReleaseCounts): string {
  const parts: string[] = [];
  if (c.tables) parts.push(`${plural(c.tables, 'table')}, ${plural(c.columns, 'column')}`);
  if (c.bands) parts.push(`${plural(c.bands, 'band')}, ${plural(c.regions, 'region')}`);
  if (c.products) parts.push(plural(c.products, 'data product'));
  return parts.length ? parts.join('; ') : 'no data yet';
}

/** What a release holds: counted from its objects, or given (a planner that has only their census). */
export type CountsOf = (release: DataRelease) => ReleaseCounts;

function releaseList(from: PagePath, survey: Survey, countsOf: CountsOf = releaseCounts): Html {
  if (survey.data_releases.length === 0) return html`<p class="muted">No releases.</p>\n`;
  const place: SurveyPlace = { survey };
  const items = survey.data_releases.map((r) => {
    const link = html`<a href="${linkFrom(from, releasePath({ ...place, release: r }))}">${r.pretty_name || r.name}</a>`;
    return html`<li>${link} <span class="muted">${countsText(countsOf(r))}</span></li>`;
  });
  return html`<ul class="releases">${items}</ul>\n`;
}

/** The home page: every survey with its title, description, releases and what they hold. */
export function homePage(
  surveys: readonly Survey[],
  options: { site?: string; intro?: string; countsOf?: CountsOf; pictures?: Html; more?: Html } = {},
): string {
  const countsOf = options.countsOf ?? releaseCounts;
  const path: PagePath = [];
  const cards = surveys.map((s) => {
    const completed = !s.active && html` <span class="tag">completed</span>`;
    return html`<article class="card survey">
<h2><a href="${linkFrom(path, surveyPath({ survey: s }))}">${s.pretty_name || s.name}</a>${completed}</h2>
<p class="title">${s.title}</p>
<div class="prose">${descriptionHtml(s.description)}</div>
${releaseList(path, s, countsOf)}</article>`;
  });
  const totals = surveys.flatMap((s) => s.data_releases).map(countsOf);
  const columns = totals.reduce((n, c) => n + c.columns, 0);
  const regions = totals.reduce((n, c) => n + c.regions, 0);
  const intro = options.intro ?? 'The tables, columns, images and data products of the archive, survey by survey.';
  const held = `${plural(surveys.length, 'survey')}, ${plural(totals.length, 'release')}, ${plural(columns, 'column')}, ${plural(regions, 'imaging region')}.`;
  const body = html`<p class="lead">${intro} ${held}</p>
<div class="cards">
${joinHtml(cards, '\n')}
</div>
${options.pictures}${options.more}`;
  return shell({ path, title: options.site ?? 'Archive schema', body, site: options.site });
}

/** A survey's page: its description, people and releases; `note` as a table's (catalogues.ts). */
export function surveyPage(survey: Survey, options: { site?: string; countsOf?: CountsOf; note?: Html } = {}): string {
  const place: SurveyPlace = { survey, site: options.site };
  const path = surveyPath(place);
  const website = /^https?:\/\//i.test(survey.website)
    ? html`<a href="${survey.website}" rel="noopener noreferrer">${survey.website}</a>`
    : survey.website;
  const surveyFacts = facts([
    ['Survey', html`<code>${survey.name}</code>`],
    ['Principal investigator', survey.pi],
    ['Contact', contactHtml(survey.contact)],
    ['Website', survey.website ? website : undefined],
    ['Status', survey.active ? 'active' : 'completed'],
    ['Survey id', surveyId(survey.url)],
  ]);
  const body = html`<p class="title">${survey.title}</p>
<div class="prose">${descriptionHtml(survey.description)}</div>
${surveyFacts}${options.note}<h2>Releases</h2>
${releaseList(path, survey, options.countsOf)}`;
  return shell({
    path,
    title: survey.pretty_name || survey.name,
    body,
    crumbs: surveyCrumbs(place).map((c, i, all) => (i === all.length - 1 ? { label: c.label } : c)),
    site: options.site,
    surveyId: idOf(place),
  });
}

interface Listed {
  name: string;
  pretty_name: string | null;
  description: string | null;
}

/** A group's or facility's line on its release's page. */
export function releaseItem(place: ReleasePlace, kind: DataKind, item: Listed, size: string): Html {
  const from = releasePath(place);
  const link = html`<a href="${linkFrom(from, parentPath(place, kind, item.name))}">${displayName(item)}</a>`;
  return html`<li>${link} <span class="muted">${size}</span><div>${descriptionHtml(item.description)}</div></li>`;
}

/** How much a group or facility holds, as its line on the release's page says. */
export function itemSize(kind: DataKind, node: object): string {
  const n = node as { tables?: readonly { columns: readonly unknown[] }[]; bands?: readonly unknown[]; products?: readonly unknown[] };
  if (kind === 'catalogues') {
    const tables = n.tables ?? [];
    return `${plural(tables.length, 'table')}, ${plural(
      tables.reduce((k, t) => k + t.columns.length, 0),
      'column',
    )}`;
  }
  if (kind === 'imaging') return plural(n.bands?.length ?? 0, 'band');
  return plural(n.products?.length ?? 0, 'data product');
}

/** The lines of a release's groups and facilities: made here, or given (already rendered with each file). */
export type ItemsOf = (kind: DataKind, items: readonly Listed[]) => Html[];

function section(place: ReleasePlace, kind: DataKind, items: readonly Listed[], itemsOf: ItemsOf): Html {
  if (items.length === 0) return html``;
  const rows = itemsOf(kind, items);
  return html`<section aria-labelledby="${kind}-h">
<h2 id="${kind}-h">${KIND_LABEL[kind]}</h2>
<ul class="nodes">${rows}</ul>
</section>
`;
}

/**
 * A release's page: what it holds, kind by kind. `released` is the day it was published, which the
 * API does not give; `note` as a table's (catalogues.ts).
 */
export function releasePage(
  release: DataRelease,
  place: SurveyPlace,
  given: { counts?: ReleaseCounts; itemsOf?: ItemsOf; released?: string; note?: Html } = {},
): string {
  const inner: ReleasePlace = { ...place, release };
  const path = releasePath(inner);
  const itemsOf: ItemsOf = given.itemsOf ?? ((kind, items) => items.map((item) => releaseItem(inner, kind, item, itemSize(kind, item))));
  const groups = release.catalogues?.groups ?? [];
  const imaging = release.imaging?.facilities ?? [];
  const ifs = release.ifs?.facilities ?? [];
  const spectra = release.spectra?.facilities ?? [];
  const counts = given.counts ?? releaseCounts(release);
  const releaseFacts = facts([
    ['Release', html`<code>${release.name}</code>`],
    ['Number', count(release.data_release_number)],
    ['Version', String(release.version)],
    ['Holds', countsText(counts)],
    ['Released', given.released],
    ['Published', day(release.created)],
    ['Updated', day(release.updated)],
    ['Contact', contactHtml(release.contact)],
  ]);
  const sections = [
    section(inner, 'catalogues', groups, itemsOf),
    section(inner, 'imaging', imaging, itemsOf),
    section(inner, 'ifs', ifs, itemsOf),
    section(inner, 'spectra', spectra, itemsOf),
  ];
  const body = html`${releaseFacts}${given.note}${sections}`;
  return shell({
    path,
    title: `${place.survey.pretty_name || place.survey.name} ${release.pretty_name || release.name}`,
    body,
    crumbs: releaseCrumbs(inner).map((c, i, all) => (i === all.length - 1 ? { label: c.label } : c)),
    site: place.site,
    surveyId: idOf(place),
  });
}
