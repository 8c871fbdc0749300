// The bundled metadata: what the site shows by default. It must be valid and as large and real as
// the archive it stands for: five real surveys, thousands of real columns, real bands and regions.

import path from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { check } from '../src/build.ts';
import type { CheckResult } from '../src/build.ts';
import { walkNodes } from '../src/pipeline/assemble.ts';
import type { Archive } from '../src/pipeline/assemble.ts';
import type { BandYaml, RegionYaml } from '../src/kinds/data.ts';
import { PROJECT } from './helpers.ts';

let result: CheckResult;
let archive: Archive;

beforeAll(async () => {
  // The reference path keeps every file's whole data, which these tests read.
  result = await check({ metadataDir: path.join(PROJECT, 'metadata'), displayRoot: PROJECT, reference: true });
  if (!result.archive) throw new Error(JSON.stringify(result.diagnostics.slice(0, 5)));
  archive = result.archive;
});

const count = (kind: string) => [...walkNodes(archive)].filter((n) => n.kind === kind).length;

test('the bundled metadata is valid', () => {
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
});

test('it holds at least five real surveys with several releases', () => {
  const names = archive.surveys.map((s) => s.data.name);
  expect(names).toEqual(expect.arrayContaining(['gama', 'sami', 'galah', 'devils']));
  expect(names.length).toBeGreaterThanOrEqual(5);
  expect(archive.surveys.flatMap((s) => s.releases).length).toBeGreaterThanOrEqual(8);
});

test('it holds at least 2,000 catalogue columns and real imaging', () => {
  expect(count('CatalogueColumn')).toBeGreaterThanOrEqual(2000);
  expect(count('ImagingFacility')).toBeGreaterThanOrEqual(3);
  expect(count('ImagingBand')).toBeGreaterThanOrEqual(15);
  expect(count('ImagingRegion')).toBeGreaterThanOrEqual(20);
});

test('bands sit at real central wavelengths: SDSS-like r near 6200 Å, Ks near 21500 Å', () => {
  const bands = [...walkNodes(archive)].filter((n) => n.kind === 'ImagingBand').map((n) => n.node as BandYaml);
  for (const band of bands) expect(band.central_wave_ang).toBeGreaterThan(1000);
  const wave = (name: string) => bands.filter((b) => b.name === name).map((b) => b.central_wave_ang);
  for (const r of wave('r')) expect(Math.abs(r - 6200)).toBeLessThan(200);
  for (const ks of wave('Ks')) expect(Math.abs(ks - 21500)).toBeLessThan(300);
});

test('every region has a FITS header with the WCS keywords, centred where its ra_c and dec_c say', () => {
  const regions = [...walkNodes(archive)].filter((n) => n.kind === 'ImagingRegion').map((n) => n.node as RegionYaml);
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
