// Change records read from their text: each problem at its file, line and column (malformed,
// unknown keys, bad dates), records that contradict one another or name what never existed, and
// records written by the commands reading back as they were written.

import { describe, expect, test } from 'vitest';
import type { Change } from '../src/changes/diff.ts';
import { parseRecord, recordName, recordText } from '../src/changes/record.ts';
import { parseRecords } from '../src/changes/records.ts';
import { recordsAgree } from '../src/changes/rules.ts';

/** A record's text around its change entries (each an indented YAML block). */
const record = (date: string, ...entries: string[]) => `date: ${date}\nsummary: Units\nchanges:\n${entries.join('')}`;

const UNIT = (id: number, old: string, now: string) =>
  `  - change: changed\n    kind: CatalogueColumn\n    id: ${id}\n    survey: 1\n    release: dr1\n    path: alpha/dr1/SpecCat/SpecObj/Z\n    old: {unit: ${old}}\n    new: {unit: ${now}}\n`;

const GOOD = record('2026-03-02T10:15:00Z', UNIT(2001, 'dex', 'mag'));

/** [case, text, line, col, rule, what the message says]. */
const malformed: [string, string, number, number, string, string][] = [
  [
    'an unknown key, with the near one',
    GOOD.replace('summary:', 'sumary:'),
    2,
    1,
    'schema/unknown-key',
    'unknown key "sumary" in the record; did you mean "summary"?',
  ],
  [
    'an unknown key in a change',
    GOOD.replace('    path:', '    pth:'),
    9,
    5,
    'schema/unknown-key',
    'unknown key "pth" in change 1; did you mean "path"?',
  ],
  [
    'a missing summary',
    GOOD.replace('summary: Units\n', ''),
    1,
    1,
    'schema/required',
    'the record is missing the required key "summary"; add it',
  ],
  [
    'a date that is not an instant',
    GOOD.replace('2026-03-02T10:15:00Z', '2026-03-02'),
    1,
    7,
    'schema/pattern',
    'date must be an ISO 8601 instant',
  ],
  [
    'a day the month does not have',
    GOOD.replace('2026-03-02T10:15:00Z', '2026-02-30T10:15:00Z'),
    1,
    7,
    'changes/date',
    'date "2026-02-30T10:15:00Z" has day 30, which month 02 of 2026 does not have',
  ],
  ['an hour past 23', GOOD.replace('10:15:00Z', '24:15:00Z'), 1, 7, 'changes/date', 'has hour 24'],
  [
    'a kind misspelt',
    GOOD.replace('kind: CatalogueColumn', 'kind: CatalogueColum'),
    5,
    11,
    'schema/enum',
    'did you mean "CatalogueColumn"?',
  ],
  [
    'an id that is not a number',
    GOOD.replace('id: 2001', 'id: two'),
    6,
    9,
    'schema/type',
    'change 1 > id must be a whole number, found the string "two"',
  ],
  [
    'a column without its id',
    GOOD.replace('    id: 2001\n', ''),
    4,
    5,
    'changes/entry',
    'change 1 names a catalogue column without its "id"; add it',
  ],
  [
    'a survey with a release',
    record(
      '2026-03-02T10:15:00Z',
      '  - change: changed\n    kind: Survey\n    id: 1\n    release: dr1\n    path: alpha\n    new: {title: T}\n',
    ),
    7,
    5,
    'changes/entry',
    'gives "release", which a survey entry does not have',
  ],
  [
    'an addition with old fields',
    GOOD.replace('change: changed', 'change: added'),
    10,
    5,
    'changes/entry',
    'change 1 is an addition: it gives the added fields under "new", and no "old"',
  ],
  ['a change that changes nothing', GOOD.replace('mag', 'dex'), 11, 5, 'changes/entry', 'change 1 gives the same unit old and new'],
  [
    'the same item twice',
    record('2026-03-02T10:15:00Z', UNIT(2001, 'dex', 'mag'), UNIT(2001, 'mag', 'dex(solMass)')),
    12,
    5,
    'changes/conflict',
    'change 2 is about catalogue column 2001 again (change 1 is too)',
  ],
  [
    'a summary of two lines',
    GOOD.replace('summary: Units', 'summary: |\n  Units\n  and more'),
    2,
    10,
    'changes/summary',
    'summary must be one line',
  ],
  [
    'a correction without its reason',
    GOOD.replace('    old:', '    correction: {why: typo}\n    old:'),
    10,
    18,
    'schema/unknown-key',
    'unknown key "why" in change 1 > correction',
  ],
  [
    'an empty list of changes',
    'date: 2026-03-02T10:15:00Z\nsummary: x\nchanges: []\n',
    3,
    10,
    'schema/min-items',
    'changes must list at least one change',
  ],
  ['an empty file', '', 1, 1, 'schema/required', 'the file is empty or not a mapping'],
  ['broken YAML', GOOD.replace('    old: {unit: dex}', '    old: {unit: dex'), 11, 5, 'yaml/', ''],
];

describe('a malformed record is an error at its place', () => {
  test.each(malformed)('%s', (_, text, line, col, rule, says) => {
    const { record: read, diagnostics } = parseRecord('2026-03-02-units.yaml', 'changes/2026-03-02-units.yaml', text);
    expect(read).toBeUndefined();
    const found = diagnostics.find((d) => d.rule.startsWith(rule));
    expect(found, JSON.stringify(diagnostics)).toMatchObject({ file: 'changes/2026-03-02-units.yaml', line, col, severity: 'error' });
    expect(found?.message).toContain(says);
  });

  test('a record in a .yml file is named, not skipped', () => {
    expect(parseRecord('x.yml', 'changes/x.yml', GOOD).diagnostics).toEqual([
      {
        file: 'changes/x.yml',
        line: 0,
        col: 0,
        severity: 'error',
        rule: 'changes/file-name',
        message: 'is not read as a change record; rename it x.yaml',
      },
    ]);
  });

  test('a good record reads whole, its date in UTC', () => {
    const { record: read, diagnostics } = parseRecord('a.yaml', 'changes/a.yaml', GOOD.replace('10:15:00Z', '20:15:00+10:00'));
    expect(diagnostics).toEqual([]);
    expect(read).toMatchObject({
      date: '2026-03-02T10:15:00Z',
      summary: 'Units',
      changes: [
        { change: 'changed', kind: 'CatalogueColumn', id: 2001, survey: 1, release: 'dr1', old: { unit: 'dex' }, new: { unit: 'mag' } },
      ],
    });
  });
});

// ---- Records together ----------------------------------------------------------------------------------

/** Each record by name and text; the metadata has the items `present` lists. */
function agree(texts: Record<string, string>, present: string[] = ['CatalogueColumn:2001'], retired: string[] = []) {
  const set = parseRecords(
    Object.entries(texts).map(([name, text]) => ({ name, text })),
    (name) => `changes/${name}`,
  );
  expect(set.diagnostics).toEqual([]);
  const has = new Set(present);
  return recordsAgree(set.records, { has: (key) => has.has(key), retired: new Set(retired) }).map(
    (d) => `${d.file}:${d.line}:${d.col} ${d.rule} ${d.message}`,
  );
}

const REMOVE = `  - change: removed\n    kind: CatalogueColumn\n    id: 2001\n    survey: 1\n    release: dr1\n    path: alpha/dr1/SpecCat/SpecObj/Z\n    old: {id: 2001, name: Z, unit: mag}\n`;
const ADD = `  - change: added\n    kind: CatalogueColumn\n    id: 2001\n    survey: 1\n    release: dr1\n    path: alpha/dr1/SpecCat/SpecObj/Z\n    new: {id: 2001, name: Z, unit: dex}\n`;

describe('records agree with one another and with the metadata', () => {
  test('a history that holds together: added, then changed twice, each old value what came before', () => {
    expect(
      agree({
        'b.yaml': record('2024-02-01T00:00:00Z', UNIT(2001, 'dex', 'mag')),
        'a.yaml': record('2024-01-01T00:00:00Z', ADD),
        'c.yaml': record('2024-03-01T00:00:00Z', UNIT(2001, 'mag', 'dex(solMass)')),
      }),
    ).toEqual([]);
  });

  test('two records for one id with different old values', () => {
    expect(
      agree({
        '2024-01-01-a.yaml': record('2024-01-01T00:00:00Z', UNIT(2001, 'dex', 'mag')),
        '2024-02-01-b.yaml': record('2024-02-01T00:00:00Z', UNIT(2001, 'dex', 'dex(solMass)')),
      }),
    ).toEqual([
      'changes/2024-02-01-b.yaml:10:17 changes/conflict change 1 says the unit of catalogue column 2001 was "dex", but changes/2024-01-01-a.yaml:4:5 (2024-01-01T00:00:00Z) left it "mag"; two records cannot both be right: correct one of them',
    ]);
  });

  test('a record naming a column that never existed', () => {
    expect(agree({ 'a.yaml': record('2024-01-01T00:00:00Z', UNIT(9999, 'dex', 'mag')) })).toEqual([
      'changes/a.yaml:4:5 changes/unknown-item change 1 names catalogue column 9999 (alpha/dr1/SpecCat/SpecObj/Z), which the metadata does not have and metadata/retired.yaml does not list; correct the kind and id, or remove the entry',
    ]);
  });

  test('a column retired since is no unknown item', () => {
    expect(agree({ 'a.yaml': record('2024-01-01T00:00:00Z', UNIT(9999, 'dex', 'mag')) }, [], ['CatalogueColumn:9999'])).toEqual([]);
  });

  test('an id added twice, and one changed after its removal', () => {
    expect(
      agree(
        {
          'a.yaml': record('2024-01-01T00:00:00Z', ADD),
          'b.yaml': record('2024-02-01T00:00:00Z', ADD.replace('unit: dex', 'unit: mag')),
        },
        ['CatalogueColumn:2001'],
      ),
    ).toEqual([
      'changes/b.yaml:4:5 changes/conflict change 1 adds catalogue column 2001, which changes/a.yaml:4:5 (2024-01-01T00:00:00Z) already recorded; correct one of the two records',
    ]);
    expect(
      agree(
        {
          'a.yaml': record('2024-01-01T00:00:00Z', REMOVE.replace('unit: mag', 'unit: dex')),
          'b.yaml': record('2024-02-01T00:00:00Z', UNIT(2001, 'dex', 'mag')),
        },
        [],
        ['CatalogueColumn:2001'],
      ),
    ).toEqual([
      'changes/b.yaml:4:5 changes/conflict change 1 changes catalogue column 2001, which changes/a.yaml:4:5 (2024-01-01T00:00:00Z) removed; an id is never used again: correct one of the two records',
    ]);
  });

  test('a removal of what the metadata still has', () => {
    expect(agree({ 'a.yaml': record('2024-01-01T00:00:00Z', REMOVE) })).toEqual([
      'changes/a.yaml:4:5 changes/conflict change 1 removes catalogue column 2001 (alpha/dr1/SpecCat/SpecObj/Z), which the metadata still has; if it stays, remove the entry (or the record)',
    ]);
  });
});

// ---- Writing --------------------------------------------------------------------------------------------

describe('records as written', () => {
  const changes: (Change & { correction?: { reason: string } })[] = [
    {
      change: 'changed',
      kind: 'CatalogueColumn',
      id: 2001,
      survey: 1,
      release: 'dr1',
      path: 'alpha/dr1/SpecCat/SpecObj/Z km/s',
      old: { unit: '1.0', description: 'Line\u2028separator: "quoted" # not a comment' },
      new: { unit: 'true', description: 'two\nlines' },
      correction: { reason: 'yes: it was wrong' },
    },
    {
      change: 'added',
      kind: 'ImagingRegion',
      id: 5,
      survey: 1,
      release: 'dr1',
      path: 'a/dr1/VST/r/G09',
      new: { fits_header: { NAXIS: [2, ''] }, ra_c: '135.0' },
    },
    {
      change: 'changed',
      kind: 'DataRelease',
      survey: 1,
      release: 'dr1',
      path: 'a/dr1',
      old: { released: '2024-01-01' },
      new: { released: '2024-01-02' },
    },
    { change: 'changed', kind: 'CatalogueGroup', id: 7, survey: 1, release: 'dr1', path: 'a/dr1/G', movedFrom: 'a/dr2/G' },
  ];

  test('read back as they were written, with the schema comment editors read', () => {
    const text = recordText({ date: '2026-03-02T10:15:00Z', summary: 'Units: fixed', changes }, '../schemas/change-record.schema.json');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/change-record.schema.json');
    const { record: read, diagnostics } = parseRecord('a.yaml', 'a.yaml', text);
    expect(diagnostics).toEqual([]);
    expect(read?.changes.map((c) => ({ ...c, at: undefined }))).toEqual(changes.map((c) => ({ ...c, at: undefined })));
    expect(recordText({ date: '2026-03-02T10:15:00Z', summary: 'Units: fixed', changes }, '../schemas/change-record.schema.json')).toBe(
      text,
    );
  });

  test.each([
    ['2026-03-02T10:15:00Z', 'Stellar masses in solar units, with their errors!', [], '2026-03-02-stellar-masses-in-solar-units-with.yaml'],
    ['2026-03-02T10:15:00Z', 'Ångström: über', [], '2026-03-02-angstrom-uber.yaml'],
    ['2026-03-02T10:15:00Z', '!!!', [], '2026-03-02-change.yaml'],
    ['2026-03-02T10:15:00Z', 'Units', ['2026-03-02-units.yaml', '2026-03-02-units-2.yaml'], '2026-03-02-units-3.yaml'],
  ])('%s "%s" is named after its day and summary', (date, summary, taken, name) => {
    expect(recordName(date, summary, new Set(taken))).toBe(name);
  });
});
