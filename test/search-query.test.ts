// The browser's search (client/search.ts) over an index made from search data written here: what
// each kind of query finds, fields alone included, and that the help's examples, taken from the
// data, each find something. The same modules run in the page; test/search.e2e.test.ts drives them there.

import { describe, expect, test } from 'vitest';
import type { SearchData } from '../src/outputs/browser/client/search-data.ts';
import { helpExamples } from '../src/outputs/browser/client/search-help.ts';
import { indexOf } from '../src/outputs/browser/client/search-index.ts';
import type { Index } from '../src/outputs/browser/client/search-index.ts';
import { parseQuery, search } from '../src/outputs/browser/client/search.ts';

const NO_FILTERS = { survey: '', release: '', kind: '' };

/** Columns: name, UCD, unit, type. */
const COLUMNS: [string, string, string, string][] = [
  ['flux_r_err', 'stat.error;phot.flux', 'uJy', 'double'],
  ['vel', 'phys.veloc', 'km s-1', 'float[3]'],
  ['label', 'meta.id', '', 'char[*]'],
  ['dist', 'pos.distance', 'km', ''],
  ['mag_r', 'phot.mag', 'mag', 'double'],
];

const DATA: SearchData = {
  surveys: [
    ['sv', 'Survey', [['dr1', 'DR1']]],
    ['other', '', [['dr2', '']]],
  ],
  files: [
    [
      'catalogues',
      'sv',
      'dr1',
      'Group',
      '',
      [
        [
          'Table',
          '',
          'A table',
          COLUMNS.map((c) => c[0]),
          COLUMNS.map((c) => c[1]),
          COLUMNS.map((c) => c[2]),
          COLUMNS.map((c) => `About ${c[0]}`),
          COLUMNS.map((c) => c[3]),
        ],
      ],
    ],
    [
      'imaging',
      'sv',
      'dr1',
      'Cam',
      'A camera',
      [
        [
          'g',
          'Cam g',
          'The g band',
          [
            ['G09', '', 'A field'],
            ['G12', '', ''],
          ],
        ],
      ],
    ],
    ['spectra', 'other', 'dr2', 'Spec', '', [['spec1d', '', 'One-dimensional spectra']]],
  ],
};

const INDEX: Index = indexOf(DATA);

/** The names a query finds, in the order shown, with how many the answer says there are. */
function found(input: string, index = INDEX, filters = NO_FILTERS): string[] {
  const { shown, total } = search(index, parseQuery(input, filters, index.units));
  expect(total).toBe(shown.length);
  return shown.map((item) => item.name);
}

describe('search', () => {
  test.each<[string, string, string[]]>([
    // type: a datatype alone finds it with any arraysize; with its arraysize, that type only.
    ['a datatype', 'type:double', ['flux_r_err', 'mag_r']],
    ['a datatype of text', 'type:char', ['label']],
    ['a type with its arraysize', 'type:char[*]', ['label']],
    ['a datatype of an array', 'type:float', ['vel']],
    ['another arraysize', 'type:float[2]', []],
    ['a type and a word', 'type:double mag', ['mag_r']],
    ['a type the archive does not have', 'type:long', []],
    // unit: with a space, quoted or as it is, and a word after it.
    ['a unit with a space', 'unit:km s-1', ['vel']],
    ['a unit with a space, quoted', 'unit:"km s-1"', ['vel']],
    ['a unit with a space, then a word', 'unit:km s-1 vel', ['vel']],
    ['a unit with a space, then a field', 'unit:km s-1 type:float', ['vel']],
    ['a unit, and a word that makes no unit with it', 'unit:km dist', ['dist']],
    ['a word of a unit', 'unit:km', ['vel', 'dist']],
    ['a quoted unit left open', 'unit:"km s-1', ['vel']],
    // Fields alone list what they select.
    ['a kind alone', 'kind:imaging', ['Cam', 'g', 'G09', 'G12']],
    ['a survey alone', 'survey:other', ['Spec', 'spec1d']],
    ['a release alone', 'release:dr2', ['Spec', 'spec1d']],
    ['a UCD alone', 'ucd:phot', ['flux_r_err', 'mag_r']],
    ['a field with no value', 'kind:', []],
    // Regions, bands and products by name.
    ['a region', 'g09', ['G09']],
    ['a region in any case, with its kind', 'kind:imaging G12', ['G12']],
    ['a band, its name first', 'g', ['g', 'Group', 'G09', 'G12', 'mag_r']],
    ['a product', 'spec1d', ['spec1d']],
    ['part of a name', 'r_err', ['flux_r_err']],
  ])('%s: %s', (_, input, names) => {
    expect(found(input)).toEqual(names);
  });

  // The panel asks for a query while the box is empty; a field without a value is not one.
  test('a menu alone lists what it selects', () => {
    expect(found('kind:', INDEX, { ...NO_FILTERS, kind: 'spectra' })).toEqual(['Spec', 'spec1d']);
  });

  test('a region leads to its card on its band page, its address under its band', () => {
    const region = INDEX.items.find((i) => i.name === 'G09');
    expect(region).toMatchObject({
      type: 'region',
      href: 'browse/sv/dr1/imaging/Cam/g.html#region-G09',
      address: 'sv.dr1.imaging.Cam.g.G09',
    });
  });

  test("a column's type is on its item, empty where none is recorded", () => {
    expect(INDEX.items.filter((i) => i.type === 'column').map((i) => i.datatype)).toEqual(COLUMNS.map((c) => c[3]));
  });
});

describe("the help's examples", () => {
  test('come from the data, and each finds something', () => {
    const examples = helpExamples(INDEX);
    expect(examples).toEqual({
      part: { part: 'r_err', name: 'flux_r_err' },
      ucd: 'stat.error',
      unit: 'ujy',
      spacedUnit: 'km s-1',
      type: 'double',
      survey: 'sv',
      release: 'dr1',
      kind: 'imaging',
    });
    expect(found(examples.part?.part ?? '')).toContain(examples.part?.name);
    for (const field of ['ucd', 'unit', 'type', 'survey', 'release', 'kind'] as const) {
      expect(found(`${field}:${examples[field] ?? ''}`).length, field).toBeGreaterThan(0);
    }
    expect(found(`unit:"${examples.spacedUnit ?? ''}"`)).toEqual(['vel']);
  });

  test('are the same for the same data, and left out where the data has none', () => {
    expect(helpExamples(indexOf(DATA))).toEqual(helpExamples(INDEX));
    const empty = helpExamples(indexOf({ surveys: [], files: [] }));
    expect(empty).toEqual({});
  });
});
