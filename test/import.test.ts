// `import columns` and `import region` on real-format inputs made here: a FITS file with a
// binary table, a VOTable, a CSV file, a FITS image with a WCS, and a text dump of its header.

import { execFileSync } from 'node:child_process';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { TYPED_COLUMNS, binaryTableFile, concat, dataUnit, floats, header, kv } from './fitsfile.ts';
import type { FacilityYaml, GroupYaml } from '../src/kinds/data.ts';
import { cli, expectSameFiles, snapshotTree, testdir } from './helpers.ts';

const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
const FACILITY = 'metadata/alpha/dr2/imaging/VST.yaml';

/** SpecAll.fits: an empty primary HDU and a 3-row BINTABLE with four described columns. */
function tableFile(): Uint8Array {
  const columns = [
    kv('TTYPE1', 'CATAID', 'label for field 1'),
    kv('TFORM1', 'J'),
    kv('TUCD1', 'meta.id;meta.main'),
    kv('TCOMM1', 'Unique ID of GAMA object'),
    kv('TTYPE2', 'Z', 'Heliocentric redshift'),
    kv('TFORM2', 'E'),
    kv('TUCD2', 'src.redshift'),
    kv('TTYPE3', 'RA'),
    kv('TFORM3', 'D'),
    kv('TUNIT3', 'deg'),
    kv('TUCD3', 'pos.eq.ra'),
    kv('TCOMM3', 'RA of spectrum (J2000)'),
    kv('TTYPE4', 'SN'),
    kv('TFORM4', 'E'),
    kv('TCOMM4', 'Median signal-to-noise per pixel'),
  ];
  return concat(
    header([kv('SIMPLE', true), kv('BITPIX', 8), kv('NAXIS', 0), kv('EXTEND', true)]),
    header([
      kv('XTENSION', 'BINTABLE'),
      kv('BITPIX', 8),
      kv('NAXIS', 2),
      kv('NAXIS1', 20),
      kv('NAXIS2', 3),
      kv('PCOUNT', 0),
      kv('GCOUNT', 1),
      kv('TFIELDS', 4),
      ...columns,
      kv('EXTNAME', 'SPECALL'),
    ]),
    dataUnit(new Uint8Array(60)),
  );
}

/** G12_r.fits: a 40 x 30 float image centred on G12 with a TAN WCS. */
function imageFile(): Uint8Array {
  return concat(
    header(
      [
        kv('SIMPLE', true, 'conforms to FITS standard'),
        kv('BITPIX', -32, 'array data type'),
        kv('NAXIS', 2),
        kv('NAXIS1', 40),
        kv('NAXIS2', 30),
        kv('OBJECT', 'G12'),
        kv('EQUINOX', 2000.0, 'Mean equinox'),
        kv('RADESYS', 'ICRS'),
        kv('CTYPE1', 'RA---TAN'),
        kv('CUNIT1', 'deg'),
        kv('CRVAL1', 180.25, 'World coordinate on this axis'),
        kv('CRPIX1', 20.5),
        kv('CD1_1', -5.5555555555e-5),
        kv('CTYPE2', 'DEC--TAN'),
        kv('CUNIT2', 'deg'),
        kv('CRVAL2', -0.5),
        kv('CRPIX2', 15.5),
        kv('CD2_2', 5.5555555555e-5),
        kv('BUNIT', 'ADU'),
        kv('FILTER', 'r_SDSS'),
        kv('DATE-OBS', '2016-03-02T01:02:03'),
      ].concat(['HISTORY resampled with SWarp'.padEnd(80, ' ')]),
    ),
    dataUnit(
      floats(
        Array.from({ length: 1200 }, (_, i) => i / 10),
        -32,
      ),
    ),
  );
}

const VOTABLE = `<?xml version="1.0" encoding="UTF-8"?>
<VOTABLE version="1.4" xmlns="http://www.ivoa.net/xml/VOTable/v1.3">
  <RESOURCE type="results">
    <TABLE name="tiling">
      <FIELD name="CATAID" datatype="long" ucd="meta.id;meta.main"><DESCRIPTION>Unique ID of GAMA object</DESCRIPTION></FIELD>
      <FIELD name="R_PETRO" datatype="float" unit="mag" ucd="phot.mag;em.opt.R"><DESCRIPTION>Extinction-corrected SDSS DR6
        Petrosian mag</DESCRIPTION></FIELD>
      <FIELD name="SURVEY_CLASS" datatype="short" ucd="meta.code.class"/>
      <DATA><TABLEDATA><TR><TD>6802</TD><TD>17.2</TD><TD>4</TD></TR></TABLEDATA></DATA>
    </TABLE>
  </RESOURCE>
</VOTABLE>
`;

async function project(): Promise<string> {
  const dir = await testdir();
  await writeFile(path.join(dir, 'SpecAll.fits'), tableFile());
  await writeFile(path.join(dir, 'G12_r.fits'), imageFile());
  await writeFile(path.join(dir, 'tiling.vot'), VOTABLE);
  await writeFile(path.join(dir, 'cube_obs.csv'), '"CUBEID",CATID,"CUBEFWHM"\n1,2,3\n');
  return dir;
}

const yamlOf = async (dir: string, file: string): Promise<unknown> => parse(await readFile(path.join(dir, file), 'utf8'));
const groupIn = async (dir: string, file: string) => (await yamlOf(dir, file)) as GroupYaml;
const facilityIn = async (dir: string, file: string) => (await yamlOf(dir, file)) as FacilityYaml;

describe('import columns', () => {
  test('from a FITS binary table: a new table with its columns and the next free ids', async () => {
    const dir = await project();
    const result = await cli(['import', 'columns', 'SpecAll.fits', '--into', GROUP, '--table', 'SpecAll'], dir);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout:
        `${GROUP}: table "SpecAll": new table "SpecAll" with id 202\n` +
        `${GROUP}: table "SpecAll": 4 columns added: CATAID (2011), Z (2012), RA (2013), SN (2014)\n` +
        `${GROUP}: table "SpecAll": 0 columns unchanged\n` +
        'Run `npm run stamp` to set created and updated, then `npm run check`.\n',
    });
    const group = await groupIn(dir, GROUP);
    expect(group.tables[1]).toEqual({
      id: 202,
      name: 'SpecAll',
      file_name: 'SpecAll.fits',
      columns: [
        { id: 2011, name: 'CATAID', description: 'Unique ID of GAMA object', ucd: 'meta.id;meta.main', datatype: 'int' },
        { id: 2012, name: 'Z', description: 'Heliocentric redshift', ucd: 'src.redshift', datatype: 'float' },
        { id: 2013, name: 'RA', description: 'RA of spectrum (J2000)', ucd: 'pos.eq.ra', unit: 'deg', datatype: 'double' },
        { id: 2014, name: 'SN', description: 'Median signal-to-noise per pixel', datatype: 'float' },
      ],
    });
    expect((await cli(['check'], dir)).code).toBe(0);
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });

  test('into an existing table: same names keep their ids, changes are applied, nothing is dropped', async () => {
    const dir = await project();
    // SpecObj has CATAID (2000), Z (2001) and NOTE (2002).
    const result = await cli(['import', 'columns', 'SpecAll.fits', '--into', GROUP, '--table', 'SpecObj'], dir);
    expect(result.stdout).toBe(
      `${GROUP}: table "SpecObj": 2 columns added: RA (2011), SN (2012)\n` +
        `${GROUP}: table "SpecObj": 1 column updated: CATAID\n` +
        `${GROUP}: table "SpecObj": 1 column unchanged\n` +
        `${GROUP}: table "SpecObj": 1 column kept that SpecAll.fits does not list (published ids are never dropped by an import): NOTE\n` +
        'Run `npm run stamp` to set created and updated, then `npm run check`.\n',
    );
    const columns = (await groupIn(dir, GROUP)).tables[0]?.columns ?? [];
    // CATAID was a long, and SpecAll.fits says int (J): the file's type is taken.
    expect(columns.map((c) => [c.id, c.name, c.description, c.datatype])).toEqual([
      [2000, 'CATAID', 'Unique ID of GAMA object', 'int'],
      [2001, 'Z', 'Heliocentric redshift', 'float'],
      [2002, 'NOTE', 'Line\u2028separator', 'unicodeChar'],
      [2011, 'RA', 'RA of spectrum (J2000)', 'double'],
      [2012, 'SN', 'Median signal-to-noise per pixel', 'float'],
    ]);
  });

  test('importing the same file again changes nothing', async () => {
    const dir = await project();
    await cli(['import', 'columns', 'SpecAll.fits', '--into', GROUP, '--table', 'SpecAll'], dir);
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const again = await cli(['import', 'columns', 'SpecAll.fits', '--into', GROUP, '--table', 'SpecAll'], dir);
    expect(again.stdout).toContain('table "SpecAll": 4 columns unchanged');
    const after = await snapshotTree(path.join(dir, 'metadata'));
    expectSameFiles(after, before);
  });

  test('from a VOTable FIELD list, descriptions with their white space folded', async () => {
    const dir = await project();
    const result = await cli(
      ['import', 'columns', 'tiling.vot', '--into', 'metadata/alpha/dr2/catalogues/InputCat.yaml', '--table', 'TilingCat'],
      dir,
    );
    expect(result.code).toBe(0);
    const columns = (await groupIn(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml')).tables[0]?.columns;
    expect(columns).toEqual([
      { id: 2010, name: 'RA', ucd: 'pos.eq.ra', unit: 'deg', datatype: 'double' },
      { id: 2011, name: 'CATAID', description: 'Unique ID of GAMA object', ucd: 'meta.id;meta.main', datatype: 'long' },
      {
        id: 2012,
        name: 'R_PETRO',
        description: 'Extinction-corrected SDSS DR6 Petrosian mag',
        ucd: 'phot.mag;em.opt.R',
        unit: 'mag',
        datatype: 'float',
      },
      { id: 2013, name: 'SURVEY_CLASS', ucd: 'meta.code.class', datatype: 'short' },
    ]);
  });

  test("from a FITS binary table: each column's VOTable type from TFORMn, TDIMn, TZEROn and TSCALn", async () => {
    const dir = await project();
    await writeFile(path.join(dir, 'types.fits'), binaryTableFile(TYPED_COLUMNS));
    const result = await cli(['import', 'columns', 'types.fits', '--into', GROUP, '--table', 'Types'], dir);
    expect(result.stderr).toBe('');
    const columns = (await groupIn(dir, GROUP)).tables.find((t) => t.name === 'Types')?.columns ?? [];
    expect(columns.map((c) => [c.name, c.datatype, c.arraysize])).toEqual(TYPED_COLUMNS.map((c) => [c.name, c.datatype, c.arraysize]));
    expect((await cli(['check'], dir)).stdout).not.toMatch(/datatypes\//);
  });

  test("from a VOTable: each FIELD's datatype and arraysize, and a later file's type replacing the column's", async () => {
    const dir = await project();
    const fields = (arraysize: string) =>
      '<VOTABLE><RESOURCE><TABLE>' +
      `<FIELD name="CATAID" datatype="long"/><FIELD name="NOTE" datatype="char" ${arraysize}/><FIELD name="SED" datatype="double" arraysize="3x*"/>` +
      '</TABLE></RESOURCE></VOTABLE>';
    await writeFile(path.join(dir, 'typed.vot'), fields('arraysize="64*"'));
    await cli(['import', 'columns', 'typed.vot', '--into', GROUP, '--table', 'SpecObj'], dir);
    const types = async () => ((await groupIn(dir, GROUP)).tables[0]?.columns ?? []).map((c) => [c.name, c.datatype, c.arraysize] as const);
    expect(await types()).toEqual([
      ['CATAID', 'long', undefined],
      ['Z', 'float', undefined],
      ['NOTE', 'char', '64*'],
      ['SED', 'double', '3x*'],
    ]);
    // A FIELD that holds one character says so by having no arraysize: the column's '64*' goes.
    await writeFile(path.join(dir, 'typed.vot'), fields(''));
    await cli(['import', 'columns', 'typed.vot', '--into', GROUP, '--table', 'SpecObj'], dir);
    expect((await types())[2]).toEqual(['NOTE', 'char', undefined]);
  });

  test('from a CSV header: names only', async () => {
    const dir = await project();
    const result = await cli(['import', 'columns', 'cube_obs.csv', '--into', GROUP, '--table', 'CubeObs'], dir);
    expect(result.stdout).toContain('4 columns added'.replace('4', '3'));
    const table = (await groupIn(dir, GROUP)).tables[1];
    expect(table).toEqual({
      id: 202,
      name: 'CubeObs',
      file_name: 'cube_obs.csv',
      columns: [
        { id: 2011, name: 'CUBEID' },
        { id: 2012, name: 'CATID' },
        { id: 2013, name: 'CUBEFWHM' },
      ],
    });
  });

  test.each([
    [
      ['import', 'columns', 'G12_r.fits', '--into', GROUP, '--table', 'X'],
      /G12_r\.fits has no table HDU \(one with TFIELDS\); pass --hdu to choose one$/m,
    ],
    [
      ['import', 'columns', 'SpecAll.fits', '--into', FACILITY, '--table', 'X'],
      /--into metadata\/alpha\/dr2\/imaging\/VST\.yaml is not a catalogue group file/,
    ],
    [
      ['import', 'columns', 'notes.txt', '--into', GROUP, '--table', 'X'],
      /cannot tell what .*notes\.txt is: expected a FITS file, a FITS header as text, a VOTable \(XML\) or a CSV file/,
    ],
  ])('refuses what it cannot do: %j', async (argv, message) => {
    const dir = await project();
    await writeFile(path.join(dir, 'notes.txt'), 'just some notes\n');
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const result = await cli(argv, dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    const after = await snapshotTree(path.join(dir, 'metadata'));
    expectSameFiles(after, before);
  });
});

describe('import columns on hostile sources', () => {
  // Each of these crashed with the reader's own error and a stack trace, or hung.
  test.each([
    [
      'a VOTable nested 150 deep (crashed: "Maximum nested tags exceeded")',
      'deep.vot',
      `<VOTABLE>${'<RESOURCE>'.repeat(150)}${'</RESOURCE>'.repeat(150)}</VOTABLE>`,
      /deep\.vot: Elements are nested more than 100 deep/,
    ],
    [
      'a VOTable with an element named __proto__ (crashed: "[SECURITY] Invalid name")',
      'proto.vot',
      '<VOTABLE><RESOURCE><TABLE><__proto__/><FIELD name="a"/></TABLE></RESOURCE></VOTABLE>',
      /proto\.vot: An element or attribute is named "__proto__"/,
    ],
    [
      'a CSV whose header opens a quote it never closes (crashed: "Quote Not Closed")',
      'open.csv',
      'a,"b\n1,2\n',
      /open\.csv: the quote \("\) at character 3 of the header row is never closed/,
    ],
    ['a CSV header with a quote in the middle of a name', 'middle.csv', 'ab"c,d\n1,2\n', /middle\.csv: the header row is not valid CSV: /],
    ['a CSV that is not UTF-8', 'latin1.csv', Buffer.from('na\xefve,b\n', 'latin1'), /latin1\.csv is not UTF-8 text; save it as UTF-8/],
    [
      'a VOTable whose DATA never ends',
      'cut.vot',
      '<VOTABLE><RESOURCE><TABLE><FIELD name="a"/>\n<DATA><TABLEDATA><TR><TD>1</TD>',
      /cut\.vot: Not well-formed XML: the DATA element at line 2 is never closed/,
    ],
    ['a folder', 'folder.csv', null, /folder\.csv is not a file; pass a FITS file, a FITS header as text, a VOTable or a CSV file/],
    [
      'a CSV header "a,,b" (was: the empty name dropped without a word, b taking its place)',
      'gap.csv',
      'a,,b\n1,2,3\n',
      /^archive-schema: \/\S*\/gap\.csv: the header row has no name for column 2 \(after "a"\); name every column, or remove the extra commas\n$/,
    ],
    [
      "a VOTable of 200,000 unclosed RESOURCEs on 3 lines (was: one 2.2 MB line, the parser's stack, at 1:1)",
      'unclosed.vot',
      `<?xml version="1.0"?>\n<VOTABLE version="1.4">\n${'<RESOURCE>'.repeat(200_000)}\n`,
      /^archive-schema: \/\S*\/unclosed\.vot: Elements are nested more than 100 deep at line 3, column 991 \(<RESOURCE>\), which no VOTable needs \(RESOURCE in RESOURCE goes a few levels at most\); is this the right file\?\n$/,
    ],
    [
      'a VOTable FIELD with a datatype VOTable does not define',
      'float32.vot',
      '<VOTABLE><RESOURCE><TABLE><FIELD name="a" datatype="float32"/></TABLE></RESOURCE></VOTABLE>',
      /float32\.vot: FIELD "a" has datatype="float32", which VOTable does not define \(it has boolean, bit, unsignedByte/,
    ],
  ])('%s: exit 1, the file and what to do, metadata untouched', async (_, name, content, message) => {
    const dir = await project();
    if (content === null) execFileSync('mkdir', [path.join(dir, name)]);
    else await writeFile(path.join(dir, name), content);
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const result = await cli(['import', 'columns', name, '--into', GROUP, '--table', 'X'], dir);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(result.code).toBe(1);
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });

  test('a named pipe is refused without waiting for a writer (hung)', async () => {
    const dir = await project();
    execFileSync('mkfifo', [path.join(dir, 'pipe.csv')]);
    const result = await cli(['import', 'columns', 'pipe.csv', '--into', GROUP, '--table', 'X'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pipe\.csv is not a file/);
  });

  test('a FITS file over 2 GiB: its headers are read and its data skipped (was refused: the whole file was read)', async () => {
    const dir = await project();
    // A 2.5 GB binary table, sparse on disk: the header, then a data unit that is a hole.
    const rows = 312_500_000;
    const table = header([
      kv('XTENSION', 'BINTABLE'),
      kv('BITPIX', 8),
      kv('NAXIS', 2),
      kv('NAXIS1', 8),
      kv('NAXIS2', rows),
      kv('PCOUNT', 0),
      kv('GCOUNT', 1),
      kv('TFIELDS', 1),
      kv('TTYPE1', 'FLUX'),
      kv('TFORM1', 'D'),
      kv('TUNIT1', 'Jy'),
    ]);
    const primary = header([kv('SIMPLE', true), kv('BITPIX', 8), kv('NAXIS', 0), kv('EXTEND', true)]);
    const file = path.join(dir, 'huge.fits');
    await writeFile(file, concat(primary, table));
    const handle = await open(file, 'r+');
    await handle.truncate(primary.length + table.length + Math.ceil((rows * 8) / 2880) * 2880);
    await handle.close();
    const result = await cli(['import', 'columns', 'huge.fits', '--into', GROUP, '--table', 'Huge'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const imported = (await groupIn(dir, GROUP)).tables.find((t) => t.name === 'Huge');
    expect(imported?.columns).toEqual([{ id: 2011, name: 'FLUX', unit: 'Jy', datatype: 'double' }]);
  });

  test('a CSV header of 20,000 columns: every name, consecutive ids, a report that lists the first 50', async () => {
    const dir = await project();
    const names = Array.from({ length: 20_000 }, (_, i) => `c${i}`);
    await writeFile(path.join(dir, 'wide.csv'), `${names.join(',')}\n${names.map(() => '1').join(',')}\n`);
    const result = await cli(['import', 'columns', 'wide.csv', '--into', GROUP, '--table', 'Wide'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`20000 columns added: c0 (2011), c1 (2012)`);
    expect(result.stdout).toContain(`c49 (2060) and 19950 more\n`);
    const columns = (await groupIn(dir, GROUP)).tables.find((t) => t.name === 'Wide')?.columns ?? [];
    expect(columns.map((c) => c.name)).toEqual(names);
    expect(columns.map((c) => c.id)).toEqual(names.map((_, i) => 2011 + i));
  });
});

describe('import region', () => {
  test('from a FITS image: its header, and its centre from the WCS reference point', async () => {
    const dir = await project();
    const result = await cli(['import', 'region', 'G12_r.fits', '--into', FACILITY, '--band', 'r'], dir);
    expect(result.stdout).toBe(
      `${FACILITY}: band "r": new region "G12" with id 3001: 21 header cards (1 commentary or valueless card left out), centre 180.25, -0.5 deg icrs\n` +
        'Run `npm run stamp` to set created and updated, then `npm run check`.\n',
    );
    const region = (await facilityIn(dir, FACILITY)).bands[0]?.regions[1];
    expect(region).toMatchObject({
      id: 3001,
      name: 'G12',
      file_name: 'G12_r.fits',
      ra_c: '180.25',
      dec_c: '-0.5',
      unit: 'deg',
      frame: 'icrs',
      equinox: 'j2000',
    });
    const header = region?.fits_header ?? {};
    expect(Object.keys(header).slice(0, 6)).toEqual(['SIMPLE', 'BITPIX', 'NAXIS', 'NAXIS1', 'NAXIS2', 'OBJECT']);
    expect(header.CRVAL1).toEqual([180.25, 'World coordinate on this axis']);
    expect(header.SIMPLE).toEqual([true, 'conforms to FITS standard']);
    expect((await cli(['check'], dir)).code).toBe(0);
  });

  test('from a text dump of the same header, the same region', async () => {
    const fromFile = await project();
    await cli(['import', 'region', 'G12_r.fits', '--into', FACILITY, '--band', 'r'], fromFile);
    const fromText = await project();
    const cards = Buffer.from(imageFile().subarray(0, 2880)).toString('latin1').match(/.{80}/g) ?? [];
    await writeFile(
      path.join(fromText, 'G12_r.hdr'),
      `${cards
        .map((c) => c.trimEnd())
        .filter(Boolean)
        .join('\n')}\n`,
    );
    const result = await cli(['import', 'region', 'G12_r.hdr', '--into', FACILITY, '--band', 'r'], fromText);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const a = (await facilityIn(fromFile, FACILITY)).bands[0]?.regions[1];
    const b = (await facilityIn(fromText, FACILITY)).bands[0]?.regions[1];
    // A header dump is not the data file, so it names none.
    expect(b).toEqual({ ...a, file_name: undefined });
  });

  test('into a band the facility does not have', async () => {
    const dir = await project();
    const result = await cli(['import', 'region', 'G12_r.fits', '--into', FACILITY, '--band', 'i'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`archive-schema: ${FACILITY} has no band "i" (it has r); add the band first\n`);
  });
});
