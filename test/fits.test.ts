// FITS headers as `archive-schema import` reads them: files assembled here card by card per the
// FITS Standard 4.0, one file written by astropy, text dumps, and every malformed case we refuse.

import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { FitsError, looksLikeFits, parseHeaderText, readFitsHeaders } from '../src/readers/fits.ts';
import type { FitsHdu } from '../src/readers/fits.ts';
import { BLOCK, concat, dataUnit, floats, header, kv, lit, raw } from './fitsfile.ts';

/** A byte pattern that can never be mistaken for a header: not ASCII, never "XTENSION". */
function filler(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => 0x80 + (i % 128));
}

function value(hdu: FitsHdu | undefined, keyword: string): unknown {
  return hdu?.get(keyword)?.value;
}

function fitsError(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(FitsError);
    return (error as Error).message;
  }
  throw new Error('expected a FitsError');
}

const PRIMARY_NO_DATA = [kv('SIMPLE', true, 'conforms to FITS standard'), kv('BITPIX', 8), kv('NAXIS', 0), kv('EXTEND', true)];

// A BINTABLE whose heap (PCOUNT) takes the data unit over a block boundary: a reader that left
// PCOUNT out would land inside the data and never see the MASK extension after it.
const COLUMNS = [
  ['ra', 'D', 'deg', 'pos.eq.ra;meta.main', 'Right ascension (ICRS)'],
  ['dec', 'D', 'deg', 'pos.eq.dec;meta.main', 'Declination (ICRS)'],
  ['mag_r', 'E', 'mag', 'phot.mag;em.opt.R', "Petrosian r' magnitude"],
  ['flags', 'J', '', 'meta.code.qual', 'Quality flags'],
  ['spectrum', '1PE(5)', 'erg/s/cm2/Angstrom', 'phot.flux.density;em.opt', 'Variable-length spectrum'],
  ['name', '6A', '', 'meta.id', 'Source name'],
] as const;
const ROW_BYTES = 8 + 8 + 4 + 4 + 8 + 6;
const ROWS = 70;
const HEAP = 400;

function bintableHeader(): string[] {
  return [
    kv('XTENSION', 'BINTABLE', 'binary table extension'),
    kv('BITPIX', 8),
    kv('NAXIS', 2),
    kv('NAXIS1', ROW_BYTES, 'width of a row in bytes'),
    kv('NAXIS2', ROWS, 'number of rows'),
    kv('PCOUNT', HEAP, 'heap size'),
    kv('GCOUNT', 1),
    kv('TFIELDS', COLUMNS.length),
    kv('EXTNAME', 'SOURCES'),
    ...COLUMNS.flatMap(([name, form, unit, ucd, comm], i) => [
      kv(`TTYPE${i + 1}`, name),
      kv(`TFORM${i + 1}`, form),
      ...(unit === '' ? [] : [kv(`TUNIT${i + 1}`, unit)]),
      kv(`TUCD${i + 1}`, ucd),
      kv(`TCOMM${i + 1}`, comm),
    ]),
    kv('TDISP3', 'F8.3'),
    kv('TNULL4', -2147483648),
  ];
}

const MASK = [
  kv('XTENSION', 'IMAGE'),
  kv('BITPIX', 16),
  kv('NAXIS', 1),
  kv('NAXIS1', 5),
  kv('PCOUNT', 0),
  kv('GCOUNT', 1),
  kv('EXTNAME', 'MASK'),
];

function tableFile(): Uint8Array {
  return concat(
    header(PRIMARY_NO_DATA),
    header(bintableHeader()),
    dataUnit(filler(ROW_BYTES * ROWS + HEAP)),
    header(MASK),
    dataUnit(filler(10)),
  );
}

// A 10 x 7 float image in the primary HDU, a 40 x 30 double image (four blocks of data), then a
// table with no rows: three HDUs are found only if every data unit is skipped exactly.
const PIXELS = Array.from({ length: 70 }, (_, i) => i * 0.5 - 3.25);
const WIDE = Array.from({ length: 1200 }, (_, i) => Math.sin(i) * 1e5);

function imageFile(): Uint8Array {
  return concat(
    header([
      kv('SIMPLE', true),
      kv('BITPIX', -32),
      kv('NAXIS', 2),
      kv('NAXIS1', 10),
      kv('NAXIS2', 7),
      kv('EXTEND', true),
      kv('OBJECT', 'NGC 1234'),
    ]),
    dataUnit(floats(PIXELS, -32)),
    header([
      kv('XTENSION', 'IMAGE'),
      kv('BITPIX', -64),
      kv('NAXIS', 2),
      kv('NAXIS1', 40),
      kv('NAXIS2', 30),
      kv('PCOUNT', 0),
      kv('GCOUNT', 1),
      kv('EXTNAME', 'WEIGHT'),
    ]),
    dataUnit(floats(WIDE, -64)),
    header([
      kv('XTENSION', 'BINTABLE'),
      kv('BITPIX', 8),
      kv('NAXIS', 2),
      kv('NAXIS1', 8),
      kv('NAXIS2', 0),
      kv('PCOUNT', 0),
      kv('GCOUNT', 1),
      kv('TFIELDS', 1),
      kv('TTYPE1', 'id'),
      kv('TFORM1', 'K'),
      kv('EXTNAME', 'EMPTY'),
    ]),
  );
}

// Written by astropy 5.2.1 (Debian's python3-astropy), gzipped and base64-encoded: a 10 x 7
// float32 primary image with HIERARCH, CONTINUE, COMMENT and HISTORY cards, and a 12-row
// BINTABLE `SOURCES` with five columns. Kept here so the tests need no Python.
const ASTROPY_FITS =
  'H4sIAAAAAAACA+2ZMWzjVBjHI4QQYmJk/CZ8SFwuTluodDoRx3Fbn1o7il0pJ4Tg1Xm1LSW2z++l12wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDPxtt+WiS9omtXQM7y/9pMixf/m++D07efbsg/6+RXSPFsSnOxSkyXGaTwTJlHZs3yMhWTJi+YgWpmv7fXu40Hd7ow0fy3M2oxGTjOQs43RFHGNoe7SkvsKXTCdHPKf0+NwcT3gi4jQRy336Yp/eopVT+tpL6nt9dZ819C2nt/R8rBy3e98y/cKnObsm6e2NTe2xt++QZHnI5Qr19X37wHqyPn2r1WzB96Z4i/hploppzq/h27OtgTEw98jyXOpZPpl7dl8nu1dUHAQjvdhJK8ZhFGfX8O27zq7nD4qjDRqnSUgnbDzl9CiPpeQJHc2ICZmn2exVehTFQUQiG8dSYFjncRKK8hiMJxmxhF7WyHQd33YOMUO017ZRBMtZIHkuKD3BXhfvBpgQQrtGfaZ7cGA5/oJ6CNMMYxh9nvDbIoj4BDOECymu+P483x08oDThFMVCpvmMxnHCac2Ug09FRUVFRUXl0jSQNwreBd82Gh287mBrBy867wBs73wIPgVfgmKfH8Gv4M9Gw8D+xvPgRfASwLHGLdAC2wAeYw/0wRDAaUQgA6cAfuM98D74AOCzjI/Ax+ATgM81PgOfgy8AajC+Al+DbwDqMb4D34MfAGozfgI/g18A6jR+A7+DP0BR81/gb/BPo9FF/d1nwLPgOYBeui80VFRUVFRUVFRUVBamWO70bNe5R1rXdnyju2/Nr08exQnLZyTZ0ZgTP5XV4u7S3+OXrD8Tbf+/15/L9fExT0IZFb4LE+nrrT/ry3zt5b6+6R46/pJ+W3P9hnk6zShjOZvwckl0UXYv8+lP+sQV58Pfsa39nrfYtzXnq4bMcczHo+VW33/Qt8rzoeWs2qTd5P+gv+MODirf+ULqzXyHju1XvhEPa/AV/bbPfEFN/bZr7rddc78bpW/CwrfzWvqtfFZt/V7UV1O/m6XveMxCUUu/le9+Lf0W9W2VvgTXjXrGX+XbNmqozxr6jlE+39I893BgWh7N34/+uwWd13/F+TV7enn/0LJUNPnDZs7u4nrJmhMWJ9oa48Xsted8mMY3EBa+jTNflEpIwrt80kwz2Rxoa41ns7dZ+cqignTEmw+nbKytOz/M3tZjvnh0w/FSPICrrqeDOIwkMRGcnc9btjnwXlnRrp6XqTzt9WcVFRUVFRUVFRUVlevlXzpFV4cALQAA';

// `fitsheader astropy.fits` (astropy 5.2.1) as printed, trailing spaces trimmed as a paste into an
// editor would. fitsheader prints no END and puts a CONTINUE card on its first card's line.
const FITSHEADER_OUTPUT = `# HDU 0 in astropy.fits:
SIMPLE  =                    T / conforms to FITS standard
BITPIX  =                  -32 / array data type
NAXIS   =                    2 / number of array dimensions
NAXIS1  =                   10
NAXIS2  =                    7
EXTEND  =                    T
OBJECT  = 'NGC 1234'           / target
EXPTIME =                150.0 / [s] exposure
HIERARCH ESO DET CHIP1 ID = 'ccd1    ' / chip
${"LONGSTR = 'A long value written by astropy, which splits strings longer than &'".padEnd(80, ' ')}CONTINUE  '68 characters over CONTINUE cards'
COMMENT written by astropy for archive-schema tests
HISTORY one history line

# HDU 1 in astropy.fits:
XTENSION= 'BINTABLE'           / binary table extension
BITPIX  =                    8 / array data type
NAXIS   =                    2 / number of array dimensions
NAXIS1  =                   32 / length of dimension 1
NAXIS2  =                   12 / length of dimension 2
PCOUNT  =                    0 / number of group parameters
GCOUNT  =                    1 / number of groups
TFIELDS =                    5 / number of table fields
TTYPE1  = 'ra      '
TFORM1  = 'D       '
TUNIT1  = 'deg     '
TTYPE2  = 'dec     '
TFORM2  = 'D       '
TUNIT2  = 'deg     '
TTYPE3  = 'mag_r   '
TFORM3  = 'E       '
TUNIT3  = 'mag     '
TTYPE4  = 'flags   '
TFORM4  = 'J       '
TTYPE5  = 'name    '
TFORM5  = '8A      '
EXTNAME = 'SOURCES '           / extension name
TUCD1   = 'pos.eq.ra;meta.main'
TUCD2   = 'pos.eq.dec;meta.main'
TUCD3   = 'phot.mag;em.opt.R'
TUCD4   = 'meta.code.qual'
TUCD5   = 'meta.id '
TCOMM1  = 'Right ascension (ICRS)'
`;

describe('readFitsHeaders', () => {
  test('reads a primary HDU without data, then a BINTABLE column by column, then the HDU after its heap', () => {
    const hdus = readFitsHeaders(tableFile());
    expect(hdus.map((hdu) => hdu.index)).toEqual([0, 1, 2]);
    expect(hdus[0]?.cards).toEqual([
      { keyword: 'SIMPLE', value: true, comment: 'conforms to FITS standard' },
      { keyword: 'BITPIX', value: 8, comment: '' },
      { keyword: 'NAXIS', value: 0, comment: '' },
      { keyword: 'EXTEND', value: true, comment: '' },
    ]);
    const table = hdus[1];
    expect(value(table, 'XTENSION')).toBe('BINTABLE');
    expect(table?.get('XTENSION')?.comment).toBe('binary table extension');
    expect(value(table, 'TFIELDS')).toBe(6);
    const columns = Array.from({ length: 6 }, (_, i) =>
      ['TTYPE', 'TFORM', 'TUNIT', 'TUCD', 'TCOMM'].map((root) => value(table, `${root}${i + 1}`) ?? ''),
    );
    expect(columns).toEqual(COLUMNS.map((column) => [...column]));
    expect(value(table, 'TDISP3')).toBe('F8.3');
    expect(value(table, 'TNULL4')).toBe(-2147483648);
    expect(table?.cards.length).toBe(9 + 6 * 5 - 2 + 2);
    expect(value(hdus[2], 'EXTNAME')).toBe('MASK');
    expect(value(hdus[2], 'NAXIS1')).toBe(5);
  });

  test('skips image data units of any size, the last one with no data at all', () => {
    const hdus = readFitsHeaders(imageFile());
    expect(hdus.map((hdu) => [hdu.index, value(hdu, 'EXTNAME') ?? value(hdu, 'OBJECT')])).toEqual([
      [0, 'NGC 1234'],
      [1, 'WEIGHT'],
      [2, 'EMPTY'],
    ]);
    expect(value(hdus[0], 'BITPIX')).toBe(-32);
    expect(value(hdus[2], 'TTYPE1')).toBe('id');
  });

  test('skips random-groups data, where NAXIS1 = 0 is left out of the size', () => {
    // 4 bytes x 100 groups x (4 parameters + 2 x 3 pixels) = 4000 bytes, two blocks. Counting
    // NAXIS1 = 0 in the product, or forgetting GCOUNT, would give one block.
    const file = concat(
      header([
        kv('SIMPLE', true),
        kv('BITPIX', -32),
        kv('NAXIS', 3),
        kv('NAXIS1', 0),
        kv('NAXIS2', 2),
        kv('NAXIS3', 3),
        kv('GROUPS', true),
        kv('PCOUNT', 4),
        kv('GCOUNT', 100),
      ]),
      dataUnit(filler(4000)),
      header(MASK),
      dataUnit(filler(10)),
    );
    expect(readFitsHeaders(file).map((hdu) => value(hdu, 'EXTNAME') ?? null)).toEqual([null, 'MASK']);
  });

  test('reads every kind of value the Standard defines, exactly', () => {
    const [hdu] = readFitsHeaders(
      header([
        ...PRIMARY_NO_DATA,
        kv('OBSERVER', "O'Hara", 'quotes are doubled'),
        raw("LEADING =      '  two spaces'     / leading spaces count, trailing do not"),
        raw("NULLSTR = ''"),
        raw("BLANKSTR= '        '           / all spaces: one space (Standard 4.2.1.1)"),
        raw("SLASHED = 'a/b c' / a slash inside quotes is not a comment"),
        raw("NOSPACE = 'tight'/comment without a space"),
        kv('LOGICAL', false, 'logical false'),
        raw('FREELOG =  T'),
        kv('INT', -42),
        raw('PLUSINT = +7'),
        lit('EXPTIME', '1.5D+02', 'D exponent'),
        lit('GAIN', '-2.5E-1'),
        lit('SMALL', '1.0d-3', 'lower-case exponent'),
        lit('POINT', '.5'),
        lit('TRAIL', '3.'),
        lit('BIG', '9223372036854775808', 'TZERO of unsigned 64-bit columns'),
        raw('CPLX    =         (1.5, -2.0D0) / complex pair'),
        raw('UNDEF   =                      / undefined value'),
        raw('BARE    ='),
      ]),
    );
    expect(hdu?.cards.slice(4)).toEqual([
      { keyword: 'OBSERVER', value: "O'Hara", comment: 'quotes are doubled' },
      { keyword: 'LEADING', value: '  two spaces', comment: 'leading spaces count, trailing do not' },
      { keyword: 'NULLSTR', value: '', comment: '' },
      { keyword: 'BLANKSTR', value: ' ', comment: 'all spaces: one space (Standard 4.2.1.1)' },
      { keyword: 'SLASHED', value: 'a/b c', comment: 'a slash inside quotes is not a comment' },
      { keyword: 'NOSPACE', value: 'tight', comment: 'comment without a space' },
      { keyword: 'LOGICAL', value: false, comment: 'logical false' },
      { keyword: 'FREELOG', value: true, comment: '' },
      { keyword: 'INT', value: -42, comment: '' },
      { keyword: 'PLUSINT', value: 7, comment: '' },
      { keyword: 'EXPTIME', value: 150, comment: 'D exponent' },
      { keyword: 'GAIN', value: -0.25, comment: '' },
      { keyword: 'SMALL', value: 0.001, comment: 'lower-case exponent' },
      { keyword: 'POINT', value: 0.5, comment: '' },
      { keyword: 'TRAIL', value: 3, comment: '' },
      { keyword: 'BIG', value: 2 ** 63, comment: 'TZERO of unsigned 64-bit columns' },
      { keyword: 'CPLX', value: '(1.5, -2.0D0)', comment: 'complex pair' },
      { keyword: 'UNDEF', value: null, comment: 'undefined value' },
      { keyword: 'BARE', value: null, comment: '' },
    ]);
  });

  test('joins CONTINUE long strings into the card they continue', () => {
    const [hdu] = readFitsHeaders(
      header([
        ...PRIMARY_NO_DATA,
        raw("LONGSTRN= 'OGIP 1.0'           / The OGIP long string convention may be used"),
        raw("FILTER  = 'A broad-band filter with a name so long that it needs &'  / first"),
        raw("CONTINUE  'three cards, and keeps spaces before the ampersand  &' / second"),
        raw("CONTINUE  'in every part.'   / third"),
        raw("AMPER   = 'R&D &'             / no CONTINUE follows: the & is kept"),
        kv('AFTER', 1),
        raw("CONTINUE  'continues nothing'"),
        raw("ONLYCOMM= 'comment only&'"),
        raw("CONTINUE  '&' / the value ends, the comment goes on"),
        raw("CONTINUE  '' / and ends here"),
      ]),
    );
    expect(hdu?.cards.slice(4)).toEqual([
      { keyword: 'LONGSTRN', value: 'OGIP 1.0', comment: 'The OGIP long string convention may be used' },
      {
        keyword: 'FILTER',
        value: 'A broad-band filter with a name so long that it needs three cards, and keeps spaces before the ampersand  in every part.',
        comment: 'first second third',
      },
      { keyword: 'AMPER', value: 'R&D &', comment: 'no CONTINUE follows: the & is kept' },
      { keyword: 'AFTER', value: 1, comment: '' },
      { keyword: 'CONTINUE', value: null, comment: "'continues nothing'" },
      { keyword: 'ONLYCOMM', value: 'comment only', comment: 'the value ends, the comment goes on and ends here' },
    ]);
  });

  test('names HIERARCH cards by their whole keyword, and finds them with or without HIERARCH', () => {
    const [hdu] = readFitsHeaders(
      header([
        ...PRIMARY_NO_DATA,
        raw("HIERARCH ESO DET CHIP1 ID = 'ESO-CCD #42' / Detector chip identification"),
        raw('HIERARCH ESO TEL AIRM START =        1.234 / Airmass at start'),
        raw('HIERARCH  ESO   INS FILT1 NAME= 1.5D0'),
        raw('HIERARCH ESO OBS DONE = T'),
        raw('HIERARCH this card has no equals sign'),
      ]),
    );
    expect(hdu?.cards.slice(4)).toEqual([
      { keyword: 'HIERARCH ESO DET CHIP1 ID', value: 'ESO-CCD #42', comment: 'Detector chip identification' },
      { keyword: 'HIERARCH ESO TEL AIRM START', value: 1.234, comment: 'Airmass at start' },
      { keyword: 'HIERARCH ESO INS FILT1 NAME', value: 1.5, comment: '' },
      { keyword: 'HIERARCH ESO OBS DONE', value: true, comment: '' },
      { keyword: 'HIERARCH', value: null, comment: 'this card has no equals sign' },
    ]);
    expect(hdu?.get('HIERARCH ESO DET CHIP1 ID')?.value).toBe('ESO-CCD #42');
    expect(hdu?.get('ESO TEL AIRM START')?.value).toBe(1.234);
    expect(hdu?.get('hierarch  eso det chip1 id')?.value).toBe('ESO-CCD #42');
    expect(hdu?.get('ESO DET CHIP2 ID')).toBeUndefined();
  });

  test('keeps commentary cards in order with value null and their text as comment; drops blank cards', () => {
    const [hdu] = readFitsHeaders(
      header([
        ...PRIMARY_NO_DATA,
        raw("COMMENT   FITS (Flexible Image Transport System) format is defined in 'Astronomy"),
        raw('HISTORY Reduced with pipeline 2.3 / on 2020-01-01'),
        raw(''),
        raw('        Blank keyword: commentary text'),
        raw("COMMENT = 'not a value: COMMENT never has one'"),
        raw('NOVALUE   no value indicator in columns 9-10, so this is text'),
        raw('NOEQUAL =no space after the equals sign'),
        kv('DATE', '2020-01-01'),
        raw('HISTORY second history line'),
      ]),
    );
    expect(hdu?.cards.slice(4)).toEqual([
      { keyword: 'COMMENT', value: null, comment: "FITS (Flexible Image Transport System) format is defined in 'Astronomy" },
      { keyword: 'HISTORY', value: null, comment: 'Reduced with pipeline 2.3 / on 2020-01-01' },
      { keyword: '', value: null, comment: 'Blank keyword: commentary text' },
      { keyword: 'COMMENT', value: null, comment: "= 'not a value: COMMENT never has one'" },
      { keyword: 'NOVALUE', value: null, comment: 'no value indicator in columns 9-10, so this is text' },
      { keyword: 'NOEQUAL', value: null, comment: '=no space after the equals sign' },
      { keyword: 'DATE', value: '2020-01-01', comment: '' },
      { keyword: 'HISTORY', value: null, comment: 'second history line' },
    ]);
    expect(hdu?.get('history')?.comment).toBe('Reduced with pipeline 2.3 / on 2020-01-01');
  });

  test('ignores special records and padding after the last HDU', () => {
    const trailing = new Uint8Array(BLOCK).fill(0x20);
    trailing.set(Buffer.from('SPECIAL RECORD, not an extension'));
    const file = concat(tableFile(), trailing, new Uint8Array(100));
    expect(readFitsHeaders(file).length).toBe(3);
  });

  test('accepts a last HDU whose padding is missing, data or header', () => {
    const unpaddedData = concat(header(PRIMARY_NO_DATA), header(MASK), filler(10));
    expect(readFitsHeaders(unpaddedData).map((hdu) => value(hdu, 'EXTNAME') ?? null)).toEqual([null, 'MASK']);
    const unpaddedHeader = Buffer.from([...PRIMARY_NO_DATA, raw('END')].join(''), 'latin1');
    expect(readFitsHeaders(unpaddedHeader).map((hdu) => hdu.cards.length)).toEqual([4]);
  });

  test('reads a file written by astropy', () => {
    const hdus = readFitsHeaders(gunzipSync(Buffer.from(ASTROPY_FITS, 'base64')));
    expect(hdus.length).toBe(2);
    const [primary, table] = hdus;
    expect(primary?.cards).toEqual([
      { keyword: 'SIMPLE', value: true, comment: 'conforms to FITS standard' },
      { keyword: 'BITPIX', value: -32, comment: 'array data type' },
      { keyword: 'NAXIS', value: 2, comment: 'number of array dimensions' },
      { keyword: 'NAXIS1', value: 10, comment: '' },
      { keyword: 'NAXIS2', value: 7, comment: '' },
      { keyword: 'EXTEND', value: true, comment: '' },
      { keyword: 'OBJECT', value: 'NGC 1234', comment: 'target' },
      { keyword: 'EXPTIME', value: 150, comment: '[s] exposure' },
      { keyword: 'HIERARCH ESO DET CHIP1 ID', value: 'ccd1', comment: 'chip' },
      {
        keyword: 'LONGSTR',
        value: 'A long value written by astropy, which splits strings longer than 68 characters over CONTINUE cards',
        comment: '',
      },
      { keyword: 'COMMENT', value: null, comment: 'written by astropy for archive-schema tests' },
      { keyword: 'HISTORY', value: null, comment: 'one history line' },
    ]);
    expect(table?.index).toBe(1);
    expect(value(table, 'EXTNAME')).toBe('SOURCES');
    const columns = Array.from({ length: 5 }, (_, i) =>
      ['TTYPE', 'TFORM', 'TUNIT', 'TUCD'].map((root) => value(table, `${root}${i + 1}`) ?? null),
    );
    expect(columns).toEqual([
      ['ra', 'D', 'deg', 'pos.eq.ra;meta.main'],
      ['dec', 'D', 'deg', 'pos.eq.dec;meta.main'],
      ['mag_r', 'E', 'mag', 'phot.mag;em.opt.R'],
      ['flags', 'J', null, 'meta.code.qual'],
      ['name', '8A', null, 'meta.id'],
    ]);
    expect(value(table, 'TCOMM1')).toBe('Right ascension (ICRS)');
  });

  describe('refuses malformed files, saying what and where', () => {
    const table = tableFile();

    test.each([
      ['an empty file', new Uint8Array(0), 'Not a FITS file: it is empty'],
      [
        'a text file',
        Buffer.from('ra,dec,mag\n1,2,3\n'),
        'Not a FITS file: it must begin with the card "SIMPLE  =                    T", but begins with "ra,dec,mag\\n1,2,3"',
      ],
      [
        'SIMPLE not in columns 1-6',
        header([raw(' SIMPLE =                    T'), kv('BITPIX', 8), kv('NAXIS', 0)]),
        'Not a FITS file: it must begin with the card "SIMPLE  =                    T", but begins with " SIMPLE =                    T"',
      ],
      [
        'SIMPLE without a logical value',
        header([kv('SIMPLE', 1), kv('BITPIX', 8), kv('NAXIS', 0)]),
        'HDU 0, card 1: SIMPLE must be T or F, found 1',
      ],
      [
        'a header cut inside a card',
        table.subarray(0, BLOCK + 1000),
        'HDU 1 is truncated: the file ends at byte 3880, inside card 13 of its header, before the END card',
      ],
      [
        'a header cut between cards',
        table.subarray(0, BLOCK + 800),
        'HDU 1 is truncated: the file ends at byte 3680, after card 10 of its header, before the END card',
      ],
      [
        'a data unit cut short',
        table.subarray(0, 3 * BLOCK + 1000),
        'HDU 1 is truncated: its data unit needs 3060 bytes from byte 8640, but the file ends at byte 9640',
      ],
      [
        'a header of whole blocks with no END',
        Buffer.from([...PRIMARY_NO_DATA, ...Array.from({ length: 32 }, (_, i) => kv(`KEY${i}`, i))].join(''), 'latin1'),
        'HDU 0 has no END card: the file ends after its 36 header cards',
      ],
      [
        'a header with no END before the next HDU',
        concat(
          Buffer.from([...PRIMARY_NO_DATA, ...Array.from({ length: 32 }, (_, i) => kv(`KEY${i}`, i))].join(''), 'latin1'),
          header(MASK),
        ),
        'HDU 0 has no END card: card 37 is XTENSION, which begins another HDU',
      ],
      [
        'a non-ASCII byte in a comment',
        concat(header(PRIMARY_NO_DATA), header([...MASK.slice(0, 4), kv('ORIGIN', 'ESO', 'Garching bei München')])),
        'HDU 1, card 5: byte 0xFC at column 38 is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)',
      ],
      [
        'a tab in a header',
        header([...PRIMARY_NO_DATA, raw('COMMENT\ttabbed')]),
        'HDU 0, card 5: byte 0x09 at column 8 is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)',
      ],
      [
        'a lower-case keyword',
        header([...PRIMARY_NO_DATA, raw("object  = 'M31'")]),
        'HDU 0, card 5: "object  " is not a FITS keyword (columns 1-8 must hold upper-case letters, digits, hyphens or underscores, left-justified)',
      ],
      [
        'an unquoted string value',
        header([...PRIMARY_NO_DATA, raw('OBJECT  = M31 / not quoted')]),
        'HDU 0, card 5 (OBJECT): cannot read the value "M31" (expected a quoted string, T or F, a number or a complex pair)',
      ],
      [
        'a string with no closing quote',
        header([...PRIMARY_NO_DATA, raw("OBJECT  = 'M31 / open")]),
        'HDU 0, card 5 (OBJECT): the string value has no closing quote',
      ],
      [
        'text after a value without a slash',
        header([...PRIMARY_NO_DATA, raw("OBJECT  = 'M31' galaxy")]),
        'HDU 0, card 5 (OBJECT): unexpected text "galaxy" after the value (a comment must start with /)',
      ],
      [
        'a bad complex value',
        header([...PRIMARY_NO_DATA, raw('CPLX    = (1.0, two)')]),
        'HDU 0, card 5 (CPLX): cannot read the complex value "(1.0, two)"',
      ],
      [
        'an unknown BITPIX',
        header([kv('SIMPLE', true), kv('BITPIX', 12), kv('NAXIS', 0)]),
        'HDU 0: BITPIX must be one of 8, 16, 32, 64, -32, -64, found 12',
      ],
      [
        'a missing NAXISn',
        header([kv('SIMPLE', true), kv('BITPIX', 16), kv('NAXIS', 2), kv('NAXIS1', 10)]),
        'HDU 0: the mandatory keyword NAXIS2 is missing',
      ],
      [
        'a negative NAXISn',
        header([kv('SIMPLE', true), kv('BITPIX', 16), kv('NAXIS', 1), kv('NAXIS1', -10)]),
        'HDU 0: NAXIS1 must be a non-negative integer, found -10',
      ],
      [
        'a string NAXIS',
        header([kv('SIMPLE', true), kv('BITPIX', 16), kv('NAXIS', '2')]),
        "HDU 0: NAXIS must be a non-negative integer, found '2'",
      ],
      [
        'an XTENSION without a string value',
        concat(header(PRIMARY_NO_DATA), header([kv('XTENSION', 3), kv('BITPIX', 8), kv('NAXIS', 0)])),
        "HDU 1, card 1: XTENSION must have a string value such as 'BINTABLE', found 3",
      ],
    ])('%s', (_, bytes, message) => {
      expect(fitsError(() => readFitsHeaders(bytes))).toBe(message);
    });
  });
});

describe('looksLikeFits', () => {
  test.each([
    ['a FITS file', tableFile(), true],
    ['the first card alone', Buffer.from('SIMPLE  =                    T'), true],
    ['a text dump starting with a comment line', Buffer.from('# HDU 0 in a.fits:\nSIMPLE  =                    T'), false],
    ['a lower-case start', Buffer.from('simple  =                    T'), false],
    ['a BINTABLE header on its own', header(MASK), false],
    ['fewer than 9 bytes', Buffer.from('SIMPLE  '), false],
  ])('%s', (_, bytes, expected) => {
    expect(looksLikeFits(bytes)).toBe(expected);
  });
});

describe('parseHeaderText', () => {
  test('reads astropy fitsheader output as the same headers as the file itself', () => {
    const fromText = parseHeaderText(FITSHEADER_OUTPUT);
    const fromFile = readFitsHeaders(gunzipSync(Buffer.from(ASTROPY_FITS, 'base64')));
    expect(fromText.map((hdu) => hdu.index)).toEqual([0, 1]);
    expect(fromText.map((hdu) => hdu.cards)).toEqual(fromFile.map((hdu) => hdu.cards));
    expect(fromText[0]?.get('LONGSTR')?.value).toBe(
      'A long value written by astropy, which splits strings longer than 68 characters over CONTINUE cards',
    );
  });

  test('numbers HDUs as fitsheader does when it prints only some of them', () => {
    const hdus = parseHeaderText(
      "# HDU 1 in a.fits:\nXTENSION= 'BINTABLE'\nNAXIS2  =                   12\n\n# HDU 3 in a.fits:\nXTENSION= 'IMAGE   '\n",
    );
    expect(hdus.map((hdu) => [hdu.index, hdu.get('XTENSION')?.value])).toEqual([
      [1, 'BINTABLE'],
      [3, 'IMAGE'],
    ]);
  });

  test('reads a plain dump of 80-column cards, short lines and a missing last END included', () => {
    const text = [...PRIMARY_NO_DATA.map((card) => card.trimEnd()), raw('END'), '', ...bintableHeader().slice(0, 12), ...MASK].join('\r\n');
    const hdus = parseHeaderText(text);
    expect(hdus.map((hdu) => [hdu.index, hdu.cards.length, hdu.get('EXTNAME')?.value ?? null])).toEqual([
      [0, 4, null],
      [1, 12, 'SOURCES'],
      [2, 7, 'MASK'],
    ]);
    expect(hdus[1]?.get('TFORM1')?.value).toBe('D');
    expect(hdus[1]?.get('TUNIT1')?.value).toBe('deg');
  });

  test('reads a raw header saved without newlines as the file does', () => {
    const file = tableFile();
    // The table's 39 cards and END take two blocks: the text reader must see past the first.
    const primaryAndTable = Buffer.from(file.subarray(0, 3 * BLOCK)).toString('latin1');
    const hdus = parseHeaderText(primaryAndTable);
    expect(hdus.map((hdu) => hdu.cards)).toEqual(
      readFitsHeaders(file)
        .slice(0, 2)
        .map((hdu) => hdu.cards),
    );
  });

  test.each([
    ['no cards', '# HDU 0 in empty.fits:\n\n', 'No FITS header cards found in the text'],
    ['only END cards', `# HDU 0 in empty.fits:\n${raw('END')}\nEND\n`, 'No FITS header cards found in the text'],
    [
      'a tab',
      "SIMPLE  =                    T\nOBJECT  =\t'M31'",
      'line 2: character U+0009 at column 10 is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)',
    ],
    [
      'a non-ASCII character',
      "SIMPLE  =                    T\nOBJECT  = 'Ω Cen'",
      'line 2: character U+03A9 at column 12 is not printable ASCII (FITS headers allow only characters 0x20 to 0x7E)',
    ],
    [
      'a bad value',
      'SIMPLE  =                    T\nBITPIX  = eight',
      'line 2 (BITPIX): cannot read the value "eight" (expected a quoted string, T or F, a number or a complex pair)',
    ],
    [
      'a bad card inside a long line',
      `${raw('SIMPLE  =                    T')}${raw('BITPIX  =                    8')}naxis   =                    0`,
      'line 1, columns 161-190: "naxis   " is not a FITS keyword (columns 1-8 must hold upper-case letters, digits, hyphens or underscores, left-justified)',
    ],
  ])('refuses %s', (_, text, message) => {
    expect(fitsError(() => parseHeaderText(text))).toBe(message);
  });
});
