// IFS and spectra data from the curator's YAML to the API: the fixture archive gains an IFS
// facility in a release that has catalogues, and a spectra facility in a release that has nothing
// else, and the build's answers are read as a client reads them. Then the rules a curator meets.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { newAjv } from '../src/pipeline/ajv.ts';
import { PROJECT, cli, testdir } from './helpers.ts';

const BASE = 'https://schema.test';

const SAMI = `# yaml-language-server: $schema=../../../../schemas/ifs-facility.schema.json
id: 4
name: sami
pretty_name: SAMI
description: A fibre-based integral field spectrograph
created: 2021-01-01T00:00:00Z
updated: 2021-01-01T00:00:00Z
products:
  - id: 11
    name: cube_blue
    pretty_name: Default cube (blue arm)
    product_type: cube
    arm: blue
    wave_min_ang: 3750
    wave_max_ang: 5750
    wave_step_ang: 1.04
    resolving_power: 1800
    spatial_sampling_arcsec: 0.5
    dimensions: [50, 50, 2048]
    flux_unit: 1e-16erg/(s.cm**2.Angstrom)
    extensions:
      - name: PRIMARY
        holds: Flux
      - name: VARIANCE
        holds: Variance of the flux
  - id: 12
    name: stelkin_velocity
    product_type: map
    spatial_sampling_arcsec: 0.5
    dimensions: [50, 50]
    flux_unit: km/s
    updated: 2021-06-01T00:00:00Z
`;

const HERMES = `# yaml-language-server: $schema=../../../../schemas/spectra-facility.schema.json
id: 2
name: hermes
created: 2022-01-01T00:00:00Z
updated: 2022-01-01T00:00:00Z
products:
  - id: 5
    name: ccd1
    product_type: spectrum
    arm: blue
    wave_min_ang: 4713
    wave_max_ang: 4903
    resolving_power: 28000
`;

const ONLY_SPECTRA_RELEASE = `name: dr1
pretty_name: Gamma DR1
version: 1
data_release_number: 1
contact: {name: Gamma Team, email: gamma-team@example.org}
created: 2022-01-01T00:00:00Z
updated: 2022-01-01T00:00:00Z
`;

interface Release {
  name: string;
  catalogues: unknown;
  imaging: unknown;
  ifs: { facilities: { name: string; type: string; products: Record<string, unknown>[] }[] } | null;
  spectra: { facilities: { name: string; type: string; products: Record<string, unknown>[] }[] } | null;
}
interface Survey {
  name: string;
  data_releases: Release[];
}

describe('a build with IFS and spectra data', () => {
  let dist = '';
  const read = async (file: string): Promise<unknown> => JSON.parse(await readFile(path.join(dist, file), 'utf8'));
  const releases = (surveys: unknown) =>
    (surveys as Survey[]).flatMap((s) =>
      s.data_releases.map((r) => ({
        at: `${s.name}.${r.name}`,
        catalogues: r.catalogues !== null,
        imaging: r.imaging !== null,
        ifs: r.ifs !== null,
        spectra: r.spectra !== null,
      })),
    );

  beforeAll(async () => {
    const dir = await testdir({
      'alpha/dr2/ifs/sami.yaml': SAMI,
      'gamma/dr1/release.yaml': ONLY_SPECTRA_RELEASE,
      'gamma/dr1/spectra/hermes.yaml': HERMES,
    });
    const built = await cli(['build', '--base-url', BASE], dir);
    expect(built.code, built.stderr).toBe(0);
    dist = path.join(dir, 'dist');
  });

  test('a survey route shows its IFS facility with every field in order, product_key derived', async () => {
    const alpha = (await read('api/schema/1/index.json')) as Survey;
    const ifs = alpha.data_releases.find((r) => r.name === 'dr2')?.ifs;
    expect(ifs?.facilities.map((f) => [f.name, f.type])).toEqual([['sami', 'IFSFacility']]);
    const [cube, map] = ifs?.facilities[0]?.products ?? [];
    expect(Object.keys(cube ?? {})).toEqual([
      'id',
      'name',
      'pretty_name',
      'description',
      'documentation',
      'file_path',
      'file_name',
      'file_extension',
      'version',
      'type',
      'created',
      'updated',
      'contact',
      'product_key',
      'product_type',
      'arm',
      'wave_min_ang',
      'wave_max_ang',
      'wave_step_ang',
      'resolving_power',
      'spatial_sampling_arcsec',
      'dimensions',
      'flux_unit',
      'extensions',
    ]);
    expect(cube).toMatchObject({
      type: 'IFSDataProduct',
      product_key: 'alpha.dr2.sami.cube_blue',
      wave_min_ang: 3750,
      dimensions: [50, 50, 2048],
      extensions: [
        { name: 'PRIMARY', holds: 'Flux' },
        { name: 'VARIANCE', holds: 'Variance of the flux' },
      ],
      created: '2021-01-01T00:00:00.000000Z',
    });
    // What a map leaves out is null; what it does not say of its own it takes from its facility.
    expect(map).toMatchObject({ product_type: 'map', arm: null, wave_min_ang: null, resolving_power: null, extensions: [] });
    expect(map).toMatchObject({ created: '2021-01-01T00:00:00.000000Z', updated: '2021-06-01T00:00:00.000000Z' });
  });

  test.each([
    // The ifs and spectra listings show catalogues too, as the original did, and their own data where there is some.
    [
      'catalogues',
      [
        { at: 'alpha.dr1', catalogues: true, imaging: false, ifs: false, spectra: false },
        { at: 'alpha.dr2', catalogues: true, imaging: false, ifs: false, spectra: false },
      ],
    ],
    [
      'ifs',
      [
        { at: 'alpha.dr1', catalogues: true, imaging: false, ifs: false, spectra: false },
        { at: 'alpha.dr2', catalogues: true, imaging: false, ifs: true, spectra: false },
      ],
    ],
    [
      'spectra',
      [
        { at: 'alpha.dr1', catalogues: true, imaging: false, ifs: false, spectra: false },
        { at: 'alpha.dr2', catalogues: true, imaging: false, ifs: false, spectra: false },
        { at: 'gamma.dr1', catalogues: false, imaging: false, ifs: false, spectra: true },
      ],
    ],
    [
      'imaging',
      [
        { at: 'alpha.dr2', catalogues: false, imaging: true, ifs: false, spectra: false },
        { at: 'beta.dr1', catalogues: false, imaging: true, ifs: false, spectra: false },
      ],
    ],
  ])('the %s listing: which releases, and what each shows', async (dataType, expected) => {
    expect(releases(await read(`api/schema/data_type/${dataType}.json`))).toEqual(expected);
  });

  test('a release with only spectra is on its survey route and filtered by data type as in the listings', async () => {
    expect(releases([await read('api/schema/3/index.json')])).toEqual([
      { at: 'gamma.dr1', catalogues: false, imaging: false, ifs: false, spectra: true },
    ]);
    expect(releases([await read('api/schema/3/spectra.json')])).toEqual([
      { at: 'gamma.dr1', catalogues: false, imaging: false, ifs: false, spectra: true },
    ]);
    for (const dataType of ['catalogues', 'ifs', 'imaging']) {
      await expect(readFile(path.join(dist, `api/schema/3/${dataType}.json`))).rejects.toThrow(/ENOENT/);
    }
  });

  test('every answer matches the published response schemas', async () => {
    const responses = JSON.parse(await readFile(path.join(PROJECT, 'schemas/api/responses.schema.json'), 'utf8')) as object;
    const ajv = newAjv({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addSchema(responses, 'responses.schema.json');
    for (const [file, definition] of [
      ['api/schema/1/index.json', 'Survey'],
      ['api/schema/3/index.json', 'Survey'],
      ['api/schema/data_type/ifs.json', 'SurveyList'],
      ['api/schema/data_type/spectra.json', 'SurveyList'],
    ] as const) {
      const validate = ajv.getSchema(`responses.schema.json#/definitions/${definition}`);
      expect(validate?.(await read(file)), `${file}: ${ajv.errorsText(validate?.errors)}`).toBe(true);
    }
  });

  test('the download counts them and holds them in archive.json', async () => {
    const archive = (await read('download/archive.json')) as { counts: Record<string, number>; surveys: unknown[] };
    expect(archive.counts).toMatchObject({ IFSFacility: 1, IFSDataProduct: 2, SpectraFacility: 1, SpectraDataProduct: 1 });
    expect(archive.surveys[1]).toEqual(await read('api/schema/3/index.json'));
  });
});

describe('what a curator is told', () => {
  test.each([
    [
      'a range the wrong way round',
      SAMI.replace('wave_max_ang: 5750', 'wave_max_ang: 3000'),
      /alpha\/dr2\/ifs\/sami\.yaml:\d+:\d+\s+error\s+product "cube_blue" > wave_max_ang is 3000 Å, not above wave_min_ang \(3750 Å\); swap them or correct one\s+\[products\/wavelength\]/,
      1,
    ],
    [
      'a cube without its range',
      SAMI.replace('    wave_min_ang: 3750\n', ''),
      /error\s+product "cube_blue" > wave_min_ang is missing: a cube covers a wavelength range; give it in Angstrom/,
      1,
    ],
    [
      'a range in nanometres',
      SAMI.replace('wave_min_ang: 3750', 'wave_min_ang: 37.5').replace('wave_max_ang: 5750', 'wave_max_ang: 57.5'),
      /warning\s+product "cube_blue" > wave_min_ang is 37\.5 Å, outside where spectrographs work \(300–300,000 Å\) \(is it in nm\? 1 nm = 10 Å\)/,
      0,
    ],
    [
      'an unknown product type',
      SAMI.replace('product_type: cube', 'product_type: datacube'),
      /product "cube_blue" > product_type must be one of "cube", "map", "spectrum", found the string "datacube"/,
      1,
    ],
    [
      'an arm whose products disagree',
      SAMI.replace('    product_type: map\n', '    product_type: map\n    arm: blue\n    wave_min_ang: 6300\n    wave_max_ang: 7400\n'),
      /warning\s+product "stelkin_velocity" > arm is "blue", but covers 6300–7400 Å where product "cube_blue" of that arm covers 3750–5750 Å; is it another arm\?/,
      0,
    ],
    ['an id used twice', SAMI.replace('id: 12', 'id: 11'), /IFS data product.* 11/, 1],
  ])('%s', async (_name, text, message, code) => {
    const dir = await testdir({ 'alpha/dr2/ifs/sami.yaml': text });
    const r = await cli(['check'], dir);
    expect(r.stdout + r.stderr).toMatch(message);
    expect(r.code).toBe(code);
  });
});
