// The bundled metadata: what the site shows by default, changed by curators in every pull request.
// These tests hold it to properties, never to how much it holds: it is valid, and what it says is
// real (wavelengths where bands of its name sit, headers that agree with their regions, no
// placeholders, role addresses).

import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { check } from '../src/build.ts';
import type { CheckResult } from '../src/build.ts';
import type { RegionYaml } from '../src/kinds/data.ts';
import { walkNodes } from '../src/pipeline/assemble.ts';
import type { Archive } from '../src/pipeline/assemble.ts';
import { PROJECT } from './helpers.ts';

let result: CheckResult;
let archive: Archive;

beforeAll(async () => {
  // The reference path keeps every file's whole data, which these tests read.
  result = await check({ metadataDir: path.join(PROJECT, 'metadata'), displayRoot: PROJECT, reference: true });
  if (!result.archive) throw new Error(JSON.stringify(result.diagnostics.slice(0, 5)));
  archive = result.archive;
});

test('the bundled metadata is valid', () => {
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
});

test('no band sits far from where bands of its name sit (a wavelength in nm or µm would)', () => {
  expect(result.diagnostics.filter((d) => d.rule === 'imaging/wavelength')).toEqual([]);
});

test('every region has a FITS header with the WCS keywords, centred where its ra_c and dec_c say', () => {
  const regions = walkNodes(archive)
    .filter((n) => n.kind === 'ImagingRegion')
    .map((n) => n.node as RegionYaml);
  for (const region of regions) {
    const h = region.fits_header;
    for (const key of ['NAXIS', 'NAXIS1', 'NAXIS2', 'CTYPE1', 'CTYPE2', 'CRVAL1', 'CRVAL2', 'BUNIT'])
      expect(h, `${region.name} ${key}`).toHaveProperty(key);
    expect('CDELT1' in h || 'CD1_1' in h).toBe(true);
    expect(Math.abs(Number(h.CRVAL1?.[0]) - Number(region.ra_c))).toBeLessThan(1);
    expect(Math.abs(Number(h.CRVAL2?.[0]) - Number(region.dec_c))).toBeLessThan(1);
  }
});

test('contacts use role addresses on example.org; nothing is a placeholder', () => {
  const text = JSON.stringify(result.files.map((f) => f.data));
  const emails = new Set(text.match(/[\w.+-]+@[\w.-]+/g));
  for (const email of emails) expect(email).toMatch(/^[a-z0-9-]+@example\.org$/);
  expect(text).not.toMatch(/lorem|ipsum|TODO|placeholder|"col\d+"/i);
});
