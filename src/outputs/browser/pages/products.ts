// The page of an IFS or spectra facility: its data products, one kind of file per observed object
// each, with what a file holds: type, arm, wavelengths, resolution, sampling, array and extensions.

import { html } from '../../html.ts';
import type { Html } from '../../html.ts';
import { descriptionHtml, documentationHtml, isPlaceholder, nodeFacts, plural, scrollTable } from './html.ts';
import { nodePage, parentPath, releaseCrumbs } from './places.ts';
import type { ReleasePlace } from './places.ts';
import type { DataProduct, ProductFacility } from './types.ts';

const NONE = html`<span class="muted">–</span>`;

function numberOr(value: number | null, suffix = html``): Html {
  return value === null ? NONE : html`${value}${suffix}`;
}

/** The product's wavelength range in Ångström, or a dash when it has none (maps). */
export function wavelengthRange(product: Pick<DataProduct, 'wave_min_ang' | 'wave_max_ang'>): Html {
  const { wave_min_ang: lo, wave_max_ang: hi } = product;
  return lo === null || hi === null ? NONE : html`${lo}–${hi}&nbsp;Å`;
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
  const fluxUnit = isPlaceholder(product.flux_unit) ? html`<span class="muted">no unit</span>` : html`<code>${product.flux_unit}</code>`;
  const cells = [
    html`<th scope="row"><code class="name">${product.name}</code><a class="permalink" href="#${id}" aria-label="Link to product ${product.name}">#</a></th>`,
    html`<td>${product.product_type}</td>`,
    html`<td>${product.arm ?? html`<span class="muted">combined</span>`}</td>`,
    html`<td class="num">${wavelengthRange(product)}</td>`,
    html`<td class="num">${numberOr(product.resolving_power)}</td>`,
    html`<td class="num">${numberOr(product.wave_step_ang, html`&nbsp;Å`)}</td>`,
    html`<td class="num">${numberOr(product.spatial_sampling_arcsec, html`″`)}</td>`,
    html`<td class="num">${product.dimensions ? product.dimensions.join('\u00d7') : NONE}</td>`,
    html`<td>${fluxUnit}</td>`,
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

/** An IFS or spectra facility's page, with its products. */
export function productFacilityPage(facility: ProductFacility, place: ReleasePlace, kind: 'ifs' | 'spectra'): string {
  const path = parentPath(place, kind, facility.name);
  const facts = nodeFacts(facility, [
    ['Facility', html`<code>${facility.name}</code>`],
    ['Holds', plural(facility.products.length, 'data product')],
  ]);
  const products = scrollTable(`Data products of ${facility.name}`, HEADINGS, facility.products.map(productRow), 'products');
  const body = html`<div class="lead">${descriptionHtml(facility.description)}</div>
${documentationHtml(facility)}${facts}${products}`;
  return nodePage(path, facility, place, releaseCrumbs(place), body);
}
