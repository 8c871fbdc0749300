// The schema browser's files: its style sheet, the home page at the site's root (with the links to
// the API's listings, its documents and the download), a page per survey and release made here from
// the archive's skeleton, and the pages of each group and facility, rendered with their files
// (texts.ts) and spliced in, their survey's and release's breadcrumbs filled in as they are written.

import { createHash } from 'node:crypto';
import { DATA_TYPES, DOCUMENTS, NOT_FOUND_PAGE, requestTarget, surveyUrl } from '../../site/routes.ts';
import { SECTIONS } from '../../kinds/registry.ts';
import { rootsOf } from '../../pipeline/assemble.ts';
import type { Archive, ReleaseEntry, SurveyEntry } from '../../pipeline/assemble.ts';
import { releaseHead, surveyObject } from '../api/objects.ts';
import { textPiece } from '../../site/fragment.ts';
import type { Fragment } from '../../site/fragment.ts';
import { planOf } from '../../site/plan.ts';
import { readStored } from '../../site/plan-bytes.ts';
import type { Bytes, Piece, Plan } from '../../site/plan.ts';
import type { PlanInput } from '../output.ts';
import { manyTextName } from '../output.ts';
import { bandChart, skyMap } from './pictures/index.ts';
import { STYLESHEET_PATH, homePage, pageHref, pictureFigure, releasePage, stylesheet, surveyPage } from './pages/index.ts';
import type { DataKind, DataRelease, PagePath, ReleaseCounts, Survey } from './pages/index.ts';
import { html, raw } from '../html.ts';
import type { Html } from '../html.ts';
import { childPath, parentPath, releasePath, surveyPath } from './pages/places.ts';
import { ITEM_TEXT, PAGE_TEXT, SEARCH_TEXT, SKY_TEXT, childText, pagePlace, regionLinks, sharedCrumbs, tailText } from './texts.ts';
import { jsonLink } from './pages/shell.ts';
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
  const { archive, fragments, baseUrl, recall } = input;
  const fragmentOf = (relative: string): Fragment => {
    const fragment = fragments.get(relative);
    if (!fragment) throw new Error(`no rendered text for ${relative}`);
    return fragment;
  };
  const piece = (fragment: Fragment, name: string, fill?: string) => textPiece(fragment, manyTextName(BROWSER, name), fill);
  const plans: Plan[] = [
    planOf(STYLESHEET_PATH, [stylesheet()]),
    planOf(SCRIPT_PATH, [siteScriptText(baseUrl)]),
    planOf(ICON_PATH, [ICON_SVG]),
  ];
  const searched: Piece[] = [];
  const listed: SearchSurvey[] = [];
  const surveys: Survey[] = [];
  const counts = new Map<DataRelease, ReleaseCounts>();
  const skies: { fragment: Fragment; place: ReturnType<typeof pagePlace> }[] = [];
  for (const survey of archive.surveys) {
    const releases: DataRelease[] = [];
    for (const release of survey.releases) {
      const stub = releaseStub(release);
      const place = pagePlace(
        { survey: survey.data.name, release: release.data.name },
        { survey: survey.data.pretty_name || survey.data.name, release: release.data.pretty_name || release.data.name },
      );
      const held: ReleaseCounts = { groups: 0, tables: 0, columns: 0, facilities: 0, bands: 0, regions: 0, products: 0 };
      const items: Piece[] = [];
      // The release's breadcrumbs differ between its pages only in the way up to the root.
      const crumbsFrom = new Map<string, string>();
      for (const section of SECTIONS) {
        for (const entry of rootsOf(release, section.kind)) {
          const fragment = fragmentOf(entry.file.relative);
          const kind: DataKind = section.dataType;
          tally(held, kind, fragment.counts);
          items.push(piece(fragment, ITEM_TEXT));
          searched.push(piece(fragment, SEARCH_TEXT));
          // The file's pages, where its skeleton's names say.
          const name = (entry.data as { name: string }).name;
          const path = parentPath(place, kind, name);
          // A page of the file: its texts either side of the link to its survey's JSON, made here.
          const filePage = (at: PagePath, name: string) => {
            const root = rootOf(at);
            let crumbs = crumbsFrom.get(root);
            if (crumbs === undefined) crumbsFrom.set(root, (crumbs = sharedCrumbs(place, at)));
            return planOf(pageFile(at), [
              piece(fragment, name, crumbs),
              jsonLink(root, String(survey.data.id)).text,
              piece(fragment, tailText(name)),
            ]);
          };
          plans.push(filePage(path, PAGE_TEXT));
          if (kind === 'catalogues' || kind === 'imaging') {
            for (const child of fragment.children) {
              const at = childPath({ ...place, parent: { name, pretty_name: null } }, kind, child);
              plans.push(filePage(at, childText(child)));
            }
          }
          if (kind === 'imaging') skies.push({ fragment, place });
        }
      }
      counts.set(stub, held);
      releases.push(stub);
      // The release's page: its lines are the files', in the order its sections list them.
      const marked = releasePage(stub, place, { counts: held, itemsOf: (_kind, listed) => listed.map(() => html`\0`) });
      const parts = marked.split('\0');
      const pieces: Piece[] = [];
      parts.forEach((part, i) => {
        pieces.push(part);
        const item = items[i];
        if (i < parts.length - 1 && item !== undefined) pieces.push(item);
      });
      plans.push(planOf(pageFile(releasePath(place)), pieces));
    }
    listed.push({
      name: survey.data.name,
      label: survey.data.pretty_name || survey.data.name,
      releases: survey.releases.map((r) => ({ name: r.data.name, label: r.data.pretty_name || r.data.name })),
    });
    const object = surveyObject(survey.data, surveyUrl(baseUrl, survey.data.id, null), releases) as unknown as Survey;
    surveys.push(object);
    plans.push(planOf(pageFile(surveyPath({ survey: object })), [surveyPage(object, { countsOf: (r) => countsOf(counts, r) })]));
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
  plans.push(planOf(pageHref([]), [home]));
  plans.push(planOf(pageFile(ADDRESS_PATH), [addressPage(listed)]));
  plans.push(planOf(NOT_FOUND_PAGE, [notFoundPage()]));
  plans.push(planOf(SEARCH_DATA_PATH, [searchHead(listed), ...searched, SEARCH_TAIL]));
  return plans;
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
  const map = skyMap(
    skies.flatMap((s) => s.sky.regions),
    {
      href: (region) => {
        const at = regionPlace.get(region.key);
        return at ? regionHref(at.place, at.facility, region) : undefined;
      },
      tabbable: false,
    },
  );
  // The marks are out of the tab order: each facility's page, linked here, has them as links.
  const facilities = skies
    .filter(({ sky }) => sky.regions.length > 0)
    .map(({ sky, place }) => {
      const href = pageHref(parentPath(place, 'imaging', sky.facility.name));
      return html`<li><a href="${href}">${sky.facility.label ?? sky.facility.name}</a>: ${plural(sky.regions.length, 'region')}</li>`;
    });
  const list = html`<p class="note" id="sky-facilities">The map's regions by facility, each facility's page mapping and listing them:</p><ul class="facility-list" aria-labelledby="sky-facilities">${facilities}</ul>`;
  const chart = bandChart(
    skies.map((s) => s.sky.facility),
    {
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
