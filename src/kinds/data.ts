// What the schemas guarantee about each kind's data once a file has passed them: the curators'
// YAML as the later stages read it.

export interface ContactYaml {
  name: string;
  email: string;
}

export interface SurveyYaml {
  id: number;
  name: string;
  pretty_name: string;
  title: string;
  description: string;
  pi: string;
  contact: ContactYaml;
  website: string;
  active: boolean;
}

export interface ReleaseYaml {
  name: string;
  pretty_name: string;
  version: number;
  data_release_number: number;
  contact: ContactYaml;
  created: string;
  updated: string;
  /** The day it was published to users (YYYY-MM-DD): its tables and columns then change only as recorded corrections. Not in the API. */
  released?: string;
}

/** The keys every catalogue and imaging node has. */
export interface NodeYaml {
  id: number;
  name: string;
  pretty_name?: string | null;
  description?: string | null;
  documentation?: string;
  file_path?: string | null;
  file_name?: string | null;
  file_extension?: string | null;
  version?: string | null;
  created?: string;
  updated?: string;
  contact?: ContactYaml | null;
}

export interface ColumnYaml extends NodeYaml {
  ucd?: string;
  unit?: string;
  /** A VOTable datatype; published in the VO outputs only, never in the API. */
  datatype?: string;
  arraysize?: string | number;
  principal?: boolean;
}

export interface TableYaml extends NodeYaml {
  input_cat?: boolean;
  columns: ColumnYaml[];
}

export interface GroupYaml extends NodeYaml {
  tables: TableYaml[];
}

export type FitsValue = string | number | boolean;

export interface RegionYaml extends NodeYaml {
  fits_header: Record<string, [FitsValue, string]>;
  ra_c: string;
  dec_c: string;
  unit: string;
  frame: string;
  equinox: string;
}

export interface BandYaml extends NodeYaml {
  central_wave_ang: number;
  regions: RegionYaml[];
}

export interface FacilityYaml extends NodeYaml {
  bands: BandYaml[];
}

export interface ExtensionYaml {
  name: string;
  holds: string;
}

/** An IFS or spectra data product. */
export interface ProductYaml extends NodeYaml {
  product_type: 'cube' | 'map' | 'spectrum';
  arm?: string | null;
  wave_min_ang?: number | null;
  wave_max_ang?: number | null;
  wave_step_ang?: number | null;
  resolving_power?: number | null;
  spatial_sampling_arcsec?: number | null;
  dimensions?: number[] | null;
  flux_unit?: string | null;
  extensions?: ExtensionYaml[];
}

export interface ProductFacilityYaml extends NodeYaml {
  products: ProductYaml[];
}

export interface RetiredYaml {
  kind: string;
  id: number;
  name: string;
  retired: string;
  reason: string;
}
