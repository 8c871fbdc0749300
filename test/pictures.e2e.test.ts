// The browser's pictures read by libxml2's xmllint, a strict XML parser: a sky map and a band chart
// full of hostile curator text, and the pictures of a synthetic archive's imaging.

import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { expect, test } from 'vitest';
import { generateArchive } from '../bench/synthetic.ts';
import type { FacilityYaml } from '../src/kinds/data.ts';
import { bandChart, skyMap } from '../src/outputs/browser/pictures/index.ts';
import type { ChartFacility, SkyRegion } from '../src/outputs/browser/pictures/index.ts';
import { HOSTILE_TEXT } from './products-fixture.ts';
import { tempdir } from './helpers.ts';
import { tan } from './sky-fixture.ts';

async function xmllint(files: Record<string, string>): Promise<void> {
  const folder = await tempdir();
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
  const checked = spawnSync('xmllint', ['--nonet', '--noout', ...Object.keys(files)], { cwd: folder, encoding: 'utf8' });
  expect(checked.status, checked.stderr).toBe(0);
  expect(checked.stderr).toBe('');
}

test('pictures of hostile curator text are well-formed XML', async () => {
  const regions: SkyRegion[] = [
    {
      key: HOSTILE_TEXT,
      name: HOSTILE_TEXT,
      facility: HOSTILE_TEXT,
      band: HOSTILE_TEXT,
      ra_c: '150',
      dec_c: '2',
      unit: 'deg',
      frame: 'icrs',
    },
    {
      key: 'b',
      name: HOSTILE_TEXT,
      facility: 'VST',
      band: 'r',
      fits_header: tan(0.2, -5, 3, 10),
      ra_c: '0.2',
      dec_c: '-5',
      unit: 'deg',
      frame: 'icrs',
    },
  ];
  const facilities: ChartFacility[] = [
    { name: HOSTILE_TEXT, label: HOSTILE_TEXT, bands: [{ key: HOSTILE_TEXT, name: HOSTILE_TEXT, central_wave_ang: 6000 }] },
  ];
  await xmllint({
    'sky.svg': skyMap(regions, { href: () => HOSTILE_TEXT, title: HOSTILE_TEXT, description: HOSTILE_TEXT }),
    'bands.svg': bandChart(facilities, { href: () => HOSTILE_TEXT, title: HOSTILE_TEXT, description: HOSTILE_TEXT }),
  });
});

test('the pictures of a synthetic archive’s imaging are well-formed XML', async () => {
  const regions: SkyRegion[] = [];
  const facilities: ChartFacility[] = [];
  for (const [file, text] of generateArchive('S')) {
    if (!file.includes('/imaging/')) continue;
    const facility = load(text) as FacilityYaml;
    facilities.push({
      name: facility.name,
      label: `${facility.name} (${file.split('/').slice(0, 2).join(' ')})`,
      bands: facility.bands.map((b) => ({ key: String(b.id), name: b.name, central_wave_ang: b.central_wave_ang })),
    });
    for (const band of facility.bands)
      for (const r of band.regions) regions.push({ ...r, key: String(r.id), facility: facility.name, band: band.name });
  }
  expect(regions.length).toBeGreaterThan(0);
  await xmllint({
    'sky.svg': skyMap(regions, { href: (r) => `/regions/${r.key}/` }),
    'bands.svg': bandChart(facilities, { href: (b) => `/bands/${b.key}/` }),
  });
});
