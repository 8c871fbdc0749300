// `import product` on real-format FITS files made here: a SAMI-like cube (50 × 50 × 2048 with its
// VARIANCE, WEIGHT, COVAR and QC extensions), GALAH-like 1-D spectra in nm and in metres, a
// velocity map, and text dumps of their headers. The data units are holes in sparse files, so a
// 64 MB cube costs only its headers, as it does for the command.

import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { header, kv } from './fitsfile.ts';
import type { ProductFacilityYaml } from '../src/kinds/data.ts';
import { cli, expectSameFiles, snapshotTree, testdir } from './helpers.ts';

const SAMI = 'metadata/alpha/dr2/ifs/sami.yaml';
const HERMES = 'metadata/alpha/dr1/spectra/hermes.yaml';
const STAMP = 'Run `npm run stamp` to set created and updated, then `npm run check`.\n';

/** An IFS facility with a red cube already listed, and a comment a curator wrote. */
const SAMI_YAML = `# yaml-language-server: $schema=../../../../schemas/ifs-facility.schema.json
id: 4
name: sami
pretty_name: SAMI
created: 2021-01-01T00:00:00Z
updated: 2021-01-01T00:00:00Z
products:
  # The red arm's cube, as described by the team.
  - id: 11
    name: cube_red
    pretty_name: Default cube (red arm)
    product_type: cube
    arm: red
    wave_min_ang: 6300
    wave_max_ang: 7400
    resolving_power: 4300
    extensions:
      - name: PRIMARY
        holds: Flux
`;

const HERMES_YAML = `# yaml-language-server: $schema=../../../../schemas/spectra-facility.schema.json
id: 2
name: hermes
created: 2022-01-01T00:00:00Z
updated: 2022-01-01T00:00:00Z
products: []
`;

interface Hdu {
  cards: string[];
  /** Bytes of the data unit, left as a hole. */
  bytes: number;
}

const image = (extname: string, axes: number[], extra: string[] = []): Hdu => ({
  cards: [
    kv('XTENSION', 'IMAGE'),
    kv('BITPIX', -32),
    kv('NAXIS', axes.length),
    ...axes.map((n, i) => kv(`NAXIS${i + 1}`, n)),
    kv('PCOUNT', 0),
    kv('GCOUNT', 1),
    ...(extname === '' ? [] : [kv('EXTNAME', extname)]),
    ...extra,
  ],
  bytes: axes.reduce((a, b) => a * b, 4),
});

const primary = (axes: number[], cards: string[]): Hdu => ({
  cards: [
    kv('SIMPLE', true, 'conforms to FITS standard'),
    kv('BITPIX', -32),
    kv('NAXIS', axes.length),
    ...axes.map((n, i) => kv(`NAXIS${i + 1}`, n)),
    kv('EXTEND', true),
    ...cards,
  ],
  bytes: axes.length === 0 ? 0 : axes.reduce((a, b) => a * b, 4),
});

const table = (extname: string, comment?: string): Hdu => ({
  cards: [
    kv('XTENSION', 'BINTABLE'),
    kv('BITPIX', 8),
    kv('NAXIS', 2),
    kv('NAXIS1', 8),
    kv('NAXIS2', 1),
    kv('PCOUNT', 0),
    kv('GCOUNT', 1),
    kv('TFIELDS', 2),
    kv('TTYPE1', 'FWHM'),
    kv('TFORM1', 'E'),
    kv('TTYPE2', 'TRANSMIS'),
    kv('TFORM2', 'E'),
    kv('EXTNAME', extname, comment),
  ],
  bytes: 8,
});

/** A SAMI blue cube: flux in the primary HDU, 0.5 arcsec spaxels, 3650 Å + 1.05 Å × 2047. */
function samiCube(change: (cards: string[]) => string[] = (c) => c): Hdu[] {
  const cube = [50, 50, 2048];
  return [
    primary(
      cube,
      change([
        kv('OBJECT', '9011900128'),
        kv('CTYPE1', 'RA---TAN'),
        kv('CUNIT1', 'deg'),
        kv('CRVAL1', 180.1),
        kv('CRPIX1', 25.5),
        kv('CDELT1', -0.000138888888888889),
        kv('CTYPE2', 'DEC--TAN'),
        kv('CUNIT2', 'deg'),
        kv('CRVAL2', -1.2),
        kv('CRPIX2', 25.5),
        kv('CDELT2', 0.000138888888888889),
        kv('CTYPE3', 'AWAV'),
        kv('CUNIT3', 'Angstrom'),
        kv('CRVAL3', 3650),
        kv('CDELT3', 1.05),
        kv('CRPIX3', 1),
        kv('BUNIT', '10**(-16) erg /s /cm**2 /angstrom /pixel'),
      ]),
    ),
    image('VARIANCE', cube),
    image('WEIGHT', cube, []),
    image('COVAR', [50, 50, 5, 5, 13]),
    table('QC', 'Quality control values'),
  ];
}

/** A GALAH spectrum of HERMES's blue arm: 4096 pixels from 471.3 nm by 0.0046 nm, and its error. */
function galahSpectrum(axis: string[], more: Hdu[] = [image('SIGMA', [4096])]): Hdu[] {
  return [primary([4096], [kv('OBJECT', '131116000501002'), ...axis, kv('SPECTID', 'BL')]), ...more];
}

const GALAH_NM = [kv('CTYPE1', 'WAVE'), kv('CUNIT1', 'nm'), kv('CRVAL1', 471.3), kv('CDELT1', 0.0046), kv('CRPIX1', 1)];
const GALAH_M = [kv('CTYPE1', 'WAVE'), kv('CUNIT1', 'm'), kv('CRVAL1', 4.713e-7), kv('CDELT1', 4.6e-12), kv('CRPIX1', 1)];

/** A stellar velocity map of a SAMI galaxy, with its uncertainty. */
function velocityMap(): Hdu[] {
  return [
    primary(
      [50, 50],
      [
        kv('CTYPE1', 'RA---TAN'),
        kv('CRVAL1', 180.1),
        kv('CRPIX1', 25.5),
        kv('CD1_1', -0.000138888888888889),
        kv('CTYPE2', 'DEC--TAN'),
        kv('CRVAL2', -1.2),
        kv('CRPIX2', 25.5),
        kv('CD2_2', 0.000138888888888889),
        kv('BUNIT', 'km/s'),
      ],
    ),
    image('VEL_ERR', [50, 50], [kv('BUNIT', 'km/s')]),
  ];
}

/** Writes the HDUs as a FITS file whose data units are holes. */
async function writeFits(file: string, hdus: Hdu[]): Promise<void> {
  const handle = await open(file, 'w');
  let at = 0;
  for (const hdu of hdus) {
    const bytes = header(hdu.cards);
    await handle.write(bytes, 0, bytes.length, at);
    at += bytes.length + Math.ceil(hdu.bytes / 2880) * 2880;
  }
  await handle.truncate(at);
  await handle.close();
}

/** The headers as text, one card a line and END after each, as a saved header dump is. */
const headerText = (hdus: Hdu[]): string => `${hdus.flatMap((h) => [...h.cards.map((c) => c.trimEnd()), 'END']).join('\n')}\n`;

/** The headers as astropy's `fitsheader` prints them: each after a "# HDU n in file:" line, with no END. */
const fitsheaderText = (hdus: Hdu[], file: string): string =>
  hdus.map((h, i) => `# HDU ${i} in ${file}:\n${h.cards.map((c) => c.trimEnd()).join('\n')}\n`).join('\n');

async function project(): Promise<string> {
  const dir = await testdir({ 'alpha/dr2/ifs/sami.yaml': SAMI_YAML, 'alpha/dr1/spectra/hermes.yaml': HERMES_YAML });
  await writeFits(path.join(dir, '9011900128_A_cube_blue.fits'), samiCube());
  await writeFits(path.join(dir, 'galah_nm.fits'), galahSpectrum(GALAH_NM));
  await writeFits(path.join(dir, 'galah_m.fits'), galahSpectrum(GALAH_M));
  await writeFits(path.join(dir, 'stelkin_velocity.fits'), velocityMap());
  await writeFile(path.join(dir, 'cube_blue.hdr'), headerText(samiCube()));
  await writeFile(path.join(dir, 'cube_blue.txt'), fitsheaderText(samiCube(), '9011900128_A_cube_blue.fits'));
  return dir;
}

const facility = async (dir: string, file: string) => parse(await readFile(path.join(dir, file), 'utf8')) as ProductFacilityYaml;

const CUBE_BLUE = {
  id: 12,
  name: 'cube_blue',
  product_type: 'cube',
  arm: 'blue',
  wave_min_ang: 3650,
  wave_max_ang: 5799.35,
  wave_step_ang: 1.05,
  spatial_sampling_arcsec: 0.5,
  dimensions: [50, 50, 2048],
  flux_unit: '10**(-16) erg /s /cm**2 /angstrom /pixel',
  extensions: [
    { name: 'PRIMARY', holds: 'Flux' },
    { name: 'VARIANCE', holds: 'Variance of the flux' },
    { name: 'WEIGHT', holds: 'Image of 50 × 50 × 2048' },
    { name: 'COVAR', holds: 'Image of 50 × 50 × 5 × 5 × 13' },
    { name: 'QC', holds: 'Quality control values' },
  ],
};

const GALAH_BLUE = {
  id: 1,
  name: 'ccd1',
  product_type: 'spectrum',
  arm: 'blue',
  wave_min_ang: 4713,
  wave_max_ang: 4901.37,
  wave_step_ang: 0.046,
  dimensions: [4096],
  extensions: [
    { name: 'PRIMARY', holds: 'Image of 4096' },
    { name: 'SIGMA', holds: 'Image of 4096' },
  ],
};

describe('import product', () => {
  test('a SAMI cube: every field it states, where each came from, and what is left to the curator at its line', async () => {
    const dir = await project();
    const result = await cli(
      ['import', 'product', '9011900128_A_cube_blue.fits', '--into', SAMI, '--name', 'cube_blue', '--arm', 'blue'],
      dir,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const at = `${SAMI}: product "cube_blue": `;
    expect(result.stdout).toBe(
      `${at}new IFS data product with id 12, from 9011900128_A_cube_blue.fits\n` +
        `${at}cube of 50 × 50 × 2048 from HDU 0 (NAXIS, NAXIS1, NAXIS2, NAXIS3)\n` +
        `${at}wavelengths 3650–5799.35 Å, 1.05 Å a pixel, from axis 3 (CTYPE3 = 'AWAV'; CRVAL3, CDELT3, CRPIX3; CUNIT3 = 'Angstrom')\n` +
        `${at}spatial sampling 0.5 arcsec from CDELT1 (deg)\n` +
        `${at}flux_unit '10**(-16) erg /s /cm**2 /angstrom /pixel' from BUNIT\n` +
        `${at}arm blue from --arm\n` +
        `${at}5 extensions from EXTNAME: PRIMARY, VARIANCE, WEIGHT, COVAR, QC; 2 to describe: WEIGHT, COVAR\n` +
        `${SAMI}\n` +
        `  ${SAMI}:32:16  warning  product "cube_blue" > flux_unit "10**(-16) erg /s /cm**2 /angstrom /pixel" is not a VOUnit: VOUnits have no spaces, a scale factor is written directly before the unit and only one "/" is allowed (write 10**(-16)erg/(s.cm**2.angstrom.pixel))  [units/vounit]\n` +
        `  ${SAMI}:39:16  warning  extension "WEIGHT": 9011900128_A_cube_blue.fits says only what it is ("Image of 50 × 50 × 2048"); write what it holds  [import/extension-holds]\n` +
        `  ${SAMI}:41:16  warning  extension "COVAR": 9011900128_A_cube_blue.fits says only what it is ("Image of 50 × 50 × 5 × 5 × 13"); write what it holds  [import/extension-holds]\n` +
        '\n0 errors and 3 warnings in 1 file. See to these in the file.\n' +
        STAMP,
    );
    const products = (await facility(dir, SAMI)).products;
    expect(products[1]).toEqual(CUBE_BLUE);
    const text = await readFile(path.join(dir, SAMI), 'utf8');
    expect(text).toContain("  # The red arm's cube, as described by the team.\n  - id: 11\n");
    expect((await cli(['check'], dir)).code).toBe(0);
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });

  // Each case: what is imported, with which options, into which file; the product written; a
  // line of the report; the notes it places in the file.
  test.each([
    {
      what: 'a text dump of the cube header gives the same product',
      file: 'cube_blue.hdr',
      argv: ['--into', SAMI, '--name', 'cube_blue', '--arm', 'blue'],
      product: CUBE_BLUE,
      says: `product "cube_blue": wavelengths 3650–5799.35 Å, 1.05 Å a pixel, from axis 3`,
      rules: ['import/extension-holds', 'import/extension-holds', 'units/vounit'],
    },
    {
      what: "astropy fitsheader's printout of the cube gives the same product",
      file: 'cube_blue.txt',
      argv: ['--into', SAMI, '--name', 'cube_blue', '--arm', 'blue'],
      product: CUBE_BLUE,
      says: `product "cube_blue": spatial sampling 0.5 arcsec from CDELT1 (deg)`,
      rules: ['import/extension-holds', 'import/extension-holds', 'units/vounit'],
    },
    {
      what: 'a cube with no arm, in a facility whose other products name theirs: said at its name',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', SAMI, '--name', 'cube_blue'],
      product: { ...CUBE_BLUE, arm: undefined },
      says: `product "cube_blue": 5 extensions from EXTNAME: PRIMARY, VARIANCE, WEIGHT, COVAR, QC; 2 to describe: WEIGHT, COVAR`,
      rules: ['import/arm', 'import/extension-holds', 'import/extension-holds', 'units/vounit'],
    },
    {
      what: 'a GALAH spectrum in nm, its arm from SPECTID',
      file: 'galah_nm.fits',
      argv: ['--into', HERMES, '--name', 'ccd1'],
      product: GALAH_BLUE,
      says: `product "ccd1": wavelengths 4713–4901.37 Å, 0.046 Å a pixel, from axis 1 (CTYPE1 = 'WAVE'; CRVAL1, CDELT1, CRPIX1; CUNIT1 = 'nm')`,
      rules: ['import/extension-holds', 'import/extension-holds'],
    },
    {
      what: 'the same spectrum in metres',
      file: 'galah_m.fits',
      argv: ['--into', HERMES, '--name', 'ccd1'],
      product: GALAH_BLUE,
      says: `product "ccd1": arm blue from SPECTID = 'BL'`,
      rules: ['import/extension-holds', 'import/extension-holds'],
    },
    {
      what: 'a spectrum with no CUNIT1 and no CTYPE1: Angstrom and axis 1, both said at wave_min_ang',
      file: 'bare.fits',
      hdus: galahSpectrum([kv('CRVAL1', 4713), kv('CDELT1', 0.046), kv('CRPIX1', 1)], [image('VARIANCE', [4096])]),
      argv: ['--into', HERMES, '--name', 'ccd1', '--id', '7'],
      product: {
        ...GALAH_BLUE,
        id: 7,
        extensions: [
          { name: 'PRIMARY', holds: 'Image of 4096' },
          { name: 'VARIANCE', holds: 'Variance of the flux' },
        ],
      },
      says: `product "ccd1": wavelengths 4713–4901.37 Å, 0.046 Å a pixel, from axis 1 (taken as the spectral axis: no CTYPE1; CRVAL1, CDELT1, CRPIX1; no CUNIT1: Angstrom assumed)`,
      rules: ['import/axis-assumed', 'import/extension-holds', 'import/unit-assumed'],
    },
    {
      what: 'nm values with CUNIT1 Angstrom that are still in range: written, and doubted at wave_min_ang',
      file: 'doubtful.fits',
      hdus: galahSpectrum(GALAH_NM.map((c) => (c.startsWith('CUNIT1') ? kv('CUNIT1', 'Angstrom') : c))),
      argv: ['--into', HERMES, '--name', 'ccd1'],
      product: { ...GALAH_BLUE, wave_min_ang: 471.3, wave_max_ang: 490.137, wave_step_ang: 0.0046 },
      says: `product "ccd1": wavelengths 471.3–490.137 Å, 0.0046 Å a pixel, from axis 1`,
      rules: ['import/extension-holds', 'import/extension-holds', 'import/unit-doubtful'],
    },
    {
      what: 'a velocity map: no wavelengths, spaxels from CD1_1, the unit as BUNIT has it',
      file: 'stelkin_velocity.fits',
      argv: ['--into', SAMI, '--name', 'stelkin_velocity'],
      product: {
        id: 12,
        name: 'stelkin_velocity',
        product_type: 'map',
        spatial_sampling_arcsec: 0.5,
        dimensions: [50, 50],
        flux_unit: 'km/s',
        extensions: [
          { name: 'PRIMARY', holds: 'Image of 50 × 50' },
          { name: 'VEL_ERR', holds: 'Image of 50 × 50' },
        ],
      },
      says: `product "stelkin_velocity": map of 50 × 50 from HDU 0 (NAXIS, NAXIS1, NAXIS2)`,
      rules: ['import/extension-holds', 'import/extension-holds'],
    },
    {
      what: 'a cube whose data is in an extension after an empty primary, logarithmic wavelengths, --type given',
      file: 'log.fits',
      hdus: [
        primary([], [kv('ARM', 'RED')]),
        image(
          'FLUX',
          [30, 30, 100],
          [kv('CTYPE3', 'WAVE-LOG'), kv('CUNIT3', 'Angstrom'), kv('CRVAL3', 6300), kv('CDELT3', 2), kv('CRPIX3', 1)],
        ),
        image('IVAR', [30, 30, 100]),
        image('', [30, 30]),
      ],
      argv: ['--into', SAMI, '--name', 'cube_log', '--type', 'cube'],
      product: {
        id: 12,
        name: 'cube_log',
        product_type: 'cube',
        arm: 'red',
        wave_min_ang: 6300,
        wave_max_ang: 6501.144282,
        dimensions: [30, 30, 100],
        extensions: [
          { name: 'PRIMARY', holds: 'Header only (no data)' },
          { name: 'FLUX', holds: 'Flux' },
          { name: 'IVAR', holds: 'Inverse variance of the flux' },
        ],
      },
      says: `product "cube_log": wavelengths 6300–6501.144282 Å, sampled logarithmically (wave_step_ang left null), from axis 3 (CTYPE3 = 'WAVE-LOG'; CRVAL3, CDELT3, CRPIX3; CUNIT3 = 'Angstrom')`,
      rules: ['import/extension-name', 'import/no-sampling'],
    },
  ])('$what', async ({ file, hdus, argv, product, says, rules }) => {
    const dir = await project();
    if (hdus) await writeFits(path.join(dir, file), hdus);
    const into = argv[1] ?? '';
    const result = await cli(['import', 'product', file, ...argv], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${into}: ${says}`);
    const noted = [...result.stdout.matchAll(/^ {2}\S+:\d+:\d+ {2}warning {2}.* {2}\[([\w/-]+)\]$/gm)].map((m) => m[1]);
    expect(noted.sort()).toEqual(rules);
    const products = (await facility(dir, into)).products;
    expect(products[products.length - 1]).toEqual(product);
    expect((await cli(['check'], dir)).code).toBe(0);
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });

  test('a product listed already: updated from the file, the changes said, the curator’s words and comments kept', async () => {
    const dir = await project();
    // The red cube the team described: a new range and size, the shape of its file, its flux kept.
    await writeFits(
      path.join(dir, 'cube_red.fits'),
      samiCube((cards) =>
        cards.map((c) => (c.startsWith('CRVAL3') ? kv('CRVAL3', 6300) : c.startsWith('CDELT3') ? kv('CDELT3', 0.57) : c)),
      ).map((h, i) =>
        i === 0 ? { ...h, cards: h.cards.map((c) => c.replace(/^BUNIT .*/, kv('BUNIT', '1e-16erg/(s.cm**2.Angstrom)'))) } : h,
      ),
    );
    const result = await cli(['import', 'product', 'cube_red.fits', '--into', SAMI, '--name', 'cube_red'], dir);
    expect(result.code).toBe(0);
    const at = `${SAMI}: product "cube_red": `;
    expect(result.stdout.split('\n').slice(0, 7).join('\n')).toBe(
      `${SAMI}: product "cube_red" (id 11) updated from cube_red.fits: 6 fields changed\n` +
        `${at}wave_max_ang 7400 → 7466.79\n` +
        `${at}wave_step_ang none → 0.57\n` +
        `${at}spatial_sampling_arcsec none → 0.5\n` +
        `${at}dimensions none → [50, 50, 2048]\n` +
        `${at}flux_unit none → '1e-16erg/(s.cm**2.Angstrom)'\n` +
        `${at}extensions PRIMARY → PRIMARY, VARIANCE, WEIGHT, COVAR, QC`,
    );
    const red = (await facility(dir, SAMI)).products[0];
    expect(red).toMatchObject({ id: 11, pretty_name: 'Default cube (red arm)', arm: 'red', resolving_power: 4300, wave_min_ang: 6300 });
    const text = await readFile(path.join(dir, SAMI), 'utf8');
    expect(text).toContain("  # The red arm's cube, as described by the team.\n  - id: 11\n");

    // Again: nothing to change, nothing written.
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const again = await cli(['import', 'product', 'cube_red.fits', '--into', SAMI, '--name', 'cube_red'], dir);
    expect(again.stdout).toMatch(
      /^metadata\/alpha\/dr2\/ifs\/sami\.yaml: product "cube_red" \(id 11\) unchanged: it already says what cube_red\.fits says\n/,
    );
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });

  test('an update keeps what the curator wrote: holds of the extensions, a BUNIT put in VOUnit form', async () => {
    const dir = await project();
    await cli(['import', 'product', '9011900128_A_cube_blue.fits', '--into', SAMI, '--name', 'cube_blue', '--arm', 'blue'], dir);
    const file = path.join(dir, SAMI);
    const edited = (await readFile(file, 'utf8'))
      .replace('holds: Image of 50 × 50 × 2048', 'holds: Fraction of each spaxel covered by fibres')
      .replace('flux_unit: 10**(-16) erg /s /cm**2 /angstrom /pixel', 'flux_unit: 10**(-16)erg/(s.cm**2.angstrom.pixel)  # VOUnit');
    await writeFile(file, edited);
    const result = await cli(['import', 'product', '9011900128_A_cube_blue.fits', '--into', SAMI, '--name', 'cube_blue'], dir);
    expect(result.stdout).toContain('product "cube_blue" (id 12) unchanged');
    expect(result.stdout).toContain('extension "COVAR": 9011900128_A_cube_blue.fits says only what it is');
    expect(result.stdout).not.toContain('extension "WEIGHT"');
    expect(await readFile(file, 'utf8')).toBe(edited);
  });

  test.each([
    {
      what: 'a source that is not FITS',
      file: 'notes.txt',
      argv: ['--into', SAMI, '--name', 'x'],
      message: /cannot tell what .*notes\.txt is: expected a FITS file, a FITS header as text/,
    },
    {
      what: 'a cube compressed with gzip',
      file: 'cube.fits.gz',
      gzip: true,
      argv: ['--into', SAMI, '--name', 'x'],
      message:
        /cube\.fits\.gz is compressed with gzip; import reads only headers, but of an uncompressed file: gunzip -k it and import that$/m,
    },
    {
      what: 'a file with no data HDU',
      file: 'table.fits',
      hdus: [primary([], []), table('SPECALL')],
      argv: ['--into', SAMI, '--name', 'x'],
      message:
        /table\.fits has no data HDU: no HDU is an image with data \(HDU 0 has NAXIS = 0, HDU 1 is a BINTABLE\); import product reads cubes, maps and spectra stored as images$/m,
    },
    {
      what: 'an --hdu that is a table',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', SAMI, '--name', 'x', '--hdu', '4'],
      message:
        /9011900128_A_cube_blue\.fits: HDU 4 is a BINTABLE, not an image with data; import product reads the data array of an image HDU$/m,
    },
    {
      what: 'an --hdu the file does not have',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', SAMI, '--name', 'x', '--hdu', '9'],
      message: /9011900128_A_cube_blue\.fits has no HDU 9; it has 5 \(0 to 4\)$/m,
    },
    {
      what: 'a cube with no spectral axis',
      file: 'velo.fits',
      hdus: samiCube((cards) => cards.map((c) => (c.startsWith('CTYPE3') ? kv('CTYPE3', 'STOKES') : c))),
      argv: ['--into', SAMI, '--name', 'x'],
      message:
        /velo\.fits: HDU 0 has no spectral axis: no CTYPEn is WAVE or AWAV \(CTYPE1 = 'RA---TAN', CTYPE2 = 'DEC--TAN', CTYPE3 = 'STOKES'\); .* Pass --type map if the file is a map, or --hdu to read another HDU$/m,
    },
    {
      what: 'a spectral axis in frequency',
      file: 'freq.fits',
      hdus: samiCube((cards) => cards.map((c) => (c.startsWith('CTYPE3') ? kv('CTYPE3', 'FREQ') : c))),
      argv: ['--into', SAMI, '--name', 'x'],
      message: /freq\.fits: HDU 0: the spectral axis is FREQ \(CTYPE3\), not a wavelength; import product reads wavelength axes/,
    },
    {
      what: 'an unknown CUNIT',
      file: 'furlong.fits',
      hdus: samiCube((cards) => cards.map((c) => (c.startsWith('CUNIT3') ? kv('CUNIT3', 'furlong') : c))),
      argv: ['--into', SAMI, '--name', 'x'],
      message:
        /furlong\.fits: HDU 0: CUNIT3 = 'furlong' is not a wavelength unit import product knows \(m, cm, mm, um, nm, pm, Angstrom\); fix CUNIT3 in the file, or save its header as text \(fitsheader furlong\.fits > header\.txt\), correct CUNIT3 there and import that$/m,
    },
    {
      what: 'nm values of the ultraviolet with CUNIT1 Angstrom',
      file: 'confused.fits',
      hdus: galahSpectrum([kv('CTYPE1', 'WAVE'), kv('CUNIT1', 'Angstrom'), kv('CRVAL1', 250), kv('CDELT1', 0.005), kv('CRPIX1', 1)]),
      argv: ['--into', HERMES, '--name', 'x'],
      message:
        /confused\.fits: HDU 0: axis 1 runs from 250 to 270\.475 Å \(CRVAL1 = 250, CDELT1 = 0\.005, CUNIT1 = 'Angstrom'\), outside where spectrographs work \(300–300,000 Å\) \(is it in nm\? then CUNIT1 = 'nm'\); fix CUNIT1/,
    },
    {
      what: 'µm values with CUNIT1 nm',
      file: 'microns.fits',
      hdus: galahSpectrum([kv('CTYPE1', 'WAVE'), kv('CUNIT1', 'nm'), kv('CRVAL1', 1.5), kv('CDELT1', 0.0001), kv('CRPIX1', 1)]),
      argv: ['--into', HERMES, '--name', 'x'],
      message: /axis 1 runs from 15 to 19\.095 Å .*\(is it in µm\? then CUNIT1 = 'um'\)/,
    },
    {
      what: 'nm values with no CUNIT1',
      file: 'bare-nm.fits',
      hdus: galahSpectrum([kv('CTYPE1', 'WAVE'), kv('CRVAL1', 471.3), kv('CDELT1', 0.0046), kv('CRPIX1', 1)]),
      argv: ['--into', HERMES, '--name', 'x'],
      message:
        /bare-nm\.fits: HDU 0 has no CUNIT1, and axis 1 runs from 471\.3 to 490\.137: not a typical range in Angstrom \(1,000–300,000 Å\), which a header without a unit usually means, but one in nm; add CUNIT1/,
    },
    {
      what: 'a catalogue group as the target',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', 'metadata/alpha/dr1/catalogues/SpecCat.yaml', '--name', 'x'],
      message:
        /--into metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml is not an IFS facility or a spectra facility file \(<survey>\/<release>\/ifs\/<facility>\.yaml or <survey>\/<release>\/spectra\/<facility>\.yaml\)/,
    },
    {
      what: 'a facility file not made yet',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', 'metadata/alpha/dr1/ifs/sami.yaml', '--name', 'x'],
      message: /there is no metadata\/alpha\/dr1\/ifs\/sami\.yaml; create it first with: archive-schema new ifs-facility alpha\/dr1\/sami/,
    },
    {
      what: 'an --id in use',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', SAMI, '--name', 'x', '--id', '11'],
      message: /--id 11 is in use \(or retired\) among IFS data products; the next free id is 12/,
    },
    {
      what: 'an --id that would change a published one',
      file: '9011900128_A_cube_blue.fits',
      argv: ['--into', SAMI, '--name', 'cube_red', '--id', '12'],
      message: /sami\.yaml: product "cube_red" has id 11, and a published id never changes; leave out --id/,
    },
    {
      what: 'a facility file with broken YAML, at its line and column',
      file: '9011900128_A_cube_blue.fits',
      yaml: `${SAMI_YAML}  - id: [\n`,
      argv: ['--into', SAMI, '--name', 'x'],
      message: /^archive-schema: metadata\/alpha\/dr2\/ifs\/sami\.yaml:\d+:\d+ is not valid YAML/,
    },
  ])('refuses $what: exit 1, the file and what to do, metadata untouched', async ({ file, hdus, gzip, yaml, argv, message }) => {
    const dir = await project();
    await writeFile(path.join(dir, 'notes.txt'), 'just some notes\n');
    if (hdus) await writeFits(path.join(dir, file), hdus);
    if (gzip) await writeFile(path.join(dir, file), gzipSync(await readFile(path.join(dir, 'cube_blue.hdr'))));
    if (yaml) await writeFile(path.join(dir, SAMI), yaml);
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const result = await cli(['import', 'product', file, ...argv], dir);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(1);
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });

  test.each([
    [['--type', 'slit'], /option '--type <type>' argument 'slit' is invalid\. Allowed choices are cube, map, spectrum\./],
    [['--arm', 'Blue Arm'], /option '--arm <name>' argument 'Blue Arm' is invalid\. expected an arm name/],
    [['--id', '0'], /option '--id <n>' argument '0' is invalid\. expected a positive whole number/],
  ])('a bad option %j is a usage error: exit 2', async (extra, message) => {
    const dir = await project();
    const result = await cli(['import', 'product', '9011900128_A_cube_blue.fits', '--into', SAMI, '--name', 'x', ...extra], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
