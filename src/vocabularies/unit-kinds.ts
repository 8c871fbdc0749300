// What physical kind a VOUnit measures (its dimension in SI base units, with angles and magnitudes
// kept apart), and whether that kind is one a column's UCD can have: a wavelength is a length, so `A` (the ampere) is wrong on em.wl.

import { unitProblem, voUnitFor } from './vounit.ts';

// ---- Dimensions -----------------------------------------------------------------------------------------

/**
 * The exponents of a unit's dimension. SI counts angles and magnitudes as numbers; here they are
 * dimensions of their own, so that a position in metres or a magnitude in janskys shows. So are
 * pixels, which stand for an angle on the sky (a size in pixels is a size). Other counts (photons,
 * ADU) stay numbers: they are what instrument units are made of.
 */
const BASES = ['m', 'kg', 's', 'A', 'K', 'mol', 'cd', 'rad', 'mag', 'pix'] as const;
type Base = (typeof BASES)[number];
export type Dimension = Readonly<Record<Base, number>>;

const NONE: Dimension = { m: 0, kg: 0, s: 0, A: 0, K: 0, mol: 0, cd: 0, rad: 0, mag: 0, pix: 0 };

function dimension(exponents: Partial<Record<Base, number>>): Dimension {
  return { ...NONE, ...exponents };
}

function times(a: Dimension, b: Dimension, power = 1): Dimension {
  return Object.fromEntries(BASES.map((base) => [base, a[base] + power * b[base]])) as Record<Base, number>;
}

function same(a: Dimension, b: Dimension): boolean {
  return BASES.every((base) => a[base] === b[base]);
}

const ENERGY = { kg: 1, m: 2, s: -2 };
const POWER = { kg: 1, m: 2, s: -3 };

/** Every VOUnits known unit (VOUnits 1.1, known-units table), by symbol, with its dimension. */
const UNITS: ReadonlyMap<string, Dimension> = new Map(
  Object.entries({
    m: { m: 1 },
    Angstrom: { m: 1 },
    angstrom: { m: 1 },
    AU: { m: 1 },
    au: { m: 1 },
    pc: { m: 1 },
    lyr: { m: 1 },
    solRad: { m: 1 },
    barn: { m: 2 },
    g: { kg: 1 },
    u: { kg: 1 },
    solMass: { kg: 1 },
    s: { s: 1 },
    min: { s: 1 },
    h: { s: 1 },
    d: { s: 1 },
    a: { s: 1 },
    yr: { s: 1 },
    ta: { s: 1 },
    Hz: { s: -1 },
    A: { A: 1 },
    C: { A: 1, s: 1 },
    D: { A: 1, s: 1, m: 1 },
    V: { kg: 1, m: 2, s: -3, A: -1 },
    Ohm: { kg: 1, m: 2, s: -3, A: -2 },
    S: { kg: -1, m: -2, s: 3, A: 2 },
    F: { kg: -1, m: -2, s: 4, A: 2 },
    Wb: { kg: 1, m: 2, s: -2, A: -1 },
    T: { kg: 1, s: -2, A: -1 },
    G: { kg: 1, s: -2, A: -1 },
    H: { kg: 1, m: 2, s: -2, A: -2 },
    K: { K: 1 },
    mol: { mol: 1 },
    cd: { cd: 1 },
    lm: { cd: 1, rad: 2 },
    lx: { cd: 1, rad: 2, m: -2 },
    N: { kg: 1, m: 1, s: -2 },
    Pa: { kg: 1, m: -1, s: -2 },
    Ba: { kg: 1, m: -1, s: -2 },
    J: ENERGY,
    erg: ENERGY,
    eV: ENERGY,
    Ry: ENERGY,
    W: POWER,
    solLum: POWER,
    Jy: { kg: 1, s: -2 },
    // The rayleigh: 10^10 photons per square metre per second per steradian.
    R: { m: -2, s: -1, rad: -2 },
    rad: { rad: 1 },
    deg: { rad: 1 },
    arcmin: { rad: 1 },
    arcsec: { rad: 1 },
    mas: { rad: 1 },
    sr: { rad: 2 },
    mag: { mag: 1 },
    '%': {},
    adu: {},
    count: {},
    ct: {},
    photon: {},
    ph: {},
    pix: { pix: 1 },
    pixel: { pix: 1 },
    voxel: { pix: 1 },
    bin: {},
    chan: {},
    beam: {},
    bit: {},
    byte: {},
    B: {},
  }).map(([symbol, exponents]) => [symbol, dimension(exponents)]),
);

// 'da' first: "dam" is deca-metre, which VOUnits read that way before forbidding it.
const PREFIXES = [
  'da',
  'h',
  'k',
  'M',
  'G',
  'T',
  'P',
  'E',
  'Z',
  'Y',
  'd',
  'c',
  'm',
  'u',
  'n',
  'p',
  'f',
  'a',
  'z',
  'y',
  'Ki',
  'Mi',
  'Gi',
  'Ti',
  'Pi',
  'Ei',
  'Zi',
  'Yi',
];

/** A symbol's dimension: a known unit as it is (Pa is the pascal), else a prefix on one (km). */
function symbolDimension(symbol: string): Dimension | undefined {
  const known = UNITS.get(symbol);
  if (known) return known;
  for (const prefix of PREFIXES) {
    const base = symbol.startsWith(prefix) ? UNITS.get(symbol.slice(prefix.length)) : undefined;
    if (base) return base;
  }
  return undefined;
}

/**
 * The dimension of a unit that vounit.ts accepts as a VOUnit (or of the VOUnit it says to write
 * instead: `km s-1` is km.s**-1), or undefined when it cannot tell: no unit, a unit vounit.ts
 * cannot repair, a quoted (custom) unit, a logarithm.
 */
export function unitDimension(unit: string): Dimension | undefined {
  const problem = unitProblem(unit);
  const repaired = problem === undefined ? undefined : voUnitFor(unit);
  // Only the VOUnit the warning offers: a format (hms) has none, whatever a repair would make of it.
  const text = problem === undefined ? unit : repaired !== undefined && problem.includes(`(write ${repaired})`) ? repaired : undefined;
  if (text === undefined || text === '-' || text === 'None' || /^unknown$/i.test(text)) return undefined;
  return new DimensionReader(text).read();
}

class Unreadable extends Error {}

/**
 * Reads a unit that follows the VOUnits grammar (vounit.ts has checked it) into its dimension:
 * factors joined by ".", one "/", powers after "**", groups in parentheses, sqrt() halving the
 * powers; scale factors count for nothing. Logarithms, exponentials and quoted units have no
 * dimension to compare.
 */
class DimensionReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  read(): Dimension | undefined {
    try {
      if (this.text === '1') return NONE;
      this.match(/10\*\*(?:\([^)]*\)|[+-]?[0-9]+)|(?:0\.[0-9]+|[1-9][0-9]*(?:\.[0-9]+)?)(?:[eE][+-]?[0-9]+)?/y);
      const found = this.expression();
      return this.pos === this.text.length ? found : undefined;
    } catch (error) {
      if (error instanceof Unreadable) return undefined;
      throw error;
    }
  }

  private expression(): Dimension {
    let found = this.factor();
    while (this.text[this.pos] === '.') {
      this.pos += 1;
      found = times(found, this.factor());
    }
    if (this.text[this.pos] === '/') {
      this.pos += 1;
      found = times(found, this.factor(), -1);
    }
    return found;
  }

  private factor(): Dimension {
    if (this.text[this.pos] === '(') return this.group();
    const symbol = this.match(/[A-Za-z]+|%/y);
    if (symbol === undefined) throw new Unreadable();
    if (this.text[this.pos] === '(') {
      if (symbol !== 'sqrt') throw new Unreadable();
      this.match(/10\*\*(?:\([^)]*\)|[+-]?[0-9]+)|(?:0\.[0-9]+|[1-9][0-9]*(?:\.[0-9]+)?)(?:[eE][+-]?[0-9]+)?/y);
      return times(NONE, this.group(), 0.5);
    }
    if (this.text[this.pos] === "'") throw new Unreadable();
    const found = symbolDimension(symbol);
    if (!found) throw new Unreadable();
    return times(NONE, found, this.power());
  }

  private group(): Dimension {
    this.pos += 1;
    const inside = this.expression();
    if (this.text[this.pos] !== ')') throw new Unreadable();
    this.pos += 1;
    return inside;
  }

  private power(): number {
    const written = this.match(/\*\*(?:\(([+-]?[0-9]+(?:\.[0-9]+)?(?:\/[0-9]+)?)\)|([+-]?[0-9]+))/y);
    if (written === undefined) return 1;
    const number = written.replace(/^\*\*\(?|\)$/g, '');
    const [top = '', bottom] = number.split('/');
    return bottom === undefined ? Number(top) : Number(top) / Number(bottom);
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.pos += found.length;
    return found;
  }
}

// ---- Kinds and UCDs ---------------------------------------------------------------------------------

/** A physical kind: the words for it, its dimension, and what to write for a unit of it. */
interface Kind {
  name: string;
  dimension: Dimension;
  /** The fix to suggest, after "; ": "write it in deg, arcsec or mas". */
  fix: string;
}

const kind = (name: string, exponents: Partial<Record<Base, number>>, units: string): Kind => ({
  name,
  dimension: dimension(exponents),
  fix: `write it in ${units}`,
});

const LENGTH = kind('a length', { m: 1 }, 'm, km, pc, Angstrom or 0.1nm');
const ANGLE = kind('an angle', { rad: 1 }, 'deg, arcsec or mas');
const TIME = kind('a time', { s: 1 }, 's, d or yr');
const VELOCITY = kind('a length per time', { m: 1, s: -1 }, 'km/s or m/s');
const MAGNITUDE = kind('a magnitude', { mag: 1 }, 'mag');
const MASS = kind('a mass', { kg: 1 }, 'solMass or kg');
const TEMPERATURE = kind('a temperature', { K: 1 }, 'K');
const FREQUENCY = kind('a frequency', { s: -1 }, 'Hz or GHz');
const ENERGY_KIND = kind('an energy', ENERGY, 'eV, keV or J');
const POWER_KIND = kind('a power', POWER, 'W, erg/s or solLum');
const PROPER_MOTION = kind('an angle per time', { rad: 1, s: -1 }, 'mas/yr');
const ACCELERATION = kind('an acceleration', { m: 1, s: -2 }, 'm/s**2 or cm/s**2');
const WAVENUMBER = kind('an inverse length', { m: -1 }, 'm**-1 or cm**-1');
const NUMBER = { ...kind('a pure number', {}, ''), fix: "write '-', for no unit" };
const FLUX_DENSITY_F = kind('a flux density per frequency', { kg: 1, s: -2 }, 'Jy or mJy');
const FLUX_DENSITY_L = kind('a flux density per wavelength', { kg: 1, m: -1, s: -3 }, 'erg/(s.cm**2.Angstrom)');
const PHOTON_DENSITY_F = kind('a photon flux density per frequency', { m: -2 }, 'ph/(s.cm**2.Hz)');
const PHOTON_DENSITY_L = kind('a photon flux density per wavelength', { m: -3, s: -1 }, 'ph/(s.cm**2.Angstrom)');
const FLUX = kind('a flux (a power per area)', { kg: 1, s: -3 }, 'W/m**2 or erg/(s.cm**2)');
const RATE = kind('a count rate', { s: -1 }, 'ct/s');
const CURRENT = kind('an electric current', { A: 1 }, 'A');

/** Kinds named in messages about what a unit is, beyond those a UCD asks for. */
const NAMED: readonly Kind[] = [
  LENGTH,
  ANGLE,
  TIME,
  VELOCITY,
  MAGNITUDE,
  MASS,
  TEMPERATURE,
  FREQUENCY,
  ENERGY_KIND,
  POWER_KIND,
  PROPER_MOTION,
  ACCELERATION,
  WAVENUMBER,
  NUMBER,
  FLUX_DENSITY_F,
  FLUX_DENSITY_L,
  FLUX,
  CURRENT,
  kind('a number of pixels', { pix: 1 }, ''),
  kind('an area', { m: 2 }, ''),
  kind('a solid angle', { rad: 2 }, ''),
];

/** What a UCD word allows: kinds, and whether any power of an angle may divide them (per square arcsecond). */
interface Allowed {
  what: string;
  kinds: readonly Kind[];
  /** The kinds in words, where naming each would be long. */
  kindsWords?: string;
  perAngle?: true;
  /** The other way to make unit and UCD agree, when the unit may be the right one. */
  orUcd?: string;
}

/**
 * UCD1+ words (and the words below them, em.wl for em.wl.central) and the kinds they allow. The
 * longest word that a UCD's quantity starts with decides; a word not listed allows any unit.
 */
const WORDS: readonly (readonly [string, Allowed])[] = [
  ['em.wl', { what: 'a wavelength', kinds: [LENGTH] }],
  ['em.freq', { what: 'a frequency', kinds: [FREQUENCY] }],
  ['em.energy', { what: 'an energy', kinds: [ENERGY_KIND] }],
  ['em.wavenumber', { what: 'a wavenumber', kinds: [WAVENUMBER] }],
  // Right ascension is also given in hours.
  ['pos.eq.ra', { what: 'a right ascension', kinds: [ANGLE, TIME] }],
  ['pos.eq.dec', { what: 'a declination', kinds: [ANGLE] }],
  ['pos.galactic', { what: 'a galactic coordinate', kinds: [ANGLE] }],
  ['pos.ecliptic', { what: 'an ecliptic coordinate', kinds: [ANGLE] }],
  ['pos.supergalactic', { what: 'a supergalactic coordinate', kinds: [ANGLE] }],
  ['pos.posAng', { what: 'a position angle', kinds: [ANGLE] }],
  ['pos.angDistance', { what: 'an angular distance', kinds: [ANGLE] }],
  ['pos.angResolution', { what: 'an angular resolution', kinds: [ANGLE] }],
  ['pos.parallax', { what: 'a parallax', kinds: [ANGLE] }],
  ['pos.pm', { what: 'a proper motion', kinds: [PROPER_MOTION] }],
  ['pos.distance', { what: 'a distance', kinds: [LENGTH] }],
  ['phys.veloc', { what: 'a velocity', kinds: [VELOCITY] }],
  ['spect.dopplerVeloc', { what: 'a Doppler velocity', kinds: [VELOCITY] }],
  ['phys.size.axisRatio', { what: 'an axis ratio', kinds: [NUMBER] }],
  ['phys.size', { what: 'a size', kinds: [LENGTH, ANGLE] }],
  ['phys.angSize', { what: 'an angular size', kinds: [ANGLE] }],
  ['phys.mass', { what: 'a mass', kinds: [MASS] }],
  ['phys.temperature', { what: 'a temperature', kinds: [TEMPERATURE] }],
  ['phys.luminosity', { what: 'a luminosity', kinds: [POWER_KIND] }],
  ['phys.gravity', { what: 'a surface gravity', kinds: [ACCELERATION] }],
  ['phot.mag', { what: 'a magnitude', kinds: [MAGNITUDE], perAngle: true, orUcd: 'a flux UCD such as phot.flux.density' }],
  ['phys.magAbs', { what: 'an absolute magnitude', kinds: [MAGNITUDE] }],
  ['phot.color', { what: 'a colour', kinds: [MAGNITUDE] }],
  [
    'phot.flux.density',
    {
      what: 'a flux density',
      kindsWords: 'per frequency or per wavelength, of energy, photons or counts',
      kinds: [FLUX_DENSITY_F, FLUX_DENSITY_L, PHOTON_DENSITY_F, PHOTON_DENSITY_L, RATE, NUMBER],
      perAngle: true,
      orUcd: 'a magnitude UCD such as phot.mag',
    },
  ],
  ['time', { what: 'a time', kinds: [TIME] }],
];

/** Leading words that say something of the quantity after them in its own unit: an error of a magnitude is in mag. */
const SAME_UNIT = /^(?:stat\.error(?:\.[a-z]+)?|stat\.stdev|stat\.min|stat\.max|stat\.mean|stat\.median)$/i;

/** The UCD word whose kind a unit must be, and what it allows; undefined when no listed word decides. */
function allowedBy(ucd: string): [string, Allowed] | undefined {
  const words = ucd.split(';').map((w) => w.trim().replace(/^ivoa:/i, ''));
  let quantity = words[0];
  for (let i = 0; quantity !== undefined && SAME_UNIT.test(quantity); i++) quantity = words[i + 1];
  if (quantity === undefined) return undefined;
  const lower = quantity.toLowerCase();
  let best: readonly [string, Allowed] | undefined;
  for (const entry of WORDS) {
    const word = entry[0].toLowerCase();
    if ((lower === word || lower.startsWith(`${word}.`)) && (!best || word.length > best[0].length)) best = entry;
  }
  return best ? [quantity, best[1]] : undefined;
}

/**
 * Whether a dimension is one of the kinds allowed, divided by any power of an angle where that is
 * allowed; pixels count as the angle they stand for.
 */
function fits(found: Dimension, allowed: Allowed): boolean {
  const onSky = { ...found, rad: found.rad + found.pix, pix: 0 };
  return allowed.kinds.some(
    (k) => same(k.dimension, onSky) || (allowed.perAngle === true && same({ ...k.dimension, rad: onSky.rad }, onSky)),
  );
}

/** A dimension in words: "a length", or its SI base units (kg.m**-1.s**-3). */
function kindWords(found: Dimension): string {
  const named = NAMED.find((k) => same(k.dimension, found));
  if (named) return named.name;
  const parts = BASES.filter((base) => found[base] !== 0).map((base) => (found[base] === 1 ? base : `${base}**${found[base]}`));
  return `of dimension ${parts.join('.')}`;
}

/** The ampere where an Angstrom was meant: the usual slip, with its own fix. */
function ampereFix(unit: string, allowed: Allowed): string | undefined {
  if (!/(?<![A-Za-z])A(?![A-Za-z])/.test(unit)) return undefined;
  if (unit === 'A' && allowed.kinds.includes(LENGTH)) return 'write Angstrom or 0.1nm (in VOUnits A is the ampere)';
  const fixed = unit.replace(/(?<![A-Za-z])A(?![A-Za-z])/g, 'Angstrom');
  const dimensionFixed = unitDimension(fixed);
  return dimensionFixed !== undefined && fits(dimensionFixed, allowed)
    ? `write ${voUnitFor(fixed) ?? fixed} (in VOUnits A is the ampere)`
    : undefined;
}

/**
 * Why a unit contradicts a UCD, as words to follow `unit "X" `, with the fix to make; undefined
 * when they agree, or when either says too little to tell (no unit, no UCD, a UCD word not listed,
 * a unit that is not a VOUnit).
 */
export function unitKindProblem(unit: string, ucd: string): string | undefined {
  const decided = allowedBy(ucd);
  if (!decided) return undefined;
  const found = unitDimension(unit);
  if (!found) return undefined;
  const [word, allowed] = decided;
  if (fits(found, allowed)) return undefined;
  const wanted = allowed.kindsWords ?? allowed.kinds.map((k) => k.name).join(' or ');
  const fix = ampereFix(unit, allowed) ?? `${allowed.kinds[0]?.fix ?? ''}${allowed.orUcd ? `, or give the column ${allowed.orUcd}` : ''}`;
  const asked = wanted === allowed.what ? wanted : `${allowed.what} (${wanted})`;
  return `is ${kindWords(found)}, where its UCD word ${word} asks for ${asked}; ${fix}`;
}
