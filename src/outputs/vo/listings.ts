// The three listings the VO outputs publish, declared once for CSV and VOTable: every catalogue column
// (columns.csv, columns.vot), every imaging region (regions.csv, regions.vot) and every IFS or spectra
// data product (products.csv, products.vot), a row each, its fields in order with their VOTable type,
// UCD, unit and description.

import { sectionOf } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import type { ColumnTypeFields } from '../../kinds/catalogues.ts';
import { beyondApi } from '../api/objects.ts';
import type { ApiObject } from '../api/objects.ts';
import { listOf } from './names.ts';
import type { Place } from './place.ts';
import { degreesText, descriptionText, ucdText, unitText } from './text.ts';

/** The VOTable datatypes the listings use: `char` only where the schemas allow nothing but ASCII. */
export type Datatype = 'char' | 'unicodeChar' | 'long' | 'int' | 'double' | 'boolean';

export interface Field {
  name: string;
  datatype: Datatype;
  /** A numeric field whose cells are lists of numbers: a VOTable array of any length (arraysize="*"). */
  array?: true;
  ucd?: string;
  unit?: string;
  description: string;
}

/**
 * A cell: its text (numbers as decimal text), the numbers of an array field as decimal texts, null
 * when empty, or the survey's API URL. An array is written as the axes of an image are: joined by
 * "x" in CSV (50x50x2048), and as VOTable writes arrays, separated by spaces, in TABLEDATA.
 */
export type Cell = string | null | typeof SURVEY_URL | readonly string[];

/** The cell for the survey's API URL, written as a NUL character for the writer to fill. */
export const SURVEY_URL: unique symbol = Symbol('survey URL');

export interface Listing {
  /** The VOTable's TABLE name. */
  name: string;
  description: string;
  fields: readonly Field[];
  /** The rows of one group or facility. */
  rows: (unit: ApiObject, place: Place) => Cell[][];
}

const text = (name: string, datatype: 'char' | 'unicodeChar', ucd: string, description: string): Field => ({
  name,
  datatype,
  ucd,
  description,
});
const id = (name: string, ucd: string, description: string): Field => ({ name, datatype: 'long', ucd, description });

const SURVEY = text('survey', 'char', 'meta.id;meta.dataset', "The survey's machine name, as in the API");
const RELEASE = text('release', 'char', 'meta.id;meta.dataset', "The data release's machine name, as in the API");
const URL = text('survey_url', 'char', 'meta.ref.url', "The survey's API URL, which lists its releases");

export const COLUMNS: Listing = {
  name: 'columns',
  description: 'Every catalogue column of the archive, one row each, with its survey, release, catalogue group and table.',
  fields: [
    SURVEY,
    RELEASE,
    text('group', 'char', 'meta.id', "The catalogue group's name"),
    id('group_id', 'meta.id', "The catalogue group's id in the API"),
    text('table', 'char', 'meta.id;meta.table', "The table's name"),
    id('table_id', 'meta.id;meta.table', "The table's id in the API"),
    text('column', 'unicodeChar', 'meta.id', "The column's name as it appears in the table"),
    id('column_id', 'meta.id;meta.main', "The column's id in the API"),
    text('description', 'unicodeChar', 'meta.note', 'What the column holds; empty when undescribed'),
    text('ucd', 'char', 'meta.ucd', "The column's UCD (UCD1+); empty when it has none"),
    text('unit', 'unicodeChar', 'meta.unit', "The column's unit (VOUnits where the curators wrote one); empty when it has none"),
    { name: 'datatype', datatype: 'char', description: "The column's VOTable datatype (int, double, char, ...); empty when not recorded" },
    {
      name: 'arraysize',
      datatype: 'char',
      description: "The column's VOTable arraysize (10, 10*, *, 3x4); empty for a single value, or when its datatype is not recorded",
    },
    {
      name: 'principal',
      datatype: 'boolean',
      description: "Whether the column is of main interest, one a TAP client shows by default (TAP_SCHEMA's principal)",
    },
    URL,
  ],
  rows: (group, place) => {
    const rows: Cell[][] = [];
    for (const table of listOf(group, 'tables')) {
      for (const column of listOf(table, 'columns')) {
        rows.push([
          place.survey,
          place.release,
          String(group.name),
          String(group.id),
          String(table.name),
          String(table.id),
          String(column.name),
          String(column.id),
          descriptionText(column.description),
          ucdText(column.ucd) || null,
          unitText(column.unit) || null,
          ...typeCells(column),
          SURVEY_URL,
        ]);
      }
    }
    return rows;
  },
};

/** A column's VOTable type and principal flag, which its API object carries beyond the API (kinds/catalogues.ts). */
export function columnType(column: ApiObject): ColumnTypeFields | undefined {
  return beyondApi(column) as ColumnTypeFields | undefined;
}

/** A column's datatype, arraysize and principal flag as cells (a VOTable boolean is written true or false). */
function typeCells(column: ApiObject): Cell[] {
  const type = columnType(column);
  return [type?.datatype ?? null, type?.datatype ? type.arraysize : null, type?.principal ? 'true' : 'false'];
}

export const REGIONS: Listing = {
  name: 'regions',
  description: 'Every imaging region (image) of the archive, one row each, with its survey, release, facility and band.',
  fields: [
    SURVEY,
    RELEASE,
    text('facility', 'char', 'meta.id;instr.tel', "The imaging facility's name"),
    id('facility_id', 'meta.id', "The imaging facility's id in the API"),
    text('band', 'unicodeChar', 'meta.id;instr.bandpass', "The band's name"),
    id('band_id', 'meta.id', "The band's id in the API"),
    {
      name: 'central_wave_ang',
      datatype: 'double',
      ucd: 'em.wl.central',
      // 0.1nm is one Angstrom: VOUnits 1.1 deprecates the symbol Angstrom, and astropy refuses it.
      unit: '0.1nm',
      description: "The band's central wavelength in Angstrom",
    },
    text('region', 'unicodeChar', 'meta.id;obs.field', "The region's name"),
    id('region_id', 'meta.id;meta.main', "The region's id in the API"),
    {
      name: 'ra_c',
      datatype: 'double',
      ucd: 'pos.eq.ra',
      unit: 'deg',
      description: "Right ascension of the region's centre in degrees; empty when its unit is not an angle",
    },
    {
      name: 'dec_c',
      datatype: 'double',
      ucd: 'pos.eq.dec',
      unit: 'deg',
      description: "Declination of the region's centre in degrees; empty when its unit is not an angle",
    },
    text('frame', 'char', 'pos.frame', 'The coordinate frame of the centre, in lower case (icrs, fk5)'),
    text('equinox', 'char', 'time.equinox', 'The equinox of the centre, in lower case (j2000)'),
    URL,
  ],
  rows: (facility, place) => {
    const rows: Cell[][] = [];
    for (const band of listOf(facility, 'bands')) {
      for (const region of listOf(band, 'regions')) {
        rows.push([
          place.survey,
          place.release,
          String(facility.name),
          String(facility.id),
          String(band.name),
          String(band.id),
          typeof band.central_wave_ang === 'number' ? String(band.central_wave_ang) : null,
          String(region.name),
          String(region.id),
          degreesText(region.ra_c, region.unit),
          degreesText(region.dec_c, region.unit),
          typeof region.frame === 'string' ? region.frame : null,
          typeof region.equinox === 'string' ? region.equinox : null,
          SURVEY_URL,
        ]);
      }
    }
    return rows;
  },
};

/** A number as decimal text, null when there is none. */
const numberText = (value: unknown): string | null => (typeof value === 'number' ? String(value) : null);

/**
 * An EXTNAME in a list of them separated by spaces: as it is, or, when it holds white space or a
 * quote (FITS allows both), in single quotes with its quotes doubled, as a FITS header writes a
 * string, so that the list reads back unambiguously (PRIMARY 'normalised spectra').
 */
export function extnameText(name: string): string {
  return name === '' || /[\s']/.test(name) ? `'${name.replaceAll("'", "''")}'` : name;
}

/** Wavelengths are in Angstrom, written 0.1nm: VOUnits 1.1 deprecates the symbol, and astropy refuses it. */
const wavelength = (name: string, ucd: string, description: string): Field => ({
  name,
  datatype: 'double',
  ucd,
  unit: '0.1nm',
  description,
});

export const PRODUCTS: Listing = {
  name: 'products',
  description:
    'Every IFS and spectra data product of the archive (a kind of file: a cube, a map or a spectrum), one row each, with its survey, release and facility.',
  fields: [
    SURVEY,
    RELEASE,
    text('data_type', 'char', 'meta.code.class;meta.dataset', "The product's data type, as the API's data_type names it: ifs or spectra"),
    text('facility', 'char', 'meta.id;instr', "The IFS or spectra facility's name"),
    id('facility_id', 'meta.id', "The facility's id in the API (IFS and spectra facilities each have their own ids)"),
    text('product', 'unicodeChar', 'meta.id', "The data product's name"),
    id('product_id', 'meta.id', "The data product's id in the API (IFS and spectra products each have their own ids)"),
    text('product_key', 'unicodeChar', 'meta.id;meta.main', "The product's key in the archive: survey.release.facility.product"),
    text('product_type', 'char', 'meta.code.class', 'What a file of the product holds: cube, map or spectrum'),
    text(
      'arm',
      'char',
      'meta.id;instr.setup',
      'The spectrograph arm or camera, in lower case; empty when the product combines them or has none',
    ),
    wavelength('wave_min_ang', 'em.wl;stat.min', 'The shortest wavelength covered, in Angstrom (observed frame); empty when not given'),
    wavelength('wave_max_ang', 'em.wl;stat.max', 'The longest wavelength covered, in Angstrom; empty when not given'),
    wavelength('wave_step_ang', 'spect.binSize', 'Angstrom per wavelength pixel; empty when not sampled evenly or not known'),
    {
      name: 'resolving_power',
      datatype: 'double',
      ucd: 'spect.resolution',
      description: 'The spectral resolving power R = lambda / delta lambda; empty when not known',
    },
    {
      name: 'spatial_sampling_arcsec',
      datatype: 'double',
      ucd: 'pos.wcs.scale',
      unit: 'arcsec',
      description: 'The size of a spaxel or map pixel on the sky, in arcsec; empty for spectra',
    },
    {
      name: 'dimensions',
      datatype: 'long',
      array: true,
      ucd: 'meta.number;instr.pixel',
      description: "The lengths of the main data array's axes (NAXIS1, NAXIS2, ...); empty when they vary from file to file",
    },
    text('flux_unit', 'unicodeChar', 'meta.unit', 'The unit of the data values, as FITS BUNIT writes it; empty when not known'),
    text(
      'extensions',
      'char',
      'meta.id;meta.fits',
      "The EXTNAMEs of a file's FITS extensions, in file order, separated by spaces; one holding a space or a quote is in single quotes, its quotes doubled, as FITS writes strings",
    ),
    text('description', 'unicodeChar', 'meta.note', 'What the product holds; empty when undescribed'),
    URL,
  ],
  rows: (facility, place) => {
    const dataType = sectionOf(facility.type as KindType)?.dataType ?? null;
    return listOf(facility, 'products').map((product) => {
      const dimensions = Array.isArray(product.dimensions) && product.dimensions.length > 0 ? product.dimensions.map(String) : null;
      const extensions = listOf(product, 'extensions').map((e) => extnameText(String(e.name)));
      return [
        place.survey,
        place.release,
        dataType,
        String(facility.name),
        String(facility.id),
        String(product.name),
        String(product.id),
        String(product.product_key),
        String(product.product_type),
        typeof product.arm === 'string' ? product.arm : null,
        numberText(product.wave_min_ang),
        numberText(product.wave_max_ang),
        numberText(product.wave_step_ang),
        numberText(product.resolving_power),
        numberText(product.spatial_sampling_arcsec),
        dimensions,
        unitText(product.flux_unit) || null,
        extensions.length > 0 ? extensions.join(' ') : null,
        descriptionText(product.description),
        SURVEY_URL,
      ];
    });
  },
};
