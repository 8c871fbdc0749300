// Column datatypes as VOTable 1.4 defines them (its primitive datatypes and arraysize syntax), and
// how other descriptions of a column's type read as one: FITS TFORMn, TAP's ADQL types, the size TAP_SCHEMA keeps.

/** VOTable 1.4's primitive datatypes (section 2.1), in the standard's order. */
export const VOTABLE_DATATYPES = [
  'boolean',
  'bit',
  'unsignedByte',
  'short',
  'int',
  'long',
  'char',
  'unicodeChar',
  'float',
  'double',
  'floatComplex',
  'doubleComplex',
] as const;

export type VotableDatatype = (typeof VOTABLE_DATATYPES)[number];

export function isVotableDatatype(text: string): text is VotableDatatype {
  return (VOTABLE_DATATYPES as readonly string[]).includes(text);
}

/** A column's type as VOTable writes it: a datatype, and an arraysize for an array or a string. */
export interface ColumnType {
  datatype: VotableDatatype;
  arraysize?: string;
}

/**
 * VOTable's arraysize: dimensions joined by "x", the first varying fastest, the last one `*`
 * (any length), `N*` (at most N) or `N`: `10`, `*`, `10*`, `3x4`, `3x*`.
 */
export const ARRAYSIZE = /^(?:[1-9][0-9]*x)*(?:[1-9][0-9]*\*?|\*)$/;

/**
 * TAP_SCHEMA.columns' "size" for an arraysize: its one dimension's length (256 for `256` and
 * `256*`), or null for a scalar, an array of any length and one of several dimensions (TAP 1.1
 * keeps the column only for TAP 1.0's readers, whose types had one length).
 */
export function sizeOf(arraysize: string | undefined): number | null {
  const length = arraysize === undefined ? undefined : /^([1-9][0-9]*)\*?$/.exec(arraysize)?.[1];
  return length === undefined ? null : Number(length);
}

// ---- Names people write for a datatype ---------------------------------------------------------------

/**
 * What a datatype is often written as (numpy, C, SQL and FITS names, lower case), for the
 * suggestion in a message: "float64" is a double, though one edit makes it "float".
 */
const SPELLINGS: Readonly<Record<string, VotableDatatype>> = {
  bool: 'boolean',
  logical: 'boolean',
  byte: 'unsignedByte',
  uint8: 'unsignedByte',
  int8: 'short',
  int16: 'short',
  smallint: 'short',
  integer: 'int',
  int32: 'int',
  int64: 'long',
  bigint: 'long',
  string: 'char',
  str: 'char',
  text: 'char',
  varchar: 'char',
  character: 'char',
  unicode: 'unicodeChar',
  real: 'float',
  float32: 'float',
  single: 'float',
  float64: 'double',
  'double precision': 'double',
  complex64: 'floatComplex',
  complex128: 'doubleComplex',
};

/** The datatype a text most likely means: another spelling of one, the same in other capitals, else undefined. */
export function datatypeMeant(text: string): VotableDatatype | undefined {
  const lower = text.trim().toLowerCase();
  return SPELLINGS[lower] ?? VOTABLE_DATATYPES.find((d) => d.toLowerCase() === lower);
}

// ---- TAP's ADQL types --------------------------------------------------------------------------------

/**
 * The ADQL types TAP 1.0 services write in TAP_SCHEMA.columns.datatype (often with an `adql:`
 * prefix) and VODataService's deprecated vs:TAPType, and the VOTable types TAP 1.1 and DALI 1.1
 * write them as: a TIMESTAMP is text, a POINT, CIRCLE or POLYGON numbers (DALI's xtypes), a
 * REGION text (STC-S).
 */
const TAP_TYPES: Readonly<Record<string, { datatype: VotableDatatype; arraysize?: (size?: number) => string | undefined }>> = {
  BOOLEAN: { datatype: 'boolean' },
  SMALLINT: { datatype: 'short' },
  INTEGER: { datatype: 'int' },
  BIGINT: { datatype: 'long' },
  REAL: { datatype: 'float' },
  DOUBLE: { datatype: 'double' },
  CHAR: { datatype: 'char', arraysize: (size) => (size === undefined || size === 1 ? undefined : String(size)) },
  VARCHAR: { datatype: 'char', arraysize: (size) => (size === undefined ? '*' : `${size}*`) },
  BINARY: { datatype: 'unsignedByte', arraysize: (size) => (size === undefined || size === 1 ? undefined : String(size)) },
  VARBINARY: { datatype: 'unsignedByte', arraysize: (size) => (size === undefined ? '*' : `${size}*`) },
  TIMESTAMP: { datatype: 'char', arraysize: () => '*' },
  POINT: { datatype: 'double', arraysize: () => '2' },
  CIRCLE: { datatype: 'double', arraysize: () => '3' },
  POLYGON: { datatype: 'double', arraysize: () => '*' },
  REGION: { datatype: 'char', arraysize: () => '*' },
  CLOB: { datatype: 'char', arraysize: () => '*' },
  BLOB: { datatype: 'unsignedByte', arraysize: () => '*' },
};

/**
 * The VOTable type of a TAP_SCHEMA or VODataService column: `datatype` is a VOTable datatype or an
 * ADQL type (`BIGINT`, `adql:VARCHAR`, `VARCHAR(64)`), `arraysize` and `size` as the service gives
 * them. undefined when the type is neither (the caller says so).
 */
export function typeFromTap(datatype: string, arraysize?: string, size?: number): ColumnType | undefined {
  const text = datatype.trim();
  if (isVotableDatatype(text)) {
    const given = arraysize?.trim();
    if (given !== undefined && given !== '' && ARRAYSIZE.test(given)) return { datatype: text, arraysize: given };
    // TAP 1.0 services give only "size" (the length of a char column).
    if (size !== undefined && size > 1 && (text === 'char' || text === 'unicodeChar')) return { datatype: text, arraysize: `${size}*` };
    return { datatype: text };
  }
  const adql = /^(?:adql:)?([A-Za-z]+)(?:\s*\(\s*([0-9]+)\s*\))?$/.exec(text);
  const known = adql ? TAP_TYPES[(adql[1] ?? '').toUpperCase()] : undefined;
  if (!adql || !known) return undefined;
  const length = adql[2] !== undefined ? Number(adql[2]) : size !== undefined && size > 0 ? size : undefined;
  const given = arraysize?.trim();
  const array = given !== undefined && given !== '' && ARRAYSIZE.test(given) ? given : known.arraysize?.(length);
  return array === undefined ? { datatype: known.datatype } : { datatype: known.datatype, arraysize: array };
}

// ---- FITS binary tables ------------------------------------------------------------------------------

const FITS_CODES: Readonly<Record<string, VotableDatatype>> = {
  L: 'boolean',
  X: 'bit',
  B: 'unsignedByte',
  I: 'short',
  J: 'int',
  K: 'long',
  A: 'char',
  E: 'float',
  D: 'double',
  C: 'floatComplex',
  M: 'doubleComplex',
};

/** What TFORMn, TDIMn, TZEROn and TSCALn of a FITS binary-table column say; undefined where absent. */
export interface FitsColumnCards {
  tform: string;
  tdim?: string;
  tzero?: number;
  tscal?: number;
}

/**
 * The VOTable type of a FITS binary-table column (FITS Standard 4.0, section 7.3), or a sentence
 * saying why there is none. `rT` is r values of type T: r > 1 is an array, of length r or of the
 * shape TDIMn gives (both first axis fastest, as VOTable's arraysize); `rA` is a string of r
 * characters, and X is bits (VOTable's bit, where STILTS writes booleans). A variable-length array (`1PE(100)`) is an array of at most its maximum length.
 * Integers with the TZEROn that makes them unsigned (or signed bytes) take the next wider type,
 * as astropy reads them; scaled integers (another TZEROn, or a TSCALn) hold real numbers.
 */
export function typeFromFits(cards: FitsColumnCards): ColumnType | string {
  const form = /^\s*([0-9]*)\s*([PQ]?)([LXBIJKAEDCM])(?:\s*\(\s*([0-9]+)\s*\))?/.exec(cards.tform.toUpperCase());
  if (!form) return `TFORM "${cards.tform}" is not a FITS binary-table format (rT, e.g. 1J, 20A, 1PE(100))`;
  const [, repeatText, variable, code = ''] = form;
  const repeat = repeatText === '' ? 1 : Number(repeatText);
  let datatype = FITS_CODES[code] as VotableDatatype;
  if (repeat === 0) return `TFORM "${cards.tform}" has a repeat count of 0: the column holds no data`;
  datatype = offsetType(datatype, code, cards);
  if (variable !== '') {
    const most = form[4];
    return { datatype, arraysize: most === undefined ? '*' : `${most}*` };
  }
  // A string is a char array even of length 1 (STILTS writes 1A so too): no arraysize would say the same, but reads as a slip.
  const single = repeat === 1 && code !== 'A';
  const shape = dimensions(cards.tdim);
  if (shape?.reduce((a, b) => a * b, 1) === repeat && !single) return { datatype, arraysize: shape.join('x') };
  return single ? { datatype } : { datatype, arraysize: String(repeat) };
}

/** The type of an integer column that TZEROn and TSCALn turn into another range or into real numbers. */
function offsetType(datatype: VotableDatatype, code: string, cards: FitsColumnCards): VotableDatatype {
  const zero = cards.tzero ?? 0;
  const scale = cards.tscal ?? 1;
  if (!'BIJK'.includes(code) || (zero === 0 && scale === 1)) return datatype;
  if (scale === 1) {
    if (code === 'B' && zero === -128) return 'short';
    if (code === 'I' && zero === 32768) return 'int';
    if (code === 'J' && zero === 2147483648) return 'long';
    // An unsigned 64-bit integer has no VOTable type; long holds all but its upper half.
    if (code === 'K' && zero === 9223372036854775808) return 'long';
  }
  return code === 'B' || code === 'I' ? 'float' : 'double';
}

/** TDIMn's axis lengths, `(2,3)` → [2, 3]; undefined when absent or not of that form. */
function dimensions(tdim: string | undefined): number[] | undefined {
  const inner = tdim === undefined ? undefined : /^\s*\(([0-9,\s]+)\)\s*$/.exec(tdim)?.[1];
  if (inner === undefined) return undefined;
  const axes = inner.split(',').map((n) => Number(n.trim()));
  return axes.every((n) => Number.isInteger(n) && n > 0) ? axes : undefined;
}
