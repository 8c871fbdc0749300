// VOTable 1.4 documents in TABLEDATA: columns.vot, regions.vot and products.vot, each a head, a
// group's or facility's rows, and a tail, so that a build renders again only the rows of an edited
// file. The pieces here also make the TAP_SCHEMA document (tap-schema.ts).

import type { ApiObject } from '../api/objects.ts';
import { COLUMNS, PRODUCTS, REGIONS, SURVEY_URL } from './listings.ts';
import type { Cell, Field, Listing } from './listings.ts';
import type { Place } from './place.ts';
import { URL_MARK, xmlText } from './text.ts';

/** From the XML declaration to the RESOURCE's opening tag and its description, if it has one. */
export function votableOpen(name: string, description?: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<VOTABLE version="1.4" xmlns="http://www.ivoa.net/xml/VOTable/v1.3">\n' +
    `<RESOURCE type="results" name="${xmlText(name)}">\n` +
    (description ? `<DESCRIPTION>${xmlText(description)}</DESCRIPTION>\n` : '')
  );
}

export function votableClose(): string {
  return '</RESOURCE>\n</VOTABLE>\n';
}

/** A TABLE's opening: its description and FIELDs, up to where its rows go. */
export function tableOpen(listing: Pick<Listing, 'name' | 'description' | 'fields'>): string {
  return (
    `<TABLE name="${xmlText(listing.name)}">\n` +
    `<DESCRIPTION>${xmlText(listing.description)}</DESCRIPTION>\n` +
    listing.fields.map(fieldElement).join('') +
    '<DATA>\n<TABLEDATA>\n'
  );
}

export function tableClose(): string {
  return '</TABLEDATA>\n</DATA>\n</TABLE>\n';
}

function fieldElement(field: Field): string {
  const text = field.datatype === 'char' || field.datatype === 'unicodeChar';
  return (
    `<FIELD name="${xmlText(field.name)}" datatype="${field.datatype}"${text || field.array ? ' arraysize="*"' : ''}` +
    (field.ucd ? ` ucd="${xmlText(field.ucd)}"` : '') +
    (field.unit ? ` unit="${xmlText(field.unit)}"` : '') +
    `><DESCRIPTION>${xmlText(field.description)}</DESCRIPTION></FIELD>\n`
  );
}

function cellElement(cell: Cell): string {
  if (cell === null) return '<TD/>';
  if (cell === SURVEY_URL) return `<TD>${URL_MARK}</TD>`;
  return `<TD>${xmlText(typeof cell === 'string' ? cell : cell.join(' '))}</TD>`;
}

/**
 * Rows as TABLEDATA, one TR a line; the survey URL cell holds a NUL for the writer to fill. An
 * array's numbers are separated by spaces; an empty cell of an array field is an empty array.
 */
export function tableRows(rows: readonly (readonly Cell[])[]): string {
  let out = '';
  for (const row of rows) {
    out += '<TR>';
    for (const cell of row) out += cellElement(cell);
    out += '</TR>\n';
  }
  return out;
}

function listingHead(listing: Listing): string {
  return votableOpen(listing.name) + tableOpen(listing);
}

function listingTail(): string {
  return tableClose() + votableClose();
}

export function columnsVotHead(): string {
  return listingHead(COLUMNS);
}

export function columnsVotRows(group: ApiObject, place: Place): string {
  return tableRows(COLUMNS.rows(group, place));
}

export function columnsVotTail(): string {
  return listingTail();
}

export function regionsVotHead(): string {
  return listingHead(REGIONS);
}

export function regionsVotRows(facility: ApiObject, place: Place): string {
  return tableRows(REGIONS.rows(facility, place));
}

export function regionsVotTail(): string {
  return listingTail();
}

export function productsVotHead(): string {
  return listingHead(PRODUCTS);
}

export function productsVotRows(facility: ApiObject, place: Place): string {
  return tableRows(PRODUCTS.rows(facility, place));
}

export function productsVotTail(): string {
  return listingTail();
}
