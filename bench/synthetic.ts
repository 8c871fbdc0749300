// Deterministic synthetic archives for benchmarks: a metadata tree of size XS, S, M or L that looks like
// the real archive (real column families, UCDs, bands, SWarp headers, IFS and spectra products of
// real instruments) and passes `check` unchanged.

import { mkdirSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type Size = 'XS' | 'S' | 'M' | 'L';

interface SizeSpec {
  seed: number;
  surveys: number;
  columns: number;
  regions: number;
  /** FITS cards per region header. */
  cards: number;
  /** IFS data products (cubes, maps, spectra) in all. */
  ifs: number;
  /** Spectra data products in all. */
  spectra: number;
  /** Releases of their own for IFS data, holding nothing else; as many again for spectra. */
  ownReleases: number;
}

export const SIZES: Record<Size, SizeSpec> = {
  // Not a size to measure: a quick run of a benchmark, to see that it works (the tests run it).
  XS: { seed: 0x5eed0000, surveys: 2, columns: 1_000, regions: 10, cards: 60, ifs: 4, spectra: 3, ownReleases: 1 },
  S: { seed: 0x5eed0001, surveys: 3, columns: 5_000, regions: 50, cards: 60, ifs: 16, spectra: 12, ownReleases: 1 },
  M: { seed: 0x5eed0002, surveys: 8, columns: 25_000, regions: 1_000, cards: 60, ifs: 60, spectra: 45, ownReleases: 2 },
  L: { seed: 0x5eed0003, surveys: 20, columns: 100_000, regions: 5_000, cards: 60, ifs: 180, spectra: 150, ownReleases: 3 },
};

/** Whether `name` is one of the sizes. */
export const isSize = (name: string): name is Size => Object.hasOwn(SIZES, name);

/**
 * How often a column carries its optional extras. These set how many bytes a column takes (real
 * GAMA columns average 165; these give about 350), tuned so that L lands near 55 MB; every size
 * uses the same, so S and M are scaled-down copies of L's shape.
 */
const COLUMN_EXTRAS = { qualifier: 0.9, documentation: 0.45, prettyName: 0.2, ownSpan: 0.06 };

export interface ArchiveStats {
  files: number;
  surveys: number;
  releases: number;
  groups: number;
  tables: number;
  columns: number;
  facilities: number;
  bands: number;
  regions: number;
  ifsFacilities: number;
  ifsProducts: number;
  spectraFacilities: number;
  spectraProducts: number;
  bytes: number;
}

// ---- Randomness ----------------------------------------------------------------------------------

/** mulberry32: tiny, fast and the same on every platform, so a size always gives the same bytes. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const swap = at(out, i);
      out[i] = at(out, j);
      out[j] = swap;
    }
    return out;
  }

  /** Splits `total` into `parts` whole shares (each at least `min` when the total allows). */
  split(total: number, parts: number, min = 0): number[] {
    if (parts <= 0) return [];
    const floor = Math.min(min, Math.floor(total / parts));
    const weights = Array.from({ length: parts }, () => this.range(0.5, 1.5));
    const sum = weights.reduce((a, b) => a + b, 0);
    const free = total - floor * parts;
    const shares = weights.map((w) => floor + Math.floor((free * w) / sum));
    let left = total - shares.reduce((a, b) => a + b, 0);
    for (let i = 0; left > 0; i = (i + 1) % parts, left--) shares[i] = at(shares, i) + 1;
    return shares;
  }
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`index ${index} out of range (${items.length})`);
  return item;
}

// ---- YAML text -------------------------------------------------------------------------------------

// Strings are written the way `archive-schema fmt` prints them (the yaml package's rules with
// singleQuote), so a generated tree is already in canonical form: plain unless a reader could take
// the text for something else (an indicator, ': ', ' #', a trailing ':' or space, flow punctuation
// inside [..] and {..}, or a null, boolean or number of the YAML 1.2 core schema); quoted ones use
// single quotes, or double quotes when the text holds a ' and no ".
const NEEDS_QUOTES = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$|^(?:%|---|\.\.\.)/;
const FLOW_INDICATOR = /[[\]{},]/;
const CORE_TYPES: readonly RegExp[] = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
// Printable ASCII only: escapes are never needed, and one non-ASCII character makes V8 hold the
// build's whole output as two-byte strings, doubling its memory (L then no longer builds in the
// default heap), which would measure the character rather than the archive.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A string as a YAML scalar, exactly as `archive-schema fmt` would print it. */
export function yamlScalar(text: string, flow = false): string {
  if (!PRINTABLE_ASCII.test(text)) throw new Error(`generator bug: ${JSON.stringify(text)} is not printable ASCII`);
  const plain = !(flow && FLOW_INDICATOR.test(text)) && !NEEDS_QUOTES.test(text) && !CORE_TYPES.some((type) => type.test(text));
  if (plain) return text;
  if (text.includes("'") && !text.includes('"') && !text.includes('\\')) return `"${text}"`;
  return `'${text.replaceAll("'", "''")}'`;
}

/** A float that YAML reads back as the same float: 2000 is written 2000.0. */
function yamlFloat(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) return x.toFixed(1);
  return String(x);
}

/** A decimal rounded to `digits` places, without -0 and with the trailing zeros a curator types. */
function decimal(x: number, digits: number): string {
  const scale = 10 ** digits;
  const rounded = Math.round(x * scale) / scale;
  return (rounded === 0 ? 0 : rounded).toFixed(digits);
}

/** One file's text, built from pieces and joined once: L writes 55 MB of these. */
class Out {
  readonly parts: string[] = [];

  line(indent: string, key: string, value: string): void {
    this.parts.push(`${indent}${key}: ${value}\n`);
  }

  str(indent: string, key: string, value: string | null | undefined): void {
    if (value === undefined) return;
    this.line(indent, key, value === null ? 'null' : yamlScalar(value));
  }

  raw(text: string): void {
    this.parts.push(text);
  }

  text(): string {
    return this.parts.join('');
  }
}

interface Contact {
  name: string;
  email: string;
}

function contactText(contact: Contact | null): string {
  if (contact === null) return 'null';
  return `{name: ${yamlScalar(contact.name, true)}, email: ${yamlScalar(contact.email, true)}}`;
}

// ---- Time ------------------------------------------------------------------------------------------

const DAY = 86_400_000;

/** An ISO 8601 instant in the given zone (minutes east of UTC), as curators write them. */
function isoInstant(epochMs: number, offsetMinutes = 0): string {
  const local = new Date(epochMs + offsetMinutes * 60_000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp =
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  if (offsetMinutes === 0) return `${stamp}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${stamp}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** A FITS-style date without zone, as SWarp writes DATE. */
function fitsDate(epochMs: number, millis = false): string {
  const iso = new Date(epochMs).toISOString();
  return millis ? iso.slice(0, 23) : iso.slice(0, 19);
}

interface Span {
  created: number;
  updated: number;
}

/** Writes a node's created/updated the way curators do: mostly UTC, sometimes Australian local time. */
function spanLines(out: Out, indent: string, span: Span, rng: Rng, which: 'both' | 'created' | 'updated' = 'both'): void {
  const zone = rng.chance(0.15) ? rng.pick([600, 660, 480]) : 0;
  if (which !== 'updated') out.line(indent, 'created', yamlScalar(isoInstant(span.created, zone)));
  if (which !== 'created') out.line(indent, 'updated', yamlScalar(isoInstant(span.updated, zone)));
}

/**
 * An override of the parent's span that keeps every inherited pair in order: an own `created`
 * never passes the parent's `updated`, and an own `updated` never precedes the parent's `created`.
 */
function overrideSpan(parent: Span, rng: Rng): { span: Span; which: 'both' | 'created' | 'updated' } {
  const which = rng.pick(['both', 'created', 'updated'] as const);
  const minute = 60_000;
  const created = parent.created + Math.floor((rng.next() * (parent.updated - parent.created)) / minute) * minute;
  if (which === 'created') return { span: { created, updated: parent.updated }, which };
  if (which === 'updated') {
    const updated = parent.created + Math.floor((rng.next() * (parent.updated - parent.created + 90 * DAY)) / minute) * minute;
    return { span: { created: parent.created, updated }, which };
  }
  const updated = created + Math.floor(rng.next() * 200) * DAY + rng.int(0, 1439) * minute;
  return { span: { created, updated }, which };
}

// ---- Vocabulary: surveys ---------------------------------------------------------------------------

type Theme = 'galaxy' | 'stellar';

interface SurveyDef {
  name: string;
  pretty: string;
  title: string;
  pi: string;
  theme: Theme;
  about: string;
}

const SURVEYS: readonly SurveyDef[] = [
  {
    name: 'gama',
    pretty: 'GAMA',
    title: 'Galaxy And Mass Assembly',
    pi: 'Simon Driver',
    theme: 'galaxy',
    about:
      'a spectroscopic and multi-wavelength imaging survey of about 300,000 galaxies down to r &lt; 19.8 mag over ~286 deg<sup>2</sup>',
  },
  {
    name: 'sami',
    pretty: 'SAMI',
    title: 'Sydney-AAO Multi-object Integral field spectrograph Galaxy Survey',
    pi: 'Scott Croom',
    theme: 'galaxy',
    about: 'an integral-field spectroscopic survey of about 3,000 galaxies in the local Universe',
  },
  {
    name: 'galah',
    pretty: 'GALAH',
    title: 'GALactic Archaeology with HERMES',
    pi: 'Sarah Martell',
    theme: 'stellar',
    about:
      'a high-resolution spectroscopic survey of about a million stars in the Milky Way, measuring up to 30 elemental abundances per star',
  },
  {
    name: 'devils',
    pretty: 'DEVILS',
    title: 'Deep Extragalactic VIsible Legacy Survey',
    pi: 'Luke Davies',
    theme: 'galaxy',
    about: 'a deep spectroscopic survey of about 60,000 galaxies to Y &lt; 21.2 mag in the D02, D03 and D10 fields',
  },
  {
    name: 'ozdes',
    pretty: 'OzDES',
    title: 'Australian Dark Energy Survey',
    pi: 'Chris Lidman',
    theme: 'galaxy',
    about: 'a spectroscopic follow-up of supernova hosts and active galactic nuclei in the Dark Energy Survey supernova fields',
  },
  {
    name: '2dfgrs',
    pretty: '2dFGRS',
    title: '2dF Galaxy Redshift Survey',
    pi: 'Matthew Colless',
    theme: 'galaxy',
    about: 'a redshift survey of about 245,000 galaxies brighter than b<sub>J</sub> = 19.45 mag',
  },
  {
    name: '6dfgs',
    pretty: '6dFGS',
    title: '6dF Galaxy Survey',
    pi: 'Heath Jones',
    theme: 'galaxy',
    about: 'a redshift and peculiar-velocity survey of about 125,000 galaxies over the southern sky',
  },
  {
    name: 'wigglez',
    pretty: 'WiggleZ',
    title: 'WiggleZ Dark Energy Survey',
    pi: 'Michael Drinkwater',
    theme: 'galaxy',
    about: 'a redshift survey of about 240,000 emission-line galaxies at 0.2 &lt; z &lt; 1.0',
  },
  {
    name: 'rave',
    pretty: 'RAVE',
    title: 'RAdial Velocity Experiment',
    pi: 'Matthias Steinmetz',
    theme: 'stellar',
    about: 'a spectroscopic survey of about 500,000 Milky Way stars in the Ca triplet region',
  },
  {
    name: 'taipan',
    pretty: 'TAIPAN',
    title: 'Transforming Astronomical Imaging surveys through Polychromatic Analysis of Nebulae',
    pi: 'Edward Taylor',
    theme: 'galaxy',
    about: 'a spectroscopic survey of the local Universe over the southern sky',
  },
  {
    name: 'hector',
    pretty: 'Hector',
    title: 'Hector Galaxy Survey',
    pi: 'Julia Bryant',
    theme: 'galaxy',
    about: 'an integral-field survey of about 15,000 galaxies across environments',
  },
  {
    name: 'waves',
    pretty: 'WAVES',
    title: 'Wide Area VISTA Extragalactic Survey',
    pi: 'Simon Driver',
    theme: 'galaxy',
    about: 'a redshift survey of about 1.6 million galaxies with 4MOST',
  },
  {
    name: '2qz',
    pretty: '2QZ',
    title: '2dF QSO Redshift Survey',
    pi: 'Brian Boyle',
    theme: 'galaxy',
    about: 'a redshift survey of about 23,000 quasars',
  },
  {
    name: 'magpi',
    pretty: 'MAGPI',
    title: 'Middle Ages Galaxy Properties with Integral field spectroscopy',
    pi: 'Caroline Foster',
    theme: 'galaxy',
    about: 'a MUSE integral-field survey of galaxies at z ~ 0.3',
  },
  {
    name: 'skymapper',
    pretty: 'SkyMapper',
    title: 'SkyMapper Southern Sky Survey',
    pi: 'Christian Wolf',
    theme: 'stellar',
    about: 'a six-band optical imaging survey of the southern sky',
  },
  {
    name: 'wallaby',
    pretty: 'WALLABY',
    title: 'Widefield ASKAP L-band Legacy All-sky Blind surveY',
    pi: 'Baerbel Koribalski',
    theme: 'galaxy',
    about: 'a neutral-hydrogen survey of about 500,000 galaxies with ASKAP',
  },
  {
    name: 'dingo',
    pretty: 'DINGO',
    title: 'Deep Investigation of Neutral Gas Origins',
    pi: 'Martin Meyer',
    theme: 'galaxy',
    about: 'a deep neutral-hydrogen survey of the GAMA fields with ASKAP',
  },
  {
    name: 'emu',
    pretty: 'EMU',
    title: 'Evolutionary Map of the Universe',
    pi: 'Ray Norris',
    theme: 'galaxy',
    about: 'a radio continuum survey of the southern sky with ASKAP',
  },
  {
    name: 's7',
    pretty: 'S7',
    title: 'Siding Spring Southern Seyfert Spectroscopic Snapshot Survey',
    pi: 'Michael Dopita',
    theme: 'galaxy',
    about: 'an integral-field survey of about 130 nearby active galaxies with WiFeS',
  },
  {
    name: 'apogee-south',
    pretty: 'APOGEE-2S',
    title: 'APOGEE-2 Southern Stellar Survey',
    pi: 'Steven Majewski',
    theme: 'stellar',
    about: 'a near-infrared high-resolution spectroscopic survey of red giants in the bulge and disk',
  },
  {
    name: 'deep2',
    pretty: 'DEEP2',
    title: 'DEEP2 Galaxy Redshift Survey',
    pi: 'Marc Davis',
    theme: 'galaxy',
    about: 'a redshift survey of about 50,000 galaxies at z ~ 1',
  },
];

// ---- Vocabulary: catalogue columns ----------------------------------------------------------------

interface ColumnSpec {
  name: string;
  description: string;
  ucd: string;
  unit: string;
}

interface PhotBand {
  name: string;
  label: string;
  em: string;
}

const PHOT_SYSTEMS: readonly (readonly PhotBand[])[] = [
  [
    { name: 'FUV', label: 'GALEX FUV', em: 'em.UV.100-200nm' },
    { name: 'NUV', label: 'GALEX NUV', em: 'em.UV.200-300nm' },
  ],
  [
    { name: 'u', label: 'SDSS u', em: 'em.opt.U' },
    { name: 'g', label: 'SDSS g', em: 'em.opt.B' },
    { name: 'r', label: 'SDSS r', em: 'em.opt.R' },
    { name: 'i', label: 'SDSS i', em: 'em.opt.I' },
    { name: 'z', label: 'SDSS z', em: 'em.opt.I' },
  ],
  [
    { name: 'Z', label: 'VIKING Z', em: 'em.opt.I' },
    { name: 'Y', label: 'VIKING Y', em: 'em.IR.NIR' },
    { name: 'J', label: 'VIKING J', em: 'em.IR.J' },
    { name: 'H', label: 'VIKING H', em: 'em.IR.H' },
    { name: 'K', label: 'VIKING Ks', em: 'em.IR.K' },
  ],
  [
    { name: 'W1', label: 'WISE W1', em: 'em.IR.3-4um' },
    { name: 'W2', label: 'WISE W2', em: 'em.IR.4-8um' },
    { name: 'W3', label: 'WISE W3', em: 'em.IR.8-15um' },
    { name: 'W4', label: 'WISE W4', em: 'em.IR.15-30um' },
  ],
];

const LINES: readonly [key: string, label: string, em: string][] = [
  ['OIIB', '[O II] 3726', 'em.line'],
  ['OIIR', '[O II] 3729', 'em.line'],
  ['HD', 'H-delta', 'em.line.Hdelta'],
  ['HG', 'H-gamma', 'em.line.Hgamma'],
  ['HB', 'H-beta', 'em.line.Hbeta'],
  ['OIIIB', '[O III] 4959', 'em.line.OIII'],
  ['OIIIR', '[O III] 5007', 'em.line.OIII'],
  ['OI', '[O I] 6300', 'em.line'],
  ['NIIB', '[N II] 6548', 'em.line'],
  ['HA', 'H-alpha', 'em.line.Halpha'],
  ['NIIR', '[N II] 6583', 'em.line'],
  ['SIIB', '[S II] 6716', 'em.line'],
  ['SIIR', '[S II] 6731', 'em.line'],
];

const ELEMENTS: readonly string[] = [
  'Li',
  'C',
  'O',
  'Na',
  'Mg',
  'Al',
  'Si',
  'K',
  'Ca',
  'Sc',
  'Ti',
  'Ti2',
  'V',
  'Cr',
  'Mn',
  'Co',
  'Ni',
  'Cu',
  'Zn',
  'Rb',
  'Sr',
  'Y',
  'Zr',
  'Mo',
  'Ru',
  'Ba',
  'La',
  'Ce',
  'Nd',
  'Sm',
  'Eu',
];

const elementLabel = (x: string) => (x.endsWith('2') ? `${x.slice(0, -1)} II` : x);

/** What a table's columns are drawn from: its bands, and the naming habit of its survey. */
interface TableContext {
  bands: readonly PhotBand[];
  upper: boolean;
  rng: Rng;
}

type Family = (ctx: TableContext) => ColumnSpec[];

/**
 * A column's VOTable datatype (and arraysize), as an archive's TAP service gives them, from what the
 * column holds: ids as long integers, codes and counts as integers, names and types as text,
 * positions as doubles and other quantities as floats. Drawn from no random numbers, so the rest of
 * the archive is as before.
 */
function columnType(spec: ColumnSpec): [datatype: string, arraysize?: string] {
  const { ucd } = spec;
  if (ucd.includes('meta.file')) return ['char', '*'];
  if (/^meta\.id(;|$|\.cross)/.test(ucd)) return ['long'];
  if (/^(meta\.code|meta\.number|src\.class)/.test(ucd)) return ['int'];
  if (/^(meta\.note|meta\.ref|src\.morph\.type)/.test(ucd)) return ['char', '*'];
  if (/^(pos\.eq|pos\.galactic|time\.epoch)/.test(ucd)) return ['double'];
  return ['float'];
}

const col = (name: string, description: string, ucd: string, unit = '-'): ColumnSpec => ({ name, description, ucd, unit });
const perBand = (ctx: TableContext, make: (b: PhotBand) => ColumnSpec[]): ColumnSpec[] => ctx.bands.flatMap(make);

const F = {
  ident: (ctx: TableContext) =>
    ctx.rng.pick([
      [col('CATAID', 'Unique ID of the object', 'meta.id;meta.main')],
      [
        col('OBJID', 'Unique identifier of the source in the input catalogue', 'meta.id;meta.main'),
        col('SDSS_OBJID', 'SDSS DR7 objID of the matched object', 'meta.id.cross'),
      ],
      [
        col('SOURCEID', 'Identifier of the detection', 'meta.id;meta.main'),
        col('CATAID', 'ID of matched object in the input catalogue', 'meta.id.cross;src'),
      ],
    ]),
  position: () => [
    col('RA', 'Right ascension of the object (J2000)', 'pos.eq.ra;meta.main', 'deg'),
    col('DEC', 'Declination of the object (J2000)', 'pos.eq.dec;meta.main', 'deg'),
  ],
  redshift: () => [
    col('Z', 'Best spectroscopic redshift', 'src.redshift'),
    col('Z_ERR', 'Uncertainty on the best redshift', 'stat.error;src.redshift'),
    col('NQ', 'Normalised redshift quality (use NQ > 2 for science)', 'meta.code.qual;src.redshift'),
    col('PROB', 'Probability that the redshift is correct', 'stat.probability;src.redshift'),
    col('Z_HELIO', 'Heliocentric redshift', 'src.redshift'),
    col('Z_TONRY', 'Redshift corrected for local flows with the Tonry et al. (2000) model', 'src.redshift'),
    col('VEL_DISP', 'Stellar velocity dispersion from the absorption lines', 'phys.veloc.dispersion', 'km/s'),
    col('SN', 'Median signal-to-noise per pixel of the spectrum', 'stat.snr'),
    col('SPECID', 'Identifier of the spectrum', 'meta.id'),
    col('SURVEY', 'Survey the spectrum came from', 'meta.dataset'),
    col('FILENAME', 'Name of the spectrum file', 'meta.id;meta.file'),
    col('FLAG_Z', 'Redshift quality flag (0 = good)', 'meta.code.qual'),
  ],
  sextractor: () => [
    col('X_IMAGE', 'Object position along x', 'pos.cartesian.x;instr.det', 'pix'),
    col('Y_IMAGE', 'Object position along y', 'pos.cartesian.y;instr.det', 'pix'),
    col('A_IMAGE', 'Profile RMS along the major axis', 'phys.size.smajAxis;instr.det', 'pix'),
    col('B_IMAGE', 'Profile RMS along the minor axis', 'phys.size.sminAxis;instr.det', 'pix'),
    col('THETA_IMAGE', 'Position angle of the major axis (counter-clockwise from x)', 'pos.posAng', 'deg'),
    col('THETA_J2000', 'Position angle of the major axis (east of north, J2000)', 'pos.posAng', 'deg'),
    col('ELLIPTICITY', 'Ellipticity, 1 - B_IMAGE/A_IMAGE', 'src.ellipticity'),
    col('AXRAT', 'Axis ratio B/A of the isophotal ellipse', 'phys.size.axisRatio'),
    col('FWHM_IMAGE', 'FWHM assuming a Gaussian core', 'phys.angSize;src', 'pix'),
    col('FWHM_WORLD', 'FWHM assuming a Gaussian core, in world units', 'phys.angSize;src', 'deg'),
    col('CLASS_STAR', 'SExtractor star/galaxy classifier output (1 = star, 0 = galaxy)', 'src.class.starGalaxy'),
    col('KRON_RADIUS', 'Kron aperture in units of A or B', 'phys.size.radius'),
    col('PETRO_RADIUS', 'Petrosian aperture in units of A or B', 'phys.size.radius'),
    col('ISOAREA_IMAGE', 'Isophotal area above the analysis threshold', 'phys.area;instr.det', 'pix**2'),
    col('MU_MAX', 'Peak surface brightness above the background', 'phot.mag.sb', 'mag/arcsec**2'),
    col('BACKGROUND', 'Background level at the centroid position', 'instr.skyLevel', 'count'),
    col('FLAGS', 'SExtractor extraction flags', 'meta.code.qual'),
  ],
  autophot: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(`MAG_AUTO_${b.name}`, `SExtractor AUTO magnitude in the ${b.label} band (AB)`, `phot.mag;${b.em}`, 'mag'),
      col(`MAGERR_AUTO_${b.name}`, `Error on the AUTO magnitude in the ${b.label} band`, `stat.error;phot.mag;${b.em}`, 'mag'),
    ]),
  petrophot: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(`MAG_PETRO_${b.name}`, `Petrosian magnitude in the ${b.label} band (AB)`, `phot.mag;${b.em}`, 'mag'),
      col(`MAGERR_PETRO_${b.name}`, `Error on the Petrosian magnitude in the ${b.label} band`, `stat.error;phot.mag;${b.em}`, 'mag'),
    ]),
  flux: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(`FLUX_${b.name}`, `Total flux density in the ${b.label} band`, `phot.flux.density;${b.em}`, 'uJy'),
      col(`FLUXERR_${b.name}`, `Error on the total flux density in the ${b.label} band`, `stat.error;phot.flux.density;${b.em}`, 'uJy'),
    ]),
  sizes: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(`FLUX_RADIUS_${b.name}`, `Half-light radius in the ${b.label} band`, `phys.angSize;src;${b.em}`, 'arcsec'),
      col(
        `MU_EFF_${b.name}`,
        `Mean surface brightness within the half-light radius in the ${b.label} band`,
        `phot.mag.sb;${b.em}`,
        'mag/arcsec**2',
      ),
    ]),
  flags: (ctx: TableContext) =>
    perBand(ctx, (b) => [col(`FLAG_${b.name}`, `Quality flag of the ${b.label} photometry (0 = clean)`, 'meta.code.qual')]),
  sersic: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(
        `GAL_MAG_${b.name}`,
        `Total magnitude of the single-Sersic model in the ${b.label} band`,
        `phot.mag;meta.modelled;${b.em}`,
        'mag',
      ),
      col(
        `GAL_RE_${b.name}`,
        `Effective (half-light) radius of the single-Sersic fit in the ${b.label} band`,
        `phys.angSize;meta.modelled;${b.em}`,
        'arcsec',
      ),
      col(`GAL_INDEX_${b.name}`, `Sersic index in the ${b.label} band`, 'src.morph.param'),
      col(`GAL_ELLIP_${b.name}`, `Ellipticity of the Sersic model in the ${b.label} band`, 'src.ellipticity'),
      col(`GAL_PA_${b.name}`, `Position angle of the Sersic model in the ${b.label} band`, 'pos.posAng', 'deg'),
      col(
        `GAL_MU_E_${b.name}`,
        `Surface brightness at the effective radius in the ${b.label} band`,
        `phot.mag.sb;meta.modelled;${b.em}`,
        'mag/arcsec**2',
      ),
      col(`GAL_CHI2_${b.name}`, `Reduced chi-squared of the Sersic fit in the ${b.label} band`, 'stat.fit.chi2'),
    ]),
  masses: () => [
    col('LOGMSTAR', 'Stellar mass from SED fitting (Chabrier IMF)', 'phys.mass', 'log(solMass)'),
    col('DELLOGMSTAR', 'Uncertainty on LOGMSTAR', 'stat.error;phys.mass', 'log(solMass)'),
    col('MSTAR', 'Stellar mass', 'phys.mass', 'solMass'),
    col('LOGAGE', 'Mean stellar age, light-weighted', 'time.age', 'log(yr)'),
    col('DELLOGAGE', 'Uncertainty on LOGAGE', 'stat.error;time.age', 'log(yr)'),
    col('METAL', 'Stellar metallicity of the best-fitting template', 'phys.abund.Z'),
    col('EXTBV', 'Dust extinction E(B-V) of the stellar populations', 'phys.absorption;em.opt.B', 'mag'),
    col('SFR', 'Star formation rate averaged over the last 100 Myr', 'phys.SFR', 'solMass/yr'),
    col('SFR_ERR', 'Uncertainty on SFR', 'stat.error;phys.SFR', 'solMass/yr'),
    col('SSFR', 'Specific star formation rate', 'phys.SFR;arith.ratio', 'yr**-1'),
    col('LOGMDUST', 'Dust mass from the far-infrared fit', 'phys.mass', 'log(solMass)'),
    col('TDUST', 'Temperature of the cold dust component', 'phys.temperature', 'K'),
    col('GMINUSI', 'Rest-frame g - i colour', 'phot.color'),
    col('FLUXSCALE', 'Aperture-to-total flux correction factor', 'arith.factor'),
  ],
  absmag: (ctx: TableContext) =>
    perBand(ctx, (b) => [
      col(`ABSMAG_${b.name}`, `Absolute magnitude in the ${b.label} band, k-corrected to z = 0`, `phys.magAbs;${b.em}`, 'mag'),
      col(`ABSMAGERR_${b.name}`, `Error on the absolute magnitude in the ${b.label} band`, `stat.error;phys.magAbs;${b.em}`, 'mag'),
    ]),
  kcorr: (ctx: TableContext) =>
    perBand(ctx, (b) => [col(`KCORR_${b.name}`, `k-correction to z = 0 in the ${b.label} band`, `phot.mag;arith.diff;${b.em}`, 'mag')]),
  lines: () =>
    LINES.flatMap(([key, label, em]) => [
      col(`${key}_FLUX`, `Flux of the ${label} line`, `phot.flux;${em}`, '10**(-17)erg/(s.cm**2)'),
      col(`${key}_FLUX_ERR`, `Error on the flux of the ${label} line`, `stat.error;phot.flux;${em}`, '10**(-17)erg/(s.cm**2)'),
      col(`${key}_EW`, `Equivalent width of the ${label} line`, `spect.line.eqWidth;${em}`, 'Angstrom'),
      col(`${key}_EW_ERR`, `Error on the equivalent width of the ${label} line`, `stat.error;spect.line.eqWidth;${em}`, 'Angstrom'),
      col(`${key}_CONT`, `Continuum level under the ${label} line`, 'phot.flux.density;spect.continuum', '10**(-17)erg/(s.cm**2.Angstrom)'),
      col(`${key}_FWHM`, `FWHM of the ${label} line`, `spect.line.width;${em}`, 'Angstrom'),
    ]),
  environment: () => [
    col('SURFACEDENSITY', 'Surface density to the 4th and 5th nearest neighbours', 'phys.density', 'Mpc**-2'),
    col('SURFACEDENSITYERR', 'Error on SURFACEDENSITY', 'stat.error;phys.density', 'Mpc**-2'),
    col('DIST4', 'Projected distance to the 4th nearest neighbour', 'pos.distance', 'Mpc'),
    col('DIST5', 'Projected distance to the 5th nearest neighbour', 'pos.distance', 'Mpc'),
    col('COUNTINCYL', 'Number of galaxies in a cylinder of 1 Mpc radius and 1000 km/s depth', 'meta.number'),
    col('OVERDENSITY', 'Overdensity within the cylinder relative to the mean', 'phys.density;arith.ratio'),
    col('AGEPARAM', 'Dimensionless age parameter of the environment', 'phys.size.radius;arith.ratio'),
    col('GEOMETRY', 'Cosmic-web geometry: 0 void, 1 sheet, 2 filament, 3 knot', 'meta.code.class'),
  ],
  groups: () => [
    col('GROUPID', 'Unique ID of the FoF group', 'meta.id;meta.main'),
    col('NFOF', 'Number of FoF group members', 'meta.number'),
    col('ITERCENRA', 'RA of the iterative group centre', 'pos.eq.ra', 'deg'),
    col('ITERCENDEC', 'Dec of the iterative group centre', 'pos.eq.dec', 'deg'),
    col('ZFOF', 'Median redshift of the group members', 'src.redshift'),
    col('VELDISP', 'Velocity dispersion of the group (gapper estimator)', 'phys.veloc.dispersion', 'km/s'),
    col('VELDISPERR', 'Error on VELDISP', 'stat.error;phys.veloc.dispersion', 'km/s'),
    col('RAD50', 'Radius enclosing 50% of the members', 'phys.size.radius', 'Mpc'),
    col('MASSA', 'Dynamical mass of the group, calibrated on mocks', 'phys.mass', 'solMass'),
    col('LUMB', 'Total r-band luminosity of the group', 'phys.luminosity', 'solLum'),
    col('BCGREF', 'CATAID of the brightest group galaxy', 'meta.id.cross'),
  ],
  morphology: () => [
    col('HUBBLE_TYPE', 'Visual Hubble type', 'src.morph.type'),
    col('HUBBLE_TYPE_CODE', 'Numerical code of the visual Hubble type', 'meta.code;src.morph.type'),
    col('BULGE_TO_TOTAL', 'Bulge-to-total flux ratio of the two-component fit', 'phys.luminosity;arith.ratio'),
    col('BAR_FLAG', 'Set when the galaxy shows a bar', 'meta.code'),
    col('NCLASSIFIERS', 'Number of classifiers who inspected the image', 'meta.number'),
  ],
  sident: () => [
    col('SOBJECT_ID', 'Survey identifier of the spectrum', 'meta.id;meta.main'),
    col('STAR_ID', '2MASS identifier', 'meta.id.cross'),
    col('SOURCE_ID', 'Gaia DR3 source_id', 'meta.id.cross'),
    col('FIELD_ID', 'Observed field', 'meta.id'),
    col('MJD', 'Modified Julian date of the observation', 'time.epoch', 'd'),
  ],
  astrometry: () => [
    col('RA', 'Right ascension (J2000), propagated from Gaia', 'pos.eq.ra;meta.main', 'deg'),
    col('DEC', 'Declination (J2000), propagated from Gaia', 'pos.eq.dec;meta.main', 'deg'),
    col('L', 'Galactic longitude', 'pos.galactic.lon', 'deg'),
    col('B', 'Galactic latitude', 'pos.galactic.lat', 'deg'),
    col('PARALLAX', 'Parallax from Gaia', 'pos.parallax', 'mas'),
    col('PARALLAX_ERROR', 'Error on the parallax', 'stat.error;pos.parallax', 'mas'),
    col('PMRA', 'Proper motion in right ascension', 'pos.pm;pos.eq.ra', 'mas/yr'),
    col('PMDEC', 'Proper motion in declination', 'pos.pm;pos.eq.dec', 'mas/yr'),
    col('R_EST', 'Distance estimate from the parallax', 'pos.distance', 'pc'),
    col('EBV', 'SFD extinction E(B-V)', 'phys.absorption.gal', 'mag'),
  ],
  params: () => [
    col('TEFF', 'Spectroscopic effective temperature', 'phys.temperature.effective', 'K'),
    col('E_TEFF', 'Uncertainty on TEFF', 'stat.error;phys.temperature.effective', 'K'),
    col('LOGG', 'Surface gravity', 'phys.gravity', 'log(cm.s**-2)'),
    col('E_LOGG', 'Uncertainty on LOGG', 'stat.error;phys.gravity', 'log(cm.s**-2)'),
    col('FE_H', 'Iron abundance [Fe/H]', 'phys.abund.Fe'),
    col('E_FE_H', 'Uncertainty on [Fe/H]', 'stat.error;phys.abund.Fe'),
    col('FLAG_FE_H', 'Quality flag of [Fe/H] (0 = reliable)', 'meta.code.qual'),
    col('ALPHA_FE', 'Combined, weighted alpha-process element abundance', 'phys.abund'),
    col('E_ALPHA_FE', 'Uncertainty on ALPHA_FE', 'stat.error;phys.abund'),
    col('VMIC', 'Microturbulence velocity', 'phys.veloc.microTurb', 'km/s'),
    col('VBROAD', 'Broadening velocity (rotation and macroturbulence)', 'phys.veloc.rotat', 'km/s'),
    col('RV', 'Radial velocity from the spectrum fit', 'spect.dopplerVeloc.opt', 'km/s'),
    col('E_RV', 'Uncertainty on RV', 'stat.error;spect.dopplerVeloc.opt', 'km/s'),
    col('CHI2_SP', 'Chi-squared of the spectrum fit', 'stat.fit.chi2'),
    col('FLAG_SP', 'Spectroscopic quality flag (bitmask)', 'meta.code.qual'),
  ],
  snr: () => [1, 2, 3, 4].map((c) => col(`SNR_C${c}`, `Average signal-to-noise per pixel on CCD ${c}`, 'stat.snr')),
  abundances: () =>
    ELEMENTS.flatMap((x) => {
      const k = x.toUpperCase();
      const label = elementLabel(x);
      return [
        col(`${k}_FE`, `Abundance of ${label} relative to iron, [${label}/Fe]`, 'phys.abund'),
        col(`E_${k}_FE`, `Uncertainty on [${label}/Fe]`, 'stat.error;phys.abund'),
        col(`NR_${k}_FE`, `Number of lines used for [${label}/Fe]`, 'meta.number'),
        col(`FLAG_${k}_FE`, `Quality flag of [${label}/Fe] (0 = reliable)`, 'meta.code.qual'),
      ];
    }),
  sphot: () => [
    col('J_M', 'J magnitude from 2MASS', 'phot.mag;em.IR.J', 'mag'),
    col('J_MSIGCOM', 'Error on the 2MASS J magnitude', 'stat.error;phot.mag;em.IR.J', 'mag'),
    col('H_M', 'H magnitude from 2MASS', 'phot.mag;em.IR.H', 'mag'),
    col('KS_M', 'Ks magnitude from 2MASS', 'phot.mag;em.IR.K', 'mag'),
    col('W1MPRO', 'WISE W1 profile-fit magnitude', 'phot.mag;em.IR.3-4um', 'mag'),
    col('W2MPRO', 'WISE W2 profile-fit magnitude', 'phot.mag;em.IR.4-8um', 'mag'),
    col('PHOT_G_MEAN_MAG', 'Gaia G mean magnitude', 'phot.mag;stat.mean;em.opt', 'mag'),
    col('PHOT_BP_MEAN_MAG', 'Gaia BP mean magnitude', 'phot.mag;stat.mean;em.opt.B', 'mag'),
    col('PHOT_RP_MEAN_MAG', 'Gaia RP mean magnitude', 'phot.mag;stat.mean;em.opt.R', 'mag'),
    col('BP_RP', 'Gaia BP - RP colour', 'phot.color', 'mag'),
    col('RUWE', 'Gaia renormalised unit weight error', 'stat.error'),
  ],
  ages: () => [
    col('AGE', 'Age from isochrone fitting', 'time.age', 'Gyr'),
    col('E_AGE', 'Uncertainty on AGE', 'stat.error;time.age', 'Gyr'),
    col('MASS', 'Stellar mass from isochrone fitting', 'phys.mass', 'solMass'),
    col('E_MASS', 'Uncertainty on MASS', 'stat.error;phys.mass', 'solMass'),
    col('LBOL', 'Bolometric luminosity', 'phys.luminosity', 'solLum'),
    col('RADIUS', 'Stellar radius', 'phys.size.radius', 'solRad'),
    col('FLAG_AGE', 'Quality flag of the isochrone fit', 'meta.code.qual'),
  ],
  dynamics: () => [
    col('U_UVW', 'Galactic velocity towards the Galactic centre', 'phys.veloc', 'km/s'),
    col('V_UVW', 'Galactic velocity in the direction of rotation', 'phys.veloc', 'km/s'),
    col('W_UVW', 'Galactic velocity towards the north Galactic pole', 'phys.veloc', 'km/s'),
    col('R_RZPHI', 'Galactocentric cylindrical radius', 'pos.distance', 'kpc'),
    col('Z_RZPHI', 'Height above the Galactic plane', 'pos.cartesian.z', 'kpc'),
    col('ECC', 'Orbital eccentricity', 'src.orbital.eccentricity'),
    col('ZMAX', 'Maximum height of the orbit above the plane', 'src.orbital;stat.max', 'kpc'),
    col('R_PERI', 'Pericentre radius of the orbit', 'src.orbital.periastron', 'kpc'),
    col('R_APO', 'Apocentre radius of the orbit', 'src.orbital', 'kpc'),
    col('ENERGY', 'Orbital energy', 'phys.energy', 'km**2/s**2'),
    col('LZ', 'Angular momentum about the z axis', 'phys.angMomentum', 'kpc.km/s'),
  ],
} satisfies Record<string, Family>;

/** Columns without end, for deep tables that outgrow every family: aperture or per-line variants. */
function extension(ctx: TableContext, k: number, theme: Theme): ColumnSpec[] {
  if (theme === 'stellar') {
    return ELEMENTS.map((x) =>
      col(`${x.toUpperCase()}_FE_L${k}`, `[${elementLabel(x)}/Fe] from line ${k} of ${elementLabel(x)} alone`, 'phys.abund'),
    );
  }
  const diameter = decimal(k * 0.5 + 1, 1);
  return perBand(ctx, (b) => [
    col(
      `MAG_APER_${k}_${b.name}`,
      `Magnitude within a ${diameter}-arcsec diameter aperture in the ${b.label} band`,
      `phot.mag;${b.em}`,
      'mag',
    ),
    col(
      `MAGERR_APER_${k}_${b.name}`,
      `Error on the ${diameter}-arcsec aperture magnitude in the ${b.label} band`,
      `stat.error;phot.mag;${b.em}`,
      'mag',
    ),
  ]);
}

/**
 * Clauses that curators add to column descriptions, by the kind of quantity (the UCD's first
 * word); they also set how many bytes a column takes.
 */
const QUALIFIERS: readonly (readonly [prefix: string, clauses: readonly string[]])[] = [
  [
    'stat.error',
    ['; 1-sigma, -999 where not measured', ' (1-sigma, from the covariance matrix of the fit)', ', including the calibration uncertainty'],
  ],
  [
    'phot.mag',
    [
      ', corrected for Galactic extinction with the Schlegel et al. (1998) maps',
      '; 99 where not detected',
      ', as measured on the r-band detection image in dual-image mode',
    ],
  ],
  [
    'phot.flux',
    [
      '; negative values are allowed for non-detections',
      ', as measured on the r-band detection image in dual-image mode',
      ', not corrected for Galactic extinction',
    ],
  ],
  ['phys.magAbs', [', for H0 = 70 km/s/Mpc and a flat cosmology with Omega_m = 0.3', '; -999 where the redshift is unknown']],
  ['meta.id', [' (inherited from the input catalogue)', '; unique within this table']],
  ['meta.code', ['; see the documentation for the meaning of each bit', '; 0 means no problem was found']],
  [
    '',
    [
      ' (see the DMU documentation for the method)',
      '; NaN when the fit did not converge',
      ', from the final pipeline run',
      '; -999 where not measured',
    ],
  ],
];

function qualifier(ucd: string, rng: Rng): string {
  const clauses = QUALIFIERS.find(([prefix]) => ucd.startsWith(prefix))?.[1] ?? [];
  return clauses.length > 0 ? rng.pick(clauses) : '';
}

interface GroupKind {
  names: readonly string[];
  pretty: string;
  description: string;
  tables: readonly string[];
  lead: readonly Family[];
  body: readonly Family[];
  /** Band systems (indices into PHOT_SYSTEMS) the tables may use; empty for band-free groups. */
  systems: readonly number[];
}

const GALAXY_GROUPS: readonly GroupKind[] = [
  {
    names: ['SpecCat'],
    pretty: 'Spectroscopic catalogues',
    description: 'This DMU provides the final spectra and redshift catalogues, including AAT and external data.',
    tables: ['SpecObj', 'SpecAll', 'AATSpecAllzAll', 'ExternalSpecAll', 'SpecLineSFR'],
    lead: [F.ident, F.position],
    body: [F.redshift, F.lines],
    systems: [],
  },
  {
    names: ['ApMatchedPhotom', 'ApMatchedCat'],
    pretty: 'Aperture-matched photometry',
    description: 'Aperture-matched SExtractor photometry in all bands, measured on images convolved to a common seeing.',
    tables: ['ApMatchedCat', 'ApMatchedPhotom', 'ApMatchedCatAll'],
    lead: [F.ident, F.position],
    body: [F.autophot, F.petrophot, F.flux, F.sextractor, F.sizes, F.flags],
    systems: [1, 2],
  },
  {
    names: ['SersicPhotometry'],
    pretty: 'Single-Sersic fits',
    description: 'Single-component Sersic fits to the galaxy light profiles with SIGMA/GALFIT in each band.',
    tables: ['SersicCat', 'SersicCatAll', 'SersicCatSDSS', 'SersicCatUKIDSS'],
    lead: [F.ident],
    body: [F.sersic, F.sextractor],
    systems: [1, 2],
  },
  {
    names: ['StellarMasses'],
    pretty: 'Stellar masses',
    description: 'Stellar masses, ages and metallicities from stellar population synthesis fits to the matched-aperture photometry.',
    tables: ['StellarMasses', 'StellarMassesLambdar', 'StellarMassesGKV'],
    lead: [F.ident],
    body: [F.masses, F.absmag],
    systems: [1, 2],
  },
  {
    names: ['MagPhys'],
    pretty: 'MAGPHYS SED fits',
    description: 'Energy-balance SED fits from the ultraviolet to the far-infrared with MAGPHYS.',
    tables: ['MagPhys', 'MagPhysG10'],
    lead: [F.ident],
    body: [F.masses],
    systems: [],
  },
  {
    names: ['kCorrections'],
    pretty: 'k-corrections',
    description: 'k-corrections to z = 0 and z = 0.1 from KCORRECT fits to the photometry.',
    tables: ['kCorr_z00', 'kCorr_z01', 'kCorr_auto_z00'],
    lead: [F.ident],
    body: [F.kcorr, F.absmag],
    systems: [0, 1, 2],
  },
  {
    names: ['EnvironmentMeasures'],
    pretty: 'Environment measures',
    description: 'Measures of local environment: surface densities, counts in cylinders and cosmic-web geometry.',
    tables: ['EnvironmentMeasures', 'GeometricEnvironment', 'DistancesFrames'],
    lead: [F.ident],
    body: [F.environment],
    systems: [],
  },
  {
    names: ['GroupFinding'],
    pretty: 'Galaxy group catalogue',
    description: 'Friends-of-friends galaxy groups with their members, centres and dynamical masses.',
    tables: ['G3CGal', 'G3CFoFGroup', 'G3CMockGal', 'G3CMockFoFGroup'],
    lead: [F.groups],
    body: [F.position],
    systems: [],
  },
  {
    names: ['LambdarPhotometry'],
    pretty: 'LAMBDAR photometry',
    description: 'Matched-aperture forced photometry with LAMBDAR from the far-ultraviolet to the far-infrared.',
    tables: ['LambdarCat', 'LambdarCatSDSS'],
    lead: [F.ident, F.position],
    body: [F.flux, F.flags],
    systems: [0, 1, 2, 3],
  },
  {
    names: ['GalexPhotometry'],
    pretty: 'GALEX photometry',
    description: 'GALEX FUV and NUV photometry matched to the input catalogue.',
    tables: ['GalexMain', 'GalexAdvanced', 'GalexCoGPhot'],
    lead: [F.ident, F.position],
    body: [F.autophot, F.flux, F.flags],
    systems: [0],
  },
  {
    names: ['InputCat'],
    pretty: 'Input catalogue',
    description: 'The target selection: input catalogue, tiling catalogue and spectrophotometric standards.',
    tables: ['InputCatA', 'TilingCat', 'SDSSCat', 'SpStandards'],
    lead: [F.ident, F.position],
    body: [F.autophot, F.sextractor, F.flags],
    systems: [1],
  },
  {
    names: ['VisualMorphology'],
    pretty: 'Visual morphology',
    description: 'Visual morphological classifications and bulge-disk decompositions.',
    tables: ['VisualMorphology', 'BulgeDisk'],
    lead: [F.ident],
    body: [F.morphology, F.sersic],
    systems: [1],
  },
  {
    names: ['EmissionLines', 'SpecLineSFR'],
    pretty: 'Emission-line measurements',
    description: 'Gaussian fits to the strong emission lines of every spectrum, with fluxes and equivalent widths.',
    tables: ['GaussFitSimple', 'GaussFitComplex', 'SpecLineSFR'],
    lead: [F.ident],
    body: [F.lines, F.redshift],
    systems: [],
  },
];

const STELLAR_GROUPS: readonly GroupKind[] = [
  {
    names: ['mainstargroup'],
    pretty: 'Main star catalogue',
    description: 'One line per star: stellar parameters and abundances from the best spectrum of each star.',
    tables: ['mainstartable', 'allstartable'],
    lead: [F.sident, F.astrometry],
    body: [F.params, F.abundances, F.sphot],
    systems: [],
  },
  {
    names: ['mainspecgroup'],
    pretty: 'Main spectrum catalogue',
    description: 'One line per spectrum: stellar parameters, radial velocities and signal-to-noise.',
    tables: ['mainspectable', 'allspectable'],
    lead: [F.sident],
    body: [F.params, F.snr, F.astrometry],
    systems: [],
  },
  {
    names: ['vacgroup'],
    pretty: 'Value-added catalogues',
    description: 'Value-added catalogues: ages and masses from isochrones, and Galactic orbits.',
    tables: ['vacagestable', 'vacdynamicstable', 'vacbinariestable', 'vac3dnltetable'],
    lead: [F.sident],
    body: [F.ages, F.dynamics],
    systems: [],
  },
  {
    names: ['crossmatch', 'xmatchgroup'],
    pretty: 'Cross-matches',
    description: 'Cross-matches of the targets with Gaia, 2MASS and WISE.',
    tables: ['gaiadr3xmatch', 'tmassxmatch', 'wisexmatch'],
    lead: [F.sident, F.astrometry],
    body: [F.sphot],
    systems: [],
  },
];

// ---- Vocabulary: imaging ---------------------------------------------------------------------------

interface FacilityDef {
  name: string;
  pretty: string;
  description: string;
  telescop: string;
  instrume: string;
  /** Pixel scale in arcsec. */
  scale: number;
  /** Tile side in degrees. */
  tile: number;
  bunit: string;
  zeropoint: number;
  saturate: number;
  gain: number;
  style: 'kids' | 'unwise' | 'iau' | 'sdss';
  prefix: string;
  /** name, pivot wavelength (Angstrom), FILTER value, instrument when it differs. */
  bands: readonly (readonly [string, number, string, string?])[];
}

const FACILITIES: readonly FacilityDef[] = [
  {
    name: 'GALEX',
    pretty: 'Galaxy Evolution Explorer',
    description: 'GALEX far- and near-ultraviolet imaging from the Medium Imaging Survey',
    telescop: 'GALEX',
    instrume: 'GALEX',
    scale: 1.5,
    tile: 1.2,
    bunit: 'counts/s',
    zeropoint: 18.82,
    saturate: 5000,
    gain: 1.0,
    style: 'iau',
    prefix: 'MIS',
    bands: [
      ['FUV', 1535, 'FUV'],
      ['NUV', 2301, 'NUV'],
    ],
  },
  {
    name: 'SDSS',
    pretty: 'Sloan Digital Sky Survey',
    description: 'SDSS imaging from the 2.5-m telescope at Apache Point',
    telescop: 'SDSS 2.5-M',
    instrume: 'SDSS Imager',
    scale: 0.396,
    tile: 0.25,
    bunit: 'nanomaggy',
    zeropoint: 22.5,
    saturate: 1500,
    gain: 4.7,
    style: 'sdss',
    prefix: 'SDSS',
    bands: [
      ['u', 3567, 'u'],
      ['g', 4735, 'g'],
      ['r', 6195, 'r'],
      ['i', 7510, 'i'],
      ['z', 8977, 'z'],
    ],
  },
  {
    name: 'VST',
    pretty: 'VLT Survey Telescope (OmegaCAM)',
    description: 'VLT Survey Telescope OmegaCAM optical imaging from the Kilo-Degree Survey',
    telescop: 'ESO-VST',
    instrume: 'OMEGACAM',
    scale: 0.2,
    tile: 1.0,
    bunit: 'ADU',
    zeropoint: 30.0,
    saturate: 42000,
    gain: 2.5,
    style: 'kids',
    prefix: 'KIDS',
    bands: [
      ['u', 3578, 'u_SDSS'],
      ['g', 4744, 'g_SDSS'],
      ['r', 6313, 'r_SDSS'],
      ['i', 7584, 'i_SDSS'],
      ['z', 8902, 'z_SDSS'],
    ],
  },
  {
    name: 'HSC',
    pretty: 'Subaru Hyper Suprime-Cam',
    description: 'Subaru Hyper Suprime-Cam optical imaging from the HSC-SSP Wide, Deep and UltraDeep layers',
    telescop: 'Subaru',
    instrume: 'Hyper Suprime-Cam',
    scale: 0.168,
    tile: 0.5,
    bunit: 'nJy',
    zeropoint: 31.4,
    saturate: 150000,
    gain: 3.0,
    style: 'iau',
    prefix: 'HSC',
    bands: [
      ['g', 4798, 'HSC-G'],
      ['r', 6218, 'HSC-R2'],
      ['i', 7727, 'HSC-I2'],
      ['z', 8909, 'HSC-Z'],
      ['Y', 9775, 'HSC-Y'],
    ],
  },
  {
    name: 'VISTA',
    pretty: 'Visible and Infrared Survey Telescope for Astronomy (VIRCAM)',
    description: 'VISTA VIRCAM near-infrared imaging from the VIKING survey',
    telescop: 'ESO-VISTA',
    instrume: 'VIRCAM',
    scale: 0.339,
    tile: 1.5,
    bunit: 'ADU',
    zeropoint: 30.0,
    saturate: 33000,
    gain: 4.2,
    style: 'kids',
    prefix: 'VIKING',
    bands: [
      ['Z', 8833, 'Z'],
      ['Y', 10224, 'Y'],
      ['J', 12546, 'J'],
      ['H', 16477, 'H'],
      ['Ks', 21549, 'Ks'],
    ],
  },
  {
    name: 'UKIRT',
    pretty: 'United Kingdom Infrared Telescope (WFCAM)',
    description: 'UKIRT WFCAM near-infrared imaging from the UKIDSS Large Area Survey',
    telescop: 'UKIRT',
    instrume: 'WFCAM',
    scale: 0.4,
    tile: 0.8,
    bunit: 'ADU',
    zeropoint: 30.0,
    saturate: 40000,
    gain: 4.6,
    style: 'iau',
    prefix: 'LAS',
    bands: [
      ['Z', 8826, 'Z'],
      ['Y', 10314, 'Y'],
      ['J', 12501, 'J'],
      ['H', 16354, 'H'],
      ['K', 22058, 'K'],
    ],
  },
  {
    name: 'WISE',
    pretty: 'Wide-field Infrared Survey Explorer',
    description: 'unWISE coadds of the WISE and NEOWISE mid-infrared imaging',
    telescop: 'WISE',
    instrume: 'WISE',
    scale: 2.75,
    tile: 1.56,
    bunit: 'nanomaggy',
    zeropoint: 22.5,
    saturate: 100000,
    gain: 1.0,
    style: 'unwise',
    prefix: 'unWISE',
    bands: [
      ['W1', 33897, 'W1'],
      ['W2', 46406, 'W2'],
      ['W3', 125700, 'W3'],
      ['W4', 223142, 'W4'],
    ],
  },
  {
    name: 'Spitzer',
    pretty: 'Spitzer Space Telescope (IRAC and MIPS)',
    description: 'Spitzer IRAC and MIPS mid-infrared mosaics',
    telescop: 'Spitzer',
    instrume: 'IRAC',
    scale: 0.6,
    tile: 0.5,
    bunit: 'MJy/sr',
    zeropoint: 21.58,
    saturate: 3000,
    gain: 3.7,
    style: 'iau',
    prefix: 'SWIRE',
    bands: [
      ['I1', 35508, 'IRAC1'],
      ['I2', 44960, 'IRAC2'],
      ['I3', 57245, 'IRAC3'],
      ['I4', 78842, 'IRAC4'],
      ['M24', 237589, 'MIPS24', 'MIPS'],
    ],
  },
  {
    name: 'Herschel',
    pretty: 'Herschel Space Observatory (PACS and SPIRE)',
    description: 'Herschel PACS and SPIRE far-infrared maps from H-ATLAS',
    telescop: 'Herschel',
    instrume: 'PACS',
    scale: 3.0,
    tile: 2.0,
    bunit: 'Jy/beam',
    zeropoint: 8.9,
    saturate: 100,
    gain: 1.0,
    style: 'iau',
    prefix: 'HATLAS',
    bands: [
      ['P70', 715415, 'PACS70'],
      ['P100', 1006420, 'PACS100'],
      ['P160', 1609775, 'PACS160'],
      ['S250', 2525488, 'SPIRE250', 'SPIRE'],
      ['S350', 3542694, 'SPIRE350', 'SPIRE'],
      ['S500', 5153547, 'SPIRE500', 'SPIRE'],
    ],
  },
  {
    name: 'Euclid',
    pretty: 'Euclid (VIS)',
    description: 'Euclid VIS optical imaging from the Early Release Observations',
    telescop: 'EUCLID',
    instrume: 'VIS',
    scale: 0.1,
    tile: 0.5,
    bunit: 'ADU',
    zeropoint: 30.13,
    saturate: 65000,
    gain: 3.5,
    style: 'iau',
    prefix: 'EUC',
    bands: [['VIS', 7103, 'VIS']],
  },
  {
    name: 'HST',
    pretty: 'Hubble Space Telescope (ACS/WFC)',
    description: 'HST ACS/WFC F814W imaging of the COSMOS field',
    telescop: 'HST',
    instrume: 'ACS',
    scale: 0.03,
    tile: 0.2,
    bunit: 'ELECTRONS/S',
    zeropoint: 25.94,
    saturate: 80000,
    gain: 2.0,
    style: 'iau',
    prefix: 'ACS',
    bands: [['F814W', 8053, 'F814W']],
  },
  {
    name: 'CFHT',
    pretty: 'Canada-France-Hawaii Telescope (MegaCam)',
    description: 'CFHT MegaCam u-band imaging from CFHTLS and CLAUDS',
    telescop: 'CFHT 3.6m',
    instrume: 'MegaPrime',
    scale: 0.187,
    tile: 1.0,
    bunit: 'ADU',
    zeropoint: 30.0,
    saturate: 60000,
    gain: 1.6,
    style: 'iau',
    prefix: 'CLAUDS',
    bands: [['u', 3800, 'u.MP9302']],
  },
];

// ---- Vocabulary: IFS and spectra -------------------------------------------------------------------

type ProductType = 'cube' | 'map' | 'spectrum';

/** A wavelength range an arm (or the arms spliced together) covers, and how it is sampled. */
interface WaveRange {
  min: number;
  max: number;
  /** Angstrom per pixel; null where the sampling is logarithmic. */
  step: number | null;
  /** Resolving power, R = lambda / delta lambda. */
  r: number;
  pixels: number;
}

/**
 * One kind of file an instrument's data comes in. A product under an arm covers that arm's range,
 * so the products of one arm always overlap; `range` names the range of a product without an arm.
 */
interface ProductDef {
  name: string;
  pretty: string;
  description: string;
  type: ProductType;
  arm: string | null;
  range: string | null;
  /** cube: [x, y, pixels]; map: [x, y]; spectrum: [pixels]; rss: [pixels, fibres]; null when files vary. */
  shape: 'cube' | 'map' | 'spectrum' | 'rss' | null;
  unit: string | null;
  extensions: readonly (readonly [name: string, holds: string])[];
}

interface InstrumentDef {
  name: string;
  pretty: string;
  description: string;
  themes: readonly Theme[];
  /** Spaxel (or map pixel) size in arcsec, and a cube's spatial axes; null for fibre spectrographs. */
  spaxel: number | null;
  field: readonly [number, number];
  /** Fibres in a frame of row-stacked spectra. */
  fibres: number;
  ranges: Readonly<Record<string, WaveRange>>;
  /** The first products every facility of the instrument lists; the others are drawn. */
  core: number;
  products: readonly ProductDef[];
}

const LINE_FLUX = '10**(-16)erg/(s.cm**2)';

/** Maps derived from a cube: kinematics, emission lines and what follows from them. */
const MAPS: readonly (readonly [name: string, pretty: string, holds: string, unit: string | null])[] = [
  ['stellar_velocity', 'Stellar velocity', 'Line-of-sight velocity of the stars', 'km/s'],
  ['stellar_dispersion', 'Stellar velocity dispersion', 'Velocity dispersion of the stars', 'km/s'],
  ['gas_velocity', 'Gas velocity', 'Line-of-sight velocity of the ionised gas', 'km/s'],
  ['gas_dispersion', 'Gas velocity dispersion', 'Velocity dispersion of the ionised gas', 'km/s'],
  ['halpha', 'H-alpha flux', 'H-alpha line flux', LINE_FLUX],
  ['hbeta', 'H-beta flux', 'H-beta line flux', LINE_FLUX],
  ['oiii5007', '[O III] 5007 flux', '[O III] 5007 line flux', LINE_FLUX],
  ['nii6583', '[N II] 6583 flux', '[N II] 6583 line flux', LINE_FLUX],
  ['sii6716', '[S II] 6716 flux', '[S II] 6716 line flux', LINE_FLUX],
  ['sii6731', '[S II] 6731 flux', '[S II] 6731 line flux', LINE_FLUX],
  ['oi6300', '[O I] 6300 flux', '[O I] 6300 line flux', LINE_FLUX],
  ['oii3728', '[O II] 3726+3729 flux', '[O II] 3726+3729 doublet flux', LINE_FLUX],
  ['sfr', 'Star formation rate', 'Star formation rate in each spaxel, from the extinction-corrected H-alpha flux', 'solMass/yr'],
  ['sfr_dens', 'Star formation rate density', 'Star formation rate per unit area', 'solMass/(yr.kpc**2)'],
  ['extinct_corr', 'Balmer extinction correction', 'Extinction correction factor from the Balmer decrement', null],
  ['sfmask', 'Star-formation mask', 'Spaxels whose line ratios are those of star formation', null],
];

function maps(names: readonly string[]): ProductDef[] {
  return names.map((name) => {
    const [, pretty, holds, unit] = MAPS.find(([n]) => n === name) ?? [];
    if (pretty === undefined || holds === undefined || unit === undefined) throw new Error(`no map ${name}`);
    const key = name.toUpperCase();
    return {
      name,
      pretty: `${pretty} map`,
      description: `${holds}, one value per spaxel`,
      type: 'map',
      arm: null,
      range: null,
      shape: 'map',
      unit,
      extensions:
        unit === null
          ? [['PRIMARY', holds]]
          : [
              ['PRIMARY', holds],
              [`${key}_ERR`, `1-sigma error of the ${pretty.toLowerCase()}`],
            ],
    };
  });
}

/** A fibre IFS with two arms: cubes, binned cubes, aperture spectra and maps, SAMI's way. */
function twoArmIfs(
  unit: string,
  apertures: readonly (readonly [name: string, label: string])[],
  mapNames: readonly string[],
): ProductDef[] {
  const cube = (arm: string): ProductDef[] => [
    {
      name: `cube_${arm}`,
      pretty: `Default cube (${arm} arm)`,
      description: `Fully reduced and flux calibrated default (unbinned) cube (${arm} arm)`,
      type: 'cube',
      arm,
      range: arm,
      shape: 'cube',
      unit,
      extensions: [
        ['PRIMARY', 'Flux'],
        ['VARIANCE', 'Variance of the flux'],
        ['WEIGHT', 'Relative weight of each spaxel'],
        ['COVAR', 'Compressed covariance between neighbouring spaxels'],
        ['QC', 'Quality-control measurements of each frame'],
        ['DUST', 'Milky Way dust extinction correction'],
      ],
    },
  ];
  const binned = (arm: string): ProductDef[] =>
    (
      [
        ['adaptive', 'Adaptively binned', 'binned to a signal-to-noise of 10 per bin'],
        ['annular', 'Annularly binned', 'binned in elliptical annuli'],
        ['sectors', 'Sector binned', 'binned in annular sectors'],
      ] as const
    ).map(([binning, pretty, how]) => ({
      name: `${binning}_${arm}`,
      pretty: `${pretty} cube (${arm} arm)`,
      description: `The default cube ${how} (${arm} arm)`,
      type: 'cube',
      arm,
      range: arm,
      shape: 'cube',
      unit,
      extensions: [
        ['PRIMARY', 'Flux of each bin'],
        ['VARIANCE', 'Variance of the flux'],
        ['BIN_MASK', 'The bin each spaxel belongs to'],
      ],
    }));
  const spectra = (arm: string): ProductDef[] =>
    apertures.map(([aperture, label]) => ({
      name: `spectrum_${aperture}_${arm}`,
      pretty: `Aperture spectrum, ${label} (${arm} arm)`,
      description: `Spectrum summed within the ${label} aperture (${arm} arm)`,
      type: 'spectrum',
      arm,
      range: arm,
      shape: 'spectrum',
      unit,
      extensions: [
        ['PRIMARY', 'Flux summed within the aperture'],
        ['VARIANCE', 'Variance of the flux'],
        ['BIN_MASK', 'Spaxels within the aperture'],
      ],
    }));
  return [...cube('blue'), ...cube('red'), ...binned('blue'), ...binned('red'), ...spectra('blue'), ...spectra('red'), ...maps(mapNames)];
}

const ALL_MAPS = MAPS.map(([name]) => name);

const IFS_INSTRUMENTS: readonly InstrumentDef[] = [
  {
    name: 'sami',
    pretty: 'SAMI',
    description:
      'The Sydney-AAO Multi-object Integral field spectrograph: 13 hexabundles of 61 fibres on the AAT, feeding the two arms of AAOmega',
    themes: ['galaxy'],
    spaxel: 0.5,
    field: [50, 50],
    fibres: 819,
    ranges: {
      blue: { min: 3750, max: 5750, step: 1.05, r: 1812, pixels: 2048 },
      red: { min: 6300, max: 7400, step: 0.596, r: 4263, pixels: 2048 },
    },
    core: 2,
    products: twoArmIfs(
      '10**(-16)erg/(s.cm**2.Angstrom)',
      [
        ['1-4-arcsec', '1.4-arcsec'],
        ['2-arcsec', '2-arcsec'],
        ['3-arcsec', '3-arcsec'],
        ['4-arcsec', '4-arcsec'],
        ['re', 'effective-radius'],
        ['re-mge', 'effective-radius (MGE)'],
      ],
      ALL_MAPS,
    ),
  },
  {
    name: 'hector',
    pretty: 'Hector',
    description: 'Hector: 21 hexabundles on the AAT feeding AAOmega and the Spector spectrograph',
    themes: ['galaxy'],
    spaxel: 0.5,
    field: [60, 60],
    fibres: 855,
    ranges: {
      blue: { min: 3720, max: 5910, step: 1.07, r: 2700, pixels: 2048 },
      red: { min: 5950, max: 7600, step: 0.81, r: 4600, pixels: 2048 },
    },
    core: 2,
    products: twoArmIfs(
      '10**(-16)erg/(s.cm**2.Angstrom)',
      [
        ['3-arcsec', '3-arcsec'],
        ['re', 'effective-radius'],
      ],
      ['stellar_velocity', 'stellar_dispersion', 'gas_velocity', 'gas_dispersion', 'halpha', 'hbeta', 'oiii5007', 'nii6583', 'sfr'],
    ),
  },
  {
    name: 'wifes',
    pretty: 'WiFeS',
    description: 'The Wide Field Spectrograph on the ANU 2.3-m telescope, an image slicer with a blue and a red arm',
    themes: ['galaxy'],
    spaxel: 1.0,
    field: [25, 38],
    fibres: 25,
    ranges: {
      blue: { min: 3500, max: 5700, step: 0.77, r: 3000, pixels: 2858 },
      red: { min: 5400, max: 7000, step: 0.44, r: 7000, pixels: 3637 },
    },
    core: 2,
    products: twoArmIfs(
      '10**(-16)erg/(s.cm**2.Angstrom)',
      [['4-arcsec', '4-arcsec']],
      ['gas_velocity', 'gas_dispersion', 'halpha', 'hbeta', 'oiii5007', 'nii6583', 'sii6716', 'sii6731', 'oi6300'],
    ),
  },
  {
    name: 'manga',
    pretty: 'MaNGA',
    description:
      'Mapping Nearby Galaxies at APO: fibre bundles of 19 to 127 fibres on the SDSS 2.5-m telescope, feeding the BOSS spectrographs',
    themes: ['galaxy'],
    spaxel: 0.5,
    field: [74, 74],
    fibres: 381,
    ranges: {
      all: { min: 3622, max: 10354, step: null, r: 2000, pixels: 4563 },
      linear: { min: 3622, max: 10353, step: 1.0, r: 2000, pixels: 6732 },
    },
    core: 1,
    products: [
      ...(
        [
          ['logcube', 'Log-sampled cube', 'all', 'cube'],
          ['lincube', 'Linearly sampled cube', 'linear', 'cube'],
          ['logrss', 'Log-sampled row-stacked spectra', 'all', 'rss'],
          ['linrss', 'Linearly sampled row-stacked spectra', 'linear', 'rss'],
        ] as const
      ).map(([name, pretty, range, shape]): ProductDef => ({
        name,
        pretty,
        description: `${pretty}: flux, inverse variance and masks${shape === 'rss' ? ' of every fibre of every exposure' : ''}`,
        type: shape === 'cube' ? 'cube' : 'spectrum',
        arm: null,
        range,
        // The cube's size depends on the bundle.
        shape: shape === 'cube' ? null : shape,
        unit: '10**(-17)erg/(s.cm**2.Angstrom)',
        extensions: [
          ['PRIMARY', 'Header only: observation and reduction keywords'],
          ['FLUX', 'Flux'],
          ['IVAR', 'Inverse variance of the flux'],
          ['MASK', 'Quality bitmask of each pixel'],
          ['WAVE', 'Vacuum wavelength of each channel'],
          ['SPECRES', 'Median spectral resolution of each channel'],
          ['OBSINFO', 'The exposures combined'],
        ],
      })),
      ...maps([
        'stellar_velocity',
        'stellar_dispersion',
        'gas_velocity',
        'gas_dispersion',
        'halpha',
        'hbeta',
        'oiii5007',
        'nii6583',
        'sii6716',
        'oii3728',
      ]),
    ],
  },
  {
    name: 'muse',
    pretty: 'MUSE',
    description: 'The Multi Unit Spectroscopic Explorer on the VLT: a one-arcminute field sliced by 24 integral field units',
    themes: ['galaxy'],
    spaxel: 0.2,
    field: [320, 320],
    fibres: 1,
    ranges: { all: { min: 4750, max: 9350, step: 1.25, r: 3000, pixels: 3681 } },
    core: 1,
    products: [
      {
        name: 'cube',
        pretty: 'Reduced cube',
        description: 'Fully reduced, sky-subtracted and flux calibrated cube',
        type: 'cube',
        arm: null,
        range: 'all',
        shape: 'cube',
        unit: '10**(-20)erg/(s.cm**2.Angstrom)',
        extensions: [
          ['PRIMARY', 'Header only: observation and reduction keywords'],
          ['DATA', 'Flux'],
          ['STAT', 'Variance of the flux'],
          ['DQ', 'Data-quality flags'],
        ],
      },
      {
        name: 'white_light',
        pretty: 'White-light image',
        description: 'The cube collapsed over its whole wavelength range',
        type: 'map',
        arm: null,
        range: 'all',
        shape: 'map',
        unit: '10**(-20)erg/(s.cm**2.Angstrom)',
        extensions: [
          ['PRIMARY', 'Mean flux over the wavelength range'],
          ['STAT', 'Variance of the mean flux'],
        ],
      },
      ...maps([
        'stellar_velocity',
        'stellar_dispersion',
        'gas_velocity',
        'gas_dispersion',
        'halpha',
        'hbeta',
        'oiii5007',
        'nii6583',
        'sii6716',
        'sii6731',
        'sfr',
      ]),
    ],
  },
];

/** A fibre spectrograph's products: one spectrum per arm or CCD, and spliced ones. */
function fibreSpectra(
  items: readonly (readonly [
    name: string,
    pretty: string,
    arm: string | null,
    range: string,
    unit: string | null,
    shape: 'spectrum' | 'rss' | null,
  ])[],
  extensions: readonly (readonly [string, string])[],
): ProductDef[] {
  return items.map(([name, pretty, arm, range, unit, shape]) => ({
    name,
    pretty,
    description: `${pretty}${arm === null ? '' : ` (${arm} arm)`}${unit === null ? ', continuum normalised' : ''}`,
    type: 'spectrum',
    arm,
    range,
    shape,
    unit,
    extensions,
  }));
}

const SPECTRA_INSTRUMENTS: readonly InstrumentDef[] = [
  {
    name: 'hermes',
    pretty: 'HERMES',
    description: 'The High Efficiency and Resolution Multi-Element Spectrograph on the AAT: four channels fed by the 2dF fibre positioner',
    themes: ['stellar'],
    spaxel: null,
    field: [1, 1],
    fibres: 400,
    ranges: {
      blue: { min: 4713, max: 4903, step: 0.046, r: 28000, pixels: 4096 },
      green: { min: 5648, max: 5873, step: 0.055, r: 28000, pixels: 4096 },
      red: { min: 6478, max: 6737, step: 0.063, r: 28000, pixels: 4096 },
      ir: { min: 7585, max: 7887, step: 0.074, r: 28000, pixels: 4096 },
    },
    core: 4,
    products: fibreSpectra(
      [
        ['ccd1', 'Reduced spectrum, CCD 1', 'blue', 'blue', 'count', 'spectrum'],
        ['ccd2', 'Reduced spectrum, CCD 2', 'green', 'green', 'count', 'spectrum'],
        ['ccd3', 'Reduced spectrum, CCD 3', 'red', 'red', 'count', 'spectrum'],
        ['ccd4', 'Reduced spectrum, CCD 4', 'ir', 'ir', 'count', 'spectrum'],
        ['ccd1_norm', 'Normalised spectrum, CCD 1', 'blue', 'blue', null, 'spectrum'],
        ['ccd2_norm', 'Normalised spectrum, CCD 2', 'green', 'green', null, 'spectrum'],
        ['ccd3_norm', 'Normalised spectrum, CCD 3', 'red', 'red', null, 'spectrum'],
        ['ccd4_norm', 'Normalised spectrum, CCD 4', 'ir', 'ir', null, 'spectrum'],
      ],
      [
        ['PRIMARY', 'Reduced flux, sky subtracted'],
        ['RELATIVE_ERROR', 'Relative error of the flux'],
        ['NO_SKY_SUB', 'Reduced flux before sky subtraction'],
        ['SKY', 'The sky spectrum subtracted'],
        ['NORMALISED', 'Continuum-normalised flux in the rest frame'],
        ['NORMALISED_ERROR', 'Relative error of the normalised flux'],
      ],
    ),
  },
  {
    name: 'aaomega',
    pretty: 'AAOmega',
    description: 'The AAOmega dual-beam spectrograph on the AAT, fed by the 392 fibres of the 2dF positioner',
    themes: ['galaxy', 'stellar'],
    spaxel: null,
    field: [1, 1],
    fibres: 400,
    ranges: {
      blue: { min: 3700, max: 5800, step: 1.03, r: 1300, pixels: 2048 },
      red: { min: 5600, max: 8800, step: 1.57, r: 1600, pixels: 2048 },
      all: { min: 3700, max: 8800, step: 1.0, r: 1300, pixels: 5101 },
    },
    core: 1,
    products: fibreSpectra(
      [
        ['spliced', 'Spliced, flux-calibrated spectrum', null, 'all', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['blue', 'Blue-arm spectrum (580V grating)', 'blue', 'blue', 'count', 'spectrum'],
        ['red', 'Red-arm spectrum (385R grating)', 'red', 'red', 'count', 'spectrum'],
        ['blue_frames', 'Blue-arm spectra of every fibre of a frame', 'blue', 'blue', 'count', 'rss'],
        ['red_frames', 'Red-arm spectra of every fibre of a frame', 'red', 'red', 'count', 'rss'],
      ],
      [
        ['PRIMARY', 'Flux'],
        ['VARIANCE', 'Variance of the flux'],
        ['SKY', 'The sky spectrum subtracted'],
        ['FIBRES', 'Fibre table of the observation'],
      ],
    ),
  },
  {
    name: 'apogee',
    pretty: 'APOGEE',
    description: 'The APOGEE near-infrared spectrograph: 300 fibres, three detectors across the H band',
    themes: ['stellar'],
    spaxel: null,
    field: [1, 1],
    fibres: 300,
    ranges: {
      blue: { min: 15140, max: 15810, step: 0.33, r: 22500, pixels: 2048 },
      green: { min: 15850, max: 16440, step: 0.29, r: 22500, pixels: 2048 },
      red: { min: 16470, max: 16960, step: 0.24, r: 22500, pixels: 2048 },
      all: { min: 15100, max: 17000, step: null, r: 22500, pixels: 8575 },
    },
    core: 1,
    products: fibreSpectra(
      [
        ['apstar', 'Combined spectrum of each star', null, 'all', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['aspcap_model', 'Best-fitting model spectrum', null, 'all', null, 'spectrum'],
        ['apvisit_a', 'Visit spectrum, detector a', 'blue', 'blue', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['apvisit_b', 'Visit spectrum, detector b', 'green', 'green', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['apvisit_c', 'Visit spectrum, detector c', 'red', 'red', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
      ],
      [
        ['PRIMARY', 'Header only: target and observation keywords'],
        ['FLUX', 'Flux'],
        ['ERROR', '1-sigma error of the flux'],
        ['MASK', 'Pixel bitmask'],
        ['WAVELENGTH', 'Vacuum wavelength of each pixel'],
      ],
    ),
  },
  {
    name: '2df',
    pretty: '2dF',
    description: 'The original two-degree field spectrographs on the AAT, 400 fibres with the 300B grating',
    themes: ['galaxy'],
    spaxel: null,
    field: [1, 1],
    fibres: 400,
    ranges: { all: { min: 3600, max: 8000, step: 4.3, r: 650, pixels: 1024 } },
    core: 1,
    products: fibreSpectra(
      [
        ['spectrum', 'Reduced spectrum', null, 'all', 'count', 'spectrum'],
        ['frames', 'Reduced spectra of every fibre of a frame', null, 'all', 'count', 'rss'],
      ],
      [
        ['PRIMARY', 'Flux'],
        ['VARIANCE', 'Variance of the flux'],
        ['SKY', 'The sky spectrum subtracted'],
      ],
    ),
  },
  {
    name: '6df',
    pretty: '6dF',
    description: 'The six-degree field multi-object spectrograph on the UK Schmidt Telescope, observing with the V and R gratings in turn',
    themes: ['galaxy', 'stellar'],
    spaxel: null,
    field: [1, 1],
    fibres: 150,
    ranges: {
      v: { min: 3900, max: 5600, step: 1.6, r: 1000, pixels: 1032 },
      r: { min: 5400, max: 7500, step: 2.0, r: 1600, pixels: 1032 },
      all: { min: 3900, max: 7500, step: null, r: 1000, pixels: 1838 },
    },
    core: 1,
    products: fibreSpectra(
      [
        ['vr', 'Spliced V and R spectrum', null, 'all', 'count', 'spectrum'],
        ['v', 'V-grating spectrum', 'v', 'v', 'count', 'spectrum'],
        ['r', 'R-grating spectrum', 'r', 'r', 'count', 'spectrum'],
      ],
      [
        ['PRIMARY', 'Flux'],
        ['VARIANCE', 'Variance of the flux'],
        ['SKY', 'The sky spectrum subtracted'],
      ],
    ),
  },
  {
    name: 'boss',
    pretty: 'BOSS',
    description: 'The BOSS spectrographs on the SDSS 2.5-m telescope: two blue and two red cameras, 1000 fibres',
    themes: ['galaxy'],
    spaxel: null,
    field: [1, 1],
    fibres: 500,
    ranges: {
      blue: { min: 3600, max: 6350, step: null, r: 1800, pixels: 4112 },
      red: { min: 5650, max: 10400, step: null, r: 2200, pixels: 4128 },
      all: { min: 3600, max: 10400, step: null, r: 2000, pixels: 4648 },
    },
    core: 1,
    products: fibreSpectra(
      [
        ['spec', 'Coadded spectrum of each object', null, 'all', '10**(-17)erg/(s.cm**2.Angstrom)', null],
        ['spec_lite', 'Coadded spectrum without the single exposures', null, 'all', '10**(-17)erg/(s.cm**2.Angstrom)', null],
        ['cframe_b1', 'Calibrated frame, camera b1', 'blue', 'blue', '10**(-17)erg/(s.cm**2.Angstrom)', 'rss'],
        ['cframe_b2', 'Calibrated frame, camera b2', 'blue', 'blue', '10**(-17)erg/(s.cm**2.Angstrom)', 'rss'],
        ['cframe_r1', 'Calibrated frame, camera r1', 'red', 'red', '10**(-17)erg/(s.cm**2.Angstrom)', 'rss'],
        ['cframe_r2', 'Calibrated frame, camera r2', 'red', 'red', '10**(-17)erg/(s.cm**2.Angstrom)', 'rss'],
      ],
      [
        ['PRIMARY', 'Header only: plate, MJD and fibre keywords'],
        ['COADD', 'Coadded flux, inverse variance, masks, sky and model'],
        ['SPALL', 'Photometric and spectroscopic parameters of the object'],
        ['SPZLINE', 'Emission-line fits'],
      ],
    ),
  },
  {
    name: '4most',
    pretty: '4MOST',
    description: 'The 4-metre Multi-Object Spectroscopic Telescope on VISTA: 1624 fibres into the low-resolution spectrographs',
    themes: ['galaxy', 'stellar'],
    spaxel: null,
    field: [1, 1],
    fibres: 812,
    ranges: {
      blue: { min: 3700, max: 5540, step: 0.3, r: 5000, pixels: 6134 },
      green: { min: 5150, max: 7130, step: 0.33, r: 6000, pixels: 6000 },
      red: { min: 6830, max: 9500, step: 0.42, r: 7000, pixels: 6358 },
      all: { min: 3700, max: 9500, step: 0.25, r: 5000, pixels: 23201 },
    },
    core: 1,
    products: fibreSpectra(
      [
        ['lrs_joined', 'Joined low-resolution spectrum', null, 'all', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['lrs_blue', 'Low-resolution spectrum, blue arm', 'blue', 'blue', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['lrs_green', 'Low-resolution spectrum, green arm', 'green', 'green', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
        ['lrs_red', 'Low-resolution spectrum, red arm', 'red', 'red', '10**(-17)erg/(s.cm**2.Angstrom)', 'spectrum'],
      ],
      [
        ['PRIMARY', 'Header only: target and observation keywords'],
        ['FLUX', 'Flux'],
        ['ERR_FLUX', '1-sigma error of the flux'],
        ['QUAL', 'Quality flags of each pixel'],
      ],
    ),
  },
];

// ---- The generator ---------------------------------------------------------------------------------

const VERSIONS: readonly string[] = ['v08', 'v07', 'v02', 'v10', 'V0.12.1', 'V1.0', 'DR3', 'DR2', '200604', '201101', '3', '2', 'v1.2.3'];

/** Column shapes: most tables are middling, some shallow, some deep. */
function tableWidth(rng: Rng): number {
  const roll = rng.next();
  if (roll < 0.35) return rng.int(3, 10);
  if (roll < 0.82) return rng.int(11, 80);
  return rng.int(100, 400);
}

/** Group shapes: many tables, a few, or one. */
function groupTableCount(rng: Rng): number {
  const roll = rng.next();
  if (roll < 0.4) return rng.int(5, 16);
  if (roll < 0.65) return rng.int(2, 4);
  return 1;
}

/** What a release holds; 'ifs' and 'spectra' releases hold that and nothing else. */
type ReleaseKind = 'catalogues' | 'imaging' | 'both' | 'ifs' | 'spectra';

interface ReleasePlan {
  survey: SurveyPlan;
  name: string;
  pretty: string;
  number: number;
  version: number;
  kind: ReleaseKind;
  span: Span;
  columns: number;
  regions: number;
}

interface SurveyPlan {
  def: SurveyDef;
  id: number;
  name: string;
  upper: boolean;
  contact: Contact;
  releases: ReleasePlan[];
}

type IdKind =
  'group' | 'table' | 'column' | 'facility' | 'band' | 'region' | 'ifsFacility' | 'ifsProduct' | 'spectraFacility' | 'spectraProduct';

class Generator {
  readonly files = new Map<string, string>();
  readonly stats: ArchiveStats = {
    files: 0,
    surveys: 0,
    releases: 0,
    groups: 0,
    tables: 0,
    columns: 0,
    facilities: 0,
    bands: 0,
    regions: 0,
    ifsFacilities: 0,
    ifsProducts: 0,
    spectraFacilities: 0,
    spectraProducts: 0,
    bytes: 0,
  };
  private readonly rng: Rng;
  /**
   * The IFS and spectra data draw from a stream of their own, so that adding them left every
   * catalogue and imaging file as it was, byte for byte, and changing them never moves those.
   */
  private readonly productRng: Rng;
  private readonly ids: Record<IdKind, number> = {
    group: 0,
    table: 0,
    column: 0,
    facility: 0,
    band: 0,
    region: 0,
    ifsFacility: 0,
    ifsProduct: 0,
    spectraFacility: 0,
    spectraProduct: 0,
  };

  constructor(private readonly spec: SizeSpec) {
    this.rng = new Rng(spec.seed);
    // Billions of draws away from the first stream's start for every size, so the two never overlap.
    this.productRng = new Rng(spec.seed ^ 0x9e3779b9);
  }

  /** The next id of a kind; now and then one is skipped, as deleted items leave gaps. */
  private nextId(kind: IdKind, rng = this.rng): number {
    this.ids[kind] += rng.chance(0.03) ? rng.int(2, 5) : 1;
    return this.ids[kind];
  }

  private add(relative: string, out: Out): void {
    const text = out.text();
    this.files.set(relative, text);
    this.stats.files++;
    this.stats.bytes += Buffer.byteLength(text, 'utf8');
  }

  run(): void {
    const rng = this.rng;
    const surveys = this.planSurveys();
    const releases = surveys.flatMap((s) => s.releases);
    const catalogueReleases = releases.filter((r) => r.kind !== 'imaging');
    const imagingReleases = releases.filter((r) => r.kind !== 'catalogues');
    rng.split(this.spec.columns, catalogueReleases.length, 3).forEach((n, i) => (at(catalogueReleases, i).columns = n));
    rng.split(this.spec.regions, imagingReleases.length, 1).forEach((n, i) => (at(imagingReleases, i).regions = n));
    for (const survey of surveys) {
      this.writeSurvey(survey);
      for (const release of survey.releases) {
        this.writeRelease(release);
        if (release.columns > 0) this.writeGroups(release);
        if (release.regions > 0) this.writeFacilities(release);
      }
    }
    this.writeProducts(surveys);
  }

  private planSurveys(): SurveyPlan[] {
    const rng = this.rng;
    const defs = rng.shuffle(SURVEYS);
    const plans: SurveyPlan[] = [];
    let id = 0;
    let releaseIndex = 0;
    for (let s = 0; s < this.spec.surveys; s++) {
      const base = at(defs, s % defs.length);
      const round = Math.floor(s / defs.length);
      const name = round === 0 ? base.name : `${base.name}-${round + 1}`;
      id += rng.chance(0.1) ? 2 : 1;
      const plan: SurveyPlan = {
        def: base,
        id,
        name,
        upper: base.theme === 'galaxy' || rng.chance(0.5),
        contact: { name: `${base.pretty} Team`, email: `${name}-team@example.org` },
        releases: [],
      };
      const count = rng.int(1, 4);
      const early = rng.chance(0.15);
      let year = rng.int(2006, 2016);
      for (let r = 0; r < count; r++) {
        const number = early ? r : r + 1;
        // The first three releases of the archive cover every kind, so even S has each shape.
        const forced: ReleaseKind | undefined = (['both', 'catalogues', 'imaging'] as const)[releaseIndex];
        const roll = rng.next();
        const kind: ReleaseKind = forced ?? (roll < 0.45 ? 'catalogues' : roll < 0.7 ? 'imaging' : 'both');
        const created = Date.UTC(year, rng.int(0, 11), rng.int(1, 28));
        plan.releases.push({
          survey: plan,
          name: number === 0 ? 'edr' : `dr${number}`,
          pretty: number === 0 ? 'Early Data Release' : `Data Release ${number}`,
          number,
          version: rng.pick([number, number + 0.1, Number(`0.${10 + number}`), number + 0.5]),
          kind,
          span: { created, updated: created + rng.int(0, 400) * DAY + rng.int(0, 86_399) * 1000 },
          columns: 0,
          regions: 0,
        });
        year += rng.int(1, 2);
        releaseIndex++;
      }
      plans.push(plan);
      this.stats.surveys++;
    }
    return plans;
  }

  private writeSurvey(survey: SurveyPlan): void {
    const def = survey.def;
    const out = new Out();
    out.raw('# yaml-language-server: $schema=../../schemas/survey.schema.json\n');
    out.line('', 'id', String(survey.id));
    out.str('', 'name', survey.name);
    out.str('', 'pretty_name', def.pretty);
    out.str('', 'title', def.title);
    out.str(
      '',
      'description',
      `<p>The ${def.title} (${def.pretty}) is ${def.about}. Its data releases are organised in groups of catalogues and imaging, described table by table and column by column.</p>`,
    );
    out.str('', 'pi', def.pi);
    out.line('', 'contact', contactText(survey.contact));
    out.str('', 'website', `https://www.example.org/surveys/${survey.name}/`);
    out.line('', 'active', String(this.rng.chance(0.75)));
    this.add(`${survey.name}/survey.yaml`, out);
  }

  private writeRelease(release: ReleasePlan, rng = this.rng): void {
    const out = new Out();
    out.raw('# yaml-language-server: $schema=../../../schemas/release.schema.json\n');
    out.str('', 'name', release.name);
    out.str('', 'pretty_name', release.pretty);
    out.line('', 'version', yamlFloat(release.version));
    out.line('', 'data_release_number', String(release.number));
    out.line('', 'contact', contactText(release.survey.contact));
    spanLines(out, '', release.span, rng);
    this.add(`${release.survey.name}/${release.name}/release.yaml`, out);
    this.stats.releases++;
  }

  /** A span for a group or facility: around the release, sometimes years before it. */
  private rootSpan(release: ReleasePlan, rng = this.rng): Span {
    const created = release.span.created - rng.int(0, 700) * DAY + rng.int(0, 1439) * 60_000;
    return { created, updated: created + rng.int(0, 1500) * DAY + rng.int(0, 1439) * 60_000 };
  }

  private optionalContact(out: Out, indent: string, survey: SurveyPlan, pSet: number, pNull: number, rng = this.rng): void {
    const roll = rng.next();
    if (roll < pSet) out.line(indent, 'contact', contactText(survey.contact));
    else if (roll < pSet + pNull) out.line(indent, 'contact', 'null');
  }

  /** One to three paragraphs of HTML notes about `subject`, as curators paste them from release notes. */
  private documentation(subject: string, release: ReleasePlan, rng = this.rng): string {
    const url = `https://www.example.org/surveys/${release.survey.name}/${release.name}/`;
    const paragraphs = [
      `<p>See the <a href="${url}">${release.pretty} release notes</a> for how ${subject} was derived.</p>`,
      `<p>${subject} is described in detail in the ${release.pretty} paper; please cite it when you use these values.</p>`,
      '<ul><li>Values of -999 mark missing data.</li><li>Errors are 1-sigma.</li><li>Upper limits are flagged, not replaced.</li></ul>',
      `<p>Use with care: ${subject} was superseded in part by later releases. Questions go to the team's help desk.</p>`,
      `<p>Processing of ${subject}:</p><ol><li>source extraction</li><li>cross-matching to the input catalogue</li><li>quality control by eye</li></ol>`,
      `<p>Compared with the previous release, ${subject} uses the recalibrated zero points and the improved sky subtraction; differences are typically below 0.02 mag.</p>`,
      '<p>The values are <em>not</em> corrected for aperture effects; multiply by the aperture-to-total factor of the same row to obtain totals.</p>',
      '<p>Units follow the IVOA VOUnits recommendation; dimensionless quantities carry the unit <code>-</code>.</p>',
    ];
    return rng.shuffle(paragraphs).slice(0, rng.int(1, 3)).join('');
  }

  // ---- Catalogues --------------------------------------------------------------------------------

  private writeGroups(release: ReleasePlan): void {
    const rng = this.rng;
    const survey = release.survey;
    const kinds = rng.shuffle(survey.def.theme === 'stellar' ? STELLAR_GROUPS : GALAXY_GROUPS);
    const used = new Set<string>();
    let left = release.columns;
    for (let g = 0; left > 0; g++) {
      const kind = at(kinds, g % kinds.length);
      let name = at(kind.names, Math.floor(g / kinds.length) % kind.names.length);
      for (let n = 2; used.has(name.toLowerCase()); n++) name = `${at(kind.names, 0)}_v${n}`;
      used.add(name.toLowerCase());
      // Keep the last group from ending on a sliver: whatever is left over goes to it.
      const widths: number[] = [];
      const count = groupTableCount(rng);
      for (let t = 0; t < count && left > 0; t++) {
        let width = Math.min(tableWidth(rng), left);
        if (left - width < 3) width = left;
        widths.push(width);
        left -= width;
      }
      this.writeGroup(release, kind, name, widths);
    }
  }

  private writeGroup(release: ReleasePlan, kind: GroupKind, name: string, widths: readonly number[]): void {
    const rng = this.rng;
    const survey = release.survey;
    const out = new Out();
    const span = this.rootSpan(release);
    out.raw('# yaml-language-server: $schema=../../../../schemas/catalogue-group.schema.json\n');
    out.line('', 'id', String(this.nextId('group')));
    out.str('', 'name', name);
    if (rng.chance(0.8)) out.str('', 'pretty_name', kind.pretty);
    if (rng.chance(0.9)) out.str('', 'description', kind.description);
    if (rng.chance(0.3)) out.str('', 'documentation', this.documentation(`the ${kind.pretty.toLowerCase()}`, release));
    if (rng.chance(0.1)) {
      out.str('', 'file_path', `/${survey.name}/${release.name}/catalogues/`);
      out.str('', 'file_name', `${name}.tar.gz`);
    }
    if (rng.chance(0.6)) out.str('', 'version', rng.pick(VERSIONS));
    spanLines(out, '', span, rng);
    this.optionalContact(out, '', survey, 0.7, 0.15);
    out.raw('tables:\n');
    const tableNames = new Set<string>();
    widths.forEach((width, t) => {
      let table = at(kind.tables, t % kind.tables.length);
      if (rng.chance(0.3)) table += rng.pick(['v08', 'v02', 'v10', 'DR3', 'v1']);
      const base = table;
      for (let n = 2; tableNames.has(table.toLowerCase()); n++) table = `${base}_${n}`;
      tableNames.add(table.toLowerCase());
      this.writeTable(out, release, kind, name, table, width, span);
    });
    this.add(`${survey.name}/${release.name}/catalogues/${name}.yaml`, out);
    this.stats.groups++;
  }

  private writeTable(out: Out, release: ReleasePlan, kind: GroupKind, group: string, name: string, width: number, parent: Span): void {
    const rng = this.rng;
    const survey = release.survey;
    const I = '    ';
    out.raw(`  - id: ${this.nextId('table')}\n`);
    out.line(I, 'name', yamlScalar(name));
    if (rng.chance(0.4)) out.str(I, 'pretty_name', name.replace(/([a-z])([A-Z])/g, '$1 $2'));
    if (rng.chance(0.9))
      out.str(
        I,
        'description',
        `${kind.pretty} from ${survey.def.pretty} ${release.pretty}: ${name}${rng.chance(0.5) ? ', one row per object' : ''}.`,
      );
    if (rng.chance(0.15)) out.str(I, 'documentation', this.documentation(name, release));
    if (rng.chance(0.75)) {
      out.str(I, 'file_path', `/${survey.name}/${release.name}/catalogues/${group}/`);
      out.str(I, 'file_name', `${name}.${rng.pick(['fits', 'fits', 'fits', 'csv', 'parquet'])}`);
    }
    if (rng.chance(0.5)) out.str(I, 'version', rng.pick(VERSIONS));
    let span = parent;
    if (rng.chance(0.3)) {
      const own = overrideSpan(parent, rng);
      span = own.span;
      spanLines(out, I, span, rng, own.which);
    }
    this.optionalContact(out, I, survey, 0.15, 0.15);
    if (rng.chance(0.6)) out.line(I, 'input_cat', String(rng.chance(0.1)));
    out.raw(`${I}columns:\n`);
    for (const spec of this.columnsFor(kind, survey, width)) this.writeColumn(out, release, spec, span);
    this.stats.tables++;
  }

  /** The table's columns: lead families first, then the body in a random order, then variants. */
  private columnsFor(kind: GroupKind, survey: SurveyPlan, width: number): ColumnSpec[] {
    const rng = this.rng;
    const systems = kind.systems.length === 0 ? [1] : kind.systems.filter(() => rng.chance(0.6));
    const chosen = systems.length > 0 ? systems : [rng.pick(kind.systems.length > 0 ? kind.systems : [1])];
    const ctx: TableContext = { bands: chosen.flatMap((s) => at(PHOT_SYSTEMS, s)), upper: survey.upper, rng };
    const out: ColumnSpec[] = [];
    const seen = new Set<string>();
    const take = (specs: readonly ColumnSpec[]) => {
      for (const spec of specs) {
        if (out.length >= width) return;
        const name = ctx.upper ? spec.name : spec.name.toLowerCase();
        if (seen.has(name)) continue;
        seen.add(name);
        out.push(name === spec.name ? spec : { ...spec, name });
      }
    };
    for (const family of kind.lead) take(family(ctx));
    for (const family of rng.shuffle(kind.body)) take(family(ctx));
    for (let k = 1; out.length < width; k++) take(extension(ctx, k, survey.def.theme));
    return out;
  }

  private writeColumn(out: Out, release: ReleasePlan, spec: ColumnSpec, parent: Span): void {
    const rng = this.rng;
    const I = '        ';
    out.raw(`      - id: ${this.nextId('column')}\n`);
    out.line(I, 'name', yamlScalar(spec.name));
    if (rng.chance(COLUMN_EXTRAS.prettyName)) out.str(I, 'pretty_name', spec.name.replaceAll('_', ' ').toLowerCase());
    const roll = rng.next();
    if (roll < 0.92) {
      const extra = rng.chance(COLUMN_EXTRAS.qualifier) ? qualifier(spec.ucd, rng) : '';
      out.str(I, 'description', spec.description + extra);
    } else if (roll < 0.96) {
      out.str(I, 'description', '-');
    }
    if (rng.chance(COLUMN_EXTRAS.documentation)) out.str(I, 'documentation', this.documentation(spec.name, release));
    if (rng.chance(0.01)) out.str(I, 'version', rng.pick(VERSIONS));
    if (rng.chance(COLUMN_EXTRAS.ownSpan)) {
      const own = overrideSpan(parent, rng);
      spanLines(out, I, own.span, rng, own.which);
    }
    const contactRoll = rng.next();
    if (contactRoll < 0.005) out.line(I, 'contact', contactText(release.survey.contact));
    else if (contactRoll < 0.015) out.line(I, 'contact', 'null');
    const ucdRoll = rng.next();
    if (ucdRoll < 0.86) out.str(I, 'ucd', spec.ucd);
    else if (ucdRoll < 0.94) out.str(I, 'ucd', '-');
    if (spec.unit !== '-') {
      out.str(I, 'unit', spec.unit);
    } else {
      // '-' and None both mean no unit; leaving the key out means the same.
      const unitRoll = rng.next();
      if (unitRoll < 0.8) out.str(I, 'unit', '-');
      else if (unitRoll < 0.9) out.str(I, 'unit', 'None');
    }
    const [datatype, arraysize] = columnType(spec);
    out.str(I, 'datatype', datatype);
    if (arraysize) out.str(I, 'arraysize', arraysize);
    this.stats.columns++;
  }

  // ---- Imaging -----------------------------------------------------------------------------------

  private writeFacilities(release: ReleasePlan): void {
    const rng = this.rng;
    const count = Math.max(1, Math.min(rng.int(1, 4), Math.floor(release.regions / 4)));
    const defs = rng.shuffle(FACILITIES).slice(0, count);
    rng.split(release.regions, defs.length, 1).forEach((budget, i) => this.writeFacility(release, at(defs, i), budget));
  }

  private writeFacility(release: ReleasePlan, def: FacilityDef, budget: number): void {
    const rng = this.rng;
    const survey = release.survey;
    const out = new Out();
    const span = this.rootSpan(release);
    out.raw('# yaml-language-server: $schema=../../../../schemas/imaging-facility.schema.json\n');
    out.line('', 'id', String(this.nextId('facility')));
    out.str('', 'name', def.name);
    if (rng.chance(0.85)) out.str('', 'pretty_name', def.pretty);
    if (rng.chance(0.9)) out.str('', 'description', `${def.description} over the ${survey.def.pretty} fields`);
    if (rng.chance(0.2)) out.str('', 'documentation', this.documentation(`the ${def.name} imaging`, release));
    if (rng.chance(0.3)) out.str('', 'version', rng.pick(VERSIONS));
    spanLines(out, '', span, rng);
    this.optionalContact(out, '', survey, 0.75, 0.1);
    out.raw('bands:\n');
    // Fewer regions than bands: keep a random subset of the bands, in wavelength order.
    let bands = def.bands.slice();
    if (budget < bands.length)
      bands = rng
        .shuffle(bands.map((_, i) => i))
        .slice(0, budget)
        .sort((a, b) => a - b)
        .map((i) => at(def.bands, i));
    const base = Math.floor(budget / bands.length);
    const extra = budget % bands.length;
    const tiles = this.tiles(def, base + (extra > 0 ? 1 : 0));
    bands.forEach((band, b) => this.writeBand(out, release, def, band, tiles.slice(0, base + (b < extra ? 1 : 0)), span));
    this.add(`${survey.name}/${release.name}/imaging/${def.name}.yaml`, out);
    this.stats.facilities++;
  }

  /** Tile centres spread evenly over the sphere, named in the facility's own convention. */
  private tiles(def: FacilityDef, count: number): Tile[] {
    const rng = this.rng;
    const out: Tile[] = [];
    const names = new Set<string>();
    const digits = def.style === 'iau' ? 4 : def.style === 'sdss' ? 3 : 1;
    while (out.length < count) {
      let ra = Number(decimal(rng.range(0, 360), digits));
      if (ra >= 360) ra -= 360;
      const dec = Number(decimal((Math.asin(rng.range(-1, 1)) * 180) / Math.PI, digits));
      const name = tileName(def, ra, dec, rng);
      if (names.has(name)) continue;
      names.add(name);
      out.push({ name, ra, dec, raText: decimal(ra, digits), decText: decimal(dec, digits) });
    }
    return out;
  }

  private writeBand(
    out: Out,
    release: ReleasePlan,
    def: FacilityDef,
    band: FacilityDef['bands'][number],
    tiles: readonly Tile[],
    parent: Span,
  ): void {
    const rng = this.rng;
    const [name, pivot, filter] = band;
    const I = '    ';
    out.raw(`  - id: ${this.nextId('band')}\n`);
    out.line(I, 'name', yamlScalar(name));
    if (rng.chance(0.7)) out.str(I, 'pretty_name', `${def.name} ${name}`);
    if (rng.chance(0.8)) out.str(I, 'description', `${def.instrume} ${filter} band, pivot wavelength ${pivot} Angstrom`);
    let span = parent;
    if (rng.chance(0.1)) {
      const own = overrideSpan(parent, rng);
      span = own.span;
      spanLines(out, I, span, rng, own.which);
    }
    out.line(I, 'central_wave_ang', String(pivot));
    out.raw(`${I}regions:${tiles.length === 0 ? ' []' : ''}\n`);
    for (const tile of tiles) this.writeRegion(out, release, def, band, tile, span);
    this.stats.bands++;
  }

  private writeRegion(
    out: Out,
    release: ReleasePlan,
    def: FacilityDef,
    band: FacilityDef['bands'][number],
    tile: Tile,
    parent: Span,
  ): void {
    const rng = this.rng;
    const survey = release.survey;
    const [bandName, , filter, instrument] = band;
    const I = '        ';
    out.raw(`      - id: ${this.nextId('region')}\n`);
    out.line(I, 'name', yamlScalar(tile.name));
    if (rng.chance(0.1)) out.str(I, 'pretty_name', `${def.prefix} ${tile.name} (${bandName})`);
    if (rng.chance(0.9))
      out.str(
        I,
        'description',
        `${def.name} ${bandName}-band coadd of tile ${tile.name}, centred on RA ${tile.raText}, Dec ${tile.decText}`,
      );
    if (rng.chance(0.85)) {
      out.str(I, 'file_path', `/${survey.name}/${release.name}/imaging/${def.name}/${bandName}/`);
      out.str(I, 'file_name', `${tile.name}_${def.name}_${bandName}.fits`);
    }
    if (rng.chance(0.05)) out.str(I, 'version', rng.pick(VERSIONS));
    if (rng.chance(0.05)) {
      const own = overrideSpan(parent, rng);
      spanLines(out, I, own.span, rng, own.which);
    }
    out.line(I, 'ra_c', yamlScalar(tile.raText));
    out.line(I, 'dec_c', yamlScalar(tile.decText));
    out.line(I, 'unit', 'deg');
    const fk5 = rng.chance(0.1);
    out.line(I, 'frame', fk5 ? 'fk5' : 'icrs');
    out.line(I, 'equinox', 'j2000');
    out.raw(`${I}fits_header:\n`);
    const cards = this.header(release, def, filter, instrument ?? def.instrume, tile, fk5);
    const C = '          ';
    for (const [key, value, comment] of cards) out.raw(`${C}${key}: [${value}, ${yamlScalar(comment, true)}]\n`);
    this.stats.regions++;
  }

  /** A SWarp coadd header of exactly `cards` cards; values already written as YAML flow scalars. */
  private header(
    release: ReleasePlan,
    def: FacilityDef,
    filter: string,
    instrument: string,
    tile: Tile,
    fk5: boolean,
  ): [string, string, string][] {
    const rng = this.rng;
    const s = (text: string) => yamlScalar(text, true);
    const naxis1 = Math.round(((def.tile * 3600) / def.scale) * rng.range(0.97, 1.03));
    const naxis2 = Math.round(((def.tile * 3600) / def.scale) * rng.range(0.97, 1.03));
    const cd = Number((def.scale / 3600).toPrecision(13));
    const observed = release.span.created - rng.int(30, 1500) * DAY + rng.int(0, 86_399_999);
    const processed = release.span.created - rng.int(1, 30) * DAY + rng.int(0, 86_399) * 1000;
    const mjd = Number((observed / DAY + 40587).toFixed(5));
    const cards: [string, string, string][] = [
      ['SIMPLE', 'true', 'conforms to FITS standard'],
      ['BITPIX', '-32', 'array data type'],
      ['NAXIS', '2', 'number of array dimensions'],
      ['NAXIS1', String(naxis1), ''],
      ['NAXIS2', String(naxis2), ''],
      ['EQUINOX', '2000.0', 'Mean equinox'],
      ['RADESYS', fk5 ? 'FK5' : 'ICRS', 'Astrometric system'],
      ['CTYPE1', 'RA---TAN', 'WCS projection type for this axis'],
      ['CUNIT1', 'deg', 'Axis unit'],
      ['CRVAL1', yamlFloat(tile.ra), 'World coordinate on this axis'],
      ['CRPIX1', yamlFloat(naxis1 / 2 + 0.5), 'Reference pixel on this axis'],
      ['CD1_1', (-cd).toExponential(), 'Linear projection matrix'],
      ['CD1_2', '0.0', 'Linear projection matrix'],
      ['CTYPE2', 'DEC--TAN', 'WCS projection type for this axis'],
      ['CUNIT2', 'deg', 'Axis unit'],
      ['CRVAL2', yamlFloat(tile.dec), 'World coordinate on this axis'],
      ['CRPIX2', yamlFloat(naxis2 / 2 + 0.5), 'Reference pixel on this axis'],
      ['CD2_1', '0.0', 'Linear projection matrix'],
      ['CD2_2', cd.toExponential(), 'Linear projection matrix'],
      ['EXPTIME', yamlFloat(rng.chance(0.5) ? 1 : rng.int(2, 40) * 30), 'Maximum equivalent exposure time (s)'],
      ['GAIN', yamlFloat(def.gain), 'Maximum equivalent gain (e-/ADU)'],
      ['SATURATE', yamlFloat(def.saturate), 'Saturation Level (ADU)'],
      ['BUNIT', s(def.bunit), 'Physical unit of array values'],
      ['MAGZEROP', yamlFloat(def.zeropoint), 'AB magnitude zero point'],
      ['SOFTNAME', 'SWarp', 'The software that processed those data'],
      ['SOFTVERS', s(rng.pick(['2.38.0', '2.41.5', '2.19.1'])), 'Version of the software'],
      ['SOFTDATE', s('2016-03-14'), 'Release date of the software'],
      ['SOFTAUTH', s('2010-2012 IAP/CNRS/UPMC'), 'Maintainer of the software'],
      ['SOFTINST', s('IAP  http://www.iap.fr'), 'Institute'],
      ['AUTHOR', s(release.survey.name), 'Who ran the software'],
      ['ORIGIN', s(rng.pick(['ICRAR', 'AAO', 'ESO', 'IPAC'])), 'Where it was done'],
      ['DATE', s(fitsDate(processed)), 'When it was started (GMT)'],
      ['COMBINET', 'WEIGHTED', 'COMBINE_TYPE config parameter for SWarp'],
      ['RESAMPT1', 'LANCZOS3', 'RESAMPLING_TYPE config parameter'],
      ['RESAMPT2', 'LANCZOS3', 'RESAMPLING_TYPE config parameter'],
      ['CENTERT1', 'MANUAL', 'CENTER_TYPE config parameter'],
      ['CENTERT2', 'MANUAL', 'CENTER_TYPE config parameter'],
      ['PSCALET1', 'MANUAL', 'PIXELSCALE_TYPE config parameter'],
      ['PSCALET2', 'MANUAL', 'PIXELSCALE_TYPE config parameter'],
      ['FILTER', s(filter), 'Filter name'],
      ['TELESCOP', s(def.telescop), 'Telescope name'],
      ['INSTRUME', s(instrument), 'Instrument name'],
      ['OBJECT', s(tile.name), 'Survey tile'],
      ['DATE-OBS', s(fitsDate(observed, true)), 'Date of the first exposure (UTC)'],
      ['MJD-OBS', yamlFloat(mjd), 'Modified Julian date of the first exposure'],
    ];
    cards.length = Math.min(cards.length, this.spec.cards);
    // SWarp records every input exposure; these fill the header up to the requested size.
    for (let n = 1; cards.length < this.spec.cards; n++) {
      const frame = `/data/${release.survey.name}/${release.name}/raw/${def.name}/${filter}/${instrument.replace(/[^A-Za-z0-9]+/g, '')}.${fitsDate(observed + (n - 1) * 600_000, true)}`;
      const perExposure: [string, string, string][] = [
        [`FILE${pad4(n)}`, s(`${frame}.fits`), 'Input filename'],
        [`WGHT${pad4(n)}`, s(`${frame}.weight.fits`), 'Input weight-map'],
        [`FLXSC${pad3(n)}`, yamlFloat(Number(rng.range(0.8, 1.25).toFixed(6))), 'Input flux scaling factor'],
        [`SUBF${pad4(n)}`, 'true', 'Background subtracted'],
        [`BCKS${pad4(n)}`, String(rng.pick([64, 128, 256])), 'Background mesh size (pixels)'],
      ];
      for (const card of perExposure) if (cards.length < this.spec.cards) cards.push(card);
    }
    return cards;
  }

  // ---- IFS and spectra ---------------------------------------------------------------------------
  // Everything from here on draws from productRng alone.

  /**
   * The IFS and spectra facilities: first in releases of their own, added after a survey's last
   * release and holding nothing else, then in releases that have catalogues, imaging or both.
   */
  private writeProducts(surveys: readonly SurveyPlan[]): void {
    const rng = this.productRng;
    const galaxy = surveys.filter((s) => s.def.theme === 'galaxy');
    const ifsSurveys = galaxy.length > 0 ? galaxy : surveys;
    const existing = surveys.flatMap((s) => s.releases);
    const only = { ifs: [] as ReleasePlan[], spectra: [] as ReleasePlan[] };
    for (let i = 0; i < this.spec.ownReleases; i++) {
      only.ifs.push(this.addRelease(rng.pick(ifsSurveys), 'ifs'));
      only.spectra.push(this.addRelease(rng.pick(surveys), 'spectra'));
    }
    const ifsHosts = rng.shuffle(existing.filter((r) => ifsSurveys.includes(r.survey)));
    this.writeProductFacilities('ifs', this.spec.ifs, [...only.ifs, ...ifsHosts]);
    this.writeProductFacilities('spectra', this.spec.spectra, [...only.spectra, ...rng.shuffle(existing)]);
  }

  /** A release after the survey's last one, for data of one kind only. */
  private addRelease(survey: SurveyPlan, kind: 'ifs' | 'spectra'): ReleasePlan {
    const rng = this.productRng;
    const last = survey.releases.reduce((a, b) => (b.number > a.number ? b : a));
    const number = last.number + 1;
    const created = last.span.created + rng.int(200, 700) * DAY;
    const release: ReleasePlan = {
      survey,
      name: `dr${number}`,
      pretty: `Data Release ${number}`,
      number,
      version: rng.pick([number, number + 0.1, number + 0.5]),
      kind,
      span: { created, updated: created + rng.int(0, 400) * DAY + rng.int(0, 86_399) * 1000 },
      columns: 0,
      regions: 0,
    };
    survey.releases.push(release);
    this.writeRelease(release, rng);
    return release;
  }

  /** Facilities of `type` with `total` products in all, one or two per release, over `hosts` in turn. */
  private writeProductFacilities(type: 'ifs' | 'spectra', total: number, hosts: readonly ReleasePlan[]): void {
    const rng = this.productRng;
    const instruments = type === 'ifs' ? IFS_INSTRUMENTS : SPECTRA_INSTRUMENTS;
    const used = new Map<ReleasePlan, Set<string>>();
    let left = total;
    for (let h = 0; left > 0;) {
      if (h >= hosts.length * instruments.length) throw new Error(`generator bug: no room for ${left} more ${type} products`);
      const release = at(hosts, h % hosts.length);
      const names = used.get(release) ?? new Set<string>();
      used.set(release, names);
      const free = instruments.filter((d) => !names.has(d.name));
      const fitting = free.filter((d) => d.themes.includes(release.survey.def.theme));
      const choices = fitting.length > 0 ? fitting : free;
      if (choices.length === 0) {
        h++;
        continue;
      }
      const def = rng.pick(choices);
      const most = Math.min(def.products.length, 12);
      const count = Math.min(left, rng.int(Math.min(2, most), most));
      this.writeProductFacility(type, release, def, count);
      names.add(def.name);
      left -= count;
      // Now and then a release has a second facility of the type.
      if (!rng.chance(0.25)) h++;
    }
  }

  private writeProductFacility(type: 'ifs' | 'spectra', release: ReleasePlan, def: InstrumentDef, count: number): void {
    const rng = this.productRng;
    const survey = release.survey;
    const out = new Out();
    const span = this.rootSpan(release, rng);
    out.raw(`# yaml-language-server: $schema=../../../../schemas/${type}-facility.schema.json\n`);
    out.line('', 'id', String(this.nextId(type === 'ifs' ? 'ifsFacility' : 'spectraFacility', rng)));
    out.str('', 'name', def.name);
    if (rng.chance(0.85)) out.str('', 'pretty_name', def.pretty);
    if (rng.chance(0.9)) out.str('', 'description', `${def.description}; the data of ${survey.def.pretty} ${release.pretty}`);
    if (rng.chance(0.2)) out.str('', 'documentation', this.documentation(`the ${def.pretty} data`, release, rng));
    if (rng.chance(0.1)) {
      out.str('', 'file_path', `/${survey.name}/${release.name}/${type}/`);
      out.str('', 'file_name', `${survey.name}_${release.name}_${def.name}.tar.gz`);
    }
    if (rng.chance(0.3)) out.str('', 'version', rng.pick(VERSIONS));
    spanLines(out, '', span, rng);
    this.optionalContact(out, '', survey, 0.75, 0.1, rng);
    // The ranges move a little from release to release (a new wavelength solution), every product
    // of an arm with its arm, so that the products of one arm still overlap.
    const ranges = new Map(
      Object.entries(def.ranges).map(([key, range]) => {
        const shift = Math.round((range.max - range.min) * rng.range(-0.01, 0.01));
        return [key, { ...range, min: range.min + shift, max: range.max + shift }];
      }),
    );
    out.raw('products:\n');
    for (const product of this.chooseProducts(def, count)) this.writeProduct(out, type, release, def, product, ranges, span);
    this.add(`${survey.name}/${release.name}/${type}/${def.name}.yaml`, out);
    if (type === 'ifs') this.stats.ifsFacilities++;
    else this.stats.spectraFacilities++;
  }

  /** The instrument's core products, then a random choice of the others, in the instrument's order. */
  private chooseProducts(def: InstrumentDef, count: number): ProductDef[] {
    const core = Math.min(def.core, count);
    const others = this.productRng
      .shuffle(def.products.map((_, i) => i).slice(def.core))
      .slice(0, count - core)
      .sort((a, b) => a - b);
    return [...def.products.slice(0, core), ...others.map((i) => at(def.products, i))];
  }

  private writeProduct(
    out: Out,
    type: 'ifs' | 'spectra',
    release: ReleasePlan,
    def: InstrumentDef,
    product: ProductDef,
    ranges: ReadonlyMap<string, WaveRange>,
    parent: Span,
  ): void {
    const rng = this.productRng;
    const survey = release.survey;
    const I = '    ';
    out.raw(`  - id: ${this.nextId(type === 'ifs' ? 'ifsProduct' : 'spectraProduct', rng)}\n`);
    out.line(I, 'name', yamlScalar(product.name));
    if (rng.chance(0.7)) out.str(I, 'pretty_name', product.pretty);
    if (rng.chance(0.85)) out.str(I, 'description', product.description);
    if (rng.chance(0.1)) out.str(I, 'documentation', this.documentation(`the ${product.name} product`, release, rng));
    if (rng.chance(0.6)) {
      const fileName = `${rng.int(10_000_000, 999_999_999)}_${product.name}.${rng.chance(0.3) ? 'fits.gz' : 'fits'}`;
      out.str(I, 'file_path', `/${survey.name}/${release.name}/${type}/${def.name}/${product.name}/`);
      out.str(I, 'file_name', fileName);
      if (rng.chance(0.2)) out.str(I, 'file_extension', fileName.endsWith('.gz') ? 'fits.gz' : 'fits');
    }
    if (rng.chance(0.1)) out.str(I, 'version', rng.pick(VERSIONS));
    if (rng.chance(0.1)) {
      const own = overrideSpan(parent, rng);
      spanLines(out, I, own.span, rng, own.which);
    }
    this.optionalContact(out, I, survey, 0.05, 0.05, rng);
    out.line(I, 'product_type', product.type);
    // What a product has not got is left out or written null, as curators do both.
    const none = (key: string) => {
      if (rng.chance(0.3)) out.line(I, key, 'null');
    };
    if (product.arm !== null) out.line(I, 'arm', yamlScalar(product.arm));
    else none('arm');
    const range = product.range === null ? undefined : ranges.get(product.range);
    if (product.range !== null && range === undefined) throw new Error(`generator bug: ${def.name} has no range ${product.range}`);
    if (range) {
      out.line(I, 'wave_min_ang', String(range.min));
      out.line(I, 'wave_max_ang', String(range.max));
      if (range.step !== null) out.line(I, 'wave_step_ang', String(range.step));
      else none('wave_step_ang');
      out.line(I, 'resolving_power', String(range.r));
    } else {
      none('wave_min_ang');
      none('resolving_power');
    }
    if (product.type !== 'spectrum' && def.spaxel !== null) out.line(I, 'spatial_sampling_arcsec', String(def.spaxel));
    else none('spatial_sampling_arcsec');
    const [x, y] = def.field;
    const pixels = range?.pixels ?? 0;
    const dimensions =
      product.shape === null ? null : { cube: [x, y, pixels], map: [x, y], spectrum: [pixels], rss: [pixels, def.fibres] }[product.shape];
    if (dimensions) out.raw(`${I}dimensions:\n${dimensions.map((n) => `${I}  - ${n}\n`).join('')}`);
    else none('dimensions');
    if (product.unit !== null) out.str(I, 'flux_unit', product.unit);
    else none('flux_unit');
    if (rng.chance(0.95)) {
      out.raw(`${I}extensions:\n`);
      for (const [name, holds] of product.extensions) {
        out.raw(`${I}  - name: ${yamlScalar(name)}\n`);
        out.line(`${I}    `, 'holds', yamlScalar(holds));
      }
    }
    if (type === 'ifs') this.stats.ifsProducts++;
    else this.stats.spectraProducts++;
  }
}

interface Tile {
  name: string;
  ra: number;
  dec: number;
  raText: string;
  decText: string;
}

const pad3 = (n: number) => String(n).padStart(3, '0');
const pad4 = (n: number) => String(n).padStart(4, '0');

function tileName(def: FacilityDef, ra: number, dec: number, rng: Rng): string {
  switch (def.style) {
    case 'kids':
      return `${def.prefix}_${decimal(ra, 1)}_${decimal(dec, 1)}`;
    case 'unwise':
      return `${String(Math.round(ra * 10) % 3600).padStart(4, '0')}${dec < 0 ? 'm' : 'p'}${String(Math.round(Math.abs(dec) * 10)).padStart(3, '0')}`;
    case 'sdss':
      return `${rng.int(94, 8162)}-${rng.int(1, 6)}-${rng.int(11, 800)}`;
    case 'iau': {
      const hours = ra / 15;
      const h = Math.floor(hours);
      const m = Math.floor((hours - h) * 60);
      const d = Math.floor(Math.abs(dec));
      const dm = Math.floor((Math.abs(dec) - d) * 60);
      const sign = dec < 0 ? '-' : '+';
      return `${def.prefix}_J${String(h).padStart(2, '0')}${String(m).padStart(2, '0')}${sign}${String(d).padStart(2, '0')}${String(dm).padStart(2, '0')}`;
    }
  }
}

/** Returns the archive's files (path relative to the metadata folder → YAML text) and its counts. */
export function generateArchiveWithStats(size: Size): { files: Map<string, string>; stats: ArchiveStats } {
  const generator = new Generator(SIZES[size]);
  generator.run();
  return { files: generator.files, stats: generator.stats };
}

/** The archive of a size: path relative to the metadata folder → YAML text; the same every run. */
export function generateArchive(size: Size): Map<string, string> {
  return generateArchiveWithStats(size).files;
}

// ---- Command line ----------------------------------------------------------------------------------

const USAGE = 'usage: node bench/lib/synthetic.js --size XS|S|M|L --out DIR [--force]';

class Usage extends Error {}

function parseArgs(argv: readonly string[]): { size: Size; out: string; force: boolean } | 'help' {
  let size: string | undefined;
  let out: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = at(argv, i);
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Usage(`${flag} needs a value; ${USAGE}`);
      return v;
    };
    if (flag === '--size') size = value();
    else if (flag === '--out') out = value();
    else if (flag === '--force' && inline === undefined) force = true;
    else if (flag === '--help' || flag === '-h') return 'help';
    else throw new Usage(`unknown argument ${arg}; ${USAGE}`);
  }
  if (size === undefined) throw new Usage(`--size is required; ${USAGE}`);
  if (!isSize(size)) throw new Usage(`--size must be XS, S, M or L, not ${size}`);
  if (out === undefined) throw new Usage(`--out DIR is required; ${USAGE}`);
  return { size, out, force };
}

/** Makes sure `dir` is an empty folder; with `force` a non-empty one is emptied, within reason. */
function prepareOutDir(dir: string, force: boolean): void {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Usage(`${dir} exists and is not a folder`);
    entries = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      mkdirSync(dir, { recursive: true });
      return;
    }
    throw error;
  }
  if (entries.length === 0) return;
  if (!force) throw new Usage(`${dir} exists and is not empty; pass --force to empty it first`);
  // --force is for reruns into a scratch folder; a slip of the path must not empty a project.
  const real = realpathSync(dir);
  const cwd = realpathSync(process.cwd());
  if (real === path.parse(real).root || real === os.homedir() || !path.relative(real, cwd).startsWith('..') || entries.includes('.git')) {
    throw new Usage(`refusing to empty ${dir}: it is a root, home or project folder, or holds the current one`);
  }
  for (const entry of entries) rmSync(path.join(dir, entry), { recursive: true, force: true });
}

export function main(
  argv: readonly string[],
  io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) },
): number {
  try {
    const args = parseArgs(argv);
    if (args === 'help') {
      io.out(`${USAGE}\n`);
      return 0;
    }
    const dir = path.resolve(args.out);
    prepareOutDir(dir, args.force);
    const { files, stats } = generateArchiveWithStats(args.size);
    const made = new Set<string>();
    for (const [relative, text] of files) {
      const target = path.join(dir, relative);
      const parent = path.dirname(target);
      if (!made.has(parent)) {
        mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      writeFileSync(target, text);
    }
    io.out(
      `wrote ${stats.files} files to ${args.out}: ${stats.surveys} surveys, ${stats.releases} releases, ${stats.groups} groups, ` +
        `${stats.tables} tables, ${stats.columns} columns, ${stats.facilities} facilities, ${stats.bands} bands, ` +
        `${stats.regions} regions, ${stats.ifsFacilities} IFS facilities with ${stats.ifsProducts} products, ` +
        `${stats.spectraFacilities} spectra facilities with ${stats.spectraProducts} products, ` +
        `${stats.bytes} bytes of YAML (${(stats.bytes / 1e6).toFixed(1)} MB)\n`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof Usage ? error.message : `cannot write the archive: ${(error as Error).message}`;
    io.err(`synthetic: ${message}\n`);
    return 2;
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) process.exitCode = main(process.argv.slice(2));
