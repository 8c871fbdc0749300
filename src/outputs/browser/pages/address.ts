// The page at `browse/`, where deep links land: `browse/#gama.dr2.catalogues.SpecCat.SpecObj.CATAID`
// names a column by the archive's own dotted address, whatever the pages' paths are. The page's
// script (client/deep-links.ts) reads the address and leads on to its page; without an address, or
// without scripts, the page says how addresses are written and lists the surveys.

import { html } from '../../html.ts';
import { linkFrom } from './html.ts';
import { releasePath, surveyPath } from './places.ts';
import { shell } from './shell.ts';
import type { PagePath } from './html.ts';

/** The folders of the deep links' page. */
export const ADDRESS_PATH: PagePath = ['browse'];

/** A survey with its releases, by name and label. */
export interface AddressSurvey {
  name: string;
  label: string;
  releases: { name: string; label: string }[];
}

export function addressPage(surveys: readonly AddressSurvey[], options: { site?: string } = {}): string {
  const path = ADDRESS_PATH;
  const items = surveys.map((s) => {
    const place = { survey: { url: '', name: s.name, pretty_name: s.label } };
    const releases = s.releases.map((r) => {
      const href = linkFrom(path, releasePath({ ...place, release: { name: r.name, pretty_name: r.label } }));
      return html`<li><a href="${href}">${r.label}</a> <code>${`${s.name}.${r.name}`}</code></li>`;
    });
    return html`<li><a href="${linkFrom(path, surveyPath(place))}">${s.label}</a> <code>${s.name}</code>${
      releases.length > 0 && html`<ul>${releases}</ul>`
    }</li>`;
  });
  const body = html`<p id="resolve" class="lead">Every survey, release, group, table and column has an address made of their names joined by dots, which leads to its page when written after <code>browse/#</code>.</p>
<dl class="facts"><dt>A column</dt><dd><code>survey.release.catalogues.group.table.column</code></dd><dt>A table</dt><dd><code>survey.release.catalogues.group.table</code></dd><dt>An imaging band</dt><dd><code>survey.release.imaging.facility.band</code></dd><dt>A release</dt><dd><code>survey.release</code></dd></dl>
<p>Each column on a table’s page has a button that copies its address as a link.</p>
<h2>Surveys</h2>
<ul class="releases">${items}</ul>
`;
  return shell({
    path,
    title: 'Addresses',
    body,
    crumbs: [{ label: options.site ?? 'Home', path: [] }, { label: 'Addresses' }],
    site: options.site,
  });
}
