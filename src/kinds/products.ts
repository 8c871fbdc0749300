// IFS and spectra data: a facility in one file per facility, and its data products (cubes, maps,
// spectra), each with what a user needs to judge it before downloading: its type, arm, wavelength
// range and sampling, resolving power, spatial sampling, dimensions, flux unit and FITS extensions.
// The two data types have the same shape; each has its own kinds, files, schema and id spaces.

import type { DataType } from '../site/routes.ts';
import type { ProductYaml } from './data.ts';
import type { ApiContext, Kind, KindType } from './kind.ts';

function facility(type: KindType, dataType: DataType, word: string, schema: string, example: string): Kind {
  return {
    type,
    word,
    label: 'facility',
    ids: true,
    schema: { file: schema, pointer: [] },
    file: {
      path: ['{survey}', '{release}', dataType, '{name}.yaml'],
      section: { dataType, key: 'facilities' },
      described: `an ${word}`.replace(/^an (?![aeiouAEIOU])/, 'a '),
    },
    api: (_facility: never, c: ApiContext) => ({ ...c.common(), products: c.children('products') }),
    scaffold: { command: `${dataType}-facility`, example },
  };
}

function product(type: KindType, parent: KindType, word: string, schema: string): Kind {
  return {
    type,
    word,
    label: 'product',
    ids: true,
    schema: { file: schema, pointer: ['definitions', 'product'] },
    nested: { parent, key: 'products' },
    // product_key: survey, release, facility and product names, e.g. sami.dr3.sami.cube_blue.
    api: (p: ProductYaml, c: ApiContext) => ({
      ...c.common(),
      product_key: c.names.join('.'),
      product_type: p.product_type,
      arm: p.arm ?? null,
      wave_min_ang: p.wave_min_ang ?? null,
      wave_max_ang: p.wave_max_ang ?? null,
      wave_step_ang: p.wave_step_ang ?? null,
      resolving_power: p.resolving_power ?? null,
      spatial_sampling_arcsec: p.spatial_sampling_arcsec ?? null,
      dimensions: p.dimensions ?? null,
      flux_unit: p.flux_unit ?? null,
      extensions: (p.extensions ?? []).map((e) => ({ name: e.name, holds: e.holds })),
    }),
  };
}

const IFS_SCHEMA = 'ifs-facility.schema.json';
const SPECTRA_SCHEMA = 'spectra-facility.schema.json';

export const IFSFacility = facility('IFSFacility', 'ifs', 'IFS facility', IFS_SCHEMA, 'sami/dr4/sami');
export const IFSDataProduct = product('IFSDataProduct', 'IFSFacility', 'IFS data product', IFS_SCHEMA);
export const SpectraFacility = facility('SpectraFacility', 'spectra', 'spectra facility', SPECTRA_SCHEMA, 'galah/dr4/hermes');
export const SpectraDataProduct = product('SpectraDataProduct', 'SpectraFacility', 'spectra data product', SPECTRA_SCHEMA);
