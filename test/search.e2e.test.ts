// The schema browser's search, deep links and copy-link buttons (client/) in a real browser
// (Debian's Chromium, test/browser.ts), over the synthetic S archive (bench/synthetic.ts) plus one
// catalogue group of probes written here, built in a temporary folder, served by `serve` and
// opened as files. Every expectation is read from the archive's own YAML: which columns a UCD, a
// unit, a survey, a release or a kind leads to, and where each name's page is. The search data is
// loaded only once the box is used; a column found by name opens at its row; deep links of every
// depth land on their page and anchor, and wrong ones name what is missing and link to the nearest
// page; a copied link leads back to its column; curator markup in a description stays text.

import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateArchive } from '../bench/synthetic.ts';
import { useBrowser } from './browser.ts';
import type { WatchedPage } from './browser.ts';
import { cli, serveSite, testdir, unpackZip } from './helpers.ts';

// ---- The archive, and what its YAML says -------------------------------------------------------------------

/** Text that would run script if the results took it for markup: escaped, so the search shows it as is. */
const SHOWN_SCRIPT = '<script>window.__pwned=1</script>';
const SHOWN_IMG = '<img src=x onerror="window.__pwned=1">';

/**
 * The probes' group, in the first release that has catalogues: two names one inside the other,
 * listed longer first (so ranking, not order, puts the exact one first), a description word found
 * nowhere else in the archive, and a description full of markup, escaped and raw.
 */
function probes(): object {
  const column = (id: number, name: string, description: string, ucd: string, unit?: string) => ({ id, name, description, ucd, unit });
  const escaped = (html: string) => html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    id: 990_001,
    name: 'SearchProbes',
    pretty_name: 'Search probes',
    description: 'Columns written for the search tests.',
    created: '2020-01-01T00:00:00Z',
    updated: '2020-01-02T00:00:00Z',
    tables: [
      {
        id: 990_010,
        name: 'ProbeFlux',
        description: 'The probes.',
        columns: [
          column(990_100, 'zqx_flux_r_err_ap', 'Aperture error of the probe flux', 'stat.error;phot.flux', 'uJy'),
          column(990_101, 'zqx_flux_r_err', 'Error of the probe flux', 'stat.error;phot.flux', 'uJy'),
          column(990_102, 'zqx_period', 'Period of the quasiperiodic signal', 'time.period', 'd'),
          column(
            990_103,
            'zqx_hostile',
            `Hostile ${escaped(SHOWN_SCRIPT)} ${escaped(SHOWN_IMG)} <script>window.__pwned=2</script><img src=x onerror="window.__pwned=3"> end`,
            'meta.note',
          ),
          // For the known bugs below.
          column(990_104, 'rate%', 'A rate in percent', 'meta.note'),
          column(990_105, 'a%20b', 'A name that looks escaped', 'meta.note'),
          column(990_106, 'zqx_paren', 'A word in brackets (zqxbracketed) and nowhere else', 'meta.note'),
          // A unit with a space, which the synthetic archive has nowhere else, and a typed array.
          { ...column(990_107, 'zqx_vel', 'A velocity', 'phys.veloc', 'km s-1'), datatype: 'float', arraysize: '3' },
        ],
      },
    ],
  };
}

interface Column {
  survey: string;
  release: string;
  group: string;
  table: string;
  name: string;
  ucd: string;
  unit: string;
  description: string;
  /** Its VOTable type as the browser shows it (`char[*]`), empty where none is given. */
  type: string;
}

interface Archive {
  files: Map<string, string>;
  columns: Column[];
  /** Catalogue tables, each with its columns in order. */
  tables: { survey: string; release: string; group: string; name: string; columns: Column[] }[];
  imaging: { survey: string; release: string; name: string; bands: { name: string; regions: { name: string }[] }[] }[];
  products: { survey: string; release: string; kind: 'ifs' | 'spectra'; facility: string; name: string }[];
}

/** "No value" as curators write it. */
const none = (text: string | null | undefined) => ['', '-', 'none'].includes((text ?? '').trim().toLowerCase());

function read(files: Map<string, string>): Archive {
  const archive: Archive = { files, columns: [], tables: [], imaging: [], products: [] };
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const place = /^([^/]+)\/([^/]+)\/(catalogues|imaging|ifs|spectra)\/[^/]+\.yaml$/.exec(file);
    if (!place) continue;
    const [, survey = '', release = '', kind] = place;
    const yaml = parse(text) as {
      name: string;
      tables?: {
        name: string;
        columns: {
          name: string;
          ucd?: string;
          unit?: string | null;
          description?: string | null;
          datatype?: string;
          arraysize?: string | number;
        }[];
      }[];
      bands?: { name: string; regions: { name: string }[] }[];
      products?: { name: string }[];
    };
    if (kind === 'catalogues') {
      for (const t of yaml.tables ?? []) {
        const columns = t.columns.map((c) => ({
          survey,
          release,
          group: yaml.name,
          table: t.name,
          name: c.name,
          ucd: none(c.ucd) ? '' : (c.ucd ?? ''),
          unit: none(c.unit) ? '' : (c.unit ?? ''),
          description: c.description ?? '',
          type: c.datatype === undefined ? '' : c.arraysize === undefined ? c.datatype : `${c.datatype}[${String(c.arraysize)}]`,
        }));
        archive.tables.push({ survey, release, group: yaml.name, name: t.name, columns });
        archive.columns.push(...columns);
      }
    } else if (kind === 'imaging') {
      archive.imaging.push({ survey, release, name: yaml.name, bands: yaml.bands ?? [] });
    } else {
      for (const p of yaml.products ?? [])
        archive.products.push({ survey, release, kind: kind as 'ifs', facility: yaml.name, name: p.name });
    }
  }
  return archive;
}

const enc = encodeURIComponent;
/** A page below the site's root, from its names. */
// A group's, facility's or table's page is a file of its own; a survey's or release's, its folder's index.html.
const pageOf = (...names: string[]) => `browse/${names.map(enc).join('/')}${names.length >= 4 ? '.html' : '/index.html'}`;
const tableOf = (c: Column) => pageOf(c.survey, c.release, 'catalogues', c.group, c.table);
const columnHref = (c: Column) => `${tableOf(c)}#col-${enc(c.name)}`;
const addressOf = (c: Column) => [c.survey, c.release, 'catalogues', c.group, c.table, c.name].join('.');

/** A UCD word (a UCD's words are split by `;`) starting with `prefix`, as the search's `ucd:` asks. */
const ucdHas = (ucd: string, prefix: string) =>
  ucd.split(';').some((word) =>
    word
      .trim()
      .toLowerCase()
      .replace(/^ivoa:/, '')
      .startsWith(prefix.toLowerCase()),
  );
/** The unit itself, or one of its words, as the search's `unit:` asks. */
const unitHas = (unit: string, wanted: string) => {
  const u = unit.toLowerCase();
  return u !== '' && (u === wanted.toLowerCase() || u.split(/[^a-z0-9]+/).includes(wanted.toLowerCase()));
};

// ---- The site ----------------------------------------------------------------------------------------------

let archive: Archive;
let dist = '';
let origin = '';
/**
 * The site's root served, and the browser as files: the download's zip unpacked, as an astronomer
 * working offline has it. Each ends with a slash.
 */
let served = '';
let files = '';
let server: ChildProcess | undefined;

beforeAll(async () => {
  const generated = generateArchive('S');
  const first = [...generated.keys()].sort().find((f) => /^[^/]+\/[^/]+\/catalogues\//.test(f));
  const [survey = '', release = ''] = first?.split('/') ?? [];
  generated.set(`${survey}/${release}/catalogues/SearchProbes.yaml`, `${JSON.stringify(probes(), null, 2)}\n`);
  archive = read(generated);
  const dir = await testdir(Object.fromEntries(generated), null);
  const built = await cli(['build'], dir);
  expect(built.code, built.stderr).toBe(0);
  dist = path.join(dir, 'dist');
  ({ origin, server } = await serveSite(dist));
  served = `${origin}/`;
  const offline = path.join(dir, 'offline');
  unpackZip(path.join(dist, 'download/browser.zip'), offline);
  files = `${pathToFileURL(offline).href}/`;
});

afterAll(() => {
  server?.kill('SIGTERM');
});

const browser = useBrowser();

/** The probe column of this name. */
function probe(name: string): Column {
  const found = archive.columns.find((c) => c.group === 'SearchProbes' && c.name === name);
  if (!found) throw new Error(`no probe ${name}`);
  return found;
}

/**
 * The column the tests open: the last of the widest table whose name no other column, table or
 * group has, so that searching for its name finds it first and its row is far down its page.
 */
function farColumn(): Column {
  const names = new Map<string, number>();
  const count = (name: string) => names.set(name.toLowerCase(), (names.get(name.toLowerCase()) ?? 0) + 1);
  for (const t of archive.tables) {
    count(t.name);
    count(t.group);
    t.columns.forEach((c) => count(c.name));
  }
  const widest = [...archive.tables].sort((a, b) => b.columns.length - a.columns.length)[0];
  const found = [...(widest?.columns ?? [])].reverse().find((c) => names.get(c.name.toLowerCase()) === 1);
  if (!found) throw new Error('no column with a name of its own in the widest table');
  return found;
}

// ---- Driving the search ------------------------------------------------------------------------------------

interface Result {
  href: string;
  name: string;
  type: string;
  where: string;
  facts: string | null;
  description: string | null;
}

interface Answer {
  status: string;
  /** How many the status says were found. */
  total: number;
  results: Result[];
}

/** The search box's answer as the page shows it now. */
function answer(page: Page): Promise<Answer> {
  return page.evaluate(() => {
    const status = document.getElementById('search-status')?.textContent ?? '';
    const text = (a: Element, selector: string) => a.querySelector(selector)?.textContent ?? null;
    return {
      status,
      total: status === 'Nothing found.' ? 0 : Number(/^(\d+) found/.exec(status)?.[1] ?? NaN),
      results: [...document.querySelectorAll<HTMLAnchorElement>('#search-results li a')].map((a) => ({
        href: a.href,
        name: text(a, '.name') ?? '',
        type: text(a, '.type') ?? '',
        where: text(a, '.where') ?? '',
        facts: text(a, '.facts'),
        description: text(a, '.description'),
      })),
    };
  });
}

/** Waits until the status is an answer: not empty, not loading. */
async function answered(page: Page): Promise<Answer> {
  await page.waitForFunction(() => {
    const status = document.getElementById('search-status')?.textContent ?? '';
    return status !== '' && !status.startsWith('Loading');
  });
  return answer(page);
}

/**
 * Searches as a visitor would: the box focused, the filters chosen (any when not given), the query
 * put in and an `input` dispatched. The status is emptied first, so the answer waited for is this
 * query's.
 */
async function search(page: Page, query: string, filters: { survey?: string; release?: string; kind?: string } = {}): Promise<Answer> {
  await page.focus('#search');
  // The filters' options come with the search data.
  await answered(page);
  await page.evaluate(
    (q, f) => {
      const set = (id: string, value: string) => {
        const select = document.getElementById(id) as HTMLSelectElement;
        if (select.value === value) return;
        if (![...select.options].some((o) => o.value === value)) throw new Error(`${id} has no option ${value}`);
        select.value = value;
        select.dispatchEvent(new Event('change'));
      };
      set('search-survey', f.survey ?? '');
      set('search-release', f.release ?? '');
      set('search-kind', f.kind ?? '');
      const box = document.getElementById('search') as HTMLInputElement;
      (document.getElementById('search-status') as HTMLElement).textContent = '';
      box.value = q;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    },
    query,
    filters,
  );
  return answered(page);
}

/** Opens a page of the site and gives it the focus (a tab without it gets no focus events). */
async function open(watched: WatchedPage, url: string): Promise<void> {
  const response = await watched.goto(url);
  if (url.startsWith('http')) expect(response?.status(), url).toBe(200);
  await watched.page.bringToFront();
}

/** The requests a page made for the search data. */
const dataRequests = (watched: WatchedPage) => watched.requests.filter((url) => url.endsWith('/browse/search-data.js'));

/** Nothing went wrong on the page. */
function expectClean(watched: WatchedPage): void {
  expect(watched.pageErrors, 'page errors').toEqual([]);
  expect(watched.consoleErrors, 'console errors').toEqual([]);
  expect(watched.failures, 'failed requests').toEqual([]);
  expect(watched.dialogs, 'dialogs').toEqual([]);
}

/** A page's address without `index.html`, which a folder's address means too. */
const normal = (url: string) => {
  const u = new URL(url);
  u.pathname = u.pathname.replace(/\/index\.html$/, '/');
  return u.href;
};

/** Waits until the page is at `url` (its own document, loaded), then says where it is. */
async function arrived(page: Page, url: string): Promise<void> {
  const wanted = normal(url);
  await page.waitForFunction(
    (w) => {
      const here = new URL(location.href);
      here.pathname = here.pathname.replace(/\/index\.html$/, '/');
      return here.href === w && document.readyState === 'complete';
    },
    {},
    wanted,
  );
  expect(normal(page.url())).toBe(wanted);
}

/** The element the page's fragment targets: its id and whether it is in the viewport. */
function target(page: Page): Promise<{ id: string | null; visible: boolean }> {
  return page.evaluate(() => {
    const element = document.querySelector(':target');
    if (!element) return { id: null, visible: false };
    const box = element.getBoundingClientRect();
    return { id: element.id, visible: box.height > 0 && box.top >= 0 && box.bottom <= innerHeight };
  });
}

/** A search's results are exactly these columns, counted, and listed too when they fit the 100 shown. */
function expectColumns(found: Answer, columns: Column[], root = served): void {
  const wanted = columns.map((c) => root + columnHref(c));
  expect(found.total, found.status).toBe(wanted.length);
  expect(found.results.every((r) => r.type === 'column')).toBe(true);
  if (wanted.length <= 100) expect(found.results.map((r) => r.href).sort()).toEqual([...wanted].sort());
  else {
    expect(found.results).toHaveLength(100);
    expect(found.results.filter((r) => !wanted.includes(r.href))).toEqual([]);
  }
}

/** The kind a result's page is of: the third name of its path below browse/ (survey, release, kind). */
const kindOf = (href: string) => /\/browse\/[^/]+\/[^/]+\/([^/]+)\//.exec(new URL(href).pathname)?.[1] ?? '';
const placeOf = (href: string) => {
  const [, survey = '', release = ''] = /\/browse\/([^/]+)\/([^/]+)\//.exec(new URL(href).pathname) ?? [];
  return { survey: decodeURIComponent(survey), release: decodeURIComponent(release) };
};

// ---- Loading the search data -------------------------------------------------------------------------------

test.concurrent('the search data is not asked for until the box is used, then once', () =>
  browser.page({}, async (watched) => {
    await open(watched, `${served}index.html`);
    await watched.page.waitForNetworkIdle({ idleTime: 100 });
    expect(dataRequests(watched)).toEqual([]);
    expect(await watched.page.$eval('#search-panel', (p) => (p as HTMLElement).hidden)).toBe(true);

    await watched.page.focus('#search');
    expect((await answered(watched.page)).status).toMatch(/^Type a name/);
    expect(await watched.page.$eval('#search-panel', (p) => (p as HTMLElement).hidden)).toBe(false);
    for (const query of ['zqx', 'ucd:phot.mag', 'unit:mag']) await search(watched.page, query);
    // Leaving the box and coming back asks for nothing again.
    await watched.page.keyboard.press('Escape');
    await watched.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await search(watched.page, 'zqx_period');
    await watched.page.waitForNetworkIdle({ idleTime: 100 });
    expect(dataRequests(watched)).toEqual([`${served}browse/search-data.js`]);
    expectClean(watched);
  }),
);

// ---- Finding ------------------------------------------------------------------------------------------------

describe.concurrent('searching', () => {
  test('a column’s exact name lists it first, and its result opens its table at its row', () =>
    browser.page({}, async (watched) => {
      const column = farColumn();
      const table = archive.tables.find((t) => t.columns.includes(column));
      // The row is far enough down its page that landing on it means scrolling to it.
      expect(table?.columns.indexOf(column)).toBeGreaterThan(30);
      await open(watched, `${served}index.html`);
      const found = await search(watched.page, column.name);
      expect(found.results[0]).toMatchObject({ href: served + columnHref(column), name: column.name, type: 'column' });

      await Promise.all([watched.page.waitForNavigation(), watched.page.click('#search-results li a')]);
      await arrived(watched.page, served + columnHref(column));
      expect(await target(watched.page)).toEqual({ id: `col-${enc(column.name)}`, visible: true });
      expect(await watched.page.$eval(':target', (row) => (row as HTMLElement).dataset.name)).toBe(column.name);
      expectClean(watched);
    }));

  test('names: an exact match before one it starts, and part of a name finds it', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      const [ap, exact] = [probe('zqx_flux_r_err_ap'), probe('zqx_flux_r_err')];
      // The archive lists the longer name first; the exact one is ranked above it.
      expect(archive.columns.indexOf(ap)).toBeLessThan(archive.columns.indexOf(exact));
      const holding = (part: string) => archive.columns.filter((c) => c.name.toLowerCase().includes(part));
      expect(holding('zqx_flux_r_err')).toEqual([ap, exact]);
      const first = await search(watched.page, 'zqx_flux_r_err');
      expect(first.results.map((r) => r.href)).toEqual([served + columnHref(exact), served + columnHref(ap)]);
      expect(first.results[0]?.facts).toBe(`${exact.ucd} [${exact.unit}]`);
      expect(first.results[0]?.description).toBe(exact.description);

      // Part of the names, neither their start nor their end, in capitals.
      expectColumns(await search(watched.page, 'QX_FLUX_R_E'), holding('qx_flux_r_e'));
      expectClean(watched);
    }));

  test.each([
    // A UCD word's start: phys.veloc and phys.veloc.dispersion; then a common one, more than the 100 shown.
    ['ucd:', 'phys.veloc', (c: Column) => ucdHas(c.ucd, 'phys.veloc')],
    ['ucd:', 'phot.mag', (c: Column) => ucdHas(c.ucd, 'phot.mag')],
    // A unit, and a word of units: kpc and kpc.km/s.
    ['unit:', 'km/s', (c: Column) => unitHas(c.unit, 'km/s')],
    ['unit:', 'kpc', (c: Column) => unitHas(c.unit, 'kpc')],
    ['unit:', 'mag', (c: Column) => unitHas(c.unit, 'mag')],
  ])('%s%s finds exactly the columns the YAML gives it', (field, value, wanted) =>
    browser.page({}, async (watched) => {
      const columns = archive.columns.filter(wanted);
      expect(columns.length, 'the archive has such columns').toBeGreaterThan(1);
      await open(watched, `${served}index.html`);
      expectColumns(await search(watched.page, `${field}${value}`), columns);
      expectClean(watched);
    }),
  );

  test.each([
    // A datatype alone finds it with any arraysize; with its arraysize, that type only.
    ['double', (c: Column) => c.type.replace(/\[.*$/, '') === 'double'],
    ['char', (c: Column) => c.type.replace(/\[.*$/, '') === 'char'],
    ['char[*]', (c: Column) => c.type === 'char[*]'],
    ['float[3]', (c: Column) => c.type === 'float[3]'],
  ])('type:%s finds exactly the columns the YAML gives that type, and shows it', (value, wanted) =>
    browser.page({}, async (watched) => {
      const columns = archive.columns.filter(wanted);
      expect(columns.length, 'the archive has such columns').toBeGreaterThan(0);
      await open(watched, `${served}index.html`);
      const found = await search(watched.page, `type:${value}`);
      expectColumns(found, columns);
      for (const r of found.results) {
        const column = columns.find((c) => served + columnHref(c) === r.href);
        expect(r.facts?.split(' ').pop(), r.facts ?? '').toBe(column?.type);
      }
      expectClean(watched);
    }),
  );

  test('a unit with a space, quoted or as it is, and a word or field after it', () =>
    browser.page({}, async (watched) => {
      const vel = probe('zqx_vel');
      const spaced = archive.columns.filter((c) => c.unit.toLowerCase() === vel.unit.toLowerCase());
      await open(watched, `${served}index.html`);
      for (const query of ['unit:km s-1', 'unit:"km s-1"', 'UNIT:KM S-1', 'unit:km s-1 type:float'])
        expectColumns(await search(watched.page, query), spaced);
      expectColumns(await search(watched.page, 'unit:km s-1 zqx_vel'), [vel]);
      const found = await search(watched.page, 'zqx_vel');
      expect(found.results[0]?.facts).toBe('phys.veloc [km s-1] float[3]');
      expectClean(watched);
    }));

  test('a field alone lists everything it selects', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      const facilities = archive.imaging;
      const bands = facilities.flatMap((f) => f.bands);
      const imaging = facilities.length + bands.length + bands.reduce((n, b) => n + b.regions.length, 0);
      expect(imaging, 'the archive has imaging').toBeGreaterThan(0);
      const found = await search(watched.page, 'kind:imaging');
      expect(found.total, found.status).toBe(imaging);
      expect(found.results.every((r) => kindOf(r.href) === 'imaging')).toBe(true);
      const vel = probe('zqx_vel');
      expect((await search(watched.page, `survey:${vel.survey}`)).total).toBeGreaterThan(0);
      expect((await search(watched.page, 'kind:')).status).toBe('Nothing found.');
      expectClean(watched);
    }));

  test('a region, a band and a product are found by name, and lead to their page', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      const facility = archive.imaging.find((f) => f.bands.some((b) => b.regions.length > 0));
      const band = facility?.bands.find((b) => b.regions.length > 0);
      const region = band?.regions[0];
      if (!facility || !band || !region) throw new Error('the archive has no region');
      const bandPage = pageOf(facility.survey, facility.release, 'imaging', facility.name, band.name);
      const regions = await search(watched.page, `${region.name} kind:imaging`);
      expect(regions.results.filter((r) => r.type === 'region').map((r) => r.href)).toContain(
        `${served}${bandPage}#region-${enc(region.name)}`,
      );
      const bands = await search(watched.page, `${band.name} kind:imaging`);
      expect(bands.results.map((r) => r.href)).toContain(served + bandPage);
      const product = archive.products[0];
      if (!product) throw new Error('the archive has no product');
      const products = await search(watched.page, `${product.name} kind:${product.kind}`);
      expect(products.results.map((r) => r.href)).toContain(
        `${served}${pageOf(product.survey, product.release, product.kind, product.facility)}#product-${enc(product.name)}`,
      );
      await search(watched.page, `${region.name} kind:imaging`);
      await Promise.all([watched.page.waitForNavigation(), watched.page.click(`#search-results a[href$="#region-${enc(region.name)}"]`)]);
      expect(await target(watched.page)).toEqual({ id: `region-${enc(region.name)}`, visible: true });
      expectClean(watched);
    }));

  test("the help's examples are this archive's, and each finds something", () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      await search(watched.page, 'zqx');
      const examples = await watched.page.$$eval('#search-help code', (codes) => codes.map((c) => c.textContent));
      expect(examples.length).toBeGreaterThan(6);
      // A part of a name, then the name it finds.
      const [part = '', name = ''] = examples;
      expect(archive.columns.some((c) => c.name === name)).toBe(true);
      expect((await search(watched.page, part)).results.map((r) => r.name)).toContain(name);
      for (const example of examples.slice(2)) {
        const found = await search(watched.page, example);
        expect(found.total, example).toBeGreaterThan(0);
      }
      expectClean(watched);
    }));

  test('a word of a description finds its column, from the word’s start', () =>
    browser.page({}, async (watched) => {
      const column = probe('zqx_period');
      // Nothing else in the archive has the word.
      expect([...archive.files.values()].filter((text) => text.includes('quasiperiodic'))).toHaveLength(1);
      expect(column.name).not.toContain('quasiperiodic');
      await open(watched, `${served}index.html`);
      for (const word of ['quasiperiodic', 'Quasiperiod']) expectColumns(await search(watched.page, word), [column]);
      // Inside a word is not a word's start.
      expect((await search(watched.page, 'periodic')).results.map((r) => r.href)).not.toContain(served + columnHref(column));
      expect((await search(watched.page, 'zzqqxx nonsense')).status).toBe('Nothing found.');
      expect((await search(watched.page, 'zzqqxx nonsense')).results).toEqual([]);
      expectClean(watched);
    }));

  test('the survey, release and kind filters, chosen or typed, narrow a UCD or unit search to their columns', () =>
    browser.page({}, async (watched) => {
      const unit = 'km/s';
      const all = archive.columns.filter((c) => unitHas(c.unit, unit));
      const surveys = [...new Set(all.map((c) => c.survey))];
      expect(surveys.length, 'columns in km/s in more than one survey').toBeGreaterThan(1);
      const [one = '', other = ''] = surveys;
      const releases = [...new Set(all.filter((c) => c.survey === one).map((c) => c.release))];
      const [release = ''] = releases;
      const inSurvey = (s: string) => all.filter((c) => c.survey === s);
      const inRelease = all.filter((c) => c.survey === one && c.release === release);
      expect(inRelease.length).toBeLessThan(all.length);
      await open(watched, `${served}index.html`);

      expectColumns(await search(watched.page, `unit:${unit}`, { survey: one }), inSurvey(one));
      expectColumns(await search(watched.page, `unit:${unit}`, { survey: one, release }), inRelease);
      expectColumns(await search(watched.page, `unit:${unit}`, { kind: 'catalogues' }), all);
      expect((await search(watched.page, `unit:${unit}`, { kind: 'imaging' })).status).toBe('Nothing found.');
      // Typed, in any case; a typed filter outweighs the one chosen.
      expectColumns(await search(watched.page, `SURVEY:${other} unit:${unit}`), inSurvey(other));
      expectColumns(await search(watched.page, `survey:${other} unit:${unit}`, { survey: one }), inSurvey(other));
      expectColumns(await search(watched.page, `survey:${one} release:${release} unit:${unit}`), inRelease);
      expectColumns(
        await search(watched.page, `kind:catalogues ucd:phys.veloc`),
        archive.columns.filter((c) => ucdHas(c.ucd, 'phys.veloc')),
      );
      expect((await search(watched.page, `kind:spectra unit:${unit}`)).status).toBe('Nothing found.');
      expect((await search(watched.page, `survey:nosuchsurvey unit:${unit}`)).status).toBe('Nothing found.');
      expectClean(watched);
    }));

  test('the filters narrow a word found in every kind to the results of that survey, release or kind', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      // A word in names and descriptions of catalogues, IFS and spectra data alike.
      const word = 'spectrum';
      const everything = await search(watched.page, word);
      expect(everything.total, 'all of them shown').toBe(everything.results.length);
      const kinds = [...new Set(everything.results.map((r) => kindOf(r.href)))].sort();
      expect(kinds.length, kinds.join(', ')).toBeGreaterThan(1);
      const surveys = [...new Set(everything.results.map((r) => placeOf(r.href).survey))];
      expect(surveys.length).toBeGreaterThan(1);
      const hrefs = (found: Answer) => found.results.map((r) => r.href);
      const only = (keep: (r: Result) => boolean) => everything.results.filter(keep).map((r) => r.href);

      for (const kind of kinds) {
        const wanted = only((r) => kindOf(r.href) === kind);
        expect(hrefs(await search(watched.page, word, { kind }))).toEqual(wanted);
        expect(hrefs(await search(watched.page, `kind:${kind} ${word}`))).toEqual(wanted);
      }
      for (const survey of surveys) {
        const wanted = only((r) => placeOf(r.href).survey === survey);
        expect(hrefs(await search(watched.page, word, { survey }))).toEqual(wanted);
        expect(hrefs(await search(watched.page, `${word} survey:${survey}`))).toEqual(wanted);
        const release = placeOf(wanted[0] ?? '').release;
        const inRelease = only((r) => placeOf(r.href).survey === survey && placeOf(r.href).release === release);
        expect(hrefs(await search(watched.page, word, { survey, release }))).toEqual(inRelease);
      }
      expectClean(watched);
    }));

  test('the keyboard: arrows move through the results, Escape closes them, Enter opens the first', () =>
    browser.page({}, async (watched) => {
      const exact = probe('zqx_flux_r_err');
      const { keyboard } = watched.page;
      const firstIs = (href: string) =>
        watched.page.waitForFunction((h) => document.querySelector<HTMLAnchorElement>('#search-results li a')?.href === h, {}, href);
      const hidden = () => watched.page.$eval('#search-panel', (p) => (p as HTMLElement).hidden);
      const focused = () =>
        watched.page.evaluate(() => {
          const active = document.activeElement;
          return active instanceof HTMLAnchorElement ? active.href : active?.id;
        });
      await open(watched, `${served}index.html`);
      await watched.page.focus('#search');
      await answered(watched.page);
      await keyboard.type(exact.name);
      await firstIs(served + columnHref(exact));
      const links = await watched.page.$$eval('#search-results li a', (as) => as.map((a) => a.href));
      expect(links.length).toBe(2);
      await keyboard.press('ArrowDown');
      expect(await focused()).toBe(links[0]);
      await keyboard.press('ArrowDown');
      expect(await focused()).toBe(links[1]);
      await keyboard.press('ArrowDown');
      expect(await focused()).toBe(links[1]);
      await keyboard.press('ArrowUp');
      expect(await focused()).toBe(links[0]);
      await keyboard.press('ArrowUp');
      expect(await focused()).toBe('search');

      // Escape from the emptied box closes the panel; typing opens it again.
      await watched.page.$eval('#search', (box) => (box as HTMLInputElement).select());
      await keyboard.press('Backspace');
      expect((await answer(watched.page)).status).toMatch(/^Type a name/);
      await keyboard.press('Escape');
      expect(await hidden()).toBe(true);
      await keyboard.type(exact.name);
      await firstIs(served + columnHref(exact));
      expect(await hidden()).toBe(false);

      await Promise.all([watched.page.waitForNavigation(), keyboard.press('Enter')]);
      await arrived(watched.page, served + columnHref(exact));
      expect(await target(watched.page)).toEqual({ id: `col-${enc(exact.name)}`, visible: true });
      expectClean(watched);
    }));
});

// ---- Deep links ---------------------------------------------------------------------------------------------

describe.concurrent('deep links', () => {
  /** Each address, and the page and anchor it leads to. */
  const links = (): [string, string, string][] => {
    const c = farColumn();
    const facility = archive.imaging.find((f) => f.bands.some((b) => b.regions.length > 0));
    const band = facility?.bands.find((b) => b.regions.length > 0);
    const region = band?.regions[0];
    if (!facility || !band || !region) throw new Error('no imaging region in the archive');
    const product = archive.products.find((p) => p.kind === 'ifs');
    const spectrum = archive.products.find((p) => p.kind === 'spectra');
    if (!product || !spectrum) throw new Error('no IFS or spectra product in the archive');
    const imaging = [facility.survey, facility.release, 'imaging', facility.name];
    const productOf = (p: typeof product): [string, string, string] => [
      `${p.kind} product`,
      [p.survey, p.release, p.kind, p.facility, p.name].join('.'),
      `${pageOf(p.survey, p.release, p.kind, p.facility)}#product-${enc(p.name)}`,
    ];
    return [
      ['column', addressOf(c), columnHref(c)],
      ['table', [c.survey, c.release, 'catalogues', c.group, c.table].join('.'), tableOf(c)],
      ['group', [c.survey, c.release, 'catalogues', c.group].join('.'), pageOf(c.survey, c.release, 'catalogues', c.group)],
      ['release', [c.survey, c.release].join('.'), pageOf(c.survey, c.release)],
      ['survey', c.survey, pageOf(c.survey)],
      ['imaging facility', imaging.join('.'), pageOf(...imaging)],
      ['band', [...imaging, band.name].join('.'), pageOf(...imaging, band.name)],
      ['region', [...imaging, band.name, region.name].join('.'), `${pageOf(...imaging, band.name)}#region-${enc(region.name)}`],
      productOf(product),
      productOf(spectrum),
    ];
  };

  test('each kind of address leads to its page and anchor', () =>
    browser.page({}, async (watched) => {
      for (const [what, address, href] of links()) {
        await open(watched, `${served}browse/#${address}`);
        await arrived(watched.page, served + href);
        const anchor = new URL(served + href).hash.slice(1);
        if (anchor) expect(await target(watched.page), what).toEqual({ id: anchor, visible: true });
        else expect(await watched.page.evaluate(() => location.hash), what).toBe('');
      }
      expectClean(watched);
    }));

  test('an address in another case, or typed over the page’s own, still leads to its column', () =>
    browser.page({}, async (watched) => {
      const c = farColumn();
      await open(watched, `${served}browse/#${addressOf(c).toUpperCase()}`);
      await arrived(watched.page, served + columnHref(c));
      await open(watched, `${served}browse/#no_such_survey`);
      await watched.page.waitForFunction(() => document.getElementById('resolve')?.textContent.includes('no_such_survey'));
      await watched.page.evaluate((address) => {
        location.hash = address;
      }, addressOf(c));
      await arrived(watched.page, served + columnHref(c));
      expectClean(watched);
    }));

  test.each([
    [
      'a table',
      (c: Column) => `${c.survey}.${c.release}.catalogues.${c.group}.NoSuchTable`,
      'NoSuchTable',
      (c: Column) => pageOf(c.survey, c.release, 'catalogues', c.group),
    ],
    ['a column', (c: Column) => `${c.survey}.${c.release}.catalogues.${c.group}.${c.table}.no_such_column`, 'no_such_column', tableOf],
    ['a release', (c: Column) => `${c.survey}.no_such_release`, 'no_such_release', (c: Column) => pageOf(c.survey)],
    ['a survey', () => 'no_such_survey', 'no_such_survey', () => 'index.html'],
  ])('an address with a wrong name for %s says what is missing, and links to the nearest page', (_what, address, missing, nearest) =>
    browser.page({}, async (watched) => {
      const c = farColumn();
      await open(watched, `${served}browse/#${address(c)}`);
      // Past "Finding …": the message quotes the name missing.
      await watched.page.waitForFunction((m) => document.getElementById('resolve')?.textContent.includes(`“${m}”`), {}, missing);
      const said = await watched.page.$eval('#resolve', (e) => ({
        text: e.textContent,
        links: [...e.querySelectorAll('a')].map((a) => a.href),
      }));
      expect(said.links).toEqual([served + nearest(c)]);
      // Still the page it was asked for.
      expect(watched.page.url()).toBe(`${served}browse/#${address(c)}`);
      expectClean(watched);
    }),
  );
});

// ---- Copying a column's link -------------------------------------------------------------------------------

describe('copy link', () => {
  test('the button copies the column’s deep link, which leads back to the column', () =>
    browser.page({}, async (watched) => {
      const c = farColumn();
      await watched.page
        .browserContext()
        .setPermission(
          origin,
          { permission: { name: 'clipboard-read' }, state: 'granted' },
          { permission: { name: 'clipboard-write' }, state: 'granted' },
        );
      await open(watched, served + tableOf(c));
      const button = `tr[data-name="${c.name}"] button.copy-link`;
      const link = await watched.page.$eval(button, (b) => (b as HTMLButtonElement).dataset.link ?? '');
      expect(link.startsWith(`${served}browse/#`)).toBe(true);
      expect(decodeURIComponent(new URL(link).hash.slice(1))).toBe(addressOf(c));

      await watched.page.click(button);
      await watched.page.waitForFunction((b) => document.querySelector(b)?.textContent === 'Copied', {}, button);
      expect(await watched.page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      await open(watched, link);
      await arrived(watched.page, served + columnHref(c));
      expect(await target(watched.page)).toEqual({ id: `col-${enc(c.name)}`, visible: true });
      expectClean(watched);
    }));

  test('without a clipboard, the link is shown selected', () =>
    browser.page({}, async (watched) => {
      const c = farColumn();
      await watched.page.evaluateOnNewDocument(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
      await open(watched, served + tableOf(c));
      const row = `tr[data-name="${c.name}"]`;
      const link = await watched.page.$eval(`${row} button.copy-link`, (b) => b.dataset.link);
      await watched.page.click(`${row} button.copy-link`);
      const field = await watched.page.waitForSelector(`${row} input.copy-field`);
      expect(
        await field?.evaluate((input) => ({
          value: input.value,
          focused: document.activeElement === input,
          selected: input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
        })),
      ).toEqual({ value: link, focused: true, selected: link });
      expectClean(watched);
    }));
});

// ---- From the offline zip, unpacked --------------------------------------------------------------------------------------------

test.concurrent(
  'from the download’s zip unpacked and opened as files, the search finds a column and opens it, and a deep link leads to it',
  () =>
    browser.page({}, async (watched) => {
      const c = farColumn();
      await open(watched, `${files}index.html`);
      await watched.page.waitForNetworkIdle({ idleTime: 100 });
      expect(dataRequests(watched)).toEqual([]);
      expectColumns(
        await search(watched.page, 'ucd:phys.veloc'),
        archive.columns.filter((x) => ucdHas(x.ucd, 'phys.veloc')),
        files,
      );
      expect((await search(watched.page, c.name)).results[0]?.href).toBe(files + columnHref(c));
      await Promise.all([watched.page.waitForNavigation(), watched.page.click('#search-results li a')]);
      await arrived(watched.page, files + columnHref(c));
      expect(await target(watched.page)).toEqual({ id: `col-${enc(c.name)}`, visible: true });
      expect(dataRequests(watched)).toEqual([`${files}browse/search-data.js`]);

      await open(watched, `${files}browse/index.html#${addressOf(c)}`);
      await arrived(watched.page, files + columnHref(c));
      expect(await target(watched.page)).toEqual({ id: `col-${enc(c.name)}`, visible: true });
      expectClean(watched);
    }),
);

// ---- Hostile descriptions ----------------------------------------------------------------------------------

test.concurrent('markup in a column’s description shows as text in the results and runs nothing', () =>
  browser.page({}, async (watched) => {
    const column = probe('zqx_hostile');
    await open(watched, `${served}index.html`);
    const found = await search(watched.page, column.name);
    expect(found.results.map((r) => r.href)).toEqual([served + columnHref(column)]);
    const description = found.results[0]?.description ?? '';
    expect(description).toContain(SHOWN_SCRIPT);
    expect(description).toContain(SHOWN_IMG);
    // Also found by a word of it, with the same text.
    expect((await search(watched.page, 'hostile')).results.map((r) => r.description)).toContain(description);
    expect(await watched.page.$$eval('#search-panel *', (all) => all.filter((e) => ['SCRIPT', 'IMG'].includes(e.tagName)).length)).toBe(0);
    expect(await watched.page.evaluate(() => typeof (window as { __pwned?: unknown }).__pwned)).toBe('undefined');
    expectClean(watched);
  }),
);

// ---- Escape, odd names, punctuation ----------------------------------------------------------------------

// Once bugs of the first client, each kept as the test it now passes.
describe.concurrent('escape, odd names and punctuation', () => {
  test('Escape from the results closes the panel (the box’s focus event opens it again)', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      await search(watched.page, probe('zqx_flux_r_err').name);
      await watched.page.keyboard.press('ArrowDown');
      await watched.page.keyboard.press('Escape');
      expect(await watched.page.$eval('#search-panel', (p) => (p as HTMLElement).hidden)).toBe(true);
    }));

  test('Escape in the box with a query closes the panel (a search box’s Escape empties it, and its input event opens it again)', () =>
    browser.page({}, async (watched) => {
      await open(watched, `${served}index.html`);
      await search(watched.page, probe('zqx_flux_r_err').name);
      await watched.page.keyboard.press('Escape');
      expect(await watched.page.$eval('#search-panel', (p) => (p as HTMLElement).hidden)).toBe(true);
    }));

  test.each([
    // The hash is not a valid escape: decodeURIComponent throws, and the script stops.
    ['rate%'],
    // Decoded, the hash names "a b", not "a%20b".
    ['a%20b'],
  ])('the copied link to column %s leads to it (its name is not escaped in the link)', (name) =>
    browser.page({}, async (watched) => {
      const column = probe(name);
      await open(watched, served + tableOf(column));
      const link = await watched.page.$eval(`tr[id="col-${enc(name)}"] button.copy-link`, (b) => b.dataset.link ?? '');
      await open(watched, link);
      expect(watched.pageErrors).toEqual([]);
      await watched.page.waitForFunction(
        () => !location.pathname.endsWith('/browse/') || !(document.getElementById('resolve')?.textContent ?? '').startsWith('Finding'),
      );
      // Still on browse/, the address was not found: it says so at once, not after a wait.
      expect(await watched.page.evaluate(() => location.pathname.endsWith('/browse/'))).toBe(false);
      await arrived(watched.page, served + columnHref(column));
    }),
  );

  test('a description word after a bracket finds its column (only words after a space are found)', () =>
    browser.page({}, async (watched) => {
      const column = probe('zqx_paren');
      expect([...archive.files.values()].filter((text) => text.includes('zqxbracketed'))).toHaveLength(1);
      await open(watched, `${served}index.html`);
      expectColumns(await search(watched.page, 'zqxbracketed'), [column]);
    }));
});
