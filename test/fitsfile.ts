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
