// Reads FITS headers, from a FITS file's bytes or from a text dump, following the FITS Standard 4.0,
// so `archive-schema import` can turn BINTABLE and image headers into metadata with no external program.
//
// Decisions a caller should know about:
// - Commentary cards (COMMENT, HISTORY, a blank keyword, and any keyword without "= " in columns
//   9-10) are kept, in order, with value null and their text (columns 9-80, trimmed) as comment:
//   COMMENT text is often the best description an import can find. Completely blank cards are
//   dropped: they are padding and carry nothing.
// - HIERARCH cards (ESO convention) are named by their whole keyword with single spaces:
//   `HIERARCH ESO DET CHIP1 ID`. `get()` also finds them without the `HIERARCH ` prefix.
// - A CONTINUE long string is joined into the card that started it (the CONTINUE cards are not
//   kept) and their comments are joined with spaces, as astropy does.
// - Complex values are returned as written, e.g. `(1.5, -2.0)`.
// - A string of only spaces is a single space, as the Standard (§4.2.1.1) and CFITSIO say; ''
//   is the empty string. (astropy returns '' for both.)
// - Integers beyond 2^53 lose precision; the ones tables use (TZEROn = 2^63) are exact.
// - `get()` ignores case and repeated spaces, as keywords are upper case by definition.
// - Malformed values are errors, not guesses; a missing last padding (after END or after the
//   last data unit) is tolerated, since nothing is read from it.

export type FitsValue = string | number | boolean | null; // null: keyword present with no value (undefined value)

export interface FitsCard {
  keyword: string;
  value: FitsValue;
  comment: string;
}

export interface FitsHdu {
  cards: FitsCard[];
  /** first card with this keyword */
  get(keyword: string): FitsCard | undefined;
  /** index of the HDU in the file, 0 = primary */
  index: number;
}

export class FitsError extends Error {
  override name = 'FitsError';
}

const BLOCK = 2880;
const CARD = 80;
const BITPIX_VALUES = [8, 16, 32, 64, -32, -64];
const COMMENTARY = new Set(['COMMENT', 'HISTORY', '']);
const INTEGER = /^[+-]?\d+$/;
// FITS reals may use D for double precision exponents; lower case is tolerated as CFITSIO does.
const REAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][+-]?\d+)?$/;
const HIERARCH_NAME = /^[A-Za-z0-9_.+-]+(?: [A-Za-z0-9_.+-]+)*$/;

/** True when the bytes start like a FITS file ("SIMPLE  =" in the first card). */
export function looksLikeFits(bytes: Uint8Array): boolean {
  return bytes.length >= 9 && ascii(bytes, 0, 9) === 'SIMPLE  =';
}

/**
 * Bytes of a FITS file, read where they are needed: a header is read card by card and a data unit
 * is skipped without being read, so a file of any size costs only its headers.
 */
export interface ByteSource {
  /** The file's length in bytes. */
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Uint8Array;
}

/** Bytes already in memory, as a ByteSource. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) };
}

/** Every HDU's header in a FITS file, data units skipped. Throws FitsError with a clear message on malformed input. */
export function readFitsHeaders(file: Uint8Array | ByteSource): FitsHdu[] {
  const source = file instanceof Uint8Array ? bytesSource(file) : file;
  const start = source.read(0, 30);
  if (source.size === 0) throw new FitsError('Not a FITS file: it is empty');
  if (!looksLikeFits(start)) {
    const shown = JSON.stringify(ascii(start, 0, start.length).trimEnd());
    throw new FitsError(`Not a FITS file: it must begin with the card "SIMPLE  =                    T", but begins with ${shown}`);
  }
  const hdus: FitsHdu[] = [];
  let offset = 0;
  for (let index = 0; ; index++) {
    const { hdu, headerEnd } = readHeader(source, offset, index);
    hdus.push(hdu);
    const dataStart = offset + padded(headerEnd - offset);
    const size = dataSize(hdu);
    if (size > 0 && dataStart + size > source.size) {
      throw new FitsError(
        `HDU ${index} is truncated: its data unit needs ${size} bytes from byte ${dataStart}, but the file ends at byte ${source.size}`,
      );
    }
    // Anything after the last HDU that does not start with XTENSION is "special records"
    // (Standard §3.5) or stray padding, which readers must ignore.
    const next = dataStart + padded(size);
    if (next + 8 > source.size || ascii(source.read(next, 8), 0, 8) !== 'XTENSION') return hdus;
    offset = next;
  }
}

/** Headers from a text dump (for example astropy's `fitsheader` output, a saved `.hdr` file, or the 80-column cards pasted as lines): one or more HDUs, each ending with END (the last END may be missing). Lines shorter than 80 columns are accepted. */
export function parseHeaderText(text: string): FitsHdu[] {
  const hdus: FitsHdu[] = [];
  let open: HeaderBuilder | undefined;
  let nextIndex = 0;
  const close = (): void => {
    if (open === undefined) return;
    hdus.push(open.finish());
    nextIndex = open.index + 1;
    open = undefined;
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    // fitsheader prints "# HDU n in file:" before each header and never prints END, so the
    // marker both ends the previous header and numbers the next. No FITS keyword starts with #.
    if (line.startsWith('#')) {
      const marker = /^# HDU (\d+)\b/.exec(line);
      if (marker) {
        close();
        nextIndex = Number(marker[1]);
      }
      return;
    }
    const chunks = splitLine(line);
    chunks.forEach((chunk, c) => {
      const where = chunks.length > 1 ? `line ${i + 1}, columns ${c * CARD + 1}-${c * CARD + chunk.length}` : `line ${i + 1}`;
      for (let col = 0; col < chunk.length; col++) {
        const code = chunk.charCodeAt(col);
        if (code < 0x20 || code > 0x7e) {
          throw new FitsError(
            `${where}: character U+${code.toString(16).toUpperCase().padStart(4, '0')} at column ${c * CARD + col + 1} is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)`,
          );
        }
      }
      const card = chunk.padEnd(CARD, ' ');
      if (card.trim() === '') return;
      const keyword = card.slice(0, 8);
      // A plain dump of several HDUs may leave out END; a header can only start with these.
      if (open !== undefined && open.cardCount > 0 && (keyword === 'XTENSION' || keyword === 'SIMPLE  ')) close();
      if (keyword === 'END     ') {
        close();
        return;
      }
      open ??= new HeaderBuilder(nextIndex);
      open.add(parseCard(card, where));
    });
  });
  close();
  if (hdus.length === 0) throw new FitsError('No FITS header cards found in the text');
  return hdus;
}

/** A text line as cards: a raw header saved without newlines is one long line of 80-column cards. */
function splitLine(line: string): string[] {
  if (line.length <= CARD) return [line];
  const trimmed = line.trimEnd();
  if (trimmed.length <= CARD) return [trimmed];
  const chunks: string[] = [];
  for (let at = 0; at < trimmed.length; at += CARD) chunks.push(trimmed.slice(at, at + CARD));
  return chunks;
}

function readHeader(source: ByteSource, offset: number, index: number): { hdu: FitsHdu; headerEnd: number } {
  const builder = new HeaderBuilder(index);
  let block: Uint8Array = new Uint8Array();
  let blockStart = offset;
  for (let pos = offset, n = 1; ; pos += CARD, n++) {
    if (pos + CARD > source.size) {
      if (pos === source.size && (pos - offset) % BLOCK === 0) {
        throw new FitsError(`HDU ${index} has no END card: the file ends after its ${n - 1} header cards`);
      }
      const place = pos === source.size ? `after card ${n - 1}` : `inside card ${n}`;
      throw new FitsError(`HDU ${index} is truncated: the file ends at byte ${source.size}, ${place} of its header, before the END card`);
    }
    // Cards are read a block at a time: 36 cards, one read.
    if (pos + CARD > blockStart + block.length) {
      blockStart = pos;
      block = source.read(pos, BLOCK);
    }
    const at = pos - blockStart;
    const where = `HDU ${index}, card ${n}`;
    for (let col = 0; col < CARD; col++) {
      const byte = block[at + col] ?? 0;
      if (byte < 0x20 || byte > 0x7e) {
        throw new FitsError(
          `${where}: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at column ${col + 1} is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)`,
        );
      }
    }
    const card = ascii(block, at, CARD);
    const keyword = card.slice(0, 8);
    if (keyword === 'END     ') return { hdu: builder.finish(), headerEnd: pos + CARD };
    if (n > 1 && (keyword === 'XTENSION' || keyword === 'SIMPLE  ')) {
      throw new FitsError(`HDU ${index} has no END card: card ${n} is ${keyword.trim()}, which begins another HDU`);
    }
    const parsed = parseCard(card, where);
    if (n === 1) checkFirstCard(parsed, index, where);
    builder.add(parsed);
  }
}

function checkFirstCard(parsed: ParsedCard, index: number, where: string): void {
  if (parsed.kind !== 'card') return;
  const { keyword, value } = parsed.card;
  if (index === 0 && typeof value !== 'boolean') {
    throw new FitsError(`${where}: SIMPLE must be T or F, found ${show(value)}`);
  }
  if (index > 0 && (keyword !== 'XTENSION' || typeof value !== 'string')) {
    throw new FitsError(`${where}: XTENSION must have a string value such as 'BINTABLE', found ${show(value)}`);
  }
}

/** Bytes in the data unit (Standard §4.4.1.1), without the padding to a whole block. */
function dataSize(hdu: FitsHdu): number {
  const where = `HDU ${hdu.index}`;
  const bitpix = integerKeyword(hdu, 'BITPIX');
  if (!BITPIX_VALUES.includes(bitpix)) {
    throw new FitsError(`${where}: BITPIX must be one of ${BITPIX_VALUES.join(', ')}, found ${bitpix}`);
  }
  const naxis = integerKeyword(hdu, 'NAXIS');
  if (naxis < 0 || naxis > 999) throw new FitsError(`${where}: NAXIS must be between 0 and 999, found ${naxis}`);
  if (naxis === 0) return 0;
  // Random groups (Standard §6) set NAXIS1 = 0, which is left out of the product.
  const groups = hdu.index === 0 && hdu.get('GROUPS')?.value === true && integerKeyword(hdu, 'NAXIS1') === 0;
  let product = 1;
  for (let axis = groups ? 2 : 1; axis <= naxis; axis++) product *= integerKeyword(hdu, `NAXIS${axis}`);
  const pcount = integerKeyword(hdu, 'PCOUNT', 0);
  const gcount = integerKeyword(hdu, 'GCOUNT', 1);
  const size = (Math.abs(bitpix) / 8) * gcount * (pcount + product);
  if (!Number.isSafeInteger(size)) throw new FitsError(`${where}: the data unit size (${size} bytes) is not believable`);
  return size;
}

function integerKeyword(hdu: FitsHdu, keyword: string, fallback?: number): number {
  const card = hdu.get(keyword);
  if (card === undefined) {
    if (fallback !== undefined) return fallback;
    throw new FitsError(`HDU ${hdu.index}: the mandatory keyword ${keyword} is missing`);
  }
  if (typeof card.value !== 'number' || !Number.isInteger(card.value) || (keyword !== 'BITPIX' && card.value < 0)) {
    throw new FitsError(
      `HDU ${hdu.index}: ${keyword} must be ${keyword === 'BITPIX' ? 'an' : 'a non-negative'} integer, found ${show(card.value)}`,
    );
  }
  return card.value;
}

type ParsedCard = { kind: 'card'; card: FitsCard } | { kind: 'continue'; value: string; comment: string } | { kind: 'blank' };

/** Collects cards, joining CONTINUE long strings into the card they continue. */
class HeaderBuilder {
  readonly cards: FitsCard[] = [];
  cardCount = 0;
  private continued: FitsCard | undefined;

  constructor(readonly index: number) {}

  add(parsed: ParsedCard): void {
    this.cardCount++;
    if (parsed.kind === 'blank') {
      this.continued = undefined;
      return;
    }
    if (parsed.kind === 'continue') {
      const target = this.continued;
      if (target !== undefined && typeof target.value === 'string') {
        target.value = target.value.slice(0, -1) + parsed.value;
        target.comment = [target.comment, parsed.comment].filter((c) => c !== '').join(' ');
        if (!target.value.endsWith('&')) this.continued = undefined;
        return;
      }
      // A CONTINUE that follows no string ending in & continues nothing: keep it as commentary.
      const text = `'${parsed.value.replaceAll("'", "''")}'${parsed.comment === '' ? '' : ` / ${parsed.comment}`}`;
      this.cards.push({ keyword: 'CONTINUE', value: null, comment: text });
      return;
    }
    this.cards.push(parsed.card);
    // An & left at the end when no CONTINUE follows is part of the string (Standard §4.2.1.2).
    this.continued = typeof parsed.card.value === 'string' && parsed.card.value.endsWith('&') ? parsed.card : undefined;
  }

  finish(): FitsHdu {
    return makeHdu(this.index, this.cards);
  }
}

function makeHdu(index: number, cards: FitsCard[]): FitsHdu {
  // Built on first use: an import looks up TTYPEn, TFORMn... for every column of wide tables.
  let byKeyword: Map<string, FitsCard> | undefined;
  return {
    index,
    cards,
    get(keyword: string): FitsCard | undefined {
      if (byKeyword === undefined) {
        byKeyword = new Map();
        for (const card of cards) {
          const key = normalise(card.keyword);
          if (!byKeyword.has(key)) byKeyword.set(key, card);
        }
      }
      const wanted = normalise(keyword);
      return byKeyword.get(wanted) ?? (wanted.startsWith('HIERARCH ') ? undefined : byKeyword.get(`HIERARCH ${wanted}`));
    },
  };
}

function normalise(keyword: string): string {
  return keyword.trim().replace(/\s+/g, ' ').toUpperCase();
}

/** One 80-character card; `where` says where it is for error messages. */
function parseCard(card: string, where: string): ParsedCard {
  if (card.trim() === '') return { kind: 'blank' };
  const field = card.slice(0, 8);
  const hasValue = card.slice(8, 10) === '= ';
  if (field === 'HIERARCH' && !hasValue) return parseHierarch(card, where);
  if (!/^[A-Z0-9_-]* *$/.test(field)) {
    throw new FitsError(
      `${where}: ${JSON.stringify(field)} is not a FITS keyword (columns 1-8 must hold upper-case letters, digits, hyphens or underscores, left-justified)`,
    );
  }
  const keyword = field.trimEnd();
  if (keyword === 'CONTINUE' && !hasValue && card.slice(8).trimStart().startsWith("'")) {
    const { value, comment } = parseValue(card.slice(8), `${where} (CONTINUE)`);
    // Only the string's trailing spaces are dropped here: a continuation of spaces is not " ".
    return { kind: 'continue', value: typeof value === 'string' ? value.trimEnd() : '', comment };
  }
  if (!hasValue || COMMENTARY.has(keyword)) {
    return { kind: 'card', card: { keyword, value: null, comment: card.slice(8).trim() } };
  }
  const { value, comment } = parseValue(card.slice(10), `${where} (${keyword})`);
  return { kind: 'card', card: { keyword, value, comment } };
}

/** ESO's HIERARCH convention: `HIERARCH ESO DET CHIP1 ID = 'value' / comment`. */
function parseHierarch(card: string, where: string): ParsedCard {
  const rest = card.slice(8);
  const equals = rest.indexOf('=');
  const name = equals < 0 ? '' : rest.slice(0, equals).trim().replace(/ +/g, ' ');
  // Without a plausible name before "=", the card is free text that happens to start with HIERARCH.
  if (!HIERARCH_NAME.test(name)) return { kind: 'card', card: { keyword: 'HIERARCH', value: null, comment: rest.trim() } };
  const keyword = `HIERARCH ${name}`;
  const { value, comment } = parseValue(rest.slice(equals + 1), `${where} (${keyword})`);
  return { kind: 'card', card: { keyword, value, comment } };
}

/** The value and comment in the columns after the value indicator (Standard §4.2). */
function parseValue(field: string, where: string): { value: FitsValue; comment: string } {
  const start = field.length - field.trimStart().length;
  const first = field[start];
  let value: FitsValue;
  let rest: string;
  if (first === undefined) return { value: null, comment: '' };
  if (first === '/') return { value: null, comment: field.slice(start + 1).trim() };
  if (first === "'") {
    let text = '';
    let at = start + 1;
    for (;;) {
      const quote = field.indexOf("'", at);
      if (quote < 0) throw new FitsError(`${where}: the string value has no closing quote`);
      text += field.slice(at, quote);
      if (field[quote + 1] !== "'") {
        rest = field.slice(quote + 1);
        break;
      }
      text += "'";
      at = quote + 2;
    }
    const trimmed = text.trimEnd();
    value = trimmed === '' && text !== '' ? ' ' : trimmed;
  } else if (first === '(') {
    const close = field.indexOf(')', start);
    const raw = close < 0 ? field.slice(start).trimEnd() : field.slice(start, close + 1);
    const parts = raw
      .slice(1, -1)
      .split(',')
      .map((part) => part.trim());
    if (close < 0 || parts.length !== 2 || !parts.every((part) => INTEGER.test(part) || REAL.test(part))) {
      throw new FitsError(`${where}: cannot read the complex value ${JSON.stringify(raw)}`);
    }
    value = raw;
    rest = field.slice(close + 1);
  } else {
    const slash = field.indexOf('/', start);
    const token = (slash < 0 ? field.slice(start) : field.slice(start, slash)).trimEnd();
    rest = slash < 0 ? '' : field.slice(slash);
    if (token === 'T' || token === 'F') value = token === 'T';
    else if (INTEGER.test(token)) value = Number(token);
    else if (REAL.test(token)) value = Number(token.replace(/[Dd]/, 'E'));
    else {
      throw new FitsError(
        `${where}: cannot read the value ${JSON.stringify(token)} (expected a quoted string, T or F, a number or a complex pair)`,
      );
    }
  }
  rest = rest.trimStart();
  if (rest === '') return { value, comment: '' };
  if (!rest.startsWith('/')) {
    throw new FitsError(`${where}: unexpected text ${JSON.stringify(rest.trimEnd())} after the value (a comment must start with /)`);
  }
  return { value, comment: rest.slice(1).trim() };
}

function show(value: FitsValue): string {
  if (value === null) return 'no value';
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function padded(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}
