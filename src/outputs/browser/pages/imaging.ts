// The pages of an imaging facility (its bands, the band chart and the sky map) and of each band (its
// regions as cards: centre, frame, equinox and the FITS header as a table of cards).

import { styleSheet } from '../pictures/svg.ts';
import { wavelengthLabel } from '../pictures/bands.ts';
import { html, joinHtml, raw } from '../../html.ts';
import type { Html } from '../../html.ts';
import { count, descriptionHtml, displayName, documentationHtml, facts, linkFrom, nodeFacts, plural, scrollTable } from './html.ts';
import { childPath, nodePage, parentCrumbs, parentPath, releaseCrumbs } from './places.ts';
import type { ParentPlace, ReleasePlace } from './places.ts';
import type { FitsValue, ImagingBand, ImagingFacility, ImagingRegion } from './types.ts';

/** The pictures a facility's page shows, as SVG text (skyMap, bandChart); either may be left out. */
export interface FacilityPictures {
  bandChart?: string;
  skyMap?: string;
  /**
   * The facility's colour among the archive's (facilityColourClass), for pictures drawn with its
   * marks in the first colour: with the facility alone, its page and its bands' pages do not know it.
   */
  colour?: Html;
}

/**
 * A picture to inline in a page: the SVG the pictures/ modules make, escaping their own text, so it
 * goes in raw. Its own style element would be refused by the pages' security policy (no inline
 * style), so it goes: the browser's style sheet carries the same rules.
 */
export function inlinePicture(svg: string): Html {
  return raw(svg.replace(styleSheet(), ''));
}

/**
 * A picture with its caption. The picture keeps its drawn size on a narrow screen and scrolls
 * sideways in a box of its own, which the keyboard can reach (one tab stop) and the caption says so
 * there; `after` goes under the caption (a list of what the picture links to, say).
 */
export function pictureFigure(svg: string, caption: string, name: string, after: Html | string = '', colour?: Html): Html {
  return html`<figure class="picture${colour === undefined ? '' : html` ${colour}`}"><div class="picture-scroll" tabindex="0" role="group" aria-label="${name}">${inlinePicture(svg)}</div><figcaption>${caption}<span class="scroll-hint"> It is wider than the screen: scroll it sideways.</span></figcaption>${after}</figure>\n`;
}

function figure(svg: string | undefined, caption: string, name: string, colour: Html | undefined): Html | undefined {
  return svg ? pictureFigure(svg, caption, name, '', colour) : undefined;
}

/** An imaging facility's page: its bands by wavelength, with the pictures given; `note` as a table's (catalogues.ts). */
export function facilityPage(facility: ImagingFacility, place: ReleasePlace, pictures: FacilityPictures = {}, note: Html = html``): string {
  const path = parentPath(place, 'imaging', facility.name);
  const inner: ParentPlace = { ...place, parent: facility };
  const rows = facility.bands.map((b) => {
    const link = html`<a href="${linkFrom(path, childPath(inner, 'imaging', b.name))}">${displayName(b)}</a>`;
    const wavelength = wavelengthLabel(b.central_wave_ang);
    return html`<tr><th scope="row">${link}</th><td>${descriptionHtml(b.description)}</td><td class="num">${wavelength}</td><td class="num">${count(
      b.regions.length,
    )}</td></tr>`;
  });
  const regions = facility.bands.reduce((n, b) => n + b.regions.length, 0);
  const facts = nodeFacts(facility, [
    ['Facility', html`<code>${facility.name}</code>`],
    ['Holds', `${plural(facility.bands.length, 'band')}, ${plural(regions, 'region')}`],
  ]);
  const chart = figure(pictures.bandChart, `The bands of ${displayName(facility)} by central wavelength.`, 'Band chart', pictures.colour);
  const bands = scrollTable(`Bands of ${facility.name}`, ['Band', 'Description', { num: 'Central wavelength' }, { num: 'Regions' }], rows);
  const map = figure(pictures.skyMap, `Where the regions of ${displayName(facility)} lie on the sky.`, 'Sky map', pictures.colour);
  const body = html`<div class="lead">${descriptionHtml(facility.description)}</div>
${documentationHtml(facility)}${facts}${note}${chart}${bands}${map}`;
  return nodePage(path, facility, place, releaseCrumbs(place), body);
}

/** A FITS value as the header shows it: strings quoted as FITS writes them, logicals as T and F. */
export function fitsValue(value: FitsValue): string {
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Frames as astronomers write them; the metadata writes them in lower case (icrs, fk5). */
const FRAME_NAMES: Readonly<Record<string, string>> = { icrs: 'ICRS', fk5: 'FK5', fk4: 'FK4', galactic: 'Galactic', ecliptic: 'Ecliptic' };

/** A region's frame as people write it: ICRS, not icrs; one not known shown as given. */
export function frameLabel(frame: string): string {
  return FRAME_NAMES[frame.trim().toLowerCase()] ?? frame;
}

/** An equinox as people write it: J2000 or B1950, not j2000; anything else as given. */
export function equinoxLabel(equinox: string): string {
  return /^\s*[jb]\d/i.test(equinox) ? equinox.trim().toUpperCase() : equinox;
}

/** The id of a region's card on its band's page. */
export function regionId(name: string): string {
  return `region-${encodeURIComponent(name)}`;
}

function regionCard(region: ImagingRegion): Html {
  const id = regionId(region.name);
  const cards = Object.entries(region.fits_header).map(
    ([keyword, [value, comment]]) =>
      html`<tr><th scope="row"><code>${keyword}</code></th><td><code>${fitsValue(value)}</code></td><td>${comment}</td></tr>`,
  );
  const header = cards.length
    ? html`<details><summary>FITS header (${plural(cards.length, 'card')})</summary>
${scrollTable(`FITS header of ${region.name}`, ['Keyword', 'Value', 'Comment'], cards, 'fits')}</details>
`
    : html`<p class="muted">No FITS header.</p>\n`;
  const regionFacts = facts([
    ['Centre', html`RA <code>${region.ra_c}</code> ${region.unit}, Dec <code>${region.dec_c}</code> ${region.unit}`],
    ['Frame', frameLabel(region.frame)],
    ['Equinox', equinoxLabel(region.equinox)],
    ['File', region.file_name ? html`<code>${(region.file_path ?? '') + region.file_name}</code>` : undefined],
  ]);
  const permalink = html`<a class="permalink" href="#${id}" aria-label="Link to region ${region.name}">#</a>`;
  return html`<article class="card" id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h">${displayName(region)} ${permalink}</h3>
<div>${descriptionHtml(region.description)}</div>
${regionFacts}${documentationHtml(region)}${header}</article>`;
}

/** A band's page: its regions as cards. `place.parent` is the band's facility; `note` as a table's (catalogues.ts). */
export function bandPage(
  band: ImagingBand,
  place: ParentPlace,
  pictures: Pick<FacilityPictures, 'skyMap' | 'colour'> = {},
  note: Html = html``,
): string {
  const path = childPath(place, 'imaging', band.name);
  const facts = nodeFacts(band, [
    ['Band', html`<code>${band.band_key}</code>`],
    ['Central wavelength', wavelengthLabel(band.central_wave_ang)],
    ['Regions', count(band.regions.length)],
  ]);
  const map = figure(pictures.skyMap, `Where the regions of ${displayName(band)} lie on the sky.`, 'Sky map', pictures.colour);
  const body = html`<div class="lead">${descriptionHtml(band.description)}</div>
${documentationHtml(band)}${facts}${note}${map}<h2>Regions</h2>
<div class="cards">
${joinHtml(band.regions.map(regionCard), '\n')}
</div>
`;
  return nodePage(path, band, place, parentCrumbs(place, 'imaging'), body);
}
