// The schema browser's pages of one catalogue group or facility file (the group's and its tables',
// an imaging facility's and its bands', an IFS or spectra facility's), rendered with the file in the
// worker threads and cached with it (outputs/output.ts), so an edit re-renders that file's pages only.
// What a page shows of its survey and release (their names in the breadcrumbs) lives in other files:
// it is left as a NUL, filled in as the page is written (plan.ts). So is what other outputs note
// about the page's node (when it was added and last changed, from the change records): the page is
// cut where the note goes, and the note put between the two texts as the page is planned.

import type { KindType } from '../../kinds/registry.ts';
import type { ApiObject } from '../api/objects.ts';
import type { UnitPlace } from '../output.ts';
import { bandChart, markOnDefaultMap, skyMap } from './pictures/index.ts';
import type { ChartFacility, MarkedRegion, RegionName } from './pictures/index.ts';
import { bandPage, facilityPage, groupPage, productFacilityPage, regionId, tablePage } from './pages/index.ts';
import type { CatalogueGroup, ImagingFacility, PagePath, ProductFacility, ReleasePlace } from './pages/index.ts';
import { html, raw } from '../html.ts';
import type { Html } from '../html.ts';
import { displayName, linkFrom, rootOf } from './pages/html.ts';
import { childPath, dataKindOf, parentPath, releaseCrumbs } from './pages/places.ts';
import { crumbItem, jsonLink } from './pages/shell.ts';
import { itemSize, releaseItem } from './pages/survey.ts';
import { searchEntry } from './search.ts';

/** The name of a file's line on its release's page. */
export const ITEM_TEXT = 'item';
/** The name of the group's or facility's own page. */
export const PAGE_TEXT = 'page';
/** The name of the part of a page after its footer's link to the survey's JSON (see browserTexts). */
export function tailText(name: string): string {
  return `tail:${name}`;
}

/** The name of the part of a page between the note on its node and its footer's link to the survey's JSON. */
export function bodyText(name: string): string {
  return `body:${name}`;
}

/**
 * Where a page's note goes while its text is rendered with its file alone: a comment, which no
 * escaped or sanitised text of the metadata can hold, cut out again before the text is kept.
 */
const NOTE_SLOT = '<!--note-->';

/**
 * Where an imaging facility's colour class goes on its pages (facilityColourClass): a NUL, as the
 * breadcrumbs', filled in as the page is planned, when the archive's facilities are known.
 */
const COLOUR_MARK = '\0';
const COLOUR_SLOT = raw(COLOUR_MARK);

/** The name of the file's entry in the search data (search.ts). */
export const SEARCH_TEXT = 'search';
/** The name of an imaging facility's bands and regions as JSON, for the home page's pictures. */
export const SKY_TEXT = 'sky';

/** The name of a table's or band's page. */
export function childText(name: string): string {
  return `child:${name}`;
}

/** A page of the file: where it goes, the name its text is kept by, and its HTML. */
export interface UnitPage {
  path: PagePath;
  name: string;
  html: string;
}

/** What the home page's pictures need of an imaging facility. */
export interface FacilitySky {
  facility: ChartFacility;
  /** Each region with its mark on the all-sky map, which its facility's, its band's and the home page's maps all draw. */
  regions: MarkedRegion[];
}

/** A file's place, its survey and release labelled as given (their names when rendered with the file alone). */
export function pagePlace(
  place: UnitPlace,
  labels: { survey: string; release: string } = { survey: place.survey, release: place.release },
): ReleasePlace {
  // No survey URL: the survey's id is not the file's, and pages made with the file alone cannot know it.
  return {
    survey: { url: '', name: place.survey, pretty_name: labels.survey },
    release: { name: place.release, pretty_name: labels.release },
  };
}

/** The breadcrumbs a file's page shares with its release's page (home, survey, release), linked from `path`. */
export function sharedCrumbs(place: ReleasePlace, path: PagePath): string {
  return releaseCrumbs(place)
    .map((c) => crumbItem(path, c, false).text)
    .join('');
}

/**
 * Every page of a group or facility, with its place's labels as given (and a facility's sky, when
 * made already), each with `note` where the note on its node goes.
 */
export function unitPages(kind: KindType, api: ApiObject, place: ReleasePlace, given?: FacilitySky, note: Html = html``): UnitPage[] {
  const dataKind = dataKindOf(kind);
  if (dataKind === 'catalogues') {
    const group = api as unknown as CatalogueGroup;
    const inner = { ...place, parent: group };
    return [
      { path: parentPath(place, dataKind, group.name), name: PAGE_TEXT, html: groupPage(group, place, note) },
      ...group.tables.map((t) => ({ path: childPath(inner, dataKind, t.name), name: childText(t.name), html: tablePage(t, inner, note) })),
    ];
  }
  if (dataKind === 'imaging') {
    const facility = api as unknown as ImagingFacility;
    const inner = { ...place, parent: facility };
    const path = parentPath(place, dataKind, facility.name);
    const sky = given ?? facilitySky(facility, place);
    const regionHref = regionLinks(path);
    const pictures = {
      bandChart: bandChart([sky.facility], { href: (band) => linkFrom(path, childPath(inner, dataKind, band.name)) }),
      skyMap: skyMap(sky.regions, { href: (region) => regionHref(place, facility.name, region) }),
      colour: COLOUR_SLOT,
    };
    return [
      { path, name: PAGE_TEXT, html: facilityPage(facility, place, pictures, note) },
      ...facility.bands.map((b) => {
        const at = childPath(inner, dataKind, b.name);
        // The band's own regions, each mark leading to its card on the same page.
        const regions = sky.regions.filter((r) => r.band === b.name);
        const map =
          regions.length > 0 ? skyMap(regions, { href: (region) => `#${regionId(region.name)}`, facilities: [facility.name] }) : undefined;
        return {
          path: at,
          name: childText(b.name),
          html: bandPage(b, inner, map === undefined ? {} : { skyMap: map, colour: COLOUR_SLOT }, note),
        };
      }),
    ];
  }
  const facility = api as unknown as ProductFacility;
  return [
    { path: parentPath(place, dataKind, facility.name), name: PAGE_TEXT, html: productFacilityPage(facility, place, dataKind, note) },
  ];
}

/** A link from one page to a region's card on its band's page: `place` and `facility` say where the band is. */
export type RegionHref = (place: ReleasePlace, facility: string, region: Pick<RegionName, 'name' | 'band'>) => string;

/**
 * Links from the page at `from` to regions' cards, each band's page worked out once: a sky map
 * links every region, and the home page's some thousands.
 */
export function regionLinks(from: PagePath): RegionHref {
  // By release, then by facility and band.
  const links = new Map<ReleasePlace, Map<string, string>>();
  return (place, facility, region) => {
    let ofRelease = links.get(place);
    if (!ofRelease) links.set(place, (ofRelease = new Map<string, string>()));
    const band = `${facility}\0${region.band}`;
    let link = ofRelease.get(band);
    if (link === undefined) {
      link = linkFrom(from, childPath({ ...place, parent: { name: facility, pretty_name: null } }, 'imaging', region.band));
      ofRelease.set(band, link);
    }
    return `${link}#${regionId(region.name)}`;
  };
}

/** An imaging facility's bands and regions as the pictures take them. */
export function facilitySky(facility: ImagingFacility, place: ReleasePlace): FacilitySky {
  return {
    facility: {
      name: facility.name,
      label: `${displayName(facility)} (${place.survey.name} ${place.release.name})`,
      bands: facility.bands.map((b) => ({ key: b.band_key, name: b.name, central_wave_ang: b.central_wave_ang })),
    },
    regions: facility.bands.flatMap((b) =>
      b.regions.map((r) => {
        const named = { key: String(r.id), name: r.name, facility: facility.name, band: b.name };
        const mark = markOnDefaultMap({ ...named, fits_header: r.fits_header, ra_c: r.ra_c, dec_c: r.dec_c, unit: r.unit, frame: r.frame });
        return { ...named, mark };
      }),
    ),
  };
}

/**
 * The file's texts for the browser (units.ts): its pages with their shared breadcrumbs as a NUL,
 * each in three texts around the note on its node and the link to its survey's JSON; its line; its sky.
 */
export function browserTexts(api: ApiObject, unit: UnitPlace, kind: KindType): Record<string, string> {
  const place = pagePlace(unit);
  const texts: Record<string, string> = {};
  const dataKind = dataKindOf(kind);
  const sky = dataKind === 'imaging' ? facilitySky(api as unknown as ImagingFacility, place) : undefined;
  for (const page of unitPages(kind, api, place, sky, raw(NOTE_SLOT))) {
    const shared = sharedCrumbs(place, page.path);
    const at = page.html.indexOf(shared);
    if (at < 0) throw new Error(`${page.path.join('/')}: no breadcrumbs to leave for the survey's`);
    const html = `${page.html.slice(0, at)}\0${page.html.slice(at + shared.length)}`;
    // The survey's id is not the file's: the link to the survey's JSON is left out too, and the page
    // kept in two texts either side of it, for the planner to put the link between.
    const json = jsonLink(rootOf(page.path), undefined).text;
    const cut = html.lastIndexOf(json);
    if (cut < 0) throw new Error(`${page.path.join('/')}: no link to the survey's JSON to leave out`);
    const slot = html.indexOf(NOTE_SLOT);
    if (slot < 0 || slot > cut || html.includes(NOTE_SLOT, slot + 1))
      throw new Error(`${page.path.join('/')}: not one place for the note on its node`);
    texts[page.name] = html.slice(0, slot);
    texts[bodyText(page.name)] = html.slice(slot + NOTE_SLOT.length, cut);
    texts[tailText(page.name)] = html.slice(cut + json.length);
    // Each text's NULs are filled with one thing: the head's with the breadcrumbs, the body's with the colour.
    if (texts[page.name]?.split('\0').length !== 2 || texts[tailText(page.name)]?.includes('\0'))
      throw new Error(`${page.path.join('/')}: a facility's colour is not in the body of its page`);
  }
  texts[ITEM_TEXT] = releaseItem(place, dataKind, api as unknown as CatalogueGroup, itemSize(dataKind, api)).text;
  texts[SEARCH_TEXT] = searchEntry(kind, api, unit);
  if (sky) texts[SKY_TEXT] = JSON.stringify(sky);
  return texts;
}
