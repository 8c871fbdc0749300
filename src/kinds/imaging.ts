// Imaging data: a facility in one file per facility, its bands, and each band's regions with
// their FITS headers.

import type { BandYaml, RegionYaml } from './data.ts';
import type { ApiContext, Kind } from './kind.ts';

const SCHEMA = 'imaging-facility.schema.json';

export const ImagingFacility: Kind = {
  type: 'ImagingFacility',
  word: 'imaging facility',
  label: 'facility',
  ids: true,
  schema: { file: SCHEMA, pointer: [] },
  file: {
    path: ['{survey}', '{release}', 'imaging', '{name}.yaml'],
    section: { dataType: 'imaging', key: 'facilities' },
    described: 'an imaging facility',
  },
  api: (_facility: never, c: ApiContext) => ({ ...c.common(), bands: c.children('bands') }),
  scaffold: { command: 'facility', example: 'gama/dr5/VST' },
};

export const ImagingBand: Kind = {
  type: 'ImagingBand',
  word: 'imaging band',
  label: 'band',
  ids: true,
  schema: { file: SCHEMA, pointer: ['definitions', 'band'] },
  nested: { parent: 'ImagingFacility', key: 'bands' },
  // band_key: survey, release, facility and band names, e.g. gama.dr3.VST.r.
  api: (band: BandYaml, c: ApiContext) => ({
    ...c.common(),
    band_key: c.names.join('.'),
    central_wave_ang: band.central_wave_ang,
    regions: c.children('regions'),
  }),
};

export const ImagingRegion: Kind = {
  type: 'ImagingRegion',
  word: 'imaging region',
  label: 'region',
  ids: true,
  schema: { file: SCHEMA, pointer: ['definitions', 'region'] },
  nested: { parent: 'ImagingBand', key: 'regions' },
  api: (region: RegionYaml, c: ApiContext) => ({
    ...c.common(),
    fits_header: region.fits_header,
    ra_c: region.ra_c,
    dec_c: region.dec_c,
    unit: region.unit,
    frame: region.frame,
    equinox: region.equinox,
  }),
};
