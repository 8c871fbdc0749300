// Invalid metadata, case by case: each change to the fixture archive must be reported at the
// right file, line and column, under the right rule, with a message a curator can act on, and
// `check` must exit 1. The fixture itself must pass.

import { describe, expect, test } from 'vitest';
import { check } from '../src/build.ts';
import { cli, testdir } from './helpers.ts';

const GROUP = 'alpha/dr1/catalogues/SpecCat.yaml';
const FACILITY = 'alpha/dr2/imaging/VST.yaml';

/** A group file whose table list is given as YAML lines (indented as under `tables:`). */
function group(tables: string, head = ''): string {
  return `id: 20
name: SpecCat
created: 2015-01-01T00:00:00Z
updated: 2015-02-01T00:00:00Z
${head}tables:
${tables}`;
}

/** A facility file with one band whose single region has these extra lines. */
function facility(region: string): string {
  return `id: 30
name: VST
created: 2018-01-01T00:00:00Z
updated: 2018-01-01T00:00:00Z
bands:
  - id: 300
    name: r
    central_wave_ang: 6313.5
    regions:
      - id: 3000
        name: G09
        unit: deg
        frame: icrs
        equinox: j2000
${region}`;
}

const REGION_OK = `        ra_c: '135.0'
        dec_c: '-0.5'
        fits_header:
          NAXIS: [1, number of data axes]
          NAXIS1: [100, '']
`;

interface Case {
  name: string;
  /** Warnings leave the exit code at 0 unless --strict. */
  severity?: 'error' | 'warning';
  files: Record<string, string | null>;
  file: string;
  line: number;
  col: number;
  rule: string;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'a misspelt key names the key and suggests the near name',
    files: {
      [GROUP]: group(
        '  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n        descripton: Unique ID\n',
      ),
    },
    file: GROUP,
    line: 11,
    col: 9,
    rule: 'schema/unknown-key',
    message: /unknown key "descripton" in table "SpecObj" > column "CATAID"; did you mean "description"\?/,
  },
  {
    name: 'an unknown key far from any name lists the allowed keys',
    files: { [GROUP]: group('  []\n', 'colour: blue\n') },
    file: GROUP,
    line: 5,
    col: 1,
    rule: 'schema/unknown-key',
    message: /unknown key "colour"; the keys allowed here are id, name, pretty_name/,
  },
  {
    name: 'a missing required key points at the mapping that lacks it',
    files: {
      'alpha/survey.yaml':
        'id: 1\nname: alpha\npretty_name: Alpha\ndescription: x\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://a.example.org/\nactive: true\n',
    },
    file: 'alpha/survey.yaml',
    line: 1,
    col: 1,
    rule: 'schema/required',
    message: /the file is missing the required key "title"; add it/,
  },
  {
    name: 'a number where text is expected says to quote it',
    files: { [GROUP]: group('  []\n', 'version: 8\n') },
    file: GROUP,
    line: 5,
    col: 10,
    rule: 'schema/type',
    message: /version must be a string or null, found the number 8; quote it to keep it as written, e\.g\. version: '8'/,
  },
  {
    name: 'an unquoted coordinate must be quoted to keep its digits',
    files: { [FACILITY]: facility("        ra_c: 135.0\n        dec_c: '-0.5'\n        fits_header: {}\n") },
    file: FACILITY,
    line: 15,
    col: 15,
    rule: 'schema/type',
    message:
      /band "r" > region "G09" > ra_c must be a string, found the number 135\.0; quote it to keep it as written, e\.g\. ra_c: '135\.0'$/,
  },
  {
    name: 'a timestamp without a zone is refused by the schema',
    files: {
      'alpha/dr1/release.yaml':
        'name: dr1\npretty_name: DR1\nversion: 1\ndata_release_number: 1\ncontact: {name: A, email: a@example.org}\ncreated: 2015-03-01T10:00:00\nupdated: 2015-04-01T00:00:00Z\n',
    },
    file: 'alpha/dr1/release.yaml',
    line: 6,
    col: 10,
    rule: 'schema/pattern',
    message:
      /created must be an ISO 8601 instant with a date, a time and a zone, for example 2020-07-01T00:00:00Z, found the string "2015-03-01T10:00:00"/,
  },
  {
    name: 'a date that does not exist is refused',
    files: { [GROUP]: group('  []\n').replace('2015-02-01T00:00:00Z', '2015-02-30T00:00:00Z') },
    file: GROUP,
    line: 4,
    col: 10,
    rule: 'timestamps/instant',
    message: /updated "2015-02-30T00:00:00Z" has day 30, which month 02 of 2015 does not have/,
  },
  {
    name: 'updated before created is refused where it is written',
    files: { [GROUP]: group('  - id: 200\n    name: SpecObj\n    updated: 2014-12-31T23:59:59Z\n    columns: []\n') },
    file: GROUP,
    line: 8,
    col: 14,
    rule: 'timestamps/order',
    message: /catalogue table "SpecObj" is updated 2014-12-31T23:59:59Z, before it was created 2015-01-01T00:00:00Z/,
  },
  {
    name: 'an id used twice in one kind names the first use and the next free id',
    files: {
      'alpha/dr2/catalogues/InputCat.yaml':
        'id: 21\nname: InputCat\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-01T00:00:00Z\ntables:\n  - id: 201\n    name: TilingCat\n    columns:\n      - id: 2001\n        name: RA\n',
    },
    file: 'alpha/dr2/catalogues/InputCat.yaml',
    line: 9,
    col: 13,
    rule: 'ids/unique',
    message:
      /catalogue column id 2001 is already used by catalogue column "Z" \(metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:\d+\); ids are unique per kind across the archive \(the next free one is 2003\)/,
  },
  {
    name: 'the same id in different kinds is fine, but two sibling tables may not share a name',
    files: { [GROUP]: group('  - id: 200\n    name: SpecObj\n    columns: []\n  - id: 20\n    name: SpecObj\n    columns: []\n') },
    file: GROUP,
    line: 10,
    col: 11,
    rule: 'names/unique',
    message: /catalogue table name "SpecObj" is already used by a sibling \(metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:7\)/,
  },
  {
    name: 'two groups of a release whose names differ only in case (their files collide on macOS, their VO tables in ADQL)',
    files: {
      'alpha/dr1/catalogues/speccat.yaml': group('  - id: 290\n    name: Other\n    columns: []\n')
        .replace('id: 20\n', 'id: 29\n')
        .replace('name: SpecCat\n', 'name: speccat\n'),
    },
    file: 'alpha/dr1/catalogues/speccat.yaml',
    line: 2,
    col: 7,
    rule: 'names/unique',
    message:
      /catalogue group name "speccat" differs only in case from its sibling "SpecCat" \(metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:\d+\); names are unique within their parent, whatever their case/,
  },
  {
    name: 'survey ids are positive integers',
    files: {
      'gamma/survey.yaml':
        "id: 0\nname: gamma\npretty_name: G\ntitle: G\ndescription: ''\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://g.example.org/\nactive: true\n",
    },
    file: 'gamma/survey.yaml',
    line: 1,
    col: 5,
    rule: 'schema/minimum',
    message: /id must be at least 1, found the number 0/,
  },
  {
    name: 'a UCD joined with commas is refused with the corrected form',
    files: {
      [GROUP]: group(
        '  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: flag\n        ucd: meta.code.qual,stat.fit\n',
      ),
    },
    file: GROUP,
    line: 11,
    col: 14,
    rule: 'ucd/syntax',
    message:
      /table "SpecObj" > column "flag" > ucd "meta.code.qual,stat.fit" joins words with ","; use ";" instead \(meta\.code\.qual;stat\.fit\)/,
  },
  {
    name: 'a UCD with a malformed word is refused',
    files: {
      [GROUP]: group('  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: x\n        ucd: phot.mag;;em.opt\n'),
    },
    file: GROUP,
    line: 11,
    col: 14,
    rule: 'ucd/syntax',
    message: /has an empty word at position 2/,
  },
  {
    name: 'a group whose name differs from its file name',
    files: { [GROUP]: group('  []\n').replace('name: SpecCat', 'name: SpecCats') },
    file: GROUP,
    line: 2,
    col: 7,
    rule: 'layout/name-mismatch',
    message:
      /catalogue group name "SpecCats" differs from its file name "SpecCat.yaml"; rename the file to SpecCats.yaml or change the name/,
  },
  {
    name: 'a YAML syntax error is reported where the parser stopped',
    files: { 'alpha/survey.yaml': 'id: 1\nname: alpha: beta\n' },
    file: 'alpha/survey.yaml',
    line: 2,
    col: 7,
    rule: 'yaml/block-as-implicit-key',
    message: /^Nested mappings are not allowed in compact mappings; fix the YAML syntax here$/,
  },
  // One line indented wrongly gave the parser's words ("Nested mappings are not allowed in
  // compact mappings"), and a few spaces gave dozens of errors: one error at that line says it.
  {
    name: 'a key indented one space too far',
    files: {
      [GROUP]: group(
        '  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n         description: Unique ID\n        ucd: meta.id\n',
      ),
    },
    file: GROUP,
    line: 11,
    col: 1,
    rule: 'yaml/indentation',
    message:
      /^this line is indented by 9 spaces, but its siblings use 8 \(line 10\) and line 10 opens no block to nest it in; indent it by 8 spaces$/,
  },
  {
    name: 'a key indented four spaces too far',
    files: {
      [GROUP]: group(
        '  - id: 200\n    name: SpecObj\n        description: All spectra\n    columns:\n      - id: 2000\n        name: CATAID\n      - id: 2001\n        name: Z\n',
      ),
    },
    file: GROUP,
    line: 8,
    col: 1,
    rule: 'yaml/indentation',
    message:
      /^this line is indented by 8 spaces, but its siblings use 4 \(line 7\) and line 7 opens no block to nest it in; indent it by 4 spaces$/,
  },
  {
    name: 'a key indented one space too little',
    files: {
      [GROUP]: group('  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n       ucd: meta.id\n'),
    },
    file: GROUP,
    line: 11,
    col: 1,
    rule: 'yaml/indentation',
    message:
      /^this line is indented by 7 spaces, which lines up with no block around it: the blocks it falls between use 8 spaces \(line 10\) and 6 spaces \(line 9\); indent it as one of them$/,
  },
  {
    name: 'a list item indented as the keys of the item before it',
    files: {
      [GROUP]: group(
        '  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n        - id: 2001\n        name: Z\n',
      ),
    },
    file: GROUP,
    line: 11,
    col: 1,
    rule: 'yaml/indentation',
    message:
      /^this line is a list item indented by 8 spaces, as the keys around it are \(line 10\); the list's items use 6 spaces \(line 9\), so indent it by 6 spaces$/,
  },
  {
    name: 'a line indented with a tab',
    files: { 'alpha/survey.yaml': 'id: 1\nname: alpha\ncontact:\n\tname: A\n' },
    file: 'alpha/survey.yaml',
    line: 4,
    col: 1,
    rule: 'yaml/indentation',
    message: /^this line is indented with a tab; YAML indents with spaces only$/,
  },
  {
    name: 'a key written twice is a syntax error',
    files: {
      'gamma/survey.yaml':
        "id: 3\nid: 4\nname: gamma\npretty_name: G\ntitle: G\ndescription: ''\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://g.example.org/\nactive: true\n",
    },
    file: 'gamma/survey.yaml',
    line: 2,
    col: 1,
    rule: 'yaml/duplicate-key',
    message: /Map keys must be unique/,
  },
  {
    name: 'a file outside the layout is not ignored',
    files: { 'alpha/notes.yaml': 'hello: world\n' },
    file: 'alpha/notes.yaml',
    line: 0,
    col: 0,
    rule: 'layout/unexpected-file',
    message: /unexpected file in the metadata tree; expected <survey>\/survey\.yaml/,
  },
  {
    name: 'a .yml file is not silently skipped',
    files: { 'alpha/dr1/catalogues/Extra.yml': 'id: 99\n' },
    file: 'alpha/dr1/catalogues/Extra.yml',
    line: 0,
    col: 0,
    rule: 'layout/unexpected-file',
    message: /rename Extra\.yml to Extra\.yaml/,
  },
  {
    name: 'a group in a folder without release.yaml',
    files: {
      'alpha/dr9/catalogues/Lost.yaml': 'id: 90\nname: Lost\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-01T00:00:00Z\ntables: []\n',
    },
    file: 'alpha/dr9/catalogues/Lost.yaml',
    line: 0,
    col: 0,
    rule: 'layout/missing-parent',
    message: /without alpha\/dr9\/release\.yaml; create that file/,
  },
  {
    name: 'a contact written as text says how to write it',
    files: { [GROUP]: group('  []\n', 'contact: Alpha Team <alpha-team@example.org>\n') },
    file: GROUP,
    line: 5,
    col: 10,
    rule: 'schema/type',
    message:
      /contact must be a mapping \(key: value lines\) or null, found the string "Alpha Team <alpha-team@example\.org>"; write it as \{name: …, email: …\}/,
  },
  {
    name: 'a contact address must be an e-mail address',
    files: { [GROUP]: group('  []\n', 'contact: {name: A, email: not-an-address}\n') },
    file: GROUP,
    line: 5,
    col: 27,
    rule: 'schema/format',
    message: /contact > email must be an e-mail address such as team@example\.org, found the string "not-an-address"/,
  },
  {
    name: 'a FITS card must be a pair',
    files: {
      [FACILITY]: facility("        ra_c: '135.0'\n        dec_c: '-0.5'\n        fits_header:\n          NAXIS: [2, axes, extra]\n"),
    },
    file: FACILITY,
    line: 18,
    col: 18,
    rule: 'schema/fits-card',
    message: /region "G09" > fits_header > NAXIS must be a pair \[value, comment\], found a list of 3 items/,
  },
  {
    name: 'a FITS keyword of digits only is refused at the key',
    files: { [FACILITY]: facility("        ra_c: '135.0'\n        dec_c: '-0.5'\n        fits_header:\n          '123': [2, '']\n") },
    file: FACILITY,
    line: 18,
    col: 11,
    rule: 'schema/pattern',
    message: /key "123" in band "r" > region "G09" > fits_header must be a FITS keyword such as NAXIS1/,
  },
  {
    name: 'a frame must be lower case',
    files: { [FACILITY]: facility(REGION_OK).replace('frame: icrs', 'frame: ICRS') },
    file: FACILITY,
    line: 13,
    col: 16,
    rule: 'schema/pattern',
    message: /frame must be written in lower case, for example icrs or fk5, found the string "ICRS"/,
  },
  {
    name: 'an empty file says which keys it needs',
    files: { 'alpha/dr2/release.yaml': '# nothing here yet\n' },
    file: 'alpha/dr2/release.yaml',
    line: 1,
    col: 1,
    rule: 'schema/required',
    message: /^the file is empty; a data release file needs at least the keys name, pretty_name, version/,
  },
  {
    name: 'two releases of a survey may not share a number',
    files: {
      'alpha/dr2/release.yaml':
        'name: dr2\npretty_name: DR2\nversion: 2\ndata_release_number: 1\ncontact: {name: A, email: a@example.org}\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-02T00:00:00Z\n',
    },
    file: 'alpha/dr2/release.yaml',
    line: 4,
    col: 22,
    rule: 'names/unique',
    message: /data_release_number 1 is already used by release "dr1" of survey "alpha"/,
  },
  {
    name: 'a band wavelength must be positive',
    files: { [FACILITY]: facility(REGION_OK).replace('central_wave_ang: 6313.5', 'central_wave_ang: -3') },
    file: FACILITY,
    line: 8,
    col: 23,
    rule: 'schema/exclusiveMinimum',
    message: /band "r" > central_wave_ang must be greater than 0, found the number -3/,
  },
  {
    name: 'a right ascension outside 0 to 360',
    files: { [FACILITY]: facility(REGION_OK.replace("'135.0'", "'360.0'")) },
    file: FACILITY,
    line: 15,
    col: 15,
    rule: 'imaging/ra',
    message: /^band "r" > region "G09" > ra_c 360\.0 is outside 0 to 360 \(right ascension in degrees, 360 excluded\)$/,
  },
  {
    name: 'a declination outside -90 to 90',
    files: { [FACILITY]: facility(REGION_OK.replace("'-0.5'", "'-90.5'")) },
    file: FACILITY,
    line: 16,
    col: 16,
    rule: 'imaging/dec',
    message: /^band "r" > region "G09" > dec_c -90\.5 is outside -90 to 90 \(declination in degrees\)$/,
  },
  {
    name: 'a FITS keyword in lower case',
    files: { [FACILITY]: facility(REGION_OK + "          crval1: [135.0, '']\n") },
    file: FACILITY,
    line: 20,
    col: 11,
    rule: 'fits/keyword',
    message:
      /^band "r" > region "G09" > fits_header > crval1 is not a FITS keyword: at most 8 upper-case letters, digits, "-" or "_"; write CRVAL1$/,
  },
  {
    name: 'a FITS value of the wrong kind',
    files: { [FACILITY]: facility(REGION_OK + "          CRVAL1: ['135.0', '']\n") },
    file: FACILITY,
    line: 20,
    col: 20,
    rule: 'fits/value',
    message: /^band "r" > region "G09" > fits_header > CRVAL1 must be a number, found "135\.0"$/,
  },
  {
    name: 'a BITPIX FITS does not allow',
    files: { [FACILITY]: facility(REGION_OK + '          BITPIX: [12, bits per value]\n') },
    file: FACILITY,
    line: 20,
    col: 20,
    rule: 'fits/value',
    message: /fits_header > BITPIX is 12; FITS allows 8, 16, 32, 64, -32 or -64$/,
  },
  {
    name: 'NAXIS without its NAXISn',
    files: { [FACILITY]: facility(REGION_OK.replace('NAXIS: [1,', 'NAXIS: [2,')) },
    file: FACILITY,
    line: 18,
    col: 19,
    rule: 'fits/structure',
    message: /fits_header > NAXIS is 2 but NAXIS2 is missing; add it or correct NAXIS$/,
  },
  {
    name: 'a FITS date in another form',
    files: { [FACILITY]: facility(REGION_OK + "          DATE-OBS: ['01/07/2020', '']\n") },
    file: FACILITY,
    line: 20,
    col: 22,
    rule: 'fits/value',
    message: /fits_header > DATE-OBS "01\/07\/2020" must be YYYY-MM-DD or YYYY-MM-DDThh:mm:ss\[\.sss\], as FITS dates are$/,
  },
  {
    name: 'a file extension that disagrees with the file name',
    files: { [GROUP]: group('  - id: 200\n    name: SpecObj\n    file_name: SpecObj.fits\n    file_extension: csv\n    columns: []\n') },
    file: GROUP,
    line: 9,
    col: 21,
    rule: 'files/extension',
    message:
      /^table "SpecObj" > file_extension "csv" does not agree with file_name "SpecObj\.fits"; remove file_extension to take it from the name, or correct one of them$/,
  },
  {
    name: 'a file extension written with its dot',
    files: { [GROUP]: group('  []\n', 'file_name: x.csv\nfile_extension: .csv\n') },
    file: GROUP,
    line: 6,
    col: 17,
    rule: 'files/extension',
    message: /^file_extension "\.csv" is written with its dot; write csv$/,
  },
  {
    name: 'a band wavelength written in nm is a warning',
    severity: 'warning',
    files: { [FACILITY]: facility(REGION_OK).replace('central_wave_ang: 6313.5', 'central_wave_ang: 631.35') },
    file: FACILITY,
    line: 8,
    col: 23,
    rule: 'imaging/wavelength',
    message: /^band "r" > central_wave_ang is 631\.35 Å, far from where r bands sit \(about 6200 Å\) \(is it in nm\? 1 nm = 10 Å\)$/,
  },
  ...datatypeCases(),
  ...unitKindCases(),
];

/** A group of one table whose one column, CATAID (line 10), has these lines after its name (from line 11). */
function column(lines: string): string {
  return group(`  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n${lines}`);
}

function datatypeCases(): Case[] {
  const enumCase = (written: string, meant: string): Case => ({
    name: `a datatype VOTable does not define, ${written}, is an error suggesting ${meant}`,
    files: { [GROUP]: column(`        datatype: ${written}\n`) },
    file: GROUP,
    line: 11,
    col: 19,
    rule: 'schema/enum',
    message: new RegExp(
      `^table "SpecObj" > column "CATAID" > datatype must be one of "boolean", "bit", .*"doubleComplex", found the string "${written}"; did you mean "${meant}"\\?$`,
    ),
  });
  return [
    enumCase('integer', 'int'),
    enumCase('float64', 'double'),
    enumCase('Double', 'double'),
    enumCase('flaot', 'float'),
    enumCase('VARCHAR', 'char'),
    {
      name: 'an arraysize that is not VOTable syntax is an error',
      files: { [GROUP]: column("        datatype: char\n        arraysize: '10x'\n") },
      file: GROUP,
      line: 12,
      col: 20,
      rule: 'schema/pattern',
      message: /^table "SpecObj" > column "CATAID" > arraysize must be a VOTable arraysize: a length \(10\), .*, found the string "10x"$/,
    },
    {
      name: 'an arraysize of 0 is an error',
      files: { [GROUP]: column('        datatype: char\n        arraysize: 0\n') },
      file: GROUP,
      line: 12,
      col: 20,
      rule: 'schema/minimum',
      message: /^table "SpecObj" > column "CATAID" > arraysize must be at least 1, found the number 0$/,
    },
    {
      name: 'columns without a datatype are one warning for their table, at its columns key',
      severity: 'warning',
      files: {
        [GROUP]: group(
          '  - id: 200\n    name: SpecObj\n    columns:\n      - id: 2000\n        name: CATAID\n      - id: 2001\n        name: Z\n        datatype: float\n      - id: 2002\n        name: NOTE\n',
        ),
      },
      file: GROUP,
      line: 8,
      col: 5,
      rule: 'datatypes/missing',
      message:
        /^table "SpecObj" > columns lack a datatype: 2 of 3 \(CATAID, NOTE\), which tap_schema\.vot leaves out, since TAP requires one; give each its datatype, or fill them in with import columns or import tableset$/,
    },
    {
      name: 'text without an arraysize is a warning: it is one character',
      severity: 'warning',
      files: { [GROUP]: column('        datatype: unicodeChar\n') },
      file: GROUP,
      line: 11,
      col: 19,
      rule: 'datatypes/arraysize',
      message:
        /^table "SpecObj" > column "CATAID" > datatype is unicodeChar without an arraysize, which is one character; add arraysize: '\*' for text of any length, or its length$/,
    },
    {
      name: 'an arraysize without a datatype is a warning',
      severity: 'warning',
      files: { [GROUP]: column("        arraysize: '*'\n") },
      file: GROUP,
      line: 11,
      col: 20,
      rule: 'datatypes/arraysize',
      message: /^table "SpecObj" > column "CATAID" > arraysize "\*" is given without a datatype; add the column's datatype$/,
    },
  ];
}

function unitKindCases(): Case[] {
  const unitCase = (what: string, ucd: string, unit: string, message: RegExp): Case => ({
    name: `${what} is a warning with the fix to make`,
    severity: 'warning',
    files: { [GROUP]: column(`        ucd: ${ucd}\n        unit: ${unit}\n`) },
    file: GROUP,
    line: 12,
    col: 15,
    rule: 'units/ucd',
    message,
  });
  return [
    unitCase(
      'a wavelength in amperes (A on em.wl)',
      'em.wl;stat.min',
      'A',
      /^table "SpecObj" > column "CATAID" > unit "A" is an electric current, where its UCD word em\.wl asks for a wavelength \(a length\); write Angstrom or 0\.1nm \(in VOUnits A is the ampere\)$/,
    ),
    unitCase(
      'an angle in metres',
      'pos.eq.dec;meta.main',
      'm',
      /^table "SpecObj" > column "CATAID" > unit "m" is a length, where its UCD word pos\.eq\.dec asks for a declination \(an angle\); write it in deg, arcsec or mas$/,
    ),
    unitCase(
      'a magnitude with a flux unit',
      'phot.mag;em.opt.R',
      'mJy',
      /^table "SpecObj" > column "CATAID" > unit "mJy" is a flux density per frequency, where its UCD word phot\.mag asks for a magnitude; write it in mag, or give the column a flux UCD such as phot\.flux\.density$/,
    ),
    unitCase(
      'a velocity without a length per time',
      'phys.veloc;pos.heliocentric',
      'km',
      /^table "SpecObj" > column "CATAID" > unit "km" is a length, where its UCD word phys\.veloc asks for a velocity \(a length per time\); write it in km\/s or m\/s$/,
    ),
  ];
}

describe('check reports invalid metadata at file:line:col', () => {
  test('the fixture archive is valid', async () => {
    const dir = await testdir();
    const result = await cli(['check'], dir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('10 metadata files checked: no errors.\n');
    expect(result.code).toBe(0);
  });

  test.each(cases)('$name', async ({ files, file, line, col, rule, message, severity = 'error' }) => {
    const dir = await testdir(files);
    const result = await check({ metadataDir: `${dir}/metadata`, displayRoot: dir });
    const found = result.diagnostics.find((d) => d.rule === rule && d.severity === severity);
    expect(found, JSON.stringify(result.diagnostics, null, 1)).toBeDefined();
    expect(found).toMatchObject({ file: `metadata/${file}`, line, col, rule });
    expect(found?.message).toMatch(message);

    const run = await cli(['check'], dir);
    expect(run.code).toBe(severity === 'error' ? 1 : 0);
    const where = line > 0 ? `metadata/${file}:${line}:${col}` : `metadata/${file}`;
    expect(run.stdout).toContain(`  ${where}  ${severity}  `);
    if (severity === 'warning') {
      const strict = await cli(['check', '--strict'], dir);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain(`  ${where}  error  `);
      return;
    }
    expect(run.stdout).toMatch(/\n\d+ errors? and \d+ warnings? in \d+ files?\. The metadata is invalid; fix the errors above\.\n$/);
  });

  test('every problem in every file is reported in one run', async () => {
    const dir = await testdir({
      [GROUP]: group('  - id: 200\n    name: SpecObj\n    colums: []\n'),
      'gamma/survey.yaml': 'id: -1\n',
      'alpha/dr2/imaging/VST.yaml': facility(REGION_OK.replace("'135.0'", '135')),
    });
    const result = await cli(['check'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n').filter((l) => l.includes('  error  '));
    const files = new Set(lines.map((l) => l.trim().split(':')[0]));
    expect(files).toEqual(
      new Set(['metadata/alpha/dr1/catalogues/SpecCat.yaml', 'metadata/gamma/survey.yaml', 'metadata/alpha/dr2/imaging/VST.yaml']),
    );
    // SpecCat: unknown key + missing columns; gamma: id minimum + 8 missing keys; VST: ra_c type.
    expect(lines).toHaveLength(12);
  });

  test('a broken survey.yaml is reported once, not again as a missing parent of its releases', async () => {
    const dir = await testdir({ 'alpha/survey.yaml': 'id: 1\nname: alpha\n  title: bad indent\n' });
    const result = await check({ metadataDir: `${dir}/metadata`, displayRoot: dir });
    expect(result.diagnostics.map((d) => `${d.file}:${d.line} ${d.rule}`)).toEqual(['metadata/alpha/survey.yaml:3 yaml/indentation']);
  });

  test('infinite and not-a-number values are refused', async () => {
    const dir = await testdir({ [FACILITY]: facility(REGION_OK).replace('central_wave_ang: 6313.5', 'central_wave_ang: .inf') });
    const result = await check({ metadataDir: `${dir}/metadata`, displayRoot: dir });
    expect(result.diagnostics).toMatchObject([
      {
        file: `metadata/${FACILITY}`,
        line: 8,
        col: 23,
        rule: 'schema/type',
        message: 'band "r" > central_wave_ang must be a number, found the number Infinity',
      },
    ]);
  });

  test('a metadata folder that does not exist is usage trouble, exit 2', async () => {
    const dir = await testdir();
    const result = await cli(['check', '--metadata', 'nowhere'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('archive-schema: metadata folder nowhere does not exist; pass the right folder with --metadata\n');
  });
});
