// columns.csv, regions.csv and products.csv: RFC 4180, UTF-8 without a byte order mark, CRLF line
// ends; a header line, then a group's or facility's rows, so that a build renders again only the rows
// of an edited file. An empty field is an empty value: CSV cannot tell it from none. An array is its
// numbers joined by "x" (50x50x2048).

import type { ApiObject } from '../api/objects.ts';
import { COLUMNS, PRODUCTS, REGIONS, SURVEY_URL } from './listings.ts';
import type { Cell, Listing } from './listings.ts';
import type { Place } from './place.ts';
import { URL_MARK, csvField } from './text.ts';

export { csvField } from './text.ts';

function header(listing: Listing): string {
  return `${listing.fields.map((f) => csvField(f.name)).join(',')}\r\n`;
}

function field(cell: Cell): string {
  if (cell === null) return '';
  if (cell === SURVEY_URL) return URL_MARK;
  return csvField(typeof cell === 'string' ? cell : cell.join('x'));
}

function rows(listing: Listing, unit: ApiObject, place: Place): string {
  let out = '';
  for (const row of listing.rows(unit, place)) {
    out += row.map(field).join(',');
    out += '\r\n';
  }
  return out;
}

export function columnsCsvHeader(): string {
  return header(COLUMNS);
}

export function columnsCsvRows(group: ApiObject, place: Place): string {
  return rows(COLUMNS, group, place);
}

export function regionsCsvHeader(): string {
  return header(REGIONS);
}

export function regionsCsvRows(facility: ApiObject, place: Place): string {
  return rows(REGIONS, facility, place);
}

export function productsCsvHeader(): string {
  return header(PRODUCTS);
}

export function productsCsvRows(facility: ApiObject, place: Place): string {
  return rows(PRODUCTS, facility, place);
}
