// Checks of single values and single nodes that JSON Schema cannot express, named in the schemas
// by the `x-check` keyword and run in the schema pass, so that every problem of a file is reported
// in one run. Each returns findings: errors for what is certainly wrong, warnings for what is
// probably wrong.

import type { Severity } from '../diagnostics.ts';
import { isInstant, parseInstant } from '../vocabularies/instant.ts';
import type { PathSegment } from './parse.ts';
import { ucdSyntaxProblem, ucdWordProblems } from '../vocabularies/ucd.ts';
import { unitProblem, unitRefusal } from '../vocabularies/vounit.ts';
import { unitKindProblem } from '../vocabularies/unit-kinds.ts';

export interface Finding {
  severity: Severity;
  rule: string;
  /** Read after the place it concerns, e.g. `band "r" > ra_c` + ` is …`. */
  message: string;
  /** Where below the checked value the finding points, when not at the value itself. */
  at?: PathSegment[];
  where?: 'key' | 'value';
}

export type Check = (value: unknown) => Finding[];

const error = (rule: string, message: string, at?: PathSegment[], where?: 'key' | 'value'): Finding => ({
  severity: 'error',
  rule,
  message,
  ...(at ? { at } : {}),
  ...(where ? { where } : {}),
});
const warning = (rule: string, message: string, at?: PathSegment[], where?: 'key' | 'value'): Finding => ({
  severity: 'warning',
  rule,
  message,
  ...(at ? { at } : {}),
  ...(where ? { where } : {}),
});

// ---- Timestamps and UCDs ----------------------------------------------------------------------------

function instant(value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const parsed = parseInstant(value);
  return isInstant(parsed) ? [] : [error('timestamps/instant', `${quotedShort(value)} ${parsed.problem}`)];
}

/** A calendar day, YYYY-MM-DD (a release's `released`): the schema's pattern checks the form, this the day. */
function date(value: unknown): Finding[] {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return [];
  const parsed = parseInstant(`${value}T00:00:00Z`);
  return isInstant(parsed) ? [] : [error('timestamps/date', `${quotedShort(value)} ${parsed.problem}`)];
}

/** Malformed UCDs are errors; words outside the UCD1+ vocabulary, or out of place, are warnings. */
function ucd(value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const problem = ucdSyntaxProblem(value);
  if (problem) return [error('ucd/syntax', `${quotedShort(value)} ${problem}`)];
  return ucdWordProblems(value).map((advice) => warning('ucd/vocabulary', `${quotedShort(value)} ${advice.message}`));
}

/**
 * '-' and 'None' mean no unit; anything else should parse as a VOUnit (a warning: a unit the
 * vocabulary lacks may be meant). A value no unit can be (kilobytes, parentheses nested deep) is an error.
 */
function unit(value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const refused = unitRefusal(value);
  if (refused) return [error('units/vounit', `${quotedShort(value)} ${refused}`)];
  const problem = unitProblem(value);
  return problem ? [warning('units/vounit', `${quotedShort(value)} ${problem}`)] : [];
}

/** A value in quotes, shortened to its start if long. */
function quotedShort(value: string): string {
  return `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
}

/** A unit whose physical kind is not what the column's UCD says it holds: a wavelength in amperes. */
function unitUcd(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const { unit, ucd } = value as { unit?: unknown; ucd?: unknown };
  if (typeof unit !== 'string' || typeof ucd !== 'string') return [];
  const problem = unitKindProblem(unit, ucd);
  return problem ? [warning('units/ucd', `${quotedShort(unit)} ${problem}`, ['unit'])] : [];
}

// ---- Column datatypes ---------------------------------------------------------------------------------

/** A column's arraysize needs its datatype, and text needs an arraysize to be more than one character. */
function columnType(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const { datatype, arraysize } = value as { datatype?: unknown; arraysize?: unknown };
  if (arraysize !== undefined && datatype === undefined) {
    return [
      warning('datatypes/arraysize', `${JSON.stringify(arraysize)} is given without a datatype; add the column's datatype`, ['arraysize']),
    ];
  }
  if ((datatype === 'char' || datatype === 'unicodeChar') && arraysize === undefined) {
    return [
      warning(
        'datatypes/arraysize',
        `is ${datatype} without an arraysize, which is one character; add arraysize: '*' for text of any length, or its length`,
        ['datatype'],
      ),
    ];
  }
  return [];
}

/**
 * One warning per table for its columns without a datatype: TAP_SCHEMA requires one, so
 * tap_schema.vot leaves them out (outputs/vo/tap-schema.ts).
 */
function datatypes(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const columns = (value as { columns?: unknown }).columns;
  if (!Array.isArray(columns)) return [];
  const untyped = columns.filter((c) => typeof c === 'object' && c !== null && (c as { datatype?: unknown }).datatype === undefined);
  if (untyped.length === 0) return [];
  const names = untyped.slice(0, 5).map((c) => String((c as { name?: unknown }).name));
  const more = untyped.length > names.length ? ` and ${untyped.length - names.length} more` : '';
  const which =
    untyped.length < columns.length
      ? `${untyped.length} of ${columns.length}`
      : columns.length === 1
        ? 'its only one'
        : `all ${columns.length}`;
  return [
    warning(
      'datatypes/missing',
      `lack a datatype: ${which} (${names.join(', ')}${more}), which tap_schema.vot leaves out, since TAP requires one; give each its datatype, or fill them in with import columns or import tableset`,
      ['columns'],
      'key',
    ),
  ];
}

// ---- Sky coordinates ------------------------------------------------------------------------------------

function ra(value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const n = Number(value);
  if (Number.isNaN(n) || (n >= 0 && n < 360)) return [];
  return [error('imaging/ra', `${value} is outside 0 to 360 (right ascension in degrees, 360 excluded)`)];
}

function dec(value: unknown): Finding[] {
  if (typeof value !== 'string') return [];
  const n = Number(value);
  if (Number.isNaN(n) || (n >= -90 && n <= 90)) return [];
  return [error('imaging/dec', `${value} is outside -90 to 90 (declination in degrees)`)];
}

// ---- Bands --------------------------------------------------------------------------------------------------

/**
 * Where bands of common names sit, in Angstrom (pivot wavelengths of the usual filters). Used only
 * to catch a wavelength written in another unit: a factor of ten (nm) or ten thousand (µm).
 */
const TYPICAL_WAVELENGTH: Record<string, number> = {
  FUV: 1535,
  NUV: 2301,
  u: 3570,
  g: 4750,
  r: 6200,
  i: 7550,
  z: 8950,
  Y: 10200,
  U: 3650,
  B: 4450,
  V: 5510,
  R: 6580,
  I: 8060,
  J: 12500,
  H: 16400,
  K: 22000,
  Ks: 21500,
  W1: 33900,
  W2: 46400,
  W3: 125700,
  W4: 223100,
  I1: 35500,
  I2: 45000,
  I3: 57200,
  I4: 78800,
};

function band(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const b = value as { name?: unknown; central_wave_ang?: unknown };
  // A non-finite wavelength is the schema's to report.
  if (typeof b.central_wave_ang !== 'number' || !Number.isFinite(b.central_wave_ang) || typeof b.name !== 'string') return [];
  const wave = b.central_wave_ang;
  const at = ['central_wave_ang'];
  const typical = TYPICAL_WAVELENGTH[b.name];
  if (typical !== undefined) {
    const ratio = wave / typical;
    if (ratio < 0.7 || ratio > 1.4) {
      const unit =
        Math.abs(Math.log10(ratio) + 1) < 0.3
          ? ' (is it in nm? 1 nm = 10 Å)'
          : Math.abs(Math.log10(ratio) + 4) < 0.3
            ? ' (is it in µm? 1 µm = 10,000 Å)'
            : '';
      return [warning('imaging/wavelength', `is ${wave} Å, far from where ${b.name} bands sit (about ${typical} Å)${unit}`, at)];
    }
    return [];
  }
  // From hard X-rays to metre-wave radio: outside this, the number is in some other unit.
  if (wave < 0.01 || wave > 1e11) {
    return [
      warning(
        'imaging/wavelength',
        `is ${wave} Å, outside anything an imaging band covers (0.01 Å to 10 m); central_wave_ang is in Angstrom`,
        at,
      ),
    ];
  }
  return [];
}

// ---- IFS and spectra data products -----------------------------------------------------------------

/** Where an instrument's wavelengths can sit, in Angstrom: from the far ultraviolet to the mid infrared. */
const PRODUCT_WAVES = { min: 300, max: 300_000 };

function product(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const p = value as { product_type?: unknown; wave_min_ang?: unknown; wave_max_ang?: unknown; dimensions?: unknown };
  const findings: Finding[] = [];
  const min = typeof p.wave_min_ang === 'number' ? p.wave_min_ang : undefined;
  const max = typeof p.wave_max_ang === 'number' ? p.wave_max_ang : undefined;
  if (p.product_type === 'cube' || p.product_type === 'spectrum') {
    for (const [key, given] of [
      ['wave_min_ang', min],
      ['wave_max_ang', max],
    ] as const) {
      if (given === undefined) {
        findings.push(
          error('products/wavelength', `is missing: a ${p.product_type} covers a wavelength range; give it in Angstrom`, [key], 'key'),
        );
      }
    }
  }
  if (min !== undefined && max !== undefined && min >= max) {
    findings.push(
      error('products/wavelength', `is ${max} Å, not above wave_min_ang (${min} Å); swap them or correct one`, ['wave_max_ang']),
    );
  }
  for (const [key, wave] of [
    ['wave_min_ang', min],
    ['wave_max_ang', max],
  ] as const) {
    if (wave === undefined || (wave >= PRODUCT_WAVES.min && wave <= PRODUCT_WAVES.max)) continue;
    const hint =
      wave < PRODUCT_WAVES.min && wave * 10 >= PRODUCT_WAVES.min
        ? ' (is it in nm? 1 nm = 10 Å)'
        : wave < 30
          ? ' (is it in µm? 1 µm = 10,000 Å)'
          : '';
    findings.push(
      warning(
        'products/wavelength',
        `is ${wave} Å, outside where spectrographs work (${PRODUCT_WAVES.min}–${PRODUCT_WAVES.max.toLocaleString('en')} Å)${hint}; the range is in Angstrom`,
        [key],
      ),
    );
  }
  const axes = { cube: 3, map: 2, spectrum: 1 }[String(p.product_type)];
  if (
    axes !== undefined &&
    Array.isArray(p.dimensions) &&
    p.dimensions.length !== axes &&
    !(p.product_type === 'spectrum' && p.dimensions.length === 2)
  ) {
    findings.push(
      warning('products/dimensions', `has ${p.dimensions.length} axes; a ${String(p.product_type)} has ${axes}`, ['dimensions']),
    );
  }
  return findings;
}

/**
 * Arms named consistently: the products a facility lists under one arm cover wavelengths that
 * overlap. One that does not is under the wrong arm, or the arm has two names.
 */
function arms(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const products = (value as { products?: unknown }).products;
  if (!Array.isArray(products)) return [];
  const first = new Map<string, { name: string; min: number; max: number }>();
  const findings: Finding[] = [];
  products.forEach((item, i) => {
    const p = item as { name?: unknown; arm?: unknown; wave_min_ang?: unknown; wave_max_ang?: unknown };
    if (typeof p.arm !== 'string' || typeof p.wave_min_ang !== 'number' || typeof p.wave_max_ang !== 'number') return;
    const seen = first.get(p.arm);
    if (!seen) {
      first.set(p.arm, { name: String(p.name), min: p.wave_min_ang, max: p.wave_max_ang });
      return;
    }
    if (p.wave_max_ang < seen.min || p.wave_min_ang > seen.max) {
      findings.push(
        warning(
          'products/arm',
          `is "${p.arm}", but covers ${p.wave_min_ang}–${p.wave_max_ang} Å where product "${seen.name}" of that arm covers ${seen.min}–${seen.max} Å; is it another arm?`,
          ['products', i, 'arm'],
        ),
      );
    }
  });
  return findings;
}

// ---- FITS headers ------------------------------------------------------------------------------------------

const KEYWORD = /^[A-Z0-9_-]{1,8}$/;

/** Reserved keywords of the FITS Standard 4.0 and the WCS papers, and the kind of value each takes. */
const VALUE_KINDS: [RegExp, 'logical' | 'integer' | 'number' | 'string'][] = [
  [/^(SIMPLE|EXTEND|GROUPS|INHERIT|BLOCKED)$/, 'logical'],
  [/^(BITPIX|NAXIS\d{0,3}|PCOUNT|GCOUNT|WCSAXES|BLANK|EXTVER|EXTLEVEL|TFIELDS)$/, 'integer'],
  [
    /^(BSCALE|BZERO|EQUINOX|EPOCH|CRVAL\d+|CRPIX\d+|CDELT\d+|CROTA\d+|CD\d+_\d+|PC\d+_\d+|PV\d+_\d+|LONPOLE|LATPOLE|RESTFRQ|RESTWAV|MJD-OBS|MJD-AVG|EXPTIME|DATAMIN|DATAMAX)$/,
    'number',
  ],
  [
    /^(XTENSION|CTYPE\d+|CUNIT\d+|BUNIT|RADESYS|RADECSYS|OBJECT|TELESCOP|INSTRUME|OBSERVER|ORIGIN|DATE|DATE-OBS|DATE-END|AUTHOR|REFERENC|EXTNAME|SPECSYS|TIMESYS)$/,
    'string',
  ],
];

const KIND_WORDS = { logical: 'true or false', integer: 'an integer', number: 'a number', string: 'a string' } as const;

function fitsHeader(value: unknown): Finding[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const header = value as Record<string, unknown>;
  const findings: Finding[] = [];
  for (const [keyword, card] of Object.entries(header)) {
    if (!KEYWORD.test(keyword) && !/^HIERARCH \S/.test(keyword)) {
      const fixed = keyword.toUpperCase().replace(/[^A-Z0-9_-]/g, '');
      const hint = fixed.length >= 1 && fixed.length <= 8 && fixed !== keyword ? `; write ${fixed}` : '; use HIERARCH for longer names';
      findings.push(
        error('fits/keyword', `is not a FITS keyword: at most 8 upper-case letters, digits, "-" or "_"${hint}`, [keyword], 'key'),
      );
      continue;
    }
    const v: unknown = Array.isArray(card) ? card[0] : undefined;
    if (v === undefined) continue; // the schema reports a card that is not a pair
    const kind = VALUE_KINDS.find(([pattern]) => pattern.test(keyword))?.[1];
    const ok =
      kind === undefined ||
      (kind === 'logical' && typeof v === 'boolean') ||
      (kind === 'integer' && Number.isInteger(v)) ||
      (kind === 'number' && typeof v === 'number') ||
      (kind === 'string' && typeof v === 'string');
    if (!ok) {
      findings.push(error('fits/value', `must be ${KIND_WORDS[kind]}, found ${JSON.stringify(v)}`, [keyword, 0]));
    }
  }
  const bitpix = (header.BITPIX as unknown[] | undefined)?.[0];
  if (typeof bitpix === 'number' && ![8, 16, 32, 64, -32, -64].includes(bitpix)) {
    findings.push(error('fits/value', `is ${bitpix}; FITS allows 8, 16, 32, 64, -32 or -64`, ['BITPIX', 0]));
  }
  const naxis = (header.NAXIS as unknown[] | undefined)?.[0];
  if (typeof naxis === 'number' && Number.isInteger(naxis)) {
    for (let n = 1; n <= Math.min(naxis, 999); n++) {
      if (!(`NAXIS${n}` in header))
        findings.push(error('fits/structure', `is ${naxis} but NAXIS${n} is missing; add it or correct NAXIS`, ['NAXIS', 0]));
    }
  }
  for (const keyword of ['DATE', 'DATE-OBS', 'DATE-END']) {
    const v = (header[keyword] as unknown[] | undefined)?.[0];
    if (typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?$/.test(v)) {
      findings.push(error('fits/value', `"${v}" must be YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.sss], as FITS dates are`, [keyword, 0]));
    }
  }
  return findings;
}

// ---- Data files -----------------------------------------------------------------------------------------------

function file(value: unknown): Finding[] {
  if (typeof value !== 'object' || value === null) return [];
  const node = value as { file_name?: unknown; file_extension?: unknown };
  const ext = node.file_extension;
  const name = node.file_name;
  if (typeof ext !== 'string') return [];
  if (ext.startsWith('.')) {
    return [error('files/extension', `"${ext}" is written with its dot; write ${ext.slice(1)}`, ['file_extension'])];
  }
  if (typeof name !== 'string') {
    return [
      warning('files/extension', `"${ext}" is given but file_name is not; give the file's name, or remove file_extension`, [
        'file_extension',
      ]),
    ];
  }
  if (!name.toLowerCase().endsWith(`.${ext.toLowerCase()}`)) {
    return [
      error(
        'files/extension',
        `"${ext}" does not agree with file_name "${name}"; remove file_extension to take it from the name, or correct one of them`,
        ['file_extension'],
      ),
    ];
  }
  return [];
}

/** The checks the schemas can name with `"x-check": "<name>"`. */
export const CHECKS: Record<string, Check> = {
  instant,
  date,
  ucd,
  unit,
  'unit-ucd': unitUcd,
  'column-type': columnType,
  datatypes,
  ra,
  dec,
  band,
  product,
  arms,
  'fits-header': fitsHeader,
  file,
};
