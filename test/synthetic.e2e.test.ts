// The synthetic benchmark archives: the same bytes every run, valid and canonical as generated,
// the sizes and shapes promised, and a CLI that never writes over a folder it was not given empty.

import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, test } from 'vitest';
import { SIZES, generateArchive, generateArchiveWithStats, yamlScalar } from '../bench/synthetic.ts';
import { check } from '../src/build.ts';
import type { CheckResult } from '../src/build.ts';
import { formatMetadata } from '../src/curation/fmt.ts';
import type { ColumnYaml, FacilityYaml, GroupYaml, ProductFacilityYaml, ProductYaml, RegionYaml, TableYaml } from '../src/kinds/data.ts';
import { rootsOf, walkNodes } from '../src/pipeline/assemble.ts';
import type { Archive } from '../src/pipeline/assemble.ts';
import { PROJECT, cli as run, syntheticdir, tempdir } from './helpers.ts';

async function writeTree(files: Map<string, string>): Promise<string> {
  const dir = path.join(await tempdir(), 'metadata');
  for (const [relative, text] of files) {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), text);
  }
  return dir;
}

function cli(args: string[]) {
  const result = spawnSync(process.execPath, ['bench/lib/synthetic.js', ...args], { cwd: PROJECT, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('size S', () => {
  let files: Map<string, string>;
  let dir: string;
  let result: CheckResult;
  let archive: Archive;

  beforeAll(async () => {
    files = generateArchive('S');
    dir = await writeTree(files);
    result = await check({ metadataDir: dir, reference: true });
    if (!result.archive) throw new Error(JSON.stringify(result.diagnostics.slice(0, 5)));
    archive = result.archive;
  });

  const nodes = (kind: string) => [...walkNodes(archive)].filter((n) => n.kind === kind).map((n) => n.node);

  test('is the same, byte for byte, on every run', () => {
    expect([...generateArchive('S')]).toEqual([...files]);
  });

  test('passes check without a single error or warning', () => {
    expect(result.diagnostics).toEqual([]);
  });

  test('is already in the canonical form that fmt prints', async () => {
    const formatted = await formatMetadata(dir, dir, { check: true });
    expect(formatted.changed).toEqual([]);
    expect(formatted.refused).toEqual([]);
  });

  test('has about 5,000 columns and 50 regions in a few surveys', () => {
    expect(archive.surveys.length).toBeGreaterThanOrEqual(2);
    expect(archive.surveys.length).toBeLessThanOrEqual(5);
    expect(nodes('CatalogueColumn').length).toBeGreaterThanOrEqual(4_500);
    expect(nodes('CatalogueColumn').length).toBeLessThanOrEqual(5_500);
    expect(nodes('ImagingRegion').length).toBeGreaterThanOrEqual(40);
    expect(nodes('ImagingRegion').length).toBeLessThanOrEqual(60);
  });

  test('has catalogue-only, imaging-only and mixed releases, deep and shallow tables, big and one-table groups', () => {
    const releases = archive.surveys
      .flatMap((s) => s.releases)
      .filter((r) => rootsOf(r, 'CatalogueGroup').length > 0 || rootsOf(r, 'ImagingFacility').length > 0);
    const kinds = new Set(releases.map((r) => `${rootsOf(r, 'CatalogueGroup').length > 0}/${rootsOf(r, 'ImagingFacility').length > 0}`));
    expect([...kinds].sort()).toEqual(['false/true', 'true/false', 'true/true']);
    const widths = (nodes('CatalogueTable') as TableYaml[]).map((t) => t.columns.length);
    expect(Math.max(...widths)).toBeGreaterThanOrEqual(100);
    expect(Math.min(...widths)).toBeLessThanOrEqual(10);
    const sizes = (nodes('CatalogueGroup') as GroupYaml[]).map((g) => g.tables.length);
    expect(sizes).toContain(1);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(5);
  });

  test('has IFS and spectra products of every type, beside catalogues, beside imaging, and in releases of their own', () => {
    expect(nodes('IFSDataProduct')).toHaveLength(SIZES.S.ifs);
    expect(nodes('SpectraDataProduct')).toHaveLength(SIZES.S.spectra);
    const products = [...nodes('IFSDataProduct'), ...nodes('SpectraDataProduct')] as ProductYaml[];
    expect(new Set(products.map((p) => p.product_type))).toEqual(new Set(['cube', 'map', 'spectrum']));
    for (const p of products) {
      if (p.extensions) expect(p.extensions[0]?.name, p.name).toBe('PRIMARY');
      if (p.product_type !== 'map') expect(p.wave_min_ang).toBeLessThan(p.wave_max_ang ?? 0);
    }
    expect(products.some((p) => p.extensions === undefined)).toBe(true);
    expect(products.some((p) => p.arm === null)).toBe(true);
    expect(products.some((p) => typeof p.arm === 'string')).toBe(true);
    // One spelling per arm and instrument, and every product of an arm covers that arm's range.
    for (const facility of [...nodes('IFSFacility'), ...nodes('SpectraFacility')] as ProductFacilityYaml[]) {
      for (const p of facility.products) {
        if (typeof p.arm !== 'string') continue;
        const first = facility.products.find((q) => q.arm === p.arm);
        expect([p.wave_min_ang, p.wave_max_ang], `${facility.name} ${p.name}`).toEqual([first?.wave_min_ang, first?.wave_max_ang]);
      }
    }
    const holds = archive.surveys
      .flatMap((s) => s.releases)
      .map((r) =>
        [
          ['catalogues', 'CatalogueGroup'],
          ['imaging', 'ImagingFacility'],
          ['ifs', 'IFSFacility'],
          ['spectra', 'SpectraFacility'],
        ]
          .filter(([, kind]) => rootsOf(r, kind as 'CatalogueGroup').length > 0)
          .map(([type]) => type)
          .join('+'),
      );
    for (const kinds of ['ifs', 'spectra', 'catalogues+ifs', 'catalogues+spectra', 'imaging+ifs']) expect(holds).toContain(kinds);
  });

  test('writes optional fields sometimes, with every spelling of "no unit" and contacts both null and set', () => {
    const columns = nodes('CatalogueColumn') as ColumnYaml[];
    const units = new Set(columns.map((c) => c.unit));
    for (const unit of ['-', 'None', undefined, 'deg', 'mag']) expect(units).toContain(unit);
    expect(columns.some((c) => c.ucd === '-')).toBe(true);
    expect(columns.some((c) => c.ucd === 'pos.eq.ra;meta.main')).toBe(true);
    expect(columns.some((c) => c.created !== undefined || c.updated !== undefined)).toBe(true);
    expect(columns.some((c) => c.documentation?.startsWith('<'))).toBe(true);
    const all = [...walkNodes(archive)].map((n) => n.node);
    expect(all.some((n) => n.contact === null)).toBe(true);
    expect(all.some((n) => n.contact?.email.endsWith('@example.org'))).toBe(true);
    expect(all.some((n) => n.pretty_name === undefined)).toBe(true);
    expect(all.some((n) => typeof n.pretty_name === 'string')).toBe(true);
  });

  test('gives every region a SWarp header of 60 typed cards centred on its ra_c and dec_c', () => {
    const regions = nodes('ImagingRegion') as RegionYaml[];
    for (const region of regions) {
      const h = region.fits_header;
      expect(Object.keys(h)).toHaveLength(60);
      for (const keyword of Object.keys(h)) expect(keyword).toMatch(/^[A-Z0-9_-]{1,8}$/);
      expect(h.SIMPLE?.[0]).toBe(true);
      expect(h.NAXIS?.[0]).toBe(2);
      expect(h.CRVAL1?.[0]).toBe(Number(region.ra_c));
      expect(h.CRVAL2?.[0]).toBe(Number(region.dec_c));
      expect(Number(region.ra_c)).toBeGreaterThanOrEqual(0);
      expect(Number(region.ra_c)).toBeLessThan(360);
      expect(Math.abs(Number(region.dec_c))).toBeLessThanOrEqual(90);
      expect(h).toHaveProperty('FILE0001');
      expect(h).toHaveProperty('FLXSC001');
    }
    const facilities = nodes('ImagingFacility') as FacilityYaml[];
    for (const band of facilities.flatMap((f) => f.bands)) expect(band.central_wave_ang).toBeGreaterThan(1000);
  });
});

test('size M has about 25,000 columns and 1,000 regions', () => {
  const { files, stats } = generateArchiveWithStats('M');
  // Counted from the text, not from the generator's own tally: columns and regions are the
  // items six spaces deep in catalogue and imaging files.
  const items = (folder: string) =>
    [...files].filter(([p]) => p.includes(`/${folder}/`)).reduce((n, [, text]) => n + (text.match(/^ {6}- id: /gm)?.length ?? 0), 0);
  expect(items('catalogues')).toBe(stats.columns);
  expect(items('imaging')).toBe(stats.regions);
  expect(stats.columns).toBeGreaterThanOrEqual(22_500);
  expect(stats.columns).toBeLessThanOrEqual(27_500);
  expect(stats.regions).toBeGreaterThanOrEqual(900);
  expect(stats.regions).toBeLessThanOrEqual(1_100);
  // Products are the items two spaces deep in IFS and spectra files.
  const products = (folder: string) =>
    [...files].filter(([p]) => p.includes(`/${folder}/`)).reduce((n, [, text]) => n + (text.match(/^ {2}- id: /gm)?.length ?? 0), 0);
  expect(products('ifs')).toBe(stats.ifsProducts);
  expect(products('spectra')).toBe(stats.spectraProducts);
  expect([stats.ifsProducts, stats.spectraProducts]).toEqual([SIZES.M.ifs, SIZES.M.spectra]);
});

describe('size S, checked and built by the command line', () => {
  interface Release {
    name: string;
    catalogues: unknown;
    imaging: unknown;
    ifs: { facilities: { products: unknown[] }[] } | null;
    spectra: { facilities: { products: unknown[] }[] } | null;
  }
  const TYPES = ['catalogues', 'imaging', 'ifs', 'spectra'] as const;
  /** What each release holds, from the generated files: "survey.release" → its data types. */
  const holdings = new Map<string, Set<string>>();
  let dir = '';

  beforeAll(async () => {
    for (const relative of generateArchive('S').keys()) {
      const [survey, release, folder, file] = relative.split('/');
      if (file === undefined || folder === undefined) continue;
      const at = `${survey}.${release}`;
      holdings.set(at, (holdings.get(at) ?? new Set()).add(folder));
    }
    dir = await syntheticdir('S');
  });

  test('check finds nothing to report', async () => {
    const checked = await run(['check', '--no-cache'], dir);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout + checked.stderr).toBe(`${generateArchive('S').size} metadata files checked: no errors.\n`);
  });

  test('the ifs and spectra listings hold the releases with that data or catalogues, the catalogues listing no other', async () => {
    const built = await run(['build', '--no-cache', '--quiet'], dir);
    expect(built.code, built.stderr).toBe(0);
    const listed = async (type: string) => {
      const surveys = JSON.parse(await readFile(path.join(dir, `dist/api/schema/data_type/${type}.json`), 'utf8')) as {
        name: string;
        data_releases: Release[];
      }[];
      return surveys.flatMap((s) => s.data_releases.map((r) => ({ ...r, at: `${s.name}.${r.name}` })));
    };
    const shown = { catalogues: ['catalogues'], imaging: ['imaging'], ifs: ['catalogues', 'ifs'], spectra: ['catalogues', 'spectra'] };
    for (const type of TYPES) {
      const releases = await listed(type);
      const expected = [...holdings].filter(([, held]) => shown[type].some((t) => held.has(t))).map(([at]) => at);
      expect(releases.map((r) => r.at).sort(), type).toEqual(expected.sort());
      // Each release shows what the listing shows and it holds, and nothing else.
      for (const r of releases) {
        const held = holdings.get(r.at);
        expect(
          TYPES.filter((t) => r[t] !== null),
          `${type}: ${r.at}`,
        ).toEqual(TYPES.filter((t) => shown[type].includes(t) && held?.has(t)));
      }
    }
    // A release with IFS or spectra data and no catalogues is in that listing and in no catalogues listing.
    const catalogued = new Set((await listed('catalogues')).map((r) => r.at));
    for (const type of ['ifs', 'spectra'] as const) {
      const releases = await listed(type);
      const only = releases.filter((r) => holdings.get(r.at)?.size === 1 && holdings.get(r.at)?.has(type));
      expect(only.length, type).toBeGreaterThan(0);
      for (const r of only) expect(catalogued.has(r.at), r.at).toBe(false);
      const products = releases.flatMap((r) => r[type]?.facilities ?? []).flatMap((f) => f.products);
      expect(products).toHaveLength(type === 'ifs' ? SIZES.S.ifs : SIZES.S.spectra);
    }
  });
});

test('strings read back as written, in block and in flow context', () => {
  const tricky = [
    '-',
    'None',
    'null',
    '',
    'true',
    'yes',
    '135.0',
    '-0.5',
    '1e5',
    '0x1F',
    '2.38.0',
    'a: b',
    'x #y',
    'trail:',
    'a,b',
    '[O II] 3726',
    "team's",
    `say "x" and 'y'`,
    '<p>x</p>',
    '%x',
    '@x',
    '? x',
    '- x',
    'log(cm.s**-2)',
    '2020-07-01T00:00:00Z',
    'https://example.org/a',
  ];
  for (const text of tricky) {
    expect(parse(`k: ${yamlScalar(text)}\n`), text).toEqual({ k: text });
    expect(parse(`k: [${yamlScalar(text, true)}, ${yamlScalar(text, true)}]\n`), text).toEqual({ k: [text, text] });
  }
});

describe('the command line', () => {
  test('writes a tree into a new folder and says what it wrote in one line', async () => {
    const out = path.join(await tempdir(), 'syn');
    const result = cli(['--size', 'S', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /^wrote \d+ files to .*: 3 surveys, \d+ releases, \d+ groups, \d+ tables, 5000 columns, \d+ facilities, \d+ bands, 50 regions, \d+ IFS facilities with 16 products, \d+ spectra facilities with 12 products, \d+ bytes of YAML \([\d.]+ MB\)\n$/,
    );
    expect((await readdir(out)).sort()).toEqual([...new Set([...generateArchive('S').keys()].map((p) => p.split('/')[0]))].sort());
  });

  test('refuses a folder that is not empty unless --force, which empties it first', async () => {
    const out = await tempdir();
    await writeFile(path.join(out, 'keep.txt'), 'mine');
    const refused = cli(['--size', 'S', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^synthetic: .* is not empty; pass --force to empty it first\n$/);
    expect(await readdir(out)).toEqual(['keep.txt']);
    const forced = cli(['--size', 'S', '--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(await readdir(out)).not.toContain('keep.txt');
  });

  test('rejects a size it does not know and a missing --out, in one line each', () => {
    const size = cli(['--size', 'XL', '--out', 'never-written']);
    expect(size.code).toBe(2);
    expect(size.stderr).toBe('synthetic: --size must be XS, S, M or L, not XL\n');
    const out = cli(['--size', 'S']);
    expect(out.code).toBe(2);
    expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/--out DIR is required/);
  });
});
