// Where a dotted address leads: `survey.release.kind.group-or-facility.table-or-band-or-product`,
// and a column's name after a table's (the one name that may hold dots), or a region's after a
// band's. Names are matched as written first, then in any case, as a person may type them.

import { pageHref } from './pages.ts';
import type { Found, Index } from './search-index.ts';

/** A page to lead to, with what to call it. */
export interface PageLink {
  href: string;
  label: string;
}

/** A page (from the site's root) the address leads to, or what is missing and the nearest page that exists. */
export type Destination = { href: string } | { missing: string; nearest?: PageLink };

/** The one named so, as written, else in any case. */
function named<T extends { name: string }>(list: readonly T[], name: string): T | undefined {
  return list.find((x) => x.name === name) ?? list.find((x) => x.name.toLowerCase() === name.toLowerCase());
}

export function resolve(index: Index, address: string): Destination {
  const [surveyName = '', releaseName, written, ...below] = address.split('.');
  const survey = named(index.surveys, surveyName);
  if (!survey) return { missing: `No survey is named “${surveyName}”.`, nearest: { href: 'index.html', label: 'All surveys' } };
  const surveyPage = { href: pageHref(['browse', survey.name]), label: survey.label || survey.name };
  if (releaseName === undefined) return { href: surveyPage.href };
  const release = named(survey.releases, releaseName);
  if (!release) return { missing: `${surveyPage.label} has no release “${releaseName}”.`, nearest: surveyPage };
  const releasePage = {
    href: pageHref(['browse', survey.name, release.name]),
    label: `${surveyPage.label} ${release.label || release.name}`,
  };
  if (written === undefined) return { href: releasePage.href };
  return resolveInRelease(index, { base: [survey.name, release.name, written.toLowerCase()], page: releasePage }, below);
}

/** What an address leads to inside a release's kind of data: `base` is survey, release and kind. */
function resolveInRelease(index: Index, release: { base: string[]; page: PageLink }, names: readonly string[]): Destination {
  const { base, page } = release;
  const kind = base[2] ?? '';
  const [parent, child, ...rest] = names;
  if (parent === undefined) return { missing: `An address needs a group or facility after “${kind}”.`, nearest: page };
  const parentItem = itemAt(index, kind === 'catalogues' ? 'group' : 'facility', [...base, parent]);
  if (!parentItem) return { missing: `${page.label} has no ${kind} named “${parent}”.`, nearest: page };
  if (child === undefined) return { href: parentItem.href };
  const childType: Found['type'] = kind === 'catalogues' ? 'table' : kind === 'imaging' ? 'band' : 'product';
  const childItem = itemAt(index, childType, [...base, parent, child]);
  if (!childItem) return { missing: `${parent} has no ${childType} named “${child}”.`, nearest: { href: parentItem.href, label: parent } };
  if (rest.length === 0) return { href: childItem.href };
  const leaf = rest.join('.');
  const childPage = { href: childItem.href, label: child };
  if (kind === 'catalogues') {
    const column = itemAt(index, 'column', [...base, parent, child, leaf]);
    return column ? { href: column.href } : { missing: `${child} has no column named “${leaf}”.`, nearest: childPage };
  }
  // A band's region: its card on the band's page.
  if (kind === 'imaging') return { href: `${childItem.href}#region-${encodeURIComponent(leaf)}` };
  return { missing: `Nothing is named “${leaf}” in ${child}.`, nearest: childPage };
}

/** The item of a type at a dotted address, as written, else in any case. */
function itemAt(index: Index, type: Found['type'], names: readonly string[]): Found | undefined {
  const dotted = names.join('.');
  return (
    index.items.find((i) => i.type === type && i.address === dotted) ??
    index.items.find((i) => i.type === type && i.address.toLowerCase() === dotted.toLowerCase())
  );
}
