// The Virtual Observatory outputs as the real VO tools read them: whole documents (head, every
// group's or facility's rows with the survey URL filled in, tail) made from the fixture archive (with
// and without IFS and spectra facilities), the bundled metadata and a hand-made group and facilities
// full of hostile text, then read by xmllint against the vendored XSDs, astropy, STILTS votlint and
// taplint, Python's csv module and pyvo.
// The tools come from Debian (python3-astropy python3-pyvo stilts libxml2-utils; .ci/run installs
// them); a missing tool fails the test with what to install.

import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import type { FacilityYaml, GroupYaml, ProductFacilityYaml, ReleaseYaml, SurveyYaml } from '../src/kinds/data.ts';
import { nodeObject, releaseHead } from '../src/outputs/api/objects.ts';
import type { ApiObject } from '../src/outputs/api/objects.ts';
import * as vo from '../src/outputs/vo/index.ts';
import type { Place } from '../src/outputs/vo/index.ts';
import { COLUMNS, PRODUCTS, REGIONS, columnType, extnameText } from '../src/outputs/vo/listings.ts';
import { sizeOf } from '../src/vocabularies/datatypes.ts';
import type { Field, Listing } from '../src/outputs/vo/listings.ts';
import { degreesText, descriptionText, ucdText, unitText } from '../src/outputs/vo/text.ts';
import { BUNDLED, FIXTURE, PROJECT, tempdir } from './helpers.ts';
import { PRODUCT_FILES } from './products-fixture.ts';

// ---- The archives ---------------------------------------------------------------------------------------

interface Release {
  place: Place;
  survey: ApiObject;
  head: ApiObject;
  url: string;
  groups: ApiObject[];
  facilities: ApiObject[];
  /** IFS facilities, then spectra facilities. */
  products: ApiObject[];
}

const yamlFiles = (dir: string): string[] => {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
};
const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
const readYaml = (file: string): unknown => parse(readFileSync(file, 'utf8'));

/** A metadata folder's releases with their API objects, as the build makes them. */
function loadArchive(root: string, base: string): Release[] {
  const releases: Release[] = [];
  for (const survey of folders(root)) {
    const surveyYaml = readYaml(path.join(root, survey, 'survey.yaml')) as SurveyYaml;
    for (const release of folders(path.join(root, survey))) {
      const dir = path.join(root, survey, release);
      const place = { survey, release };
      releases.push({
        place,
        survey: surveyYaml as unknown as ApiObject,
        head: releaseHead(readYaml(path.join(dir, 'release.yaml')) as ReleaseYaml),
        url: `${base}/api/schema/${surveyYaml.id}/`,
        groups: yamlFiles(path.join(dir, 'catalogues')).map((f) =>
          nodeObject('CatalogueGroup', readYaml(f) as GroupYaml, [survey, release]),
        ),
        facilities: yamlFiles(path.join(dir, 'imaging')).map((f) =>
          nodeObject('ImagingFacility', readYaml(f) as FacilityYaml, [survey, release]),
        ),
        products: [
          ...yamlFiles(path.join(dir, 'ifs')).map((f) => nodeObject('IFSFacility', readYaml(f) as ProductFacilityYaml, [survey, release])),
          ...yamlFiles(path.join(dir, 'spectra')).map((f) =>
            nodeObject('SpectraFacility', readYaml(f) as ProductFacilityYaml, [survey, release]),
          ),
        ],
      });
    }
  }
  return releases;
}

// Every C0 control character but NUL, which metadata never holds (the build refuses it).
const C0 = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('');
const HOSTILE = [
  '<b>bold</b> & "double" \'single\' ]]> <![CDATA[ x ]]> &amp; &#0;',
  `controls:${C0}:end`,
  'emoji 🔭🌌, a flag 🇦🇺, combining e\u0301',
  'RTL שלום עולם مرحبا \u202Eevil\u202C',
  '  leading and trailing spaces  ',
  'lines\r\nCRLF\rCR\nLF\ttab',
  'noncharacters \uFFFE\uFFFF, DEL \x7F, NEL \x85, C1 \x9F, BOM \uFEFF, LS \u2028',
  'α<&>'.repeat(2500),
  'comma, "quote", =SUM(A1)',
];
const LONG = HOSTILE[7] ?? '';
const at = (i: number): string => HOSTILE[i % HOSTILE.length] ?? '';
const DATES = { created: '2020-01-01T00:00:00Z', updated: '2020-01-02T00:00:00Z' };

const hostileColumns = (first: number) =>
  [
    ['RA', '-', 'pos.eq.ra;meta.main'],
    ['ra', 'None', '-'],
    ['size', 'none', 'phot.mag;em.opt.R'],
    ['flux (Jy)', 'km s-1', 'phot.flux.density'],
    ['say "hi"', 'µm', 'meta.id'],
    ['日本語', 'mag/arcsec^2', 'src.redshift'],
    ['x\x01y\x1fz', '<&>"', '-'],
    ['DATE', 'n/a', 'time.epoch'],
    ['ok_name', 'deg', 'pos.eq.dec'],
    ['undescribed', 'Jy', 'phot.flux'],
  ].map(([name, unit, ucd], i) => ({
    id: first + i,
    name,
    description: i === 9 ? '-' : at(i),
    unit,
    ucd,
    ...TYPES[i % TYPES.length],
  }));

/** Column types of every shape: scalars, strings, arrays of one and two axes, principal said or not, none. */
const TYPES: object[] = [
  { datatype: 'long', principal: false },
  { datatype: 'char', arraysize: '*' },
  {},
  { datatype: 'float', arraysize: '3x4' },
  { datatype: 'unicodeChar', arraysize: '64*', principal: true },
  { datatype: 'double', arraysize: 2 },
  { datatype: 'boolean' },
];

const HOSTILE_GROUP: GroupYaml = {
  id: 9001,
  name: 'Hostile_Group-1',
  pretty_name: at(2),
  description: at(0),
  ...DATES,
  tables: [
    { id: 9101, name: 'select', description: LONG, columns: hostileColumns(91010) },
    { id: 9102, name: 'Spec', description: at(1), columns: hostileColumns(91020).slice(0, 3) },
    { id: 9103, name: 'spec', description: null, columns: [] },
    { id: 9104, name: '_x-y', description: at(4), columns: hostileColumns(91040).slice(5) },
  ],
} as GroupYaml;

const region = (id: number, name: string, ra: string, dec: string, unit: string) => ({
  id,
  name,
  description: at(id),
  fits_header: {},
  ra_c: ra,
  dec_c: dec,
  unit,
  frame: 'icrs',
  equinox: 'j2000',
});

const HOSTILE_FACILITY: FacilityYaml = {
  id: 9500,
  name: 'Hostile-Facility_1',
  description: at(5),
  ...DATES,
  bands: [
    {
      id: 9510,
      name: 'r<&>"]]>',
      central_wave_ang: 6195.5,
      regions: [
        region(9511, 'G09 <&> "x" ]]> 🔭 שלום', '135.0', '-0.50', 'deg'),
        region(9512, `ctl\x01\x02\x1b\x7f\x85end`, '+5', '.5', 'deg'),
        region(9513, 'in radians', '1', '-0.5', 'rad'),
        region(9514, 'in arcsec', '3600', '5.', 'arcsec'),
        region(9515, 'in hours', '9', '0', 'h'),
      ],
    },
    { id: 9520, name: 'Ks', central_wave_ang: 21590, regions: [] },
  ],
};

const HOSTILE_IFS: ProductFacilityYaml = {
  id: 9600,
  name: 'Hostile-IFS_1',
  description: at(3),
  ...DATES,
  products: [
    {
      id: 9601,
      name: 'cube<&>"]]>🔭',
      description: at(0),
      product_type: 'cube',
      arm: 'blue',
      wave_min_ang: 3750,
      wave_max_ang: 5750.5,
      wave_step_ang: 1e-7,
      resolving_power: 1812,
      spatial_sampling_arcsec: 0.5,
      dimensions: [50, 50, 2048],
      flux_unit: '<&>"µ',
      extensions: [
        { name: 'PRIMARY', holds: at(1) },
        { name: 'VARIANCE', holds: 'Variance' },
        { name: 'WEIGHT', holds: 'Weight' },
        { name: 'normalised spectra', holds: 'FITS allows spaces' },
        { name: "sky's <&> ]]>", holds: 'and quotes' },
      ],
    },
    { id: 9602, name: `ctl\x01\x1b\x7f\x85end`, description: at(1), product_type: 'map', flux_unit: '-', dimensions: [1] },
    {
      id: 9603,
      name: 'שלום,"x"',
      description: '-',
      product_type: 'cube',
      flux_unit: 'None',
      wave_min_ang: 0.30000000000000004,
      wave_max_ang: 1e21,
    },
    { id: 9604, name: 'long', description: LONG, product_type: 'map' },
  ],
};

const HOSTILE_SPECTRA: ProductFacilityYaml = {
  id: 9700,
  name: 'hostile_spectra',
  ...DATES,
  products: [5, 6, 7, 8, 4].map((i) => ({
    id: 9700 + i,
    name: `s${i}`,
    description: at(i),
    product_type: 'spectrum' as const,
    arm: i % 2 === 0 ? 'red' : null,
    wave_min_ang: 4000 + i,
    wave_max_ang: 9000,
    resolving_power: 28000,
    flux_unit: 'km s-1',
  })),
};

const HOSTILE_PLACE: Place = { survey: 'current', release: 'date' };
const HOSTILE_RELEASES: Release[] = [
  {
    place: HOSTILE_PLACE,
    survey: { pretty_name: at(3), title: at(0) },
    head: { pretty_name: 'Release <&> "1"' },
    url: 'https://example.org/api/schema/?survey=current&x="a,b"<c>',
    groups: [nodeObject('CatalogueGroup', HOSTILE_GROUP, ['current', 'date'])],
    facilities: [nodeObject('ImagingFacility', HOSTILE_FACILITY, ['current', 'date'])],
    products: [
      nodeObject('IFSFacility', HOSTILE_IFS, ['current', 'date']),
      nodeObject('SpectraFacility', HOSTILE_SPECTRA, ['current', 'date']),
    ],
  },
];

/** The fixture archive with the IFS and spectra files laid over it, in a folder of its own. */
function withProducts(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'archive-schema-test-'));
  cpSync(FIXTURE, root, { recursive: true });
  for (const [file, text] of Object.entries(PRODUCT_FILES)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}
const PRODUCTS_ROOT = withProducts();
afterAll(() => {
  rmSync(PRODUCTS_ROOT, { recursive: true, force: true });
});

const FIXTURE_RELEASES = loadArchive(FIXTURE, 'https://schema.test');
const ARCHIVES: Record<string, Release[]> = {
  fixture: FIXTURE_RELEASES,
  bundled: loadArchive(BUNDLED, 'https://schema.test'),
  hostile: HOSTILE_RELEASES,
  // IFS and spectra facilities beside catalogues and imaging, and in a release of their own.
  products: loadArchive(PRODUCTS_ROOT, 'https://schema.test'),
  // No catalogues at all: empty listings, and a tableset with only the schema VODataService calls default.
  'imaging-only': FIXTURE_RELEASES.filter((r) => r.groups.length === 0),
};

// ---- The documents, as the build assembles them -------------------------------------------------------

const filled = (rows: string, url: string) => rows.replaceAll('\0', url);

function documents(releases: Release[]): Record<string, string> {
  const withGroups = releases.filter((r) => r.groups.length > 0);
  let columnsCsv = vo.columnsCsvHeader();
  let columnsVot = vo.columnsVotHead();
  let regionsCsv = vo.regionsCsvHeader();
  let regionsVot = vo.regionsVotHead();
  let productsCsv = vo.productsCsvHeader();
  let productsVot = vo.productsVotHead();
  for (const r of releases) {
    for (const g of r.groups) {
      columnsCsv += filled(vo.columnsCsvRows(g, r.place), vo.csvField(r.url));
      columnsVot += filled(vo.columnsVotRows(g, r.place), vo.xmlText(r.url));
    }
    for (const f of r.facilities) {
      regionsCsv += filled(vo.regionsCsvRows(f, r.place), vo.csvField(r.url));
      regionsVot += filled(vo.regionsVotRows(f, r.place), vo.xmlText(r.url));
    }
    for (const f of r.products) {
      productsCsv += filled(vo.productsCsvRows(f, r.place), vo.csvField(r.url));
      productsVot += filled(vo.productsVotRows(f, r.place), vo.xmlText(r.url));
    }
  }
  let tap = vo.tapSchemaHead();
  withGroups.forEach((r, i) => (tap += vo.tapSchemaRow(r.place, r.head, i + 1, r.survey)));
  tap += vo.tapTablesHead();
  for (const r of withGroups) for (const g of r.groups) tap += vo.tapTableRows(g, r.place);
  tap += vo.tapColumnsHead();
  for (const r of withGroups) for (const g of r.groups) tap += vo.tapColumnRows(g, r.place);
  tap += vo.tapSchemaTail();
  let tables = vo.tablesetHead();
  for (const r of withGroups) {
    tables += vo.tablesetSchemaOpen(r.place, r.head, r.survey);
    for (const g of r.groups) tables += vo.tablesetGroupTables(g, r.place);
    tables += vo.tablesetSchemaClose();
  }
  if (withGroups.length === 0) tables += vo.tablesetEmptySchema();
  tables += vo.tablesetTail();
  return {
    'columns.csv': columnsCsv,
    'columns.vot': columnsVot + vo.columnsVotTail(),
    'regions.csv': regionsCsv,
    'regions.vot': regionsVot + vo.regionsVotTail(),
    'products.csv': productsCsv,
    'products.vot': productsVot + vo.productsVotTail(),
    'tap_schema.vot': tap,
    'tables.xml': tables,
  };
}

// ---- What a reader should find ----------------------------------------------------------------------------

/** Text as an XML reader gets it back: each character XML 1.0 forbids is U+FFFD (text.ts). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const xmlSafe = (text: string): string => text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, '\uFFFD');
/** What an XML reader gives back of a text: astropy's and pyvo's trim XML white space at both ends. */
const xmlRead = (text: string): string => xmlSafe(text).replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, '');
/** An element's text as pyvo reads it: null when the element is left out (for no text). */
const elementText = (text: string | null): string | null => (text === null || text === '' ? null : xmlRead(text));

type Value = string | number | null | number[];

type ListingName = 'columns' | 'regions' | 'products';
const LISTINGS: Record<ListingName, Listing> = { columns: COLUMNS, regions: REGIONS, products: PRODUCTS };

/** A number as the listings write it, or null. */
const numberText = (value: unknown): string | null => (typeof value === 'number' ? String(value) : null);

/** The listing's rows, cell by cell as its fields' types read: numbers for numeric fields, arrays of numbers for arrays. */
function listingRows(kind: ListingName, releases: Release[]): { csv: string[][]; vot: Value[][] } {
  const csv: string[][] = [];
  const fields: readonly Field[] = LISTINGS[kind].fields;
  const push = (cells: (string | null)[]) => {
    csv.push(cells.map((c) => c ?? ''));
  };
  for (const r of releases) {
    if (kind === 'columns') {
      for (const g of r.groups) {
        for (const t of list(g, 'tables')) {
          for (const c of list(t, 'columns')) {
            push([
              r.place.survey,
              r.place.release,
              String(g.name),
              String(g.id),
              String(t.name),
              String(t.id),
              String(c.name),
              String(c.id),
              descriptionText(c.description),
              ucdText(c.ucd) || null,
              unitText(c.unit) || null,
              columnType(c)?.datatype ?? null,
              columnType(c)?.datatype ? (columnType(c)?.arraysize ?? null) : null,
              columnType(c)?.principal ? 'true' : 'false',
              r.url,
            ]);
          }
        }
      }
    } else if (kind === 'products') {
      for (const f of r.products) {
        for (const p of list(f, 'products')) {
          const extensions = (p.extensions as ApiObject[]).map((e) => extnameText(String(e.name)));
          push([
            r.place.survey,
            r.place.release,
            f.type === 'IFSFacility' ? 'ifs' : 'spectra',
            String(f.name),
            String(f.id),
            String(p.name),
            String(p.id),
            `${r.place.survey}.${r.place.release}.${String(f.name)}.${String(p.name)}`,
            String(p.product_type),
            typeof p.arm === 'string' ? p.arm : null,
            numberText(p.wave_min_ang),
            numberText(p.wave_max_ang),
            numberText(p.wave_step_ang),
            numberText(p.resolving_power),
            numberText(p.spatial_sampling_arcsec),
            Array.isArray(p.dimensions) ? p.dimensions.join('x') : null,
            unitText(p.flux_unit) || null,
            extensions.join(' ') || null,
            descriptionText(p.description),
            r.url,
          ]);
        }
      }
    } else {
      for (const f of r.facilities) {
        for (const b of list(f, 'bands')) {
          for (const g of list(b, 'regions')) {
            push([
              r.place.survey,
              r.place.release,
              String(f.name),
              String(f.id),
              String(b.name),
              String(b.id),
              String(b.central_wave_ang),
              String(g.name),
              String(g.id),
              degreesText(g.ra_c, g.unit),
              degreesText(g.dec_c, g.unit),
              String(g.frame),
              String(g.equinox),
              r.url,
            ]);
          }
        }
      }
    }
  }
  const vot = csv.map((row) => row.map((cell, i) => votCell(cell, fields[i])));
  return { csv, vot };
}

const list = (o: ApiObject, key: string): ApiObject[] => o[key] as ApiObject[];

/**
 * A TABLEDATA cell as astropy reads it: text as an XML reader gives it back ('' when empty), numbers,
 * null for an empty number, and an array's numbers from its CSV text (50x50x2048), none when empty.
 */
function votCell(cell: string | null, field: Pick<Field, 'datatype' | 'array'> | undefined): Value {
  if (field?.datatype === 'char' || field?.datatype === 'unicodeChar') return xmlRead(cell ?? '');
  if (field?.datatype === 'boolean') return cell === 'true' ? 'True' : 'False';
  if (field?.array) return cell ? cell.split('x').map(Number) : [];
  return cell === null || cell === '' ? null : Number(cell);
}
const TEXT = { datatype: 'char' } as const;
const NUMBER = { datatype: 'int' } as const;

// ---- The tools ----------------------------------------------------------------------------------------------

const PACKAGES: Record<string, string> = {
  xmllint: 'libxml2-utils',
  java: 'stilts',
  '/usr/bin/python3': 'python3-astropy python3-pyvo',
};
const missing = (what: string, packages: string) =>
  new Error(`${what} is not installed; install it with: sudo apt-get install -y --no-install-recommends ${packages} (.ci/run does)`);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end; a tool that is not installed fails the test with the package to install. */
function tool(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOENT') {
        reject(missing(command, PACKAGES[command] ?? command));
      } else {
        resolve({ code: error ? (typeof code === 'number' ? code : 1) : 0, stdout, stderr });
      }
    });
  });
}

// Debian's stilts command runs this jar; STILTS_JAR names another.
const STILTS_JAR = process.env.STILTS_JAR ?? '/usr/share/java/starlink-ttools.jar';

// Several STILTS commands in one JVM, as the stilts command runs one (uk.ac.starlink.ttools.Stilts.main
// hands its arguments to a LineInvoker): a JVM costs about half a second of CPU to start, which a
// dozen of them on two cores would spend many times over. Commands are separated by "--"; each one's
// output, errors included, comes between NUL-marked lines.
const STILTS_BATCH = `
import uk.ac.starlink.ttools.Stilts;
import uk.ac.starlink.ttools.task.LineInvoker;
import java.util.ArrayList;
import java.util.List;

public class StiltsBatch {
  public static void main(String[] args) {
    System.setErr(System.out);
    List<String> command = new ArrayList<>();
    for (int i = 0; i <= args.length; i++) {
      if (i < args.length && !args[i].equals("--")) {
        command.add(args[i]);
        continue;
      }
      System.out.println("\\u0000begin");
      int status = new LineInvoker("stilts", Stilts.getTaskFactory()).invoke(command.toArray(new String[0]), () -> {});
      System.out.println("\\u0000end " + status);
      command.clear();
    }
  }
}
`;

/** Runs STILTS commands in one JVM; each command's output and exit status. */
async function stiltsBatch(dir: string, commands: string[][]): Promise<Run[]> {
  if (!existsSync(STILTS_JAR)) throw missing(`STILTS (${STILTS_JAR})`, 'stilts');
  const source = path.join(dir, 'StiltsBatch.java');
  await writeFile(source, STILTS_BATCH);
  const run = await tool('java', ['-classpath', STILTS_JAR, source, ...commands.flatMap((c, i) => (i === 0 ? c : ['--', ...c]))]);
  expect(run.stderr).toBe('');
  const runs = [...run.stdout.matchAll(/\0begin\n([^]*?)\0end (-?\d+)\n/g)].map((m) => ({
    code: Number(m[2]),
    stdout: m[1] ?? '',
    stderr: '',
  }));
  expect(runs, run.stdout).toHaveLength(commands.length);
  return runs;
}

// One Python process reads every document with astropy, the csv module and pyvo, and prints what it
// read as JSON. Any warning is reported: VOTables are parsed with verify='exception'.
const PYTHON = String.raw`
import csv, json, sys, warnings
import numpy
from astropy.io import ascii
from astropy.io.votable import parse
import pyvo.io.vosi

def value(column, i):
    v = column[i]
    if isinstance(v, numpy.ndarray) and v.ndim == 1:
        return [value(v, j) for j in range(len(v))]
    if numpy.ma.is_masked(v):
        return None
    if isinstance(v, (numpy.integer,)):
        return int(v)
    if isinstance(v, (numpy.floating, float)):
        return None if numpy.isnan(v) else float(v)
    return str(v)

def votable(path):
    tables = []
    for resource in parse(path, verify='exception').resources:
        for t in resource.tables:
            columns = [t.array[f.ID or f.name] for f in t.fields]
            tables.append({
                'name': t.name,
                'fields': [{'name': f.name, 'datatype': f.datatype, 'arraysize': f.arraysize, 'ucd': f.ucd,
                            'unit': None if f.unit is None else f.unit.to_string('vounit')} for f in t.fields],
                'rows': [[value(c, i) for c in columns] for i in range(len(t.array))],
            })
    return {'tables': tables}

def table_csv(path):
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, strict=True))
    t = ascii.read(path, format='csv', encoding='utf-8')
    return {'rows': rows, 'astropy': {'names': t.colnames, 'rows': [[value(t[n], i) for n in t.colnames] for i in range(len(t))]}}

def tableset(path):
    read = pyvo.io.vosi.parse_tables(path, pedantic=True)
    return {'schemas': [{
        'name': s.name, 'title': s.title, 'description': s.description,
        'tables': [{
            'name': t.name, 'title': t.title, 'description': t.description,
            'columns': [{'name': c.name, 'description': c.description, 'unit': c.unit, 'ucd': c.ucd,
                         'datatype': getattr(c.datatype, 'content', None),
                         'arraysize': getattr(c.datatype, 'arraysize', None)} for c in t.columns],
        } for t in s.tables],
    } for s in read.tableset.schemas]}

readers = {'vot': votable, 'csv': table_csv, 'xml': tableset}
out = {}
for path in sys.argv[1:]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            result = readers[path.rsplit('.', 1)[1]](path)
        except Exception as e:
            result = {'error': type(e).__name__ + ': ' + str(e)}
    result['warnings'] = [w.category.__name__ + ': ' + str(w.message) for w in caught]
    out[path] = result
json.dump(out, sys.stdout)
`;

interface VotRead {
  tables: {
    name: string;
    fields: { name: string; datatype: string; arraysize: string | null; ucd: string | null; unit: string | null }[];
    rows: Value[][];
  }[];
}
interface CsvRead {
  rows: string[][];
  astropy: { names: string[]; rows: Value[][] };
}
interface TablesetRead {
  schemas: {
    name: string;
    title: string | null;
    description: string | null;
    tables: {
      name: string;
      title: string | null;
      description: string | null;
      columns: {
        name: string;
        description: string | null;
        unit: string | null;
        ucd: string | null;
        datatype: string | null;
        arraysize: string | null;
      }[];
    }[];
  }[];
}
type Read = (VotRead | CsvRead | TablesetRead | { error: string }) & { warnings: string[] };

// What taplint needs to find the tables document: the VOSI capability that names it.
const CAPABILITIES = `<?xml version="1.0" encoding="UTF-8"?>
<vosi:capabilities xmlns:vosi="http://www.ivoa.net/xml/VOSICapabilities/v1.0"
  xmlns:vs="http://www.ivoa.net/xml/VODataService/v1.1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <capability standardID="ivo://ivoa.net/std/VOSI#tables">
    <interface xsi:type="vs:ParamHTTP"><accessURL use="full">http://127.0.0.1:9/tap/tables</accessURL></interface>
  </capability>
</vosi:capabilities>
`;

const CATALOG = path.join(PROJECT, 'schemas/vo/catalog.xml');
const VOSI_XSD = path.join(PROJECT, 'schemas/vo/VOSITables-v1.0.xsd');

interface Outcome {
  dir: string;
  docs: Record<string, Record<string, string>>;
  python: Record<string, Read>;
  votlint: Record<string, Run>;
  taplint: Record<string, Run>;
  xmllint: Record<string, Run>;
}
let outcome: Outcome;

beforeAll(async () => {
  const dir = await tempdir();
  const docs: Record<string, Record<string, string>> = {};
  const files: string[] = [];
  for (const [name, releases] of Object.entries(ARCHIVES)) {
    docs[name] = documents(releases);
    for (const [file, text] of Object.entries(docs[name])) {
      const target = path.join(dir, `${name}.${file}`);
      await writeFile(target, text);
      files.push(target);
    }
  }
  const capabilities = path.join(dir, 'capabilities.xml');
  await writeFile(capabilities, CAPABILITIES);
  const vots = files.filter((f) => f.endsWith('.vot'));
  const tablesets = files.filter((f) => f.endsWith('.xml'));
  // Java starts slowly: every STILTS command in one JVM, beside the Python reader and xmllint.
  const taplint = (f: string) => [
    'taplint',
    // Offline: the capabilities and tables documents are files, and only the tables stage runs.
    'tapurl=http://127.0.0.1:9/tap',
    'interface=tap1.1',
    `capabilitiesurl=file://${capabilities}`,
    `tablesurl=file://${f}`,
    'stages=TME',
    'format=json',
  ];
  const [python, xmllint, stilts] = await Promise.all([
    tool('/usr/bin/python3', ['-c', PYTHON, ...files]),
    Promise.all(tablesets.map((f) => tool('xmllint', ['--nonet', '--noout', '--schema', VOSI_XSD, f], { XML_CATALOG_FILES: CATALOG }))),
    stiltsBatch(dir, [...vots.map((f) => ['votlint', `votable=${f}`]), ...tablesets.map(taplint)]),
  ]);
  const votlints = stilts.slice(0, vots.length);
  const taplints = stilts.slice(vots.length);
  expect(python.stderr).toBe('');
  const read = JSON.parse(python.stdout) as Record<string, Read>;
  const byName = (paths: string[], runs: Run[]) => Object.fromEntries(paths.map((p, i) => [path.basename(p), runs[i] as Run]));
  outcome = {
    dir,
    docs,
    python: Object.fromEntries(Object.entries(read).map(([p, r]) => [path.basename(p), r])),
    votlint: byName(vots, votlints),
    taplint: byName(tablesets, taplints),
    xmllint: byName(tablesets, xmllint),
  };
});

const NAMES = Object.keys(ARCHIVES);

/** What Python read of a file, having checked it read it without an error or a warning. */
function readOf(file: string): Read {
  const r = outcome.python[file];
  if (!r) throw new Error(`${file} was not read`);
  expect('error' in r ? r.error : undefined, file).toBeUndefined();
  expect(r.warnings, file).toEqual([]);
  return r;
}

// ---- The tests -------------------------------------------------------------------------------------------------

test('the hostile archive holds what it should test', () => {
  for (const units of [HOSTILE_RELEASES[0]?.groups, HOSTILE_RELEASES[0]?.products]) {
    const text = JSON.stringify(units);
    for (const needle of ['<', '&', ']]>', '"', '\\u0001', '\\u001f', '🔭', 'שלום', '\\r']) expect(text).toContain(needle);
  }
  expect(LONG).toHaveLength(10_000);
});

test('the products archive has IFS and spectra in a release with catalogues, and spectra in one without', () => {
  const products = ARCHIVES.products ?? [];
  expect(products.filter((r) => r.products.length > 0).map((r) => [r.place, r.groups.length > 0, r.products.map((f) => f.type)])).toEqual([
    [{ survey: 'alpha', release: 'dr2' }, true, ['IFSFacility', 'SpectraFacility']],
    [{ survey: 'gamma', release: 'dr1' }, false, ['SpectraFacility']],
  ]);
});

describe.each(NAMES)('%s archive', (name) => {
  test('xmllint validates the tableset against the vendored XSDs, offline', () => {
    const run = outcome.xmllint[`${name}.tables.xml`];
    expect(run?.stderr).toBe(`${path.join(outcome.dir, `${name}.tables.xml`)} validates\n`);
    expect(run?.code).toBe(0);
  });

  test.each(['columns.vot', 'regions.vot', 'products.vot', 'tap_schema.vot'])('votlint finds nothing in %s', (file) => {
    const run = outcome.votlint[`${name}.${file}`];
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('taplint reads every schema, table and column of the tableset, and finds no duplicates', () => {
    const run = outcome.taplint[`${name}.tables.xml`];
    const report = JSON.parse(run?.stdout ?? '{}') as { sections?: { reports: { level: string; code: string; text: string }[] }[] };
    const reports = (report.sections ?? []).flatMap((s) => s.reports);
    // CDET: a table without columns reads to taplint as a tableset served without column detail.
    const problems = reports.filter((r) => !['INFO', 'SUMMARY'].includes(r.level) && r.code !== 'CDET');
    expect(problems, run?.stdout).toEqual([]);
    const releases = (ARCHIVES[name] ?? []).filter((r) => r.groups.length > 0);
    const tables = releases.flatMap((r) => r.groups.flatMap((g) => list(g, 'tables')));
    const columns = tables.flatMap((t) => list(t, 'columns'));
    expect(reports.find((r) => r.code === 'SUMM')?.text).toBe(
      `Schemas: ${Math.max(releases.length, 1)}, Tables: ${tables.length}, Columns: ${columns.length}, Foreign Keys: 0`,
    );
  });

  test.each(['columns', 'regions', 'products'] as const)('astropy reads %s.vot: fields and every value as written', (kind) => {
    const read = readOf(`${name}.${kind}.vot`) as VotRead;
    const listing = LISTINGS[kind];
    expect(read.tables).toHaveLength(1);
    const [table] = read.tables;
    expect(table?.fields).toEqual(
      listing.fields.map((f) => ({
        name: f.name,
        datatype: f.datatype,
        arraysize: f.datatype.endsWith('har') || f.array ? '*' : null,
        ucd: f.ucd ?? null,
        unit: f.unit ?? null,
      })),
    );
    expect(table?.rows).toEqual(listingRows(kind, ARCHIVES[name] ?? []).vot);
  });

  test.each(['columns', 'regions', 'products'] as const)("Python's csv module reads %s.csv back exactly; astropy reads it too", (kind) => {
    const read = readOf(`${name}.${kind}.csv`) as CsvRead;
    const listing = LISTINGS[kind];
    const { csv } = listingRows(kind, ARCHIVES[name] ?? []);
    expect(read.rows).toEqual([listing.fields.map((f) => f.name), ...csv]);
    // astropy.io.ascii splits lines first (at Python's line boundaries, LS and NEL included), trims
    // white space at the ends of fields and lines, and drops blank lines within a quoted field: its
    // texts are compared without white space and line breaks, its numbers as numbers.
    expect(read.astropy.names).toEqual(listing.fields.map((f) => f.name));
    // eslint-disable-next-line no-control-regex -- Python's line boundaries include FS, GS and RS
    const squeeze = (value: Value): Value => (typeof value === 'string' ? value.replace(/[\s\x1c-\x1f\x85]/g, '') || null : value);
    // An array's text (50x50x2048) is text to astropy, or a number when the column holds one axis only.
    const arrayText = (value: Value): Value => (value === null || value === '' ? null : String(value));
    expect(read.astropy.rows.map((row) => row.map((value, i) => (listing.fields[i]?.array ? arrayText(value) : squeeze(value))))).toEqual(
      csv.map((row) =>
        row.map((cell, i) => {
          const field = listing.fields[i];
          if (field?.array) return arrayText(cell);
          // astropy 5.2 keeps true and false as text.
          return field?.datatype.endsWith('har') || field?.datatype === 'boolean' ? squeeze(cell) : votCell(cell, NUMBER);
        }),
      ),
    );
    const text = outcome.docs[name]?.[`${kind}.csv`] ?? '';
    expect(text.startsWith('\uFEFF')).toBe(false);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  test('astropy reads tap_schema.vot: the five TAP_SCHEMA tables, a row per release, table and column', () => {
    const read = readOf(`${name}.tap_schema.vot`) as VotRead;
    const releases = (ARCHIVES[name] ?? []).filter((r) => r.groups.length > 0);
    expect(read.tables.map((t) => t.name)).toEqual(['schemas', 'tables', 'columns', 'keys', 'key_columns']);
    const [schemas, tables, columns] = read.tables;
    expect(schemas?.rows.map((row) => [row[0], row[3]])).toEqual(releases.map((r, i) => [vo.schemaName(r.place), i + 1]));
    const expectedTables = releases.flatMap((r) =>
      r.groups.flatMap((g) =>
        list(g, 'tables').map((t) => [
          vo.schemaName(r.place),
          vo.tableName(r.place, g, t),
          'table',
          '',
          votCell(descriptionText(t.description), TEXT),
          null,
        ]),
      ),
    );
    expect(tables?.rows).toEqual(expectedTables);
    // A column without a datatype is left out: TAP_SCHEMA requires one.
    const expectedColumns = releases.flatMap((r) =>
      r.groups.flatMap((g) =>
        list(g, 'tables').flatMap((t) =>
          list(t, 'columns').flatMap((c, i) => {
            const type = columnType(c);
            if (!type?.datatype) return [];
            const size = sizeOf(type.arraysize ?? undefined);
            return [
              [
                vo.tableName(r.place, g, t),
                votCell(vo.columnName(t, c), TEXT),
                type.datatype,
                votCell(type.arraysize, TEXT),
                '',
                votCell(size === null ? null : String(size), NUMBER),
                votCell(descriptionText(c.description), TEXT),
                '',
                votCell(unitText(c.unit), TEXT),
                votCell(ucdText(c.ucd), TEXT),
                0,
                type.principal ? 1 : 0,
                0,
                i + 1,
              ],
            ];
          }),
        ),
      ),
    );
    // The fixture's and the hostile group's columns are typed; how many of the bundled ones are does not matter here.
    if (name === 'fixture' || name === 'hostile') expect(expectedColumns.length).toBeGreaterThan(0);
    expect(columns?.rows).toEqual(expectedColumns);
  });

  test('pyvo reads the tableset: every table, and every column with its unit and UCD', () => {
    const read = readOf(`${name}.tables.xml`) as TablesetRead;
    const releases = (ARCHIVES[name] ?? []).filter((r) => r.groups.length > 0);
    const expected = releases.map((r) => ({
      name: vo.schemaName(r.place),
      tables: r.groups.flatMap((g) =>
        list(g, 'tables').map((t) => ({
          name: vo.tableName(r.place, g, t),
          title: elementText(`${String(g.pretty_name ?? g.name)}: ${String(t.pretty_name ?? t.name)}`),
          description: elementText(descriptionText(t.description)),
          columns: list(t, 'columns').map((c) => ({
            name: elementText(vo.columnName(t, c)),
            description: elementText(descriptionText(c.description)),
            unit: elementText(unitText(c.unit)),
            ucd: elementText(ucdText(c.ucd)),
            datatype: columnType(c)?.datatype ?? null,
            // pyvo reads a dataType without an arraysize as one value: "1".
            arraysize: columnType(c)?.datatype ? (columnType(c)?.arraysize ?? '1') : null,
          })),
        })),
      ),
    }));
    if (expected.length === 0) expected.push({ name: 'default', tables: [] });
    expect(read.schemas.map((s) => ({ name: s.name, tables: s.tables }))).toEqual(expected);
  });
});
