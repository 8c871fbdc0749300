// The pages of an imaging facility (its bands, the band chart and the sky map) and of each band (its
// regions as cards: centre, frame, equinox and the FITS header as a table of cards).

import { styleSheet } from '../pictures/svg.ts';
import { wavelengthLabel } from '../pictures/bands.ts';
import {
  count,
  descriptionHtml,
  displayName,
  documentationHtml,
  escapeHtml,
  facts,
  linkFrom,
  nodeFacts,
  plural,
  scrollTable,
} from './html.ts';
import { childPath, nodePage, parentCrumbs, parentPath, releaseCrumbs } from './places.ts';
import type { ParentPlace, ReleasePlace } from './places.ts';
import type { FitsValue, ImagingBand, ImagingFacility, ImagingRegion } from './types.ts';

/** The pictures a facility's page shows, as SVG text (skyMap, bandChart); either may be left out. */
export interface FacilityPictures {
  bandChart?: string;
  skyMap?: string;
}

/**
 * A picture to inline in a page. Its own style element would be refused by the pages' security
 * policy (no inline style), so it goes: the browser's style sheet carries the same rules.
 */
export function inlinePicture(svg: string): string {
  return svg.replace(styleSheet(), '');
}

function figure(svg: string | undefined, caption: string): string {
  return svg ? `<figure class="picture">${inlinePicture(svg)}<figcaption>${escapeHtml(caption)}</figcaption></figure>\n` : '';
}

/** An imaging facility's page: its bands by wavelength, with the pictures given; `note` as a table's (catalogues.ts). */
export function facilityPage(facility: ImagingFacility, place: ReleasePlace, pictures: FacilityPictures = {}, note = ''): string {
  const path = parentPath(place, 'imaging', facility.name);
  const inner: ParentPlace = { ...place, parent: facility };
  const rows = facility.bands.map(
    (b) =>
      `<tr><th scope="row"><a href="${escapeHtml(linkFrom(path, childPath(inner, 'imaging', b.name)))}">${escapeHtml(displayName(b))}</a></th>` +
      `<td>${descriptionHtml(b.description)}</td><td class="num">${escapeHtml(wavelengthLabel(b.central_wave_ang))}</td>` +
      `<td class="num">${count(b.regions.length)}</td></tr>`,
  );
  const regions = facility.bands.reduce((n, b) => n + b.regions.length, 0);
  const body =
    `<div class="lead">${descriptionHtml(facility.description)}</div>\n` +
    documentationHtml(facility) +
    nodeFacts(facility, [
      ['Facility', `<code>${escapeHtml(facility.name)}</code>`],
      ['Holds', `${plural(facility.bands.length, 'band')}, ${plural(regions, 'region')}`],
    ]) +
    note +
    figure(pictures.bandChart, `The bands of ${displayName(facility)} by central wavelength.`) +
    scrollTable(`Bands of ${facility.name}`, ['Band', 'Description', { num: 'Central wavelength' }, { num: 'Regions' }], rows) +
    figure(pictures.skyMap, `Where the regions of ${displayName(facility)} lie on the sky.`);
  return nodePage(path, facility, place, releaseCrumbs(place), body);
}

/** A FITS value as the header shows it: strings quoted as FITS writes them, logicals as T and F. */
export function fitsValue(value: FitsValue): string {
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** The id of a region's card on its band's page. */
export function regionId(name: string): string {
  return `region-${encodeURIComponent(name)}`;
}

function regionCard(region: ImagingRegion): string {
  const id = regionId(region.name);
  const cards = Object.entries(region.fits_header).map(
    ([keyword, [value, comment]]) =>
      `<tr><th scope="row"><code>${escapeHtml(keyword)}</code></th><td><code>${escapeHtml(fitsValue(value))}</code></td>` +
      `<td>${comment ? escapeHtml(comment) : ''}</td></tr>`,
  );
  const unit = escapeHtml(region.unit);
  const header = cards.length
    ? `<details><summary>FITS header (${plural(cards.length, 'card')})</summary>\n` +
      scrollTable(`FITS header of ${region.name}`, ['Keyword', 'Value', 'Comment'], cards, 'fits') +
      `</details>\n`
    : '<p class="muted">No FITS header.</p>\n';
  return (
    `<article class="card" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-h">\n` +
    `<h3 id="${escapeHtml(id)}-h">${escapeHtml(displayName(region))} <a class="permalink" href="#${escapeHtml(id)}" aria-label="Link to region ${escapeHtml(region.name)}">#</a></h3>\n` +
    `<div>${descriptionHtml(region.description)}</div>\n` +
    facts([
      ['Centre', `RA <code>${escapeHtml(region.ra_c)}</code> ${unit}, Dec <code>${escapeHtml(region.dec_c)}</code> ${unit}`],
      ['Frame', escapeHtml(region.frame)],
      ['Equinox', escapeHtml(region.equinox)],
      ['File', region.file_name ? `<code>${escapeHtml((region.file_path ?? '') + region.file_name)}</code>` : undefined],
    ]) +
    documentationHtml(region) +
    header +
    `</article>`
  );
}

/** A band's page: its regions as cards. `place.parent` is the band's facility; `note` as a table's (catalogues.ts). */
export function bandPage(band: ImagingBand, place: ParentPlace, pictures: Pick<FacilityPictures, 'skyMap'> = {}, note = ''): string {
  const path = childPath(place, 'imaging', band.name);
  const body =
    `<div class="lead">${descriptionHtml(band.description)}</div>\n` +
    documentationHtml(band) +
    nodeFacts(band, [
      ['Band', `<code>${escapeHtml(band.band_key)}</code>`],
      ['Central wavelength', escapeHtml(wavelengthLabel(band.central_wave_ang))],
      ['Regions', count(band.regions.length)],
    ]) +
    note +
    figure(pictures.skyMap, `Where the regions of ${displayName(band)} lie on the sky.`) +
    `<h2>Regions</h2>\n<div class="cards">\n${band.regions.map(regionCard).join('\n')}\n</div>\n`;
  return nodePage(path, band, place, parentCrumbs(place, 'imaging'), body);
}
