// The page of an IFS or spectra facility: its data products, one kind of file per observed object
// each, with what a file holds: type, arm, wavelengths, resolution, sampling, array and extensions.

import { html } from '../../html.ts';
import type { Html } from '../../html.ts';
import { descriptionHtml, documentationHtml, isPlaceholder, nodeFacts, plural, scrollTable } from './html.ts';
import { nodePage, parentPath, releaseCrumbs } from './places.ts';
import type { ReleasePlace } from './places.ts';
import type { DataProduct, ProductFacility } from './types.ts';

/** What a product of its type does not have: a map's wavelengths, a spectrum's spaxels. */
const NONE = html`<span class="muted">–</span>`;
/** What the metadata leaves null for a product that has it: not known, never "none". */
const NOT_RECORDED = html`<span class="muted">not recorded</span>`;

/** A number with its unit; for null, a dash where the product's type has none, else "not recorded". */
function numberOr(value: number | null, suffix = html``, applies = true): Html {
  if (value === null) return applies ? NOT_RECORDED : NONE;
  return html`${value}${suffix}`;
}

/** The product's wavelength range in Ångström; a dash for a map, which has none. */
export function wavelengthRange(product: Pick<DataProduct, 'wave_min_ang' | 'wave_max_ang' | 'product_type'>): Html {
  const { wave_min_ang: lo, wave_max_ang: hi } = product;
  if (lo === null || hi === null) return product.product_type === 'map' ? NONE : NOT_RECORDED;
  return html`${lo}–${hi}&nbsp;Å`;
}

/** The unit of the product's values: "no unit" for the spellings of none, "not recorded" for null. */
function fluxUnit(unit: string | null): Html {
  if (unit === null) return NOT_RECORDED;
  return isPlaceholder(unit) ? html`<span class="muted">no unit</span>` : html`<code>${unit}</code>`;
}

/** The id of a product's row. */
export function productId(name: string): string {
  return `product-${encodeURIComponent(name)}`;
}

/** A product's facts in a row, and its description and extensions in a row under it, the table's full width. */
function productRow(product: DataProduct): Html {
  const id = productId(product.name);
  const extensions = product.extensions.length
    ? html`<ol class="extensions">${product.extensions.map((e) => html`<li><code>${e.name}</code> ${e.holds}</li>`)}</ol>`
    : NONE;
  const cells = [
    html`<th scope="row"><code class="name">${product.name}</code><a class="permalink" href="#${id}" aria-label="Link to product ${product.name}">#</a></th>`,
    html`<td>${product.product_type}</td>`,
    html`<td>${product.arm ?? html`<span class="muted">combined</span>`}</td>`,
    html`<td class="num">${wavelengthRange(product)}</td>`,
    html`<td class="num">${numberOr(product.resolving_power)}</td>`,
    html`<td class="num">${numberOr(product.wave_step_ang, html`&nbsp;Å`, product.product_type !== 'map')}</td>`,
    html`<td class="num">${numberOr(product.spatial_sampling_arcsec, html`″`, product.product_type !== 'spectrum')}</td>`,
    html`<td class="num">${product.dimensions ? product.dimensions.join('\u00d7') : NOT_RECORDED}</td>`,
    html`<td>${fluxUnit(product.flux_unit)}</td>`,
  ];
  const details = html`<div>${descriptionHtml(product.description)}</div><div class="extensions-of"><span class="muted">Extensions:</span> ${extensions}</div>`;
  return html`<tr id="${id}">${cells}</tr><tr class="detail" data-product="${product.name}"><td colspan="${HEADINGS.length}">${details}</td></tr>`;
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
export function productFacilityPage(facility: ProductFacility, place: ReleasePlace, kind: 'ifs' | 'spectra', note: Html = html``): string {
  const path = parentPath(place, kind, facility.name);
  const facts = nodeFacts(facility, [
    ['Facility', html`<code>${facility.name}</code>`],
    ['Holds', plural(facility.products.length, 'data product')],
  ]);
  const products = scrollTable(`Data products of ${facility.name}`, HEADINGS, facility.products.map(productRow), 'products');
  const body = html`<div class="lead">${descriptionHtml(facility.description)}</div>
${documentationHtml(facility)}${facts}${note}${products}`;
  return nodePage(path, facility, place, releaseCrumbs(place), body);
}
