// The schema browser's pictures, drawn at build time as SVG text from plain data: the sky map of
// imaging regions and the chart of imaging bands by wavelength.

export { markOnDefaultMap, placeRegion, skyMap, skyProjection } from './sky.ts';
export type { MarkedRegion, Placement, RegionName, SkyMapOptions, SkyMark, SkyRegion } from './sky.ts';
export { bandChart, wavelengthLabel } from './bands.ts';
export type { BandChartOptions, ChartBand, ChartFacility } from './bands.ts';
export { centreOf, footprintOf, pixelToSky, readWcs, toIcrs } from './footprint.ts';
export type { FitsHeader, Frame, SkyPoint, Wcs } from './footprint.ts';
export { PALETTE, facilityColourClass, facilityOrder } from './svg.ts';
