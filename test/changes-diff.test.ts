// The structural diff over small archives held in memory: additions, removals, renames, moves and
// field changes of every kind of node, matched by id; and the reports a reviewer reads.

import { describe, expect, test } from 'vitest';
import { diffSnapshots } from '../src/changes/diff.ts';
import type { Change } from '../src/changes/diff.ts';
import { codeSpan, formatJson, formatMarkdown, formatText, titlesOf } from '../src/changes/report.ts';
import { snapshotOf } from '../src/changes/snapshot.ts';
import { assemble } from '../src/pipeline/assemble.ts';
import { parseMetadata } from '../src/pipeline/parse.ts';

type Files = Record<string, Record<string, unknown>>;

const contact = { name: 'GAMA Team', email: 'gama@example.org' };
const stamp = { created: '2020-01-01T00:00:00Z', updated: '2020-01-01T00:00:00Z' };

/** A small archive: a survey, two releases, a catalogue group, an imaging facility, an IFS and a spectra facility. */
function archive(): Files {
  return {
    'gama/survey.yaml': {
      id: 1,
      name: 'gama',
      pretty_name: 'GAMA',
      title: 'GAMA',
      description: 'd',
      pi: 'P',
      contact,
      website: 'https://g.example.org/',
      active: true,
    },
    'gama/dr3/release.yaml': { name: 'dr3', pretty_name: 'Data Release 3', version: 3, data_release_number: 3, contact, ...stamp },
    'gama/dr4/release.yaml': { name: 'dr4', pretty_name: 'Data Release 4', version: 4, data_release_number: 4, contact, ...stamp },
    'gama/dr4/catalogues/StellarMasses.yaml': {
      id: 14,
      name: 'StellarMasses',
      ...stamp,
      tables: [
        {
          id: 41,
          name: 'StellarMassesLambdarv24',
          columns: [
            { id: 2002, name: 'logmstar', ucd: 'phys.mass', unit: 'dex' },
            { id: 2003, name: 'dellogmstar', ucd: 'stat.error', unit: 'dex' },
          ],
        },
        { id: 42, name: 'Other', columns: [{ id: 2100, name: 'CATAID', ucd: 'meta.id' }] },
      ],
    },
    'gama/dr4/imaging/VST.yaml': {
      id: 30,
      name: 'VST',
      ...stamp,
      bands: [
        {
          id: 300,
          name: 'r',
          central_wave_ang: 6313.5,
          regions: [
            {
              id: 3000,
              name: 'G09',
              ra_c: '135.0',
              dec_c: '-0.5',
              unit: 'deg',
              frame: 'icrs',
              equinox: 'j2000',
              fits_header: { NAXIS: [2, ''] },
            },
          ],
        },
      ],
    },
    'gama/dr4/ifs/sami.yaml': {
      id: 4,
      name: 'sami',
      ...stamp,
      products: [{ id: 11, name: 'cube_blue', product_type: 'cube', arm: 'blue' }],
    },
    'gama/dr4/spectra/hermes.yaml': { id: 5, name: 'hermes', ...stamp, products: [{ id: 21, name: 'spec', product_type: 'spectrum' }] },
  };
}

/** The snapshot of an archive given as files (each written as JSON, which is YAML). */
function snapshot(files: Files) {
  const parsed = parseMetadata(
    Object.entries(files).map(([relative, data]) => ({ relative, text: JSON.stringify(data) })),
    (r) => `metadata/${r}`,
  );
  expect(parsed.diagnostics).toEqual([]);
  return snapshotOf(assemble(parsed.files).archive);
}

function diff(change: (files: Files) => void): Change[] {
  const after = archive();
  change(after);
  return diffSnapshots(snapshot(archive()), snapshot(after));
}

/** A node inside a file, by the indexes of its lists: ['tables', 0, 'columns', 1]. */
function node(files: Files, file: string, ...at: (string | number)[]): Record<string, unknown> {
  let here: unknown = files[file];
  for (const step of at) here = (here as Record<string | number, unknown>)[step];
  return here as Record<string, unknown>;
}

const GROUP = 'gama/dr4/catalogues/StellarMasses.yaml';
const VST = 'gama/dr4/imaging/VST.yaml';
const columns = (files: Files, table = 0) => node(files, GROUP, 'tables', table).columns as Record<string, unknown>[];

/** A change reduced to what each case states: [change, kind, id, path, old, new, moved from]. */
const brief = (c: Change) => [c.change, c.kind, c.id ?? c.release, c.path, c.old, c.new, c.movedFrom];

const cases: [string, (files: Files) => void, unknown[][]][] = [
  ['nothing changed', () => undefined, []],
  [
    'only timestamps changed: a stamp is not a change',
    (f) => {
      node(f, GROUP).updated = '2026-01-01T00:00:00Z';
      node(f, 'gama/dr4/release.yaml').updated = '2026-01-01T00:00:00Z';
    },
    [],
  ],
  [
    "a column's unit",
    (f) => (columns(f)[0] = { ...columns(f)[0], unit: 'dex(solMass)' }),
    [
      [
        'changed',
        'CatalogueColumn',
        2002,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/logmstar',
        { unit: 'dex' },
        { unit: 'dex(solMass)' },
        undefined,
      ],
    ],
  ],
  [
    'a column renamed is a change of name, under its new path',
    (f) => (columns(f)[0] = { ...columns(f)[0], name: 'logmstar_total' }),
    [
      [
        'changed',
        'CatalogueColumn',
        2002,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/logmstar_total',
        { name: 'logmstar' },
        { name: 'logmstar_total' },
        undefined,
      ],
    ],
  ],
  [
    'a field a column did not have (a new kind of field, with no code for it)',
    (f) => (columns(f)[1] = { ...columns(f)[1], datatype: 'float', arraysize: '*' }),
    [
      [
        'changed',
        'CatalogueColumn',
        2003,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/dellogmstar',
        {},
        { arraysize: '*', datatype: 'float' },
        undefined,
      ],
    ],
  ],
  [
    'a field taken away',
    (f) => delete columns(f)[1]?.ucd,
    [
      [
        'changed',
        'CatalogueColumn',
        2003,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/dellogmstar',
        { ucd: 'stat.error' },
        {},
        undefined,
      ],
    ],
  ],
  [
    'a column moved to another table, matched by its id',
    (f) => {
      const [moved] = columns(f).splice(1, 1);
      columns(f, 1).push(moved as Record<string, unknown>);
    },
    [
      [
        'changed',
        'CatalogueColumn',
        2003,
        'gama/dr4/StellarMasses/Other/dellogmstar',
        undefined,
        undefined,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/dellogmstar',
      ],
    ],
  ],
  [
    'a column added and one removed',
    (f) => {
      columns(f).splice(0, 1);
      columns(f).push({ id: 2004, name: 'mstar_err', unit: 'dex(solMass)' });
    },
    [
      [
        'removed',
        'CatalogueColumn',
        2002,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/logmstar',
        { id: 2002, name: 'logmstar', ucd: 'phys.mass', unit: 'dex' },
        undefined,
        undefined,
      ],
      [
        'added',
        'CatalogueColumn',
        2004,
        'gama/dr4/StellarMasses/StellarMassesLambdarv24/mstar_err',
        undefined,
        { id: 2004, name: 'mstar_err', unit: 'dex(solMass)' },
        undefined,
      ],
    ],
  ],
  [
    'a table renamed leaves its columns as they are',
    (f) => (node(f, GROUP, 'tables', 1).name = 'Others'),
    [['changed', 'CatalogueTable', 42, 'gama/dr4/StellarMasses/Others', { name: 'Other' }, { name: 'Others' }, undefined]],
  ],
  [
    'a table removed with its columns',
    (f) => (node(f, GROUP).tables as unknown[]).splice(1, 1),
    [
      ['removed', 'CatalogueTable', 42, 'gama/dr4/StellarMasses/Other', { id: 42, name: 'Other' }, undefined, undefined],
      [
        'removed',
        'CatalogueColumn',
        2100,
        'gama/dr4/StellarMasses/Other/CATAID',
        { id: 2100, name: 'CATAID', ucd: 'meta.id' },
        undefined,
        undefined,
      ],
    ],
  ],
  [
    'a group renamed with its file',
    (f) => {
      f['gama/dr4/catalogues/StellarMassesV2.yaml'] = { ...node(f, GROUP), name: 'StellarMassesV2' };
      Reflect.deleteProperty(f, GROUP);
    },
    [['changed', 'CatalogueGroup', 14, 'gama/dr4/StellarMassesV2', { name: 'StellarMasses' }, { name: 'StellarMassesV2' }, undefined]],
  ],
  [
    'a group moved to another release',
    (f) => {
      f['gama/dr3/catalogues/StellarMasses.yaml'] = node(f, GROUP);
      Reflect.deleteProperty(f, GROUP);
    },
    [['changed', 'CatalogueGroup', 14, 'gama/dr3/StellarMasses', undefined, undefined, 'gama/dr4/StellarMasses']],
  ],
  [
    "a band's wavelength and a region's FITS header (a mapping, compared whole)",
    (f) => {
      node(f, VST, 'bands', 0).central_wave_ang = 6200;
      node(f, VST, 'bands', 0, 'regions', 0).fits_header = { NAXIS: [3, ''] };
    },
    [
      ['changed', 'ImagingBand', 300, 'gama/dr4/VST/r', { central_wave_ang: 6313.5 }, { central_wave_ang: 6200 }, undefined],
      [
        'changed',
        'ImagingRegion',
        3000,
        'gama/dr4/VST/r/G09',
        { fits_header: { NAXIS: [2, ''] } },
        { fits_header: { NAXIS: [3, ''] } },
        undefined,
      ],
    ],
  ],
  [
    'a region added, an IFS product removed, a spectra product changed',
    (f) => {
      (node(f, VST, 'bands', 0).regions as unknown[]).push({
        id: 3001,
        name: 'G12',
        ra_c: '180.0',
        dec_c: '-0.5',
        unit: 'deg',
        frame: 'icrs',
        equinox: 'j2000',
        fits_header: {},
      });
      node(f, 'gama/dr4/ifs/sami.yaml').products = [];
      node(f, 'gama/dr4/spectra/hermes.yaml', 'products', 0).arm = 'red';
    },
    [
      [
        'added',
        'ImagingRegion',
        3001,
        'gama/dr4/VST/r/G12',
        undefined,
        { id: 3001, name: 'G12', ra_c: '180.0', dec_c: '-0.5', unit: 'deg', frame: 'icrs', equinox: 'j2000', fits_header: {} },
        undefined,
      ],
      [
        'removed',
        'IFSDataProduct',
        11,
        'gama/dr4/sami/cube_blue',
        { id: 11, name: 'cube_blue', product_type: 'cube', arm: 'blue' },
        undefined,
        undefined,
      ],
      ['changed', 'SpectraDataProduct', 21, 'gama/dr4/hermes/spec', {}, { arm: 'red' }, undefined],
    ],
  ],
  [
    "a survey's title, and a release released",
    (f) => {
      node(f, 'gama/survey.yaml').title = 'Galaxy And Mass Assembly';
      node(f, 'gama/dr3/release.yaml').released = '2018-04-11';
    },
    [
      ['changed', 'Survey', 1, 'gama', { title: 'GAMA' }, { title: 'Galaxy And Mass Assembly' }, undefined],
      ['changed', 'DataRelease', 'dr3', 'gama/dr3', {}, { released: '2018-04-11' }, undefined],
    ],
  ],
  [
    'a release added, with a group in it',
    (f) => {
      f['gama/dr5/release.yaml'] = { ...node(f, 'gama/dr4/release.yaml'), name: 'dr5', data_release_number: 5 };
      f['gama/dr5/catalogues/Extra.yaml'] = {
        id: 15,
        name: 'Extra',
        ...stamp,
        tables: [{ id: 43, name: 'X', columns: [{ id: 2200, name: 'A' }] }],
      };
    },
    [
      [
        'added',
        'DataRelease',
        'dr5',
        'gama/dr5',
        undefined,
        { name: 'dr5', pretty_name: 'Data Release 4', version: 4, data_release_number: 5, contact },
        undefined,
      ],
      ['added', 'CatalogueGroup', 15, 'gama/dr5/Extra', undefined, { id: 15, name: 'Extra' }, undefined],
      ['added', 'CatalogueTable', 43, 'gama/dr5/Extra/X', undefined, { id: 43, name: 'X' }, undefined],
      ['added', 'CatalogueColumn', 2200, 'gama/dr5/Extra/X/A', undefined, { id: 2200, name: 'A' }, undefined],
    ],
  ],
];

describe('diffSnapshots', () => {
  test.each(cases)('%s', (_, change, expected) => {
    expect(diff(change).map(brief)).toEqual(expected);
  });

  test('a survey removed takes everything in it, in tree order', () => {
    const found = diff((f) => {
      for (const file of Object.keys(f)) if (file.startsWith('gama/')) Reflect.deleteProperty(f, file);
    });
    expect(found.map((c) => `${c.change} ${c.kind} ${c.path}`)).toEqual([
      'removed Survey gama',
      'removed DataRelease gama/dr3',
      'removed DataRelease gama/dr4',
      'removed CatalogueGroup gama/dr4/StellarMasses',
      'removed CatalogueTable gama/dr4/StellarMasses/StellarMassesLambdarv24',
      'removed CatalogueColumn gama/dr4/StellarMasses/StellarMassesLambdarv24/logmstar',
      'removed CatalogueColumn gama/dr4/StellarMasses/StellarMassesLambdarv24/dellogmstar',
      'removed CatalogueTable gama/dr4/StellarMasses/Other',
      'removed CatalogueColumn gama/dr4/StellarMasses/Other/CATAID',
      'removed ImagingFacility gama/dr4/VST',
      'removed ImagingBand gama/dr4/VST/r',
      'removed ImagingRegion gama/dr4/VST/r/G09',
      'removed IFSFacility gama/dr4/sami',
      'removed IFSDataProduct gama/dr4/sami/cube_blue',
      'removed SpectraFacility gama/dr4/hermes',
      'removed SpectraDataProduct gama/dr4/hermes/spec',
    ]);
    const sides = { from: 'a', to: 'b' };
    expect(formatText(found, sides, () => 'GAMA')).toBe(
      'Metadata changes from a to b: 1 survey removed, 2 releases removed, 1 group removed, 2 tables removed, 3 columns removed, 3 facilities removed, 1 band removed, 1 region removed, 2 products removed.\n\nGAMA: 1 survey removed, 2 releases removed, 1 group removed, 2 tables removed, 3 columns removed, 3 facilities removed, 1 band removed, 1 region removed, 2 products removed\n  survey: survey removed with its 2 releases, 1 group, 2 tables, 3 columns, 3 facilities, 1 band, 1 region and 2 products\n',
    );
  });

  test('the same archives give the same list, whatever order the files come in', () => {
    const after = archive();
    columns(after)[0] = { ...columns(after)[0], unit: 'mag' };
    const reversed = Object.fromEntries(Object.entries(after).reverse());
    expect(diffSnapshots(snapshot(archive()), snapshot(reversed))).toEqual(diffSnapshots(snapshot(archive()), snapshot(after)));
  });
});

// ---- Reports -------------------------------------------------------------------------------------------

function report(change: (files: Files) => void) {
  const before = snapshot(archive());
  const next = archive();
  change(next);
  const after = snapshot(next);
  const changes = diffSnapshots(before, after);
  const sides = { from: 'main (1a2b3c4)', to: 'the working tree' };
  const titles = titlesOf(after, before);
  return { text: formatText(changes, sides, titles), markdown: formatMarkdown(changes, sides, titles), json: formatJson(changes, sides) };
}

const unitAndThreeColumns = (f: Files) => {
  columns(f)[0] = { ...columns(f)[0], unit: 'dex(solMass)' };
  for (const [i, name] of ['mstar_16', 'mstar_50', 'mstar_84'].entries()) columns(f).push({ id: 2010 + i, name, unit: 'dex(solMass)' });
};

describe('reports', () => {
  test('a reviewer reads what happened to each table, under its survey and release', () => {
    const { text, markdown } = report(unitAndThreeColumns);
    expect(text).toBe(
      [
        'Metadata changes from main (1a2b3c4) to the working tree: 3 columns added, 1 column changed.',
        '',
        'GAMA DR4: 3 columns added, 1 column changed',
        '  StellarMasses / StellarMassesLambdarv24: 3 columns added (mstar_16, mstar_50, mstar_84); unit of logmstar changed from "dex" to "dex(solMass)"',
        '',
      ].join('\n'),
    );
    expect(markdown).toBe(
      [
        '### Metadata changes',
        '',
        'From main (1a2b3c4) to the working tree: 3 columns added, 1 column changed.',
        '',
        '**GAMA DR4**: 3 columns added, 1 column changed',
        '',
        '- **StellarMasses / StellarMassesLambdarv24**: 3 columns added (`mstar_16`, `mstar_50`, `mstar_84`); unit of `logmstar` changed from `dex` to `dex(solMass)`',
        '',
      ].join('\n'),
    );
  });

  test('what an added or removed node holds is counted with it, not listed', () => {
    const { text } = report((f) => {
      (node(f, GROUP).tables as unknown[]).push({
        id: 44,
        name: 'New',
        columns: [
          { id: 2300, name: 'a' },
          { id: 2301, name: 'b' },
        ],
      });
      Reflect.deleteProperty(f, VST);
      node(f, 'gama/dr4/ifs/sami.yaml').description =
        'A long description that is not shown in a line of the report, only said to have changed.';
    });
    expect(text).toContain('  StellarMasses: 1 table added (New with 2 columns)\n');
    expect(text).toContain('  VST: facility removed with its 1 band and 1 region\n');
    // A long text is only said to have changed.
    expect(text).toContain('  sami: description added\n');
    expect(text.split('\n')[0]).toBe(
      'Metadata changes from main (1a2b3c4) to the working tree: 1 table added, 2 columns added, 1 facility removed, 1 facility changed, 1 band removed, 1 region removed.',
    );
  });

  test('a long list of names and of changes is cut, with how many more there are', () => {
    const { text } = report((f) => {
      for (let i = 0; i < 20; i++) columns(f).push({ id: 3000 + i, name: `c${i}` });
      for (let i = 0; i < 15; i++) columns(f, 1).push({ id: 4000 + i, name: `d${i}` });
      columns(f, 1)[0] = { ...columns(f, 1)[0], ucd: 'meta.id;meta.main' };
    });
    expect(text).toContain('20 columns added (c0, c1, c2, c3, c4, c5, c6, c7 and 12 more)');
    expect(text).toContain(
      'StellarMasses / Other: 15 columns added (d0, d1, d2, d3, d4, d5, d6, d7 and 7 more); ucd of CATAID changed from "meta.id" to "meta.id;meta.main"',
    );
  });

  test('names and values that hold Markdown stay text', () => {
    const { markdown } = report((f) => {
      columns(f)[0] = { ...columns(f)[0], unit: 'a`b|*c*' };
      node(f, 'gama/survey.yaml').pretty_name = 'G<b>A</b>_MA';
    });
    expect(markdown).toContain('**G&lt;b&gt;A&lt;/b&gt;\\_MA DR4**');
    expect(markdown).toContain('from `dex` to ``a`b|*c*``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
  });

  test('a release with many lines is folded away in Markdown', () => {
    const { markdown } = report((f) => {
      for (let i = 0; i < 30; i++) f[`gama/dr4/catalogues/G${i}.yaml`] = { id: 100 + i, name: `G${i}`, ...stamp, tables: [] };
    });
    expect(markdown).toContain('<details><summary><b>GAMA DR4</b>: 30 groups added</summary>\n\n- **G0**: group added\n');
    expect(markdown.trimEnd().endsWith('</details>')).toBe(true);
  });

  test('the JSON holds every change with its fields old and new', () => {
    const parsed = JSON.parse(report(unitAndThreeColumns).json) as { counts: unknown; changes: Record<string, unknown>[] };
    expect(parsed.counts).toEqual({ CatalogueColumn: { added: 3, removed: 0, changed: 1 } });
    expect(parsed.changes[0]).toEqual({
      change: 'changed',
      kind: 'CatalogueColumn',
      id: 2002,
      survey: 1,
      release: 'dr4',
      path: 'gama/dr4/StellarMasses/StellarMassesLambdarv24/logmstar',
      old: { unit: 'dex' },
      new: { unit: 'dex(solMass)' },
    });
  });

  test('no change says so', () => {
    expect(report(() => undefined).text).toBe('Metadata changes from main (1a2b3c4) to the working tree: no changes.\n');
  });
});
