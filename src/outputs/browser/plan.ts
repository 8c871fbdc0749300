// The schema browser's files: its style sheet, the home page at the site's root (with the links to
// the API's listings, its documents and the download), a page per survey and release made here from
// the archive's skeleton, and the pages of each group and facility, rendered with their files
// (texts.ts) and spliced in, their survey's and release's breadcrumbs filled in as they are written.

import { createHash } from 'node:crypto';
import { DATA_TYPES, DOCUMENTS, NOT_FOUND_PAGE, requestTarget, surveyUrl } from '../../site/routes.ts';
import { SECTIONS, childrenOf } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import { rootsOf } from '../../pipeline/assemble.ts';
import type { Archive, ReleaseEntry, SurveyEntry } from '../../pipeline/assemble.ts';
import { releaseHead, surveyObject } from '../api/objects.ts';
import { textPiece } from '../../site/fragment.ts';
import type { Fragment } from '../../site/fragment.ts';
import { planOf } from '../../site/plan.ts';
import { readStored } from '../../site/plan-bytes.ts';
import type { Bytes, Piece, Plan } from '../../site/plan.ts';
import type { PageNode, PageNotes, PlanInput } from '../output.ts';
import { manyTextName } from '../output.ts';
import { bandChart, facilityColourClass, facilityOrder, skyMap } from './pictures/index.ts';
import { STYLESHEET_PATH, homePage, pageHref, pictureFigure, releasePage, stylesheet, surveyPage } from './pages/index.ts';
import type { DataKind, DataRelease, PagePath, ReleaseCounts, ReleasePlace, Survey } from './pages/index.ts';
import { html, raw } from '../html.ts';
import type { Html } from '../html.ts';
import { childPath, dataKindOf, parentPath, releasePath, surveyPath } from './pages/places.ts';
import {
  ITEM_TEXT,
  PAGE_TEXT,
  SEARCH_TEXT,
  SKY_TEXT,
  bodyText,
  childText,
  pagePlace,
  regionLinks,
  sharedCrumbs,
  tailText,
} from './texts.ts';
import { pageNode } from './nodes.ts';
import type { NodePlace, SkeletonNode } from './nodes.ts';
import { footerLinks, jsonLink, withFooterLinks } from './pages/shell.ts';
import { isFilePage, plural, rootOf } from './pages/html.ts';
import { SEARCH_DATA_PATH, SEARCH_TAIL, searchHead } from './search.ts';
import type { SearchSurvey } from './search.ts';
import { siteScriptText } from './script.ts';
import { ADDRESS_PATH, ICON_PATH, ICON_SVG, SCRIPT_PATH, addressPage, notFoundPage } from './pages/index.ts';
import type { FacilitySky } from './texts.ts';

/** The name of the browser's per-file texts, and of the output. */
export const BROWSER = 'browser';

/** The file a page is written to: its path's names as they are (links percent-encode them; hosts and file:// decode). */
export function pageFile(path: PagePath): string {
  if (path.length === 0) return 'index.html';
  return isFilePage(path) ? `${path.join('/')}.html` : `${path.join('/')}/index.html`;
}

export function planBrowser(input: PlanInput): Plan[] {
  const { archive, baseUrl, recall, pageNotes } = input;
  const plans: Plan[] = [
    planOf(STYLESHEET_PATH, [stylesheet()]),
    planOf(SCRIPT_PATH, [siteScriptText(baseUrl)]),
    planOf(ICON_PATH, [ICON_SVG]),
  ];
  const searched: Piece[] = [];
  const listed: SearchSurvey[] = [];
  const surveys: Survey[] = [];
  const counts = new Map<DataRelease, ReleaseCounts>();
  const skies: Sky[] = [];
  const footer = footerOf(pageNotes);
  const colours = facilityColours(archive);
  for (const survey of archive.surveys) {
    const releases: DataRelease[] = [];
    for (const release of survey.releases) {
      const made = planRelease(input, survey, release, { footer, colours });
      plans.push(...made.plans);
      searched.push(...made.searched);
      skies.push(...made.skies);
      counts.set(made.stub, made.held);
      releases.push(made.stub);
    }
    listed.push({
      name: survey.data.name,
      label: survey.data.pretty_name || survey.data.name,
      releases: survey.releases.map((r) => ({ name: r.data.name, label: r.data.pretty_name || r.data.name })),
    });
    const object = surveyObject(survey.data, surveyUrl(baseUrl, survey.data.id, null), releases) as unknown as Survey;
    surveys.push(object);
    const path = surveyPath({ survey: object });
    const note = pageNotes?.note(
      { kind: 'Survey', id: survey.data.id, survey: { id: survey.data.id, name: survey.data.name }, path: survey.data.name },
      path,
    );
    const page = surveyPage(object, { countsOf: (r) => countsOf(counts, r), ...(note ? { note } : {}) });
    plans.push(planOf(pageFile(path), [footer.into(page, path, String(survey.data.id))]));
  }
  // The home page's pictures are made of every facility's sky: an edit elsewhere leaves them as
  // they were, recalled by the facilities' texts and places rather than drawn again.
  const pictures = () =>
    homePictures(
      skies.map(({ fragment, place }) => ({ sky: JSON.parse(textOf(fragment, manyTextName(BROWSER, SKY_TEXT))) as FacilitySky, place })),
    ).text;
  const picturesKey = createHash('sha256')
    .update(JSON.stringify(skies.map(({ fragment, place }) => [fragment.key, place])))
    .digest('hex');
  const home = homePage(surveys, {
    countsOf: (r) => countsOf(counts, r),
    // HTML that homePictures made, in this build or recalled from an earlier one.
    pictures: raw(recall ? recall('home-pictures', picturesKey, pictures) : pictures()),
    more: apiSection(archive),
  });
  plans.push(planOf(pageHref([]), [footer.into(home, [], undefined)]));
  plans.push(planOf(pageFile(ADDRESS_PATH), [footer.into(addressPage(listed), ADDRESS_PATH, undefined)]));
  plans.push(planOf(NOT_FOUND_PAGE, [notFoundPage()]));
  plans.push(planOf(SEARCH_DATA_PATH, [searchHead(listed), ...searched, SEARCH_TAIL]));
  return plans;
}

/**
 * The archive's imaging facilities by name, in the order the pictures give them colours: as the
 * archive lists them, so that a facility keeps its colour as facilities are added after it.
 */
function facilityColours(archive: Archive): Map<string, number> {
  const names = archive.surveys.flatMap((survey) =>
    survey.releases.flatMap((release) =>
      rootsOf(release, 'ImagingFacility').map((entry) => String((entry.data as { name: unknown }).name)),
    ),
  );
  return new Map(facilityOrder(undefined, names).map((name, i) => [name, i]));
}

/** What every release's pages share: the footer's links and the facilities' colours. */
interface Shared {
  footer: Footer;
  colours: ReadonlyMap<string, number>;
}

/** An imaging facility's text and place, for the home page's pictures. */
interface Sky {
  fragment: Fragment;
  place: ReturnType<typeof pagePlace>;
}

/** The links other outputs add to every page's footer (PageNotes), after the link to the survey's JSON. */
interface Footer {
  /** The links' HTML on a page `root` below the site's root. */
  links: (root: string) => string;
  /** A page made whole here, with the links. */
  into: (page: string, path: PagePath, survey: string | undefined) => string;
}

function footerOf(notes: PageNotes | undefined): Footer {
  const links = notes?.links ?? [];
  return {
    links: (root) => footerLinks(root, links),
    into: (page, path, survey) => withFooterLinks(page, path, survey, links),
  };
}

/** A release's page and the pages of its groups and facilities, with its lines in the search data and its facilities' skies. */
function planRelease(
  input: PlanInput,
  survey: SurveyEntry,
  release: ReleaseEntry,
  shared: Shared,
): { plans: Plan[]; stub: DataRelease; held: ReleaseCounts; searched: Piece[]; skies: Sky[] } {
  const { footer } = shared;
  const stub = releaseStub(release);
  const place = pagePlace(
    { survey: survey.data.name, release: release.data.name },
    { survey: survey.data.pretty_name || survey.data.name, release: release.data.pretty_name || release.data.name },
  );
  const held: ReleaseCounts = { groups: 0, tables: 0, columns: 0, facilities: 0, bands: 0, regions: 0, products: 0 };
  const plans: Plan[] = [];
  const items: Piece[] = [];
  const searched: Piece[] = [];
  const skies: Sky[] = [];
  const pages = filePages(input, survey, release, place, shared);
  for (const section of SECTIONS) {
    for (const entry of rootsOf(release, section.kind)) {
      const fragment = fragmentOf(input.fragments, entry.file.relative);
      tally(held, section.dataType, fragment.counts);
      items.push(browserPiece(fragment, ITEM_TEXT));
      searched.push(browserPiece(fragment, SEARCH_TEXT));
      plans.push(...pages(section.kind, entry.data as unknown as SkeletonNode, fragment));
      if (section.dataType === 'imaging') skies.push({ fragment, place });
    }
  }
  // The release's page: its lines are the files', in the order its sections list them.
  const path = releasePath(place);
  const node: PageNode = {
    kind: 'DataRelease',
    survey: { id: survey.data.id, name: survey.data.name },
    release: release.data.name,
    path: `${survey.data.name}/${release.data.name}`,
  };
  const note = input.pageNotes?.note(node, path);
  const { released } = release.data;
  const marked = releasePage(stub, place, {
    counts: held,
    itemsOf: (_kind, listed) => listed.map(() => html`\0`),
    ...(released === undefined ? {} : { released }),
    ...(note ? { note } : {}),
  });
  // Made from a place without the survey's URL (pagePlace), the page's footer links the API's listing, not the survey's JSON.
  const parts = footer.into(marked, path, undefined).split('\0');
  const pieces: Piece[] = [];
  parts.forEach((part, i) => {
    pieces.push(part);
    const item = items[i];
    if (i < parts.length - 1 && item !== undefined) pieces.push(item);
  });
  plans.push(planOf(pageFile(path), pieces));
  return { plans, stub, held, searched, skies };
}

/**
 * The pages of a release's files, each planned from its file's texts: the part before the note on
 * its node (the survey's and release's breadcrumbs filled in), the note, the part up to the link to
 * its survey's JSON, that link and the footer's other links, and the rest.
 */
function filePages(
  input: PlanInput,
  survey: SurveyEntry,
  release: ReleaseEntry,
  place: ReleasePlace,
  { footer, colours }: Shared,
): (kind: KindType, data: SkeletonNode, fragment: Fragment) => Plan[] {
  // The release's breadcrumbs differ between its pages only in the way up to the root.
  const crumbsFrom = new Map<string, string>();
  const notes = input.pageNotes;
  const at: NodePlace = { survey: { id: survey.data.id, name: survey.data.name }, release: release.data.name, above: [] };
  const page = (fragment: Fragment, path: PagePath, name: string, node: () => PageNode, colour?: string) => {
    const root = rootOf(path);
    let crumbs = crumbsFrom.get(root);
    if (crumbs === undefined) crumbsFrom.set(root, (crumbs = sharedCrumbs(place, path)));
    return planOf(pageFile(path), [
      browserPiece(fragment, name, crumbs),
      notes ? notes.note(node(), path).text : '',
      browserPiece(fragment, bodyText(name), colour),
      jsonLink(root, String(survey.data.id)).text + footer.links(root),
      browserPiece(fragment, tailText(name)),
    ]);
  };
  return (kind, data, fragment) => {
    const dataKind = dataKindOf(kind);
    const name = String(data.name);
    const path = parentPath(place, dataKind, name);
    const inner = { ...place, parent: { name, pretty_name: null } };
    const childPage = (child: string) => childPath(inner, dataKind, child);
    const paged = dataKind === 'catalogues' || dataKind === 'imaging';
    // An imaging facility's pictures, drawn with it alone, take its colour among the archive's.
    const index = dataKind === 'imaging' ? colours.get(name) : undefined;
    const colour = index === undefined ? undefined : facilityColourClass(index);
    const plans = [page(fragment, path, PAGE_TEXT, () => pageNode(kind, data, at, path, paged ? childPage : undefined), colour)];
    if (!paged) return plans;
    const list = childrenOf(kind)[0];
    const children = (list ? data[list.key] : undefined) as SkeletonNode[] | undefined;
    fragment.children.forEach((child, i) => {
      const childAt = childPage(child);
      const node = () => pageNode(list?.kind ?? kind, children?.[i] ?? { name: child }, { ...at, above: [name] }, childAt);
      plans.push(page(fragment, childAt, childText(child), node, colour));
    });
    return plans;
  };
}

function fragmentOf(fragments: ReadonlyMap<string, Fragment>, relative: string): Fragment {
  const fragment = fragments.get(relative);
  if (!fragment) throw new Error(`no rendered text for ${relative}`);
  return fragment;
}

/** A browser text of a file's as a piece of a page, its NUL marks filled with `fill`. */
function browserPiece(fragment: Fragment, name: string, fill?: string): Piece {
  return textPiece(fragment, manyTextName(BROWSER, name), fill);
}

function countsOf(counts: ReadonlyMap<DataRelease, ReleaseCounts>, release: DataRelease): ReleaseCounts {
  const held = counts.get(release);
  if (!held) throw new Error(`no counts for release ${release.name}`);
  return held;
}

/** A release's own fields, with its data types listed by name only: its files' pages and lines are theirs. */
function releaseStub(release: ReleaseEntry): DataRelease {
  const listed = (kind: string) =>
    rootsOf(release, kind as never).map((e) => ({ name: (e.data as { name: string }).name, pretty_name: null, description: null }));
  const sections: Record<string, unknown> = { catalogues: null, imaging: null, ifs: null, spectra: null };
  for (const section of SECTIONS) {
    const entries = listed(section.kind);
    if (entries.length > 0) sections[section.dataType] = section.dataType === 'catalogues' ? { groups: entries } : { facilities: entries };
  }
  return { ...releaseHead(release.data), type: 'DataRelease', ...sections } as unknown as DataRelease;
}

/** Adds what a file holds, from its census, to its release's counts. */
function tally(held: ReleaseCounts, kind: DataKind, census: Record<string, number>): void {
  const n = (type: string) => census[type] ?? 0;
  if (kind === 'catalogues') {
    held.groups++;
    held.tables += n('CatalogueTable');
    held.columns += n('CatalogueColumn');
    return;
  }
  held.facilities++;
  held.bands += n('ImagingBand');
  held.regions += n('ImagingRegion');
  held.products += n('IFSDataProduct') + n('SpectraDataProduct');
}

/** A text of a file, read whole (a facility's sky: small). */
function textOf(fragment: Fragment, name: string): string {
  const text = fragment.texts[name];
  if (!text) throw new Error(`no ${name} text rendered for ${fragment.key}`);
  return new TextDecoder().decode(bytesOf(text.bytes));
}

function bytesOf(bytes: Bytes): Uint8Array {
  return bytes instanceof Uint8Array ? bytes : readStored(bytes);
}

/** The home page's sky map of every imaging region and chart of every band; nothing without imaging. */
export function homePictures(skies: readonly { sky: FacilitySky; place: ReturnType<typeof pagePlace> }[]): Html {
  if (skies.length === 0) return html``;
  const home: PagePath = [];
  const regionHref = regionLinks(home);
  const regionPlace = new Map<string, { place: ReturnType<typeof pagePlace>; facility: string }>();
  for (const { sky, place } of skies) for (const r of sky.regions) regionPlace.set(r.key, { place, facility: sky.facility.name });
  // The colours of facilityColours: every facility's, whether it has regions on the map or not.
  const facilities = facilityOrder(
    undefined,
    skies.map((s) => s.sky.facility.name),
  );
  const map = skyMap(
    skies.flatMap((s) => s.sky.regions),
    {
      href: (region) => {
        const at = regionPlace.get(region.key);
        return at ? regionHref(at.place, at.facility, region) : undefined;
      },
      tabbable: false,
      facilities,
    },
  );
  // The marks are out of the tab order: each facility's page, linked here, has them as links.
  const listed = skies
    .filter(({ sky }) => sky.regions.length > 0)
    .map(({ sky, place }) => {
      const href = pageHref(parentPath(place, 'imaging', sky.facility.name));
      return html`<li><a href="${href}">${sky.facility.label ?? sky.facility.name}</a>: ${plural(sky.regions.length, 'region')}</li>`;
    });
  const list = html`<p class="note" id="sky-facilities">The map's regions by facility, each facility's page mapping and listing them:</p><ul class="facility-list" aria-labelledby="sky-facilities">${listed}</ul>`;
  const chart = bandChart(
    skies.map((s) => s.sky.facility),
    {
      facilities,
      href: (band, facility) => {
        const at = skies.find((s) => s.sky.facility === facility);
        return at
          ? pageHref(childPath({ ...at.place, parent: { name: facility.name, pretty_name: null } }, 'imaging', band.name))
          : undefined;
      },
    },
  );
  return html`<h2>Imaging</h2>
${pictureFigure(map, "Where the archive's imaging regions lie on the sky.", 'Sky map', list)}${pictureFigure(chart, "The archive's imaging bands by central wavelength.", 'Band chart')}`;
}

/** The API's listings, its documents and the download, as the site's front page listed them. */
export function apiSection(archive: Archive): Html {
  const relative = (target: string) => target.replace(/^\//, '');
  const lists = DATA_TYPES.map((t) => {
    const target = requestTarget('list', { data_type: t });
    const browsable = requestTarget('list', { data_type: t, format: 'api' });
    return html`<li><a href="${relative(target)}">${target}</a> (<a href="${relative(browsable)}">browse</a>)</li>`;
  });
  const surveys = archive.surveys.map((s: SurveyEntry) => {
    const browsable = requestTarget('detail', { id: s.data.id, format: 'api' });
    return html`<li><a href="${relative(browsable)}">${s.data.pretty_name}</a> as JSON</li>`;
  });
  const documents = DOCUMENTS.filter((d) => d.nav).map((d) => html`<li><a href="${relative(d.path)}">${d.title}</a></li>`);
  return html`<section aria-labelledby="api-h">
<h2 id="api-h">API and downloads</h2>
<p>The archive's schema as a read-only JSON API. Listings by data type:</p>
<ul>${lists}</ul>
<ul>${surveys}</ul>
<p>To work offline and with other tools:</p>
<ul>${documents}</ul>
</section>
`;
}
