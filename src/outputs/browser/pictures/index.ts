// The schema browser's pictures, drawn at build time as SVG text from plain data: the sky map of
// imaging regions.

export { placeRegion, skyMap, skyProjection } from './sky.ts';
export type { Placement, SkyMapOptions, SkyRegion } from './sky.ts';
export { centreOf, footprintOf, pixelToSky, readWcs, toIcrs } from './footprint.ts';
export type { FitsHeader, Frame, SkyPoint, Wcs } from './footprint.ts';
export { PALETTE, facilityOrder } from './svg.ts';
