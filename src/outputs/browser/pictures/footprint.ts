// Where a region is on the sky, in ICRS degrees: the outline of its image from the FITS header's
// world coordinate system (WCS), or else its centre from ra_c and dec_c. Pure arithmetic on plain data.

import type { FitsValue } from '../../../kinds/data.ts';
import { degreesText } from '../../vo/text.ts';

/** A FITS header as the metadata holds it: keyword → [value, comment]. */
export type FitsHeader = Readonly<Record<string, readonly [FitsValue, string]>>;

/** A position on the sky: right ascension and declination in degrees (ICRS). */
export type SkyPoint = readonly [ra: number, dec: number];

/** The celestial frames a header or a centre can be in; each is turned into ICRS. */
export type Frame = 'equatorial' | 'galactic' | 'ecliptic';

/** The zenithal projections deprojected here (Calabretta & Greisen 2002, section 5.1). */
const ZENITHAL = ['TAN', 'SIN', 'ARC', 'ZEA', 'STG'] as const;
type Zenithal = (typeof ZENITHAL)[number];

/** A two-dimensional celestial WCS, read from a header. */
export interface Wcs {
  frame: Frame;
  projection: Zenithal | 'CAR';
  /** CRVAL1, CRVAL2 in degrees: the reference point's longitude and latitude in `frame`. */
  crval: readonly [number, number];
  /** CRPIX1, CRPIX2 (1-based; a pixel's centre has whole coordinates). */
  crpix: readonly [number, number];
  /** The linear transformation from pixel offsets to intermediate world coordinates, in degrees: [[CD1_1, CD1_2], [CD2_1, CD2_2]]. */
  cd: readonly [readonly [number, number], readonly [number, number]];
  /** NAXIS1, NAXIS2: the image's size in pixels. */
  naxis: readonly [number, number];
  /** LONPOLE in degrees. */
  lonpole: number;
}

const D2R = Math.PI / 180;
const R2D = 180 / Math.PI;

// Units a CUNITn can give the intermediate coordinates in (degrees when absent, as the standard says).
const CUNIT_DEGREES: Readonly<Record<string, number>> = { deg: 1, arcmin: 1 / 60, arcsec: 1 / 3600, mas: 1 / 3_600_000, rad: R2D };

function numberCard(header: FitsHeader, keyword: string): number | undefined {
  const value = header[keyword]?.[0];
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  // A header imported from text may hold a number as a string.
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function stringCard(header: FitsHeader, keyword: string): string | undefined {
  const value = header[keyword]?.[0];
  return typeof value === 'string' ? value.trim().toUpperCase() : undefined;
}

/**
 * The celestial WCS of a header, or why there is none usable. Reads CTYPE1/2 (RA/DEC, GLON/GLAT or
 * ELON/ELAT, with TAN, SIN, ARC, ZEA or STG, or CAR with CRVAL2 = 0), CRVAL, CRPIX, the CD matrix or
 * CDELT with PC or CROTA2, CUNIT, LONPOLE, and NAXIS1/2 (ZNAXIS1/2 for a tile-compressed image).
 * Distortion suffixes (-SIP, TPV as TAN) are read as their plain projection: they move an edge by a
 * few pixels, far less than a map shows.
 */
export function readWcs(header: FitsHeader): Wcs | string {
  const ctype1 = stringCard(header, 'CTYPE1');
  const ctype2 = stringCard(header, 'CTYPE2');
  if (ctype1 === undefined || ctype2 === undefined) return 'no CTYPE1 and CTYPE2';
  const axes = /^(RA|GLON|ELON)-*-([A-Z]{3})(?:-[A-Z]+)?$/.exec(ctype1);
  const lat = /^(DEC|GLAT|ELAT)-*-([A-Z]{3})(?:-[A-Z]+)?$/.exec(ctype2);
  if (!axes || !lat) return `CTYPE1 = '${ctype1}' and CTYPE2 = '${ctype2}' are not a longitude and latitude in that order`;
  const pairs: Record<string, [string, Frame]> = { RA: ['DEC', 'equatorial'], GLON: ['GLAT', 'galactic'], ELON: ['ELAT', 'ecliptic'] };
  const [latName, frame] = pairs[axes[1] ?? ''] ?? ['', 'equatorial'];
  if (lat[1] !== latName) return `CTYPE1 = '${ctype1}' and CTYPE2 = '${ctype2}' name different frames`;
  const code = axes[2] === 'TPV' ? 'TAN' : (axes[2] ?? '');
  if (code !== (lat[2] === 'TPV' ? 'TAN' : lat[2])) return `CTYPE1 and CTYPE2 name different projections`;
  const projection = (ZENITHAL as readonly string[]).includes(code) ? (code as Zenithal) : code === 'CAR' ? 'CAR' : undefined;
  if (!projection) return `the ${code} projection is not one drawn here`;

  const crval1 = numberCard(header, 'CRVAL1');
  const crval2 = numberCard(header, 'CRVAL2');
  if (crval1 === undefined || crval2 === undefined) return 'no CRVAL1 and CRVAL2';
  if (projection === 'CAR' && crval2 !== 0) return 'a CAR projection with CRVAL2 other than 0';
  const compressed = header.ZIMAGE?.[0] === true;
  const naxis1 = numberCard(header, compressed ? 'ZNAXIS1' : 'NAXIS1');
  const naxis2 = numberCard(header, compressed ? 'ZNAXIS2' : 'NAXIS2');
  if (naxis1 === undefined || naxis2 === undefined || naxis1 < 1 || naxis2 < 1) return 'no NAXIS1 and NAXIS2';

  const unit = (n: number) => CUNIT_DEGREES[(stringCard(header, `CUNIT${n}`) ?? 'DEG').toLowerCase()];
  const scale1 = unit(1);
  const scale2 = unit(2);
  if (scale1 === undefined || scale2 === undefined) return 'CUNIT1 or CUNIT2 is not an angle';

  let cd: [[number, number], [number, number]];
  if (['CD1_1', 'CD1_2', 'CD2_1', 'CD2_2'].some((k) => numberCard(header, k) !== undefined)) {
    const c = (k: string) => numberCard(header, k) ?? 0;
    cd = [
      [c('CD1_1'), c('CD1_2')],
      [c('CD2_1'), c('CD2_2')],
    ];
  } else {
    const cdelt1 = numberCard(header, 'CDELT1');
    const cdelt2 = numberCard(header, 'CDELT2');
    if (cdelt1 === undefined || cdelt2 === undefined) return 'neither a CD matrix nor CDELT1 and CDELT2';
    const hasPc = ['PC1_1', 'PC1_2', 'PC2_1', 'PC2_2'].some((k) => numberCard(header, k) !== undefined);
    const rho = (numberCard(header, 'CROTA2') ?? 0) * D2R;
    const pc: [[number, number], [number, number]] = hasPc
      ? [
          [numberCard(header, 'PC1_1') ?? 1, numberCard(header, 'PC1_2') ?? 0],
          [numberCard(header, 'PC2_1') ?? 0, numberCard(header, 'PC2_2') ?? 1],
        ]
      : // CROTA2 as the standard's appendix reads it: PC1_2 = -sin ρ · CDELT2/CDELT1, PC2_1 = sin ρ · CDELT1/CDELT2.
        [
          [Math.cos(rho), (-Math.sin(rho) * cdelt2) / cdelt1],
          [(Math.sin(rho) * cdelt1) / cdelt2, Math.cos(rho)],
        ];
    cd = [
      [cdelt1 * pc[0][0], cdelt1 * pc[0][1]],
      [cdelt2 * pc[1][0], cdelt2 * pc[1][1]],
    ];
  }
  cd = [
    [cd[0][0] * scale1, cd[0][1] * scale1],
    [cd[1][0] * scale2, cd[1][1] * scale2],
  ];
  if (cd[0][0] * cd[1][1] - cd[0][1] * cd[1][0] === 0) return 'the CD matrix is singular';
  // The default LONPOLE: 180° when the reference point is not the native pole (θ0 = 90° for zenithal
  // projections, 0° for CAR), 0° when it is.
  const theta0 = projection === 'CAR' ? 0 : 90;
  const lonpole = numberCard(header, 'LONPOLE') ?? (crval2 >= theta0 ? 0 : 180);
  return {
    frame,
    projection,
    crval: [crval1, crval2],
    crpix: [numberCard(header, 'CRPIX1') ?? 0, numberCard(header, 'CRPIX2') ?? 0],
    cd,
    naxis: [naxis1, naxis2],
    lonpole,
  };
}

/** The ICRS position of a pixel (1-based, FITS convention), or undefined where the projection has none. */
export function pixelToSky(wcs: Wcs, p1: number, p2: number): SkyPoint | undefined {
  const d1 = p1 - wcs.crpix[0];
  const d2 = p2 - wcs.crpix[1];
  const x = wcs.cd[0][0] * d1 + wcs.cd[0][1] * d2;
  const y = wcs.cd[1][0] * d1 + wcs.cd[1][1] * d2;
  const native = nativeSpherical(wcs.projection, x, y);
  if (!native) return undefined;
  const [phi, theta] = native;
  const [lon, lat] =
    wcs.projection === 'CAR'
      ? // With CRVAL2 = 0 the native and celestial poles coincide, whatever LONPOLE says.
        [wcs.crval[0] + phi, theta]
      : celestialFromNative(phi, theta, wcs.crval[0], wcs.crval[1], wcs.lonpole);
  return toIcrs(wcs.frame, lon, lat);
}

/** Native longitude and latitude (degrees) of intermediate world coordinates x, y (degrees). */
function nativeSpherical(projection: Wcs['projection'], x: number, y: number): [number, number] | undefined {
  if (projection === 'CAR') return Math.abs(y) <= 90 ? [x, y] : undefined;
  const r = Math.hypot(x, y);
  const phi = r === 0 ? 0 : Math.atan2(x, -y) * R2D;
  let theta: number;
  switch (projection) {
    case 'TAN':
      theta = Math.atan2(R2D, r) * R2D;
      break;
    case 'SIN':
      if (r > R2D) return undefined;
      theta = Math.acos(r / R2D) * R2D;
      break;
    case 'ARC':
      if (r > 180) return undefined;
      theta = 90 - r;
      break;
    case 'ZEA':
      if (r > 2 * R2D) return undefined;
      theta = 90 - 2 * Math.asin(r / (2 * R2D)) * R2D;
      break;
    case 'STG':
      theta = 90 - 2 * Math.atan(r / (2 * R2D)) * R2D;
      break;
  }
  return [phi, theta];
}

/** Celestial coordinates of native (φ, θ) for a zenithal projection whose native pole is at (α0, δ0). */
function celestialFromNative(phi: number, theta: number, alpha0: number, delta0: number, lonpole: number): [number, number] {
  const t = theta * D2R;
  const dp = delta0 * D2R;
  const dphi = (phi - lonpole) * D2R;
  const sinT = Math.sin(t);
  const cosT = Math.cos(t);
  const lon = alpha0 + Math.atan2(-cosT * Math.sin(dphi), sinT * Math.cos(dp) - cosT * Math.sin(dp) * Math.cos(dphi)) * R2D;
  const lat = Math.asin(Math.max(-1, Math.min(1, sinT * Math.sin(dp) + cosT * Math.cos(dp) * Math.cos(dphi)))) * R2D;
  return [lon, lat];
}

// Galactic to ICRS: the transpose of the ICRS-to-galactic rotation (Hipparcos, ESA 1997, vol. 1, 1.5.3).
const GALACTIC_TO_ICRS = [
  [-0.0548755604162154, 0.4941094278755837, -0.8676661490190047],
  [-0.873437090234885, -0.4448296299600112, -0.1980763734312015],
  [-0.4838350155487132, 0.746982244497219, 0.4559837761750669],
] as const;
// Ecliptic (mean, J2000) to equatorial: a rotation about the x axis by the obliquity of the ecliptic.
const OBLIQUITY = 23.4392911 * D2R;
const ECLIPTIC_TO_ICRS = [
  [1, 0, 0],
  [0, Math.cos(OBLIQUITY), -Math.sin(OBLIQUITY)],
  [0, Math.sin(OBLIQUITY), Math.cos(OBLIQUITY)],
] as const;

type Matrix = readonly [readonly [number, number, number], readonly [number, number, number], readonly [number, number, number]];

function rotate(m: Matrix, lon: number, lat: number): SkyPoint {
  const l = lon * D2R;
  const b = lat * D2R;
  const v = [Math.cos(b) * Math.cos(l), Math.cos(b) * Math.sin(l), Math.sin(b)] as const;
  const [x, y, z] = m.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]) as [number, number, number];
  return [Math.atan2(y, x) * R2D, Math.asin(Math.max(-1, Math.min(1, z))) * R2D];
}

/**
 * A position in a frame as ICRS degrees, RA in [0, 360). FK5 and FK4 positions are taken as ICRS:
 * they differ by well under a degree, below what an all-sky map shows.
 */
export function toIcrs(frame: Frame, lon: number, lat: number): SkyPoint {
  const [ra, dec] =
    frame === 'galactic' ? rotate(GALACTIC_TO_ICRS, lon, lat) : frame === 'ecliptic' ? rotate(ECLIPTIC_TO_ICRS, lon, lat) : [lon, lat];
  const wrapped = ((ra % 360) + 360) % 360;
  return [wrapped === 360 ? 0 : wrapped, dec];
}

/** The frame a region's `frame` names, or undefined for one not converted here. */
export function frameOf(frame: string): Frame | undefined {
  const f = frame.trim().toLowerCase();
  if (f === 'icrs' || f === 'fk5' || f === 'fk4' || f === 'fk4noeterms' || f === 'equatorial' || f === 'radec') return 'equatorial';
  if (f === 'galactic') return 'galactic';
  if (f.includes('ecliptic')) return 'ecliptic';
  return undefined;
}

/**
 * A region's centre (ra_c, dec_c in `unit` and `frame`) in ICRS degrees, or why it cannot be placed.
 * The unit is an angle the VO outputs know (deg, arcmin, arcsec, mas, rad), or `hourangle` (also `h`):
 * right ascension in hours, declination in degrees, as astropy writes such pairs.
 */
export function centreOf(raC: string | number, decC: string | number, unit: string, frame: string): SkyPoint | string {
  const f = frameOf(frame);
  if (!f) return `the frame "${frame}" is not one placed on the map`;
  const u = unit.trim();
  let lon: number;
  let lat: number;
  if (u === 'hourangle' || u === 'h') {
    lon = Number(raC) * 15;
    lat = Number(decC);
  } else {
    const ra = degreesText(String(raC), u);
    const dec = degreesText(String(decC), u);
    if (ra === null || dec === null) return `the unit "${unit}" is not an angle`;
    lon = Number(ra);
    lat = Number(dec);
  }
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90) return 'its centre is not a position on the sky';
  return toIcrs(f, lon, lat);
}

/**
 * The outline of a header's image on the sky: a closed ring of ICRS points (first = last) along the
 * edges of its pixels, from pixel (0.5, 0.5) round to (NAXIS1 + 0.5, NAXIS2 + 0.5). Each edge of a TAN
 * image is a great circle, which the map draws as such between two corners, so its corners are enough;
 * the edges of other projections curve, and are sampled about `step` degrees apart (in the image's
 * scale at its reference point). Undefined when
 * the header has no usable WCS, or a corner has no position.
 */
export function footprintOf(header: FitsHeader, step = 1): SkyPoint[] | undefined {
  const wcs = readWcs(header);
  if (typeof wcs === 'string') return undefined;
  const [n1, n2] = wcs.naxis;
  const scale1 = Math.hypot(wcs.cd[0][0], wcs.cd[1][0]) * n1;
  const scale2 = Math.hypot(wcs.cd[0][1], wcs.cd[1][1]) * n2;
  const greatCircles = wcs.projection === 'TAN';
  const k1 = greatCircles ? 1 : Math.max(1, Math.ceil(scale1 / step));
  const k2 = greatCircles ? 1 : Math.max(1, Math.ceil(scale2 / step));
  const pixels: [number, number][] = [];
  const lo = 0.5;
  for (let i = 0; i < k1; i++) pixels.push([lo + (n1 * i) / k1, lo]);
  for (let i = 0; i < k2; i++) pixels.push([lo + n1, lo + (n2 * i) / k2]);
  for (let i = 0; i < k1; i++) pixels.push([lo + n1 - (n1 * i) / k1, lo + n2]);
  for (let i = 0; i < k2; i++) pixels.push([lo, lo + n2 - (n2 * i) / k2]);
  const ring: SkyPoint[] = [];
  for (const [p1, p2] of pixels) {
    const point = pixelToSky(wcs, p1, p2);
    if (!point) return undefined;
    ring.push(point);
  }
  const first = ring[0];
  if (first) ring.push(first);
  return ring;
}
