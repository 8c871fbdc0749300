// `import tableset` on what TAP services publish: real tablesets and a real TAP_SCHEMA query result
// (test/fixtures/tablesets/, whose README says where each comes from), and this project's own
// tables.xml and tap_schema.vot read back. Groups, tables, columns and types as the source gives
// them; ids the archive's next free ones; nothing written over, nothing half written.

import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { ColumnYaml, GroupYaml } from '../src/kinds/data.ts';
import { cli, expectSameFiles, snapshotTree, testdir } from './helpers.ts';

const TABLESETS = path.resolve(import.meta.dirname, 'fixtures/tablesets');
const source = (name: string) => path.join(TABLESETS, name);
const NOW = ['--now', '2026-01-02T03:04:05Z'];
const INTO = ['--into', 'metadata/alpha/dr1'];

const groupAt = async (dir: string, name: string): Promise<GroupYaml> =>
  parse(await readFile(path.join(dir, 'metadata/alpha/dr1/catalogues', `${name}.yaml`), 'utf8')) as GroupYaml;
const column = (group: GroupYaml, table: string, name: string): ColumnYaml | undefined =>
  group.tables.find((t) => t.name === table)?.columns.find((c) => c.name === name);

/** Every element named `tag` in an XML text, as the number of its start tags. */
const count = (text: string, tag: string) => text.split(`<${tag}>`).length - 1 + text.split(`<${tag} `).length - 1;

describe("the Gaia archive's tableset (ESA TAP+, VODataService 1.1 with ESA's own attributes)", () => {
  test('a group for its schema, every table and column, the types, units and UCDs it gives, and the next free ids', async () => {
    const dir = await testdir();
    const result = await cli(['import', 'tableset', source('gaia-tables.xml'), ...INTO, ...NOW], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = await readFile(source('gaia-tables.xml'), 'utf8');
    expect(result.stdout).toMatch(
      /^metadata\/alpha\/dr1\/catalogues\/external\.yaml: new catalogue group "external" \(id 22\) from schema external: 3 tables \(ids 202–204\), 181 columns \(ids 2011–2191\)\n/,
    );
    expect(count(text, 'column')).toBe(181);
    const group = await groupAt(dir, 'external');
    expect(group).toMatchObject({
      id: 22,
      name: 'external',
      description: 'TAP Schema for external catalogues',
      created: '2026-01-02T03:04:05Z',
    });
    expect(group.tables.map((t) => t.name)).toEqual(['apassdr9', 'catwise2020', 'gaiadr2_astrophysical_parameters']);
    expect(column(group, 'apassdr9', 'raj2000')).toEqual({
      id: 2012,
      name: 'raj2000',
      description: 'Right ascension in decimal degrees (J2000)',
      ucd: 'pos.eq.ra;meta.main',
      unit: 'deg',
      datatype: 'double',
    });
    expect(column(group, 'apassdr9', 'recno')).toMatchObject({ id: 2011, datatype: 'long', ucd: 'meta.record' });
    // Its text columns have no arraysize: read as text of any length, and said so.
    expect(column(group, 'catwise2020', 'name')).toMatchObject({ datatype: 'char', arraysize: '*' });
    expect(result.stdout).toContain("table external.catwise2020: text of any length (arraysize '*') for obj_id, name,");
    const columns = group.tables.flatMap((t) => t.columns);
    expect(columns.map((c) => c.id)).toEqual(columns.map((_, i) => 2011 + i));
    expect(columns.every((c) => c.datatype !== undefined)).toBe(true);
    const check = await cli(['check'], dir);
    expect(check.code).toBe(0);
    expect(check.stdout).not.toMatch(/datatypes\//);
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });
});

describe("SIMBAD's TAP_SCHEMA.columns, as a VOTable (unqualified table names, ADQL types)", () => {
  test('one group, the columns in the order given, each ADQL type as VOTable writes it, and a type neither knows named', async () => {
    const dir = await testdir();
    const result = await cli(['import', 'tableset', source('simbad-tap-schema-columns.vot'), ...INTO, ...NOW], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'metadata/alpha/dr1/catalogues/default.yaml: new catalogue group "default" (id 22) from schema default: 1 table (id 202), 67 columns (ids 2011–2077)\n',
    );
    expect(result.stdout).toContain(
      "table basic: no datatype for update_date (date): neither VOTable's type nor TAP's; give each its datatype\n",
    );
    const group = await groupAt(dir, 'default');
    const basic = group.tables[0];
    expect(basic?.name).toBe('basic');
    expect(basic?.columns.slice(0, 3)).toEqual([
      { id: 2011, name: 'dec', description: 'Declination', ucd: 'pos.eq.dec;meta.main', unit: 'deg', datatype: 'double' },
      {
        id: 2012,
        name: 'main_id',
        description: 'Main identifier for an object',
        ucd: 'meta.id;meta.main',
        datatype: 'char',
        arraysize: '*',
      },
      { id: 2013, name: 'otype_txt', description: 'Object type', ucd: 'src.class', datatype: 'char', arraysize: '*' },
    ]);
    expect(column(group, 'basic', 'update_date')?.datatype).toBeUndefined();
    const check = await cli(['check'], dir);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('table "basic" > columns lack a datatype: 1 of 67 (update_date)');
  });
});

describe("pyvo's tableset test data", () => {
  test('every ADQL type of vs:TAPType as its VOTable type', async () => {
    const dir = await testdir();
    expect((await cli(['import', 'tableset', source('pyvo-datatypes-tap.xml'), ...INTO, ...NOW], dir)).code).toBe(0);
    const tap = (await groupAt(dir, 'test')).tables.find((t) => t.name === 'tap');
    expect(Object.fromEntries((tap?.columns ?? []).map((c) => [c.name, [c.datatype, c.arraysize]]))).toEqual({
      _boolean: ['boolean', '*'],
      _smallint: ['short', '*'],
      _integer: ['int', '*'],
      _bigint: ['long', '*'],
      _real: ['float', '*'],
      _double: ['double', '*'],
      _timestamp: ['char', '*'],
      _char: ['char', '*'],
      _varchar: ['char', '*'],
      _binary: ['unsignedByte', '*'],
      _varbinary: ['unsignedByte', '*'],
      _point: ['double', '*'],
      _region: ['char', '*'],
      _clob: ['char', '*'],
      _blob: ['unsignedByte', '*'],
    });
  });

  test('--schema names what to import; a schema the file does not have is refused, listing those it has', async () => {
    const dir = await testdir();
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const wrong = await cli(['import', 'tableset', source('pyvo-tables.xml'), ...INTO, '--schema', 'nope', ...NOW], dir);
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toMatch(/pyvo-tables\.xml has no schema nope; it has test\n$/);
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
    expect((await cli(['import', 'tableset', source('pyvo-tables.xml'), ...INTO, '--schema', 'test', ...NOW], dir)).code).toBe(0);
    expect(column(await groupAt(dir, 'test'), 'all', 'id')).toEqual({
      id: 2011,
      name: 'id',
      description: 'Primary key',
      ucd: 'meta.id;meta.main',
      unit: 'unit',
      datatype: 'char',
      arraysize: '*',
    });
  });
});

describe('refusals', () => {
  test('a group that exists already is never written over, and nothing else is written either', async () => {
    const dir = await testdir();
    expect((await cli(['import', 'tableset', source('gaia-tables.xml'), ...INTO, ...NOW], dir)).code).toBe(0);
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const again = await cli(['import', 'tableset', source('gaia-tables.xml'), ...INTO, ...NOW], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'archive-schema: metadata/alpha/dr1/catalogues/external.yaml exists already, and import tableset never writes over a group; nothing was written. Remove or rename it, or leave schema external out with --schema\n',
    );
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });

  test.each([
    [
      'a folder that is not a release',
      ['--into', 'metadata/alpha'],
      'gaia-tables.xml',
      /--into metadata\/alpha is not a release's folder \(metadata\/<survey>\/<release>\)/,
    ],
    [
      'a release that does not exist',
      ['--into', 'metadata/alpha/dr9'],
      'gaia-tables.xml',
      /there is no release alpha\/dr9 \(metadata\/alpha\/dr9\/release\.yaml\); create it first/,
    ],
    [
      'a document that is neither',
      INTO,
      'other.xml',
      /other\.xml: Not a VOSI tableset or a TAP_SCHEMA VOTable: the root element is <capabilities>/,
    ],
    [
      'a VOTable with no TAP_SCHEMA.columns',
      INTO,
      'fields.vot',
      /fields\.vot: The VOTable has no TABLE with the fields table_name and column_name/,
    ],
    [
      'TAP_SCHEMA in BINARY2',
      INTO,
      'binary.vot',
      /binary\.vot: TABLE columns holds its rows as BINARY2, which this reads only as TABLEDATA; ask the service for FORMAT=votable\/td/,
    ],
  ])('%s', async (_, into, file, message) => {
    const dir = await testdir();
    await writeFile(path.join(dir, 'other.xml'), '<vosi:capabilities xmlns:vosi="http://www.ivoa.net/xml/VOSICapabilities/v1.0"/>');
    await writeFile(
      path.join(dir, 'fields.vot'),
      '<VOTABLE><RESOURCE><TABLE><FIELD name="ra" datatype="double"/></TABLE></RESOURCE></VOTABLE>',
    );
    await writeFile(
      path.join(dir, 'binary.vot'),
      '<VOTABLE><RESOURCE><TABLE name="columns"><FIELD name="table_name" datatype="char" arraysize="*"/><FIELD name="column_name" datatype="char" arraysize="*"/>' +
        '<DATA><BINARY2><STREAM encoding="base64">AAAA</STREAM></BINARY2></DATA></TABLE></RESOURCE></VOTABLE>',
    );
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const target = file.includes('/') || ['other.xml', 'fields.vot', 'binary.vot'].includes(file) ? path.join(dir, file) : source(file);
    const result = await cli(['import', 'tableset', target, ...into, ...NOW], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });
});

describe("this project's own VO tables, read back", () => {
  test.each(['tables.xml', 'tap_schema.vot'])("%s gives back every table's columns with their types, units and UCDs", async (file) => {
    const dir = await testdir();
    expect((await cli(['build', '--out', 'dist', '--base-url', 'https://schema.test'], dir)).code).toBe(0);
    await cli(['new', 'release', 'beta/dr2', ...NOW], dir);
    const result = await cli(['import', 'tableset', path.join(dir, 'dist/download', file), '--into', 'metadata/beta/dr2', ...NOW], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const written = await readdir(path.join(dir, 'metadata/beta/dr2/catalogues'));
    expect(written.sort()).toEqual(['alpha_dr1.yaml', 'alpha_dr2.yaml']);
    const read = async (name: string) => parse(await readFile(path.join(dir, 'metadata/beta/dr2/catalogues', name), 'utf8')) as GroupYaml;
    const fixture = async (name: string) => parse(await readFile(path.join(dir, 'metadata', name), 'utf8')) as GroupYaml;
    const types = (g: GroupYaml) =>
      g.tables.flatMap((t) => t.columns.map((c) => [c.name, c.datatype, c.arraysize, c.unit, c.ucd, c.description]));
    const original = (g: GroupYaml) =>
      g.tables.flatMap((t) =>
        t.columns.map((c) => [
          c.name,
          c.datatype,
          c.arraysize,
          c.unit === '-' || c.unit === 'None' ? undefined : c.unit,
          c.ucd,
          c.description,
        ]),
      );
    expect(types(await read('alpha_dr1.yaml'))).toEqual(original(await fixture('alpha/dr1/catalogues/SpecCat.yaml')));
    expect(types(await read('alpha_dr2.yaml'))).toEqual(original(await fixture('alpha/dr2/catalogues/InputCat.yaml')));
    // Table names are the tableset's own, its group's name before the table's.
    expect((await read('alpha_dr1.yaml')).tables.map((t) => t.name)).toEqual(['SpecCat_SpecObj']);
  });
});
