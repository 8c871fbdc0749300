// Headers and sky geometry for the tests of the browser's pictures: FITS headers from keyword → value,
// a square TAN image, the gnomonic projection written out by hand, and the angle between two positions.

import type { FitsHeader, SkyPoint } from '../src/outputs/browser/pictures/footprint.ts';

export type Cards = Record<string, string | number | boolean>;

/** A FITS header as the metadata holds it, from keyword → value. */
export function header(cards: Cards): FitsHeader {
  return Object.fromEntries(Object.entries(cards).map(([k, v]) => [k, [v, ''] as const]));
}

/** A square TAN image of `size` degrees centred on (ra, dec), with `pixel` arcsec pixels. */
export function tan(ra: number, dec: number, size: number, pixel = 1, extra: Cards = {}): FitsHeader {
  const n = Math.round((size * 3600) / pixel);
  return header({
    NAXIS: 2,
    NAXIS1: n,
    NAXIS2: n,
    CTYPE1: 'RA---TAN',
    CTYPE2: 'DEC--TAN',
    CRVAL1: ra,
    CRVAL2: dec,
    CRPIX1: n / 2 + 0.5,
    CRPIX2: n / 2 + 0.5,
    CD1_1: -pixel / 3600,
    CD1_2: 0,
    CD2_1: 0,
    CD2_2: pixel / 3600,
    ...extra,
  });
}

/** The gnomonic projection written out by hand: standard coordinates ξ, η (degrees) about (α0, δ0) to RA, Dec. */
export function gnomonic(alpha0: number, delta0: number, xi: number, eta: number): SkyPoint {
  const r = Math.PI / 180;
  const x = xi * r;
  const y = eta * r;
  const d0 = delta0 * r;
  const denominator = Math.cos(d0) - y * Math.sin(d0);
  const alpha = alpha0 + Math.atan2(x, denominator) / r;
  const delta = Math.atan2(Math.sin(d0) + y * Math.cos(d0), Math.hypot(x, denominator)) / r;
  return [(alpha + 360) % 360, delta];
}

/** The angle between two sky positions, in arcseconds. */
export function separation([ra1, dec1]: SkyPoint, [ra2, dec2]: SkyPoint): number {
  const r = Math.PI / 180;
  const c = Math.sin(dec1 * r) * Math.sin(dec2 * r) + Math.cos(dec1 * r) * Math.cos(dec2 * r) * Math.cos((ra1 - ra2) * r);
  const s = Math.hypot(
    Math.cos(dec2 * r) * Math.sin((ra1 - ra2) * r),
    Math.cos(dec1 * r) * Math.sin(dec2 * r) - Math.sin(dec1 * r) * Math.cos(dec2 * r) * Math.cos((ra1 - ra2) * r),
  );
  return (Math.atan2(s, c) / r) * 3600;
}
