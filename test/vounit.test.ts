import { describe, expect, test } from 'vitest';

import { unitProblem, unitRefusal } from '../src/vocabularies/vounit.ts';

// The VOUnits column of known-units.csv (Unity 1.1, the table of VOUnits 1.1), plus Sun from section 2.
const KNOWN_UNITS =
  '% A a adu Angstrom angstrom arcmin arcsec AU au Ba barn beam bin bit byte B C cd chan count ct d dB D deg erg eV ' +
  'F g G H h Hz J Jy K lm lx lyr m mag mas min mol N Ohm Pa pc ph photon pix pixel R rad Ry s S solLum solMass ' +
  'solRad sr T ta u V voxel W Wb yr Sun';

describe('VOUnits that pass', () => {
  test.each(KNOWN_UNITS.split(' '))('the known unit %s', (unit) => {
    expect(unitProblem(unit)).toBeUndefined();
  });

  test.each([
    // This archive's "no unit", and the spec's reserved words for a lost unit.
    '-',
    'None',
    'unknown',
    'UNKNOWN',
    // Prefixed units, including units read before prefixes (Pa is the pascal, cd the candela, ha a hecto-year).
    'kg',
    'km',
    'kpc',
    'Mpc',
    'GHz',
    'mJy',
    'uJy',
    'nm',
    'keV',
    'Gyr',
    'Pyr',
    'ha',
    'mW/m**2',
    'kB',
    'Kibyte',
    'MiB',
    'Gibit',
    // h is the hour, so this parses (as per hour) and passes; the check is of syntax, not intent.
    'kpc/h',
    'Mpc/h',
    // Division, products and powers as the grammar allows them.
    'km/s',
    'mas/yr',
    'km.s**-1',
    'erg.s**-1.cm**-2.Angstrom**-1',
    'mag/arcsec**2',
    'm**-2',
    'm**+2',
    'm**(-2)',
    'm**(1/2)',
    'm**(-1/2)',
    'm**(0.5)',
    'deg**2',
    '%**2',
    'erg/(s.cm**2.angstrom.pixel)',
    // Functions, and a scale factor inside one (VOUnits 1.1 grammar).
    'log(Hz)',
    'log(cm.s**-2)',
    'log(solMass)',
    'sqrt(Hz)',
    'ln(K)',
    'exp(mag)',
    'log(1e-17erg)',
    // Scale factors, written against the unit.
    '1',
    '10**-7W',
    '10**(-16)erg/(s.cm**2.angstrom.pixel)',
    '10W',
    '1e-17erg/s',
    '1.5m',
    '0.1nm',
    '1.663e-1mm.s**-1',
    '1.898E27kg',
    // 1eV is 1 eV: an exponent needs digits.
    '1eV',
    // Quoted units are custom units the spec lets a provider use and stay conformant, prefixed or not.
    "'furlong'",
    "m'furlong'",
    "M'jupiterMass'",
    "'dex'",
    // A is the ampere. Curators sometimes mean angstrom by it, but it parses, so nothing is said.
    'A',
  ])('%s', (unit) => {
    expect(unitProblem(unit)).toBeUndefined();
  });
});

describe('units that are refused', () => {
  test.each([
    ['', "is empty; write '-' for no unit"],
    ['none', "means no unit; write '-'"],
    ['iso-8601', "names a format, not a unit; VOUnits have none for dates or sexagesimal angles, so write '-'"],
    ['hms', "names a format, not a unit; VOUnits have none for dates or sexagesimal angles, so write '-'"],
    ['MJD', 'names a time scale, not a unit; write d for days'],

    // Syntax that other unit conventions allow.
    ['km s-1', 'is not a VOUnit: units are joined with "." and powers are written with "**" (write km.s**-1)'],
    ['km s**-1', 'is not a VOUnit: units are joined with "." (write km.s**-1)'],
    ['mas yr-1', 'is not a VOUnit: units are joined with "." and powers are written with "**" (write mas.yr**-1)'],
    ['km kpc s-1', 'is not a VOUnit: units are joined with "." and powers are written with "**" (write km.kpc.s**-1)'],
    ['km-2 s-2', 'is not a VOUnit: units are joined with "." and powers are written with "**" (write km**-2.s**-2)'],
    ['m * s', 'is not a VOUnit: units are joined with "." (write m.s)'],
    ['km / s', 'is not a VOUnit: VOUnits have no spaces (write km/s)'],
    ['deg ', 'is not a VOUnit: VOUnits have no spaces (write deg)'],
    ['mag/arcsec^2', 'is not a VOUnit: powers are written with "**" (write mag/arcsec**2)'],
    ['mag/arcsec2', 'is not a VOUnit: powers are written with "**" (write mag/arcsec**2)'],
    ['deg^2', 'is not a VOUnit: powers are written with "**" (write deg**2)'],
    ['Mpc^-2', 'is not a VOUnit: powers are written with "**" (write Mpc**-2)'],
    ['Mpc^-3', 'is not a VOUnit: powers are written with "**" (write Mpc**-3)'],
    ['Gyr-1', 'is not a VOUnit: powers are written with "**" (write Gyr**-1)'],
    ['m(2)', 'is not a VOUnit: powers are written with "**" (write m**2)'],
    ['m**0.5', 'is not a VOUnit: a fractional power goes in parentheses (write m**(0.5))'],
    ['m**1/2', 'is not a VOUnit: a fractional power goes in parentheses (write m**(1/2))'],
    ['(m/s)**2', 'is not a VOUnit: a power can follow only a single unit, not a group or function'],
    ['µJy', 'is not a VOUnit: VOUnits are plain ASCII (write uJy)'],
    ['[Sun]', 'is not a VOUnit: logarithms are written log(…) (write log(Sun))'],

    // One "/" at the top level, with one unit after it.
    ['erg/s/cm2', 'is not a VOUnit: powers are written with "**" and only one "/" is allowed (write erg/(s.cm**2))'],
    ['km/s/Mpc', 'is not a VOUnit: only one "/" is allowed (write km/(s.Mpc))'],
    ['W/m**2.Hz', 'is not a VOUnit: several units after "/" go in parentheses (write W/(m**2.Hz))'],
    [
      '10**(-16) erg/s/cm**2/angstrom/pixel',
      'is not a VOUnit: a scale factor is written directly before the unit and only one "/" is allowed ' +
        '(write 10**(-16)erg/(s.cm**2.angstrom.pixel))',
    ],
    [
      '10-17erg/s/cm2/Angstrom',
      'is not a VOUnit: powers are written with "**" and only one "/" is allowed (write 10**-17erg/(s.cm**2.Angstrom))',
    ],

    // Scale factors.
    ['10**-7.W', 'is not a VOUnit: a scale factor is written directly before the unit (write 10**-7W)'],
    ['10', 'is not a VOUnit: a scale factor must be followed by a unit'],
    ['01m', 'is not a VOUnit: a scale factor is written like 1.5, 1e-17 or 10**-17'],

    // Broken structure, where no rewrite is obvious.
    ['(m', 'is not a VOUnit: the "(" at position 1 is never closed'],
    ['m)', 'is not a VOUnit: the ")" at position 2 has no matching "("'],
    ['m.', 'is not a VOUnit: it ends where a unit is expected'],
    ['log()', 'is not a VOUnit: a unit is missing before the ")" at position 5'],
    ['m@s', 'is not a VOUnit: "@" at position 2 is not allowed there'],
    ['m**', 'is not a VOUnit: "**" must be followed by a number'],
    ["'a1'", 'is not a VOUnit: a quoted unit is letters only'],

    // Unknown units, with the known one meant where it is plain.
    ['Msun', 'is not a known VOUnit (write solMass)'],
    ['M_solar', 'is not a known VOUnit (write solMass)'],
    ['Lsun', 'is not a known VOUnit (write solLum)'],
    ['degrees', 'is not a known VOUnit (write deg)'],
    ['degree', 'is not a known VOUnit (write deg)'],
    ['arcsecs', 'is not a known VOUnit (write arcsec)'],
    ['rcsec', 'is not a known VOUnit (write arcsec)'],
    ['counts', 'is not a known VOUnit (write count)'],
    ['pixels', 'is not a known VOUnit (write pixel)'],
    ['microJy', 'is not a known VOUnit (write uJy)'],
    ['sec', 'is not a known VOUnit (write s)'],
    ['Angstroms', 'is not a known VOUnit (write Angstrom)'],
    ['uas', 'is not a known VOUnit (write uarcsec)'],
    ['kiloparsec', 'is not a known VOUnit (write kpc)'],
    ['JY', 'is not a known VOUnit (write Jy)'],
    ['sqdeg', 'is not a known VOUnit (write deg**2)'],
    ['Msun/h', 'uses "Msun", which is not a known VOUnit (write solMass/h)'],
    ['counts/s', 'uses "counts", which is not a known VOUnit (write count/s)'],
    ['microJy/arcsec^2', 'is not a VOUnit: powers are written with "**" and "microJy" is not a known unit (write uJy/arcsec**2)'],
    [
      'ergs/cm2/s/A',
      'is not a VOUnit: powers are written with "**", only one "/" is allowed and "ergs" is not a known unit ' + '(write erg/(cm**2.s.A))',
    ],
    // dex is one letter from deg, so no guess is made; nor for the others, which no unit is near.
    ['dex', "is not a known VOUnit; write '-' for no unit, or quote a custom unit as 'dex'"],
    ['AorB', "is not a known VOUnit; write '-' for no unit, or quote a custom unit as 'AorB'"],
    ['jupiterMass', "is not a known VOUnit; write '-' for no unit, or quote a custom unit as 'jupiterMass'"],
    [
      'foo s-1',
      'is not a VOUnit: units are joined with ".", powers are written with "**" and "foo" is not a known unit; ' +
        "quote a custom unit as 'foo'",
    ],
    ['M_foo', 'is not a VOUnit: "_" at position 2 is not allowed there and "M_foo" is not a known unit'],

    // Prefixes the known-units table does not give a unit, and VOUnits 1.1's prefix list.
    ['kmas', 'puts a prefix on mas in "kmas", but mas takes none'],
    ['kAU', 'puts a prefix on AU in "kAU", but AU takes none'],
    ['mdB', 'puts a prefix on dB in "mdB", but dB takes none'],
    ['dam', 'uses the prefix da in "dam", which VOUnits forbid'],
    ['KiHz', 'puts a binary prefix on Hz in "KiHz", but only bit, byte and B take them'],
    // Ronna (R) came after VOUnits 1.1, which has the 20 older SI prefixes only.
    ['Rm', "is not a known VOUnit; write '-' for no unit, or quote a custom unit as 'Rm'"],
    ['qg', "is not a known VOUnit; write '-' for no unit, or quote a custom unit as 'qg'"],
    ["Ki'furlong'", 'puts "Ki" before \'furlong\', but only an SI prefix may go there'],

    // Functions and quotes.
    ['sin(deg)', 'applies "sin", which is not a VOUnits function (log, ln, exp, sqrt)'],
    ["'deg'", 'quotes deg, which makes it an unknown unit rather than the known one (write deg)'],
  ])('%j: %s', (unit, problem) => {
    expect(unitProblem(unit)).toBe(problem);
  });
});

describe('the VOUnit offered instead', () => {
  // Every "(write …)" must itself pass, or the advice would send curators round in circles.
  test.each([
    'km s-1',
    'erg/s/cm2',
    '10**(-16) erg/s/cm**2/angstrom/pixel',
    'microJy/arcsec^2',
    'ergs/cm2/s/A',
    'photons/s/cm2',
    'erg s^-1 cm^-2 Angstrom^-1',
    'W.m**-2 .Hz**-1',
    '1e-17 erg/s/cm2/A',
    "'deg'",
  ])('for %j passes', (unit) => {
    const offered = /\(write (.+)\)$/.exec(unitProblem(unit) ?? '')?.[1];
    expect(offered).toBeDefined();
    expect(unitProblem(offered ?? '')).toBeUndefined();
  });
});

describe('values no unit can be', () => {
  // Each symbol was named in the message, and each group was a few frames of the parser's stack.
  test('a unit of 3,000 nested parentheses is refused by its length, never a stack overflow', () => {
    const unit = `${'('.repeat(3000)}m${')'.repeat(3000)}`;
    expect(unitRefusal(unit)).toBe('is 6,001 characters long, where a unit is a few; write the unit alone');
    expect(unitProblem(unit)).toBe(unitRefusal(unit));
  });

  test('parentheses nested 17 deep are refused as such; 16 are read', () => {
    const nested = (n: number) => `${'('.repeat(n)}m${')'.repeat(n)}`;
    expect(unitRefusal(nested(17))).toBe('has parentheses nested more than 16 deep, where a unit nests one or two; write the unit plainly');
    expect(unitRefusal(nested(16))).toBeUndefined();
    expect(() => unitProblem(nested(16))).not.toThrow();
  });
});
