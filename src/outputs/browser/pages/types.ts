// The API objects the browser's pages are made from, as docs/api.md describes them: only the fields
// the pages read. Objects taken from the API's JSON have these and more.

import type { ColumnTypeFields } from '../../../kinds/catalogues.ts';
import type { BEYOND_API } from '../../api/objects.ts';

export interface Contact {
  email: string;
  name: string;
}

/** The fields every catalogue, imaging, IFS and spectra node starts with. */
export interface Node {
  id: number;
  name: string;
  pretty_name: string | null;
  description: string | null;
  documentation: string;
  file_path: string | null;
  file_name: string | null;
  file_extension: string | null;
  version: string | null;
  type: string;
  created: string;
  updated: string;
  contact: Contact | null;
}

export interface CatalogueColumn extends Node {
  ucd: string;
  unit: string | null;
  /** Its VOTable type and principal flag, on the objects a build renders from (not on the API's JSON). */
  [BEYOND_API]?: ColumnTypeFields;
}

export interface CatalogueTable extends Node {
  input_cat: boolean;
  columns: readonly CatalogueColumn[];
}

export interface CatalogueGroup extends Node {
  tables: readonly CatalogueTable[];
}

export type FitsValue = string | number | boolean;

export interface ImagingRegion extends Node {
  fits_header: Readonly<Record<string, readonly [FitsValue, string]>>;
  ra_c: string;
  dec_c: string;
  unit: string;
  frame: string;
  equinox: string;
}

export interface ImagingBand extends Node {
  band_key: string;
  central_wave_ang: number;
  regions: readonly ImagingRegion[];
}

export interface ImagingFacility extends Node {
  bands: readonly ImagingBand[];
}

export interface ProductExtension {
  name: string;
  holds: string;
}

/** An IFSDataProduct or a SpectraDataProduct. */
export interface DataProduct extends Node {
  product_key: string;
  product_type: string;
  arm: string | null;
  wave_min_ang: number | null;
  wave_max_ang: number | null;
  wave_step_ang: number | null;
  resolving_power: number | null;
  spatial_sampling_arcsec: number | null;
  dimensions: readonly number[] | null;
  flux_unit: string | null;
  extensions: readonly ProductExtension[];
}

/** An IFSFacility or a SpectraFacility. */
export interface ProductFacility extends Node {
  products: readonly DataProduct[];
}

export interface DataRelease {
  name: string;
  pretty_name: string;
  version: number;
  data_release_number: number;
  contact: Contact;
  created: string;
  updated: string;
  type: string;
  catalogues: { groups: readonly CatalogueGroup[] } | null;
  imaging: { facilities: readonly ImagingFacility[] } | null;
  ifs: { facilities: readonly ProductFacility[] } | null;
  spectra: { facilities: readonly ProductFacility[] } | null;
}

export interface Survey {
  url: string;
  name: string;
  pretty_name: string;
  title: string;
  description: string;
  pi: string;
  contact: Contact;
  website: string;
  active: boolean;
  type: string;
  data_releases: readonly DataRelease[];
}
