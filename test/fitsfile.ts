// FITS files assembled card by card per the FITS Standard 4.0, for tests that need real-format
// FITS input (the readers and archive-schema import).

export const BLOCK = 2880;

/** A card exactly as given, padded to 80 columns. */
export function raw(text: string): string {
  if (text.length > 80) throw new Error(`card longer than 80 columns: ${text}`);
  return text.padEnd(80, ' ');
}

/** A fixed-format string value: quotes doubled, padded to 8 characters, quote in column 11. */
export function str(value: string): string {
  return `'${value.replaceAll("'", "''").padEnd(8, ' ')}'`;
}

/** A keyword card in fixed format; `value` is written as FITS text, numbers right-justified to column 30. */
export function kv(keyword: string, value: string | number | boolean, comment?: string): string {
  const text =
    typeof value === 'string' ? str(value) : (typeof value === 'boolean' ? (value ? 'T' : 'F') : String(value)).padStart(20, ' ');
  return raw(`${keyword.padEnd(8, ' ')}= ${text}${comment === undefined ? '' : ` / ${comment}`}`);
}

/** A value written literally (D exponents, complex pairs...), right-justified to column 30. */
export function lit(keyword: string, literal: string, comment?: string): string {
  return raw(`${keyword.padEnd(8, ' ')}= ${literal.padStart(20, ' ')}${comment === undefined ? '' : ` / ${comment}`}`);
}

/** A header: the cards, END, then spaces up to a whole number of 2880-byte blocks. */
export function header(cards: string[]): Uint8Array {
  let text = [...cards, raw('END')].join('');
  text = text.padEnd(Math.ceil(text.length / BLOCK) * BLOCK, ' ');
  return Buffer.from(text, 'latin1');
}

/** A data unit: the bytes, then zeros up to a whole number of blocks. */
export function dataUnit(bytes: Uint8Array): Uint8Array {
  const unit = new Uint8Array(Math.ceil(bytes.length / BLOCK) * BLOCK);
  unit.set(bytes);
  return unit;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** Big-endian IEEE floats, as FITS stores BITPIX = -32 and -64 images. */
export function floats(values: number[], bitpix: -32 | -64): Uint8Array {
  const size = bitpix === -32 ? 4 : 8;
  const view = new DataView(new ArrayBuffer(values.length * size));
  values.forEach((value, i) => (bitpix === -32 ? view.setFloat32(i * size, value) : view.setFloat64(i * size, value)));
  return new Uint8Array(view.buffer);
}

/** A binary-table column: its name, TFORM and the optional cards that refine it. */
export interface TableColumn {
  name: string;
  tform: string;
  tdim?: string;
  tzero?: number;
  tscal?: number;
}

/** Bytes a row gives a column of each TFORM letter (a P or Q descriptor: 8 or 16). */
const WIDTHS: Record<string, number> = { L: 1, B: 1, I: 2, J: 4, K: 8, A: 1, E: 4, D: 8, C: 8, M: 16 };

function columnWidth(tform: string): number {
  const [, repeat = '', variable = '', code = ''] = /^([0-9]*)([PQ]?)([A-Z])/.exec(tform) ?? [];
  const r = repeat === '' ? 1 : Number(repeat);
  if (variable !== '') return variable === 'P' ? 8 * r : 16 * r;
  return code === 'X' ? Math.ceil(r / 8) : r * (WIDTHS[code] ?? 0);
}

/** A FITS file with an empty primary HDU and a BINTABLE of no rows with these columns. */
export function binaryTableFile(columns: readonly TableColumn[]): Uint8Array {
  const cards = columns.flatMap((c, i) => [
    kv(`TTYPE${i + 1}`, c.name),
    kv(`TFORM${i + 1}`, c.tform),
    ...(c.tdim === undefined ? [] : [kv(`TDIM${i + 1}`, c.tdim)]),
    ...(c.tscal === undefined ? [] : [kv(`TSCAL${i + 1}`, c.tscal)]),
    ...(c.tzero === undefined ? [] : [kv(`TZERO${i + 1}`, c.tzero)]),
  ]);
  return concat(
    header([kv('SIMPLE', true), kv('BITPIX', 8), kv('NAXIS', 0), kv('EXTEND', true)]),
    header([
      kv('XTENSION', 'BINTABLE'),
      kv('BITPIX', 8),
      kv('NAXIS', 2),
      kv(
        'NAXIS1',
        columns.reduce((n, c) => n + columnWidth(c.tform), 0),
      ),
      kv('NAXIS2', 0),
      kv('PCOUNT', 0),
      kv('GCOUNT', 1),
      kv('TFIELDS', columns.length),
      ...cards,
    ]),
  );
}

/** A column of every TFORM kind, with the VOTable type `import columns` gives it. */
export const TYPED_COLUMNS: readonly (TableColumn & { datatype: string; arraysize?: string })[] = [
  { name: 'flag', tform: 'L', datatype: 'boolean' },
  { name: 'bits', tform: '12X', datatype: 'bit', arraysize: '12' },
  { name: 'ubyte', tform: 'B', datatype: 'unsignedByte' },
  { name: 'sbyte', tform: 'B', tzero: -128, datatype: 'short' },
  { name: 'i16', tform: 'I', datatype: 'short' },
  { name: 'u16', tform: 'I', tzero: 32768, datatype: 'int' },
  { name: 'scaled', tform: 'I', tscal: 0.1, datatype: 'float' },
  { name: 'i32', tform: '1J', datatype: 'int' },
  { name: 'u32', tform: 'J', tzero: 2147483648, datatype: 'long' },
  { name: 'i64', tform: 'K', datatype: 'long' },
  { name: 'name', tform: '20A', datatype: 'char', arraysize: '20' },
  { name: 'letter', tform: '1A', datatype: 'char', arraysize: '1' },
  { name: 'f32', tform: 'E', datatype: 'float' },
  { name: 'vec3', tform: '3E', datatype: 'float', arraysize: '3' },
  { name: 'grid', tform: '6E', tdim: '(2,3)', datatype: 'float', arraysize: '2x3' },
  { name: 'f64', tform: 'D', datatype: 'double' },
  { name: 'cplx', tform: 'C', datatype: 'floatComplex' },
  { name: 'dcplx', tform: 'M', datatype: 'doubleComplex' },
  { name: 'spectrum', tform: '1PE(100)', datatype: 'float', arraysize: '100*' },
  { name: 'labels', tform: '60A', tdim: '(20,3)', datatype: 'char', arraysize: '20x3' },
];
