// Curator text made safe for the VO outputs: any string as XML 1.0 character data or as an RFC 4180
// CSV field, and the archive's spellings of "none" turned into empty cells.

/** What stands in a cell for its survey's API URL: the writer puts the URL, escaped, in its place. */
export const URL_MARK = '\0';

// Characters XML 1.0 cannot hold at all (C0 controls but tab, LF and CR; U+FFFE and U+FFFF; surrogate
// halves without their pair), and those it would change on reading: a CR or a tab or LF inside an
// attribute is normalised to LF or a space, so all three are written as character references.
const XML_SPECIAL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[&<>"\t\n\r\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** The replacement for a character XML 1.0 forbids. */
export const XML_REPLACEMENT = '\uFFFD';

/**
 * Any text as XML 1.0 element text or a double-quoted attribute value: markup characters escaped
 * (`]]>` cannot form, `>` being escaped), tab, LF and CR as character references so that they read
 * back as written, and each character XML forbids (U+0000 to U+001F but tab, LF and CR; U+FFFE;
 * U+FFFF; a lone surrogate half) replaced by U+FFFD, since XML 1.0 has no way to write them.
 */
export function xmlText(text: string): string {
  return text.replace(XML_SPECIAL, (c) => XML_ESCAPES[c] ?? XML_REPLACEMENT);
}

// RFC 4180 quotes a field with a comma, a quote, CR or LF. Readers that split lines first, as astropy's
// does with Python's splitlines, also break lines at VT, FF, FS, GS, RS, NEL, LS and PS unless quoted;
// and some trim unquoted white space at either end.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CSV_QUOTED = /[",\n\v\f\r\x1C-\x1E\x85\u2028\u2029]|^\s|\s$/;

// A spreadsheet opening a CSV file runs a cell that starts with one of these as a formula
// (=HYPERLINK(...) sends the sheet's cells to any address), also after white space, which some
// readers trim first (OWASP, "CSV Injection").
const CSV_FORMULA = /^[\t\r]|^\s*[=+\-@]/;
// A number as the listings write one (String(n), or the decimals the schemas allow): a spreadsheet
// reads it as that number, never as a formula; so does the archive's '-' for "none", a sign alone.
const CSV_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$|^-$/;

/**
 * A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote or a character
 * some reader takes for a line end, or starts or ends with white space; as it is otherwise. A cell
 * a spreadsheet would run as a formula (one starting with =, +, -, @, a tab or a carriage return)
 * is written as OWASP recommends, a single quote before it, inside quotes: spreadsheets show the
 * text, and CSV readers (Python's csv module, astropy) read it with the quote in front. Numbers,
 * which start with - or + in the listings' numeric fields (-0.5, +5), are never changed.
 */
export function csvField(text: string): string {
  if (CSV_FORMULA.test(text) && !CSV_NUMBER.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return CSV_QUOTED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

// The unit spellings src/vocabularies/vounit.ts reads as "no unit": the archive's '-' and 'None',
// and the words it tells curators to replace with '-'. VOUnits writes no unit as the empty string.
const NO_UNIT = /^(?:-|none|null|n\/a|dimensionless|unitless)$/i;
// '-' is the archive's UCD for "undefined" (src/vocabularies/ucd.ts); None and null are not UCD words.
const NO_UCD = /^(?:-|none|null)$/i;

/** A unit as the VO outputs write it: '' for the archive's spellings of "no unit". */
export function unitText(unit: unknown): string {
  return typeof unit === 'string' && !NO_UNIT.test(unit.trim()) ? unit : '';
}

/** A UCD as the VO outputs write it: '' for "undefined". */
export function ucdText(ucd: unknown): string {
  return typeof ucd === 'string' && !NO_UCD.test(ucd.trim()) ? ucd : '';
}

/** A description, or null for none: null, empty, or the archive's '-' placeholder for undescribed columns. */
export function descriptionText(description: unknown): string | null {
  return typeof description === 'string' && description !== '' && description.trim() !== '-' ? description : null;
}

// Angular units a centre can be written in, and how to turn one into degrees (dividing, so that
// 3600 arcsec is exactly 1).
const TO_DEGREES: ReadonlyMap<string, (n: number) => number> = new Map([
  ['arcmin', (n: number) => n / 60],
  ['arcsec', (n: number) => n / 3600],
  ['mas', (n: number) => n / 3_600_000],
  ['rad', (n: number) => (n * 180) / Math.PI],
]);
const DEGREES = new Set(['deg', 'degree', 'degrees']);

/**
 * A region's centre coordinate in degrees, as a decimal string: in degrees its digits as the curator
 * wrote them (the schema allows only plain decimals, which VOTable and CSV readers take as they are),
 * converted from other angular units, and null when the unit is not an angle the VO outputs know.
 */
export function degreesText(value: unknown, unit: unknown): string | null {
  if (typeof value !== 'string' || typeof unit !== 'string') return null;
  if (DEGREES.has(unit.trim())) return value;
  const convert = TO_DEGREES.get(unit.trim());
  const n = convert?.(Number(value));
  return n !== undefined && Number.isFinite(n) ? String(n) : null;
}
