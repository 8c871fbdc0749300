// The sky map's two equal-area projections, Hammer–Aitoff and Mollweide, as d3-geo projections. The
// formulas are d3-geo-projection's (Hammer's with its coefficient 2, Mollweide's through Bromley's
// iteration for the auxiliary angle), written out here: that package loads its 150 projections to
// give these two, 45 ms in every process and worker thread that builds, most of a small build's
// time. The tests hold these to the package's own projections.

import { geoAzimuthalEqualAreaRaw, geoProjection } from 'd3-geo';
import type { GeoProjection, GeoRawProjection } from 'd3-geo';

/** d3-geo-projection's default scale for both, which fitExtent replaces. */
const SCALE = 169.529;

/** Hammer's projection: the Lambert azimuthal equal-area of the half-longitude, stretched twice as wide. */
const hammerRaw: GeoRawProjection = Object.assign(
  (lambda: number, phi: number): [number, number] => {
    const [x, y] = geoAzimuthalEqualAreaRaw(lambda / 2, phi);
    return [x * 2, y];
  },
  {
    invert: (x: number, y: number): [number, number] => {
      const [lambda, phi] = geoAzimuthalEqualAreaRaw.invert?.(x / 2, y) ?? [Number.NaN, Number.NaN];
      return [lambda * 2, phi];
    },
  },
);

/** Mollweide's auxiliary angle θ (halved), solving 2θ + sin 2θ = π sin φ by Newton's method. */
function theta(phi: number): number {
  const cpSinPhi = Math.PI * Math.sin(phi);
  let t = phi;
  let delta: number;
  let i = 30;
  do {
    delta = (t + Math.sin(t) - cpSinPhi) / (1 + Math.cos(t));
    t -= delta;
  } while (Math.abs(delta) > 1e-6 && --i > 0);
  return t / 2;
}

const CX = Math.SQRT2 / (Math.PI / 2);
const CY = Math.SQRT2;

const mollweideRaw: GeoRawProjection = Object.assign(
  (lambda: number, phi: number): [number, number] => {
    const t = theta(phi);
    return [CX * lambda * Math.cos(t), CY * Math.sin(t)];
  },
  {
    invert: (x: number, y: number): [number, number] => {
      const t = Math.asin(y / CY);
      return [x / (CX * Math.cos(t)), Math.asin((2 * t + Math.sin(2 * t)) / Math.PI)];
    },
  },
);

export function geoHammer(): GeoProjection {
  return geoProjection(hammerRaw).scale(SCALE);
}

export function geoMollweide(): GeoProjection {
  return geoProjection(mollweideRaw).scale(SCALE);
}
