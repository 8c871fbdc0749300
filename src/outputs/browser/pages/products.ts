// The page of an IFS or spectra facility: its data products, one kind of file per observed object
// each, with what a file holds: type, arm, wavelengths, resolution, sampling, array and extensions.

import { descriptionHtml, documentationHtml, escapeHtml, isPlaceholder, nodeFacts, plural, scrollTable } from './html.ts';
import { nodePage, parentPath, releaseCrumbs } from './places.ts';
import type { ReleasePlace } from './places.ts';
import type { DataProduct, ProductFacility } from './types.ts';

/** What a product of its type does not have: a map's wavelengths, a spectrum's spaxels. */
const NONE = '<span class="muted">–</span>';
/** What the metadata leaves null for a product that has it: not known, never "none". */
const NOT_RECORDED = '<span class="muted">not recorded</span>';

/** A number with its unit; for null, a dash where the product's type has none, else "not recorded". */
function numberOr(value: number | null, suffix = '', applies = true): string {
  if (value === null) return applies ? NOT_RECORDED : NONE;
  return `${escapeHtml(String(value))}${suffix}`;
}

/** The product's wavelength range in Ångström; a dash for a map, which has none. */
export function wavelengthRange(product: Pick<DataProduct, 'wave_min_ang' | 'wave_max_ang' | 'product_type'>): string {
  const { wave_min_ang: lo, wave_max_ang: hi } = product;
  if (lo === null || hi === null) return product.product_type === 'map' ? NONE : NOT_RECORDED;
  return `${escapeHtml(String(lo))}–${escapeHtml(String(hi))}&nbsp;Å`;
}

/** The unit of the product's values: "no unit" for the spellings of none, "not recorded" for null. */
function fluxUnit(unit: string | null): string {
  if (unit === null) return NOT_RECORDED;
  return isPlaceholder(unit) ? '<span class="muted">no unit</span>' : `<code>${escapeHtml(unit)}</code>`;
}

/** The id of a product's row. */
export function productId(name: string): string {
  return `product-${encodeURIComponent(name)}`;
}

/** A product's facts in a row, and its description and extensions in a row under it, the table's full width. */
function productRow(product: DataProduct): string {
  const id = productId(product.name);
  const extensions = product.extensions.length
    ? `<ol class="extensions">${product.extensions.map((e) => `<li><code>${escapeHtml(e.name)}</code> ${escapeHtml(e.holds)}</li>`).join('')}</ol>`
    : NONE;
  return (
    `<tr id="${escapeHtml(id)}"><th scope="row"><code class="name">${escapeHtml(product.name)}</code>` +
    `<a class="permalink" href="#${escapeHtml(id)}" aria-label="Link to product ${escapeHtml(product.name)}">#</a></th>` +
    `<td>${escapeHtml(product.product_type)}</td>` +
    `<td>${product.arm === null ? '<span class="muted">combined</span>' : escapeHtml(product.arm)}</td>` +
    `<td class="num">${wavelengthRange(product)}</td>` +
    `<td class="num">${numberOr(product.resolving_power)}</td>` +
    `<td class="num">${numberOr(product.wave_step_ang, '&nbsp;Å', product.product_type !== 'map')}</td>` +
    `<td class="num">${numberOr(product.spatial_sampling_arcsec, '″', product.product_type !== 'spectrum')}</td>` +
    `<td class="num">${product.dimensions ? escapeHtml(product.dimensions.join('\u00d7')) : NOT_RECORDED}</td>` +
    `<td>${fluxUnit(product.flux_unit)}</td></tr>` +
    `<tr class="detail" data-product="${escapeHtml(product.name)}"><td colspan="${HEADINGS.length}">` +
    `<div>${descriptionHtml(product.description)}</div><div class="extensions-of"><span class="muted">Extensions:</span> ${extensions}</div></td></tr>`
  );
}

/** The products table's headings: a product's facts, each in its column. */
const HEADINGS = [
  'Product',
  'Type',
  'Arm',
  { num: 'Wavelengths' },
  { num: 'R' },
  { num: 'Sampling' },
  { num: 'Spaxel' },
  { num: 'Dimensions' },
  'Flux unit',
] as const;

/** An IFS or spectra facility's page, with its products; `note` as a table's (catalogues.ts). */
export function productFacilityPage(facility: ProductFacility, place: ReleasePlace, kind: 'ifs' | 'spectra', note = ''): string {
  const path = parentPath(place, kind, facility.name);
  const body =
    `<div class="lead">${descriptionHtml(facility.description)}</div>\n` +
    documentationHtml(facility) +
    nodeFacts(facility, [
      ['Facility', `<code>${escapeHtml(facility.name)}</code>`],
      ['Holds', plural(facility.products.length, 'data product')],
    ]) +
    note +
    scrollTable(`Data products of ${facility.name}`, HEADINGS, facility.products.map(productRow), 'products');
  return nodePage(path, facility, place, releaseCrumbs(place), body);
}
