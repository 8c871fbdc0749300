// Column types end to end, beside what the real tools say: a build with types and one without
// differ only in the VO tables (the API keeps every byte), and STILTS reads a FITS table's TFORMs
// as `import columns` does, but where VOTable has a better word.

import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { TYPED_COLUMNS, binaryTableFile } from './fitsfile.ts';
import { FIXTURE, cli, snapshotTree, testdir } from './helpers.ts';

function stilts(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('stilts', args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
        throw new Error('stilts is not installed; install it with: sudo apt-get install -y --no-install-recommends stilts (.ci/run does)');
      }
      resolve({ code: error ? 1 : 0, stdout, stderr });
    });
  });
}

describe('the API does not change by a byte', () => {
  test("a build of the fixture with its column types and one without differ only in the VO tables, the typed tables' pages and search, and the files that list them", async () => {
    const typed = await testdir();
    const untyped = await testdir();
    for (const group of ['alpha/dr1/catalogues/SpecCat.yaml', 'alpha/dr2/catalogues/InputCat.yaml']) {
      const text = await readFile(path.join(FIXTURE, group), 'utf8');
      await writeFile(path.join(untyped, 'metadata', group), text.replace(/^ +(datatype|arraysize|principal): .*\n/gm, ''));
    }
    expect(await readFile(path.join(untyped, 'metadata/alpha/dr1/catalogues/SpecCat.yaml'), 'utf8')).not.toMatch(/datatype/);
    for (const dir of [typed, untyped])
      expect((await cli(['build', '--out', 'dist', '--base-url', 'https://schema.test'], dir)).code).toBe(0);
    const [a, b] = await Promise.all([snapshotTree(path.join(typed, 'dist')), snapshotTree(path.join(untyped, 'dist'))]);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    // The output's marker file names its own build.
    const differ = [...a.keys()].filter((file) => !file.startsWith('.') && !a.get(file)?.equals(b.get(file) ?? Buffer.alloc(0))).sort();
    expect(differ).toEqual([
      // The browser shows a column's type on its table's page and in search results.
      'browse/alpha/dr1/catalogues/SpecCat/SpecObj.html',
      'browse/alpha/dr2/catalogues/InputCat/TilingCat.html',
      'browse/search-data.js',
      'download/SHA256SUMS',
      'download/browser.zip',
      'download/columns.csv',
      'download/columns.vot',
      'download/index.html',
      'download/tables.xml',
      'download/tap_schema.vot',
      'vo/tables.xml',
    ]);
    expect([...a.keys()].filter((f) => f.startsWith('api/')).length).toBeGreaterThan(20);
  }, 60_000);
});

describe('FITS TFORMs as STILTS reads them', () => {
  test('the same datatype and arraysize, but bits, complex numbers and a variable array of known most', async () => {
    const dir = await testdir();
    await writeFile(path.join(dir, 'types.fits'), binaryTableFile(TYPED_COLUMNS));
    const copied = await stilts([
      'tcopy',
      `in=${path.join(dir, 'types.fits')}`,
      'ofmt=votable-tabledata',
      `out=${path.join(dir, 'types.vot')}`,
    ]);
    expect(copied.stderr).toBe('');
    const vot = await readFile(path.join(dir, 'types.vot'), 'utf8');
    const fields = [...vot.matchAll(/<FIELD ([^>]*?)\/?>/g)].map((m) => {
      const attributes: Record<string, string | undefined> = Object.fromEntries(
        [...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1] ?? '', a[2]]),
      );
      return [attributes.name, attributes.datatype, attributes.arraysize];
    });
    // Where VOTable has a type of its own STILTS does not use: bit for X, the complex types for C and
    // M (STILTS writes pairs of reals); and a P column's maximum length, which it leaves out.
    const stiltsReads: Record<string, [string, string | undefined]> = {
      bits: ['boolean', '12'],
      cplx: ['float', '2'],
      dcplx: ['double', '2'],
      spectrum: ['float', '*'],
    };
    expect(fields).toEqual(TYPED_COLUMNS.map((c) => [c.name, ...(stiltsReads[c.name] ?? [c.datatype, c.arraysize])]));
  });
});
