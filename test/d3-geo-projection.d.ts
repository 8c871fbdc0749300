// Types for the part of d3-geo-projection the tests compare the sky map's projections with (the package ships none): its projections
// are d3-geo projections.

declare module 'd3-geo-projection' {
  import type { GeoProjection } from 'd3-geo';

  export function geoHammer(): GeoProjection;
  export function geoMollweide(): GeoProjection;
}
