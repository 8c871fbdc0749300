// The schema browser's pages in a real browser (Debian's Chromium, test/browser.ts): a small archive
// built in a temporary folder and served by `serve`, and the same pages opened as files, as from
// the offline download. Each kind of page loads with no error and asks nothing of another origin;
// the sky map has one linked mark per imaging region and the band chart one per band, counted from
// the metadata; a table's page lists its columns in the metadata's order, its main ones marked;
// a wide table shows 20 rows at 1280 × 800 with no box scrolling inside the page, a deep-linked row
// in full view; the home page's sky map is one tab stop; axe-core finds nothing serious in light or
// dark on any kind of page (the documents, the API's browsable page and the 404 page too); nothing
// scrolls sideways on a phone; and curator text full of script leaves none in the page, nor runs any
// when its links are clicked.

import type { ChildProcess } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, useBrowser } from './browser.ts';
import type { WatchedPage } from './browser.ts';
import { cli, serveSite, testdir, unpackZip } from './helpers.ts';
import { tan } from './sky-fixture.ts';

// ---- The archive --------------------------------------------------------------------------------------------

/** Markup that would run script if a page let it through, in every place curators write HTML. */
const ATTACKS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '<a href="javascript:window.__pwned=1">x</a>',
  '<svg onload="window.__pwned=1"><circle r="4"/></svg>',
  '<a href="&#106;ava&#x73;cript:window.__pwned=1">x</a>',
  '<a href=" JaVaScRiPt:window.__pwned=1">x</a>',
  '<iframe src="javascript:window.top.__pwned=1"></iframe>',
  '<details open ontoggle="window.__pwned=1"><summary>s</summary></details>',
  '<p onclick="window.__pwned=1" style="background:url(javascript:window.__pwned=1)">p</p>',
].join(' ');

/** The text of a field: plain curator HTML, or with every attack in it. */
type Writer = (where: string) => string;
const plain: Writer = (where) => `<p>The <em>${where}</em>, described.</p>`;
const hostile: Writer = (where) => `${where} ${ATTACKS}`;

const DATES = { created: '2018-01-01T00:00:00Z', updated: '2018-01-02T00:00:00Z' };

/** The columns of the fixture's wide table. */
const WIDE_COLUMNS = 80;

/** A FITS header as the metadata writes it. */
function fits(header: ReturnType<typeof tan>): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(header).map(([k, v]) => [k, [...v]]));
}

/**
 * The archive, over the fixture's (test/fixtures/archive): alpha/dr2 gets a catalogue group whose
 * table has columns of every sort of name, an imaging facility of three bands with footprints and
 * points, an IFS and a spectra facility; beta's HSC gets a region. YAML is written as JSON.
 */
function archive(text: Writer, names: Writer = (n) => n): Record<string, string> {
  const node = (where: string) => ({ description: text(`${where} description`), documentation: text(`${where} documentation`) });
  const region = (id: number, name: string, ra: number, dec: number, footprint: boolean) => ({
    id,
    name: names(name),
    ...node(`region ${name}`),
    file_name: `${name}.fits`,
    ra_c: String(ra),
    dec_c: String(dec),
    unit: 'deg',
    frame: 'icrs',
    equinox: 'j2000',
    fits_header: footprint ? fits(tan(ra, dec, 4, 2)) : { SIMPLE: [true, 'conforms to FITS standard'], NAXIS: [0, ''] },
  });
  const column = (id: number, name: string, ucd: string, unit?: string) => ({
    id,
    name,
    pretty_name: names(`Column ${name}`),
    ...node(`column ${name}`),
    ucd,
    unit,
  });
  const product = (id: number, name: string, type: 'cube' | 'map' | 'spectrum') => ({
    id,
    name,
    ...node(`product ${name}`),
    product_type: type,
    arm: 'blue',
    wave_min_ang: 3750,
    wave_max_ang: 5750,
    resolving_power: 1800,
    dimensions: { cube: [50, 50, 2048], map: [50, 50], spectrum: [5150] }[type],
    flux_unit: '1e-16erg/(s.cm**2.Angstrom)',
    extensions: [{ name: 'PRIMARY', holds: 'Flux' }],
  });
  const files = {
    'alpha/survey.yaml': {
      id: 1,
      name: 'alpha',
      pretty_name: 'Alpha',
      title: names('Alpha Test Survey'),
      description: text('survey description'),
      pi: names('Ada Lovelace'),
      contact: { name: 'Alpha Team', email: 'alpha-team@example.org' },
      website: 'https://alpha.example.org/',
      active: true,
    },
    'alpha/dr2/catalogues/Photometry.yaml': {
      id: 22,
      name: 'Photometry',
      pretty_name: names('Photometric catalogues'),
      ...node('group'),
      ...DATES,
      tables: [
        {
          id: 202,
          name: 'MagPhot',
          ...node('table'),
          columns: [
            column(2020, 'CATAID', 'meta.id;meta.main', '-'),
            column(2021, 'RA', 'pos.eq.ra;meta.main', 'deg'),
            column(2022, 'DEC', 'pos.eq.dec;meta.main', 'deg'),
            column(2023, 'mag r', 'phot.mag;em.opt.R', 'mag'),
            column(2024, 'flux/err', 'stat.error;phot.flux', 'Jy'),
            column(2025, 'ünïcode_ÅNGSTRÖM', 'em.wl', 'Angstrom'),
            column(2026, 'a%20b#c?d', '-', 'None'),
            column(2027, 'Z', 'src.redshift'),
          ],
        },
        {
          // Long enough that a screen cannot show it all: what a visitor sees of a 500-column table.
          id: 203,
          name: 'Wide',
          ...node('wide table'),
          // Each column described in a line, as most catalogues' are (GAMA's), with no pretty name or documentation.
          columns: Array.from({ length: WIDE_COLUMNS }, (_, i) => ({
            ...column(2100 + i, `FLUX_${i}`, 'phot.flux;em.opt', 'Jy'),
            description: `Flux in aperture ${i}`,
            pretty_name: undefined,
            documentation: undefined,
          })),
        },
      ],
    },
    'alpha/dr2/imaging/VST.yaml': {
      id: 30,
      name: 'VST',
      pretty_name: names('VLT Survey Telescope'),
      ...node('facility'),
      ...DATES,
      bands: [
        {
          id: 300,
          name: 'g',
          ...node('band g'),
          central_wave_ang: 4770,
          regions: [region(3000, 'G09', 135, -0.5, true), region(3001, 'G12', 180, -0.5, false)],
        },
        {
          id: 301,
          name: 'r',
          ...node('band r'),
          central_wave_ang: 6231,
          regions: [region(3002, 'G09', 135, -0.5, true), region(3003, 'G15', 217.5, 0, true)],
        },
        { id: 302, name: 'i', central_wave_ang: 7625, regions: [] },
      ],
    },
    'beta/dr1/imaging/HSC.yaml': {
      id: 31,
      name: 'HSC',
      ...DATES,
      bands: [
        { id: 310, name: 'i', central_wave_ang: 7727, regions: [region(3010, 'XMM-LSS', 35.5, -4.8, false)] },
        { id: 311, name: 'z', central_wave_ang: 8908, regions: [] },
      ],
    },
    'alpha/dr2/ifs/sami.yaml': {
      id: 4,
      name: 'sami',
      pretty_name: names('SAMI'),
      ...node('IFS facility'),
      ...DATES,
      products: [product(11, 'cube_blue', 'cube'), product(12, 'stelkin_velocity', 'map')],
    },
    'alpha/dr2/spectra/aaomega.yaml': {
      id: 7,
      name: 'aaomega',
      pretty_name: names('AAOmega'),
      ...node('spectra facility'),
      ...DATES,
      products: [product(21, 'spectrum', 'spectrum')],
    },
  };
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [file, `${JSON.stringify(content, null, 2)}\n`]));
}

/** The pages under test, below the site's root. */
const PAGES = {
  home: 'index.html',
  survey: 'browse/alpha/index.html',
  release: 'browse/alpha/dr2/index.html',
  group: 'browse/alpha/dr2/catalogues/Photometry.html',
  table: 'browse/alpha/dr2/catalogues/Photometry/MagPhot.html',
  facility: 'browse/alpha/dr2/imaging/VST.html',
  band: 'browse/alpha/dr2/imaging/VST/r.html',
  ifs: 'browse/alpha/dr2/ifs/sami.html',
  spectra: 'browse/alpha/dr2/spectra/aaomega.html',
} as const;
const PAGE_LIST = Object.entries(PAGES);

/**
 * The site's other pages: the documents in the site's shell, the API's browsable page, and the 404
 * page a host sends for an unknown path (with its status), checked as the browser's pages are.
 */
const OTHER_PAGES = {
  'API reference': 'api/docs/',
  download: 'download/',
  'format=api': 'api/schema/?data_type=catalogues&format=api',
  '404': 'browse/alpha/no-such-page.html',
} as const;
const ALL_PAGES = [...PAGE_LIST, ...Object.entries(OTHER_PAGES)];

/** The status a page is answered with: 404 for the 404 page, 200 for every other. */
const statusOf = (page: string) => (page === OTHER_PAGES['404'] ? 404 : 200);

/** The fixture's wide table's page. */
const WIDE_TABLE = 'browse/alpha/dr2/catalogues/Photometry/Wide.html';

interface Site {
  /** The project: metadata/ and dist/. */
  dir: string;
  dist: string;
  /** Where `serve` serves dist/. */
  origin: string;
  /** The download's browser.zip unpacked, as an astronomer working offline has it. */
  offline: string;
}

const servers: ChildProcess[] = [];

/** The archive of `files` built in a temporary folder, and served. */
async function site(files: Record<string, string>): Promise<Site> {
  const dir = await testdir(files);
  const built = await cli(['build'], dir);
  expect(built.code, built.stderr).toBe(0);
  const dist = path.join(dir, 'dist');
  const { origin, server } = await serveSite(dist);
  servers.push(server);
  const offline = path.join(dir, 'offline');
  unpackZip(path.join(dist, 'download/browser.zip'), offline);
  return { dir, dist, origin, offline };
}

/** The imaging facilities of a project's metadata, as their files hold them. */
async function imagingOf(dir: string): Promise<{ file: string; name: string; bands: { name: string; regions: { id: number }[] }[] }[]> {
  const metadata = path.join(dir, 'metadata');
  const files = (await readdir(metadata, { recursive: true })).filter((f) => /^[^/]+\/[^/]+\/imaging\/[^/]+\.yaml$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({ file, ...(load(await readFile(path.join(metadata, file), 'utf8')) as { name: string; bands: [] }) })),
  );
}

let normal: Site;
let attacked: Site;

beforeAll(async () => {
  normal = await site(archive(plain));
  attacked = await site(archive(hostile, (name) => `${name} <script>window.__pwned=1</script>`));
});

afterAll(() => {
  for (const server of servers) server.kill('SIGTERM');
});

const browser = useBrowser();

/** Nothing went wrong on the page, and it asked only for addresses starting with `own`. */
function expectClean(watched: WatchedPage, own: string): void {
  expect(watched.pageErrors, 'page errors').toEqual([]);
  expect(watched.consoleErrors, 'console errors').toEqual([]);
  expect(watched.failures, 'failed requests').toEqual([]);
  expect(watched.dialogs, 'dialogs').toEqual([]);
  expect(watched.requests.length).toBeGreaterThan(0);
  expect(
    watched.requests.filter((url) => !url.startsWith(own)),
    'requests elsewhere',
  ).toEqual([]);
}

// ---- Loading -----------------------------------------------------------------------------------------------

// Each test has a page of its own: the tests of a group run at once, in tabs of the one browser.

describe.concurrent.each([
  ['served', () => `${normal.origin}/`],
  ['opened as files from the download’s zip, unpacked', () => `${pathToFileURL(normal.offline).href}/`],
])('%s', (_how, base) => {
  test.each(PAGE_LIST)('the %s page loads with no error and nothing from elsewhere', (_name, page) =>
    browser.page({}, async (watched) => {
      const response = await watched.goto(base() + page);
      expect(response?.status()).toBe(200);
      expectClean(watched, base());
      // Its style sheet applied: the header is laid out as a row.
      expect(await watched.page.$eval('header.site', (e) => getComputedStyle(e).display)).toBe('flex');
    }),
  );
});

test('a page links its survey as JSON, which answers; opened as files, links beyond the browser lead to the site built for', () =>
  browser.page({}, async (watched) => {
    const footer = () => watched.page.$$eval('footer a', (as) => as.map((a) => a.href));
    await watched.goto(`${normal.origin}/${PAGES.table}`);
    const served = await footer();
    expect(served[0]).toMatch(new RegExp(`^${normal.origin}/api/schema/\\d+/$`));
    const json = await fetch(served[0] ?? '');
    expect(json.status).toBe(200);
    expect(((await json.json()) as { url: string }).url).toBe(`http://127.0.0.1:8080${new URL(served[0] ?? '').pathname}`);
    await watched.goto(`${pathToFileURL(normal.dist).href}/${PAGES.table}`);
    await watched.page.waitForFunction(() => document.querySelector('footer a')?.getAttribute('href')?.startsWith('http'));
    const offline = await footer();
    expect(offline).toEqual(served.map((href) => href.replace(normal.origin, 'http://127.0.0.1:8080')));
    const home = await watched.page.$eval('a.site-name', (a) => a.href);
    expect(home).toBe(`${pathToFileURL(normal.dist).href}/index.html`);
  }));

// ---- Pictures ----------------------------------------------------------------------------------------------

/** The sky map's region marks and the band chart's band marks on a page: each mark's key, link and label. */
function marks(watched: WatchedPage) {
  return watched.page.evaluate(() => {
    const of = (kind: string, attribute: string) =>
      [...document.querySelectorAll(`svg.pic-${kind} [${attribute}]`)].map((mark) => {
        const link = mark.closest('a');
        return {
          key: mark.getAttribute(attribute) ?? '',
          href: link ? new URL(link.getAttribute('href') ?? '', document.baseURI).href : null,
          label: link?.querySelector('text')?.textContent ?? null,
        };
      });
    const links = (kind: string) => document.querySelectorAll(`svg.pic-${kind} a`).length;
    return {
      regions: of('sky', 'data-region'),
      bands: of('bands', 'data-band'),
      regionLinks: links('sky'),
      bandLinks: links('bands'),
      pictures: [document.querySelectorAll('svg.pic-sky').length, document.querySelectorAll('svg.pic-bands').length],
    };
  });
}

/** A mark's link leads to a page of the site, and to the element its fragment names there. */
async function expectTarget(href: string | null): Promise<void> {
  expect(href).not.toBeNull();
  const url = new URL(href ?? '');
  const file = url.protocol === 'file:' ? decodeURIComponent(url.pathname) : path.join(normal.dist, decodeURIComponent(url.pathname));
  const html = await readFile(file, 'utf8');
  if (url.hash) expect(html, href ?? '').toContain(`id="${url.hash.slice(1)}"`);
}

describe.concurrent('pictures', () => {
  const VST = 'alpha/dr2/imaging/VST.yaml';
  // Each page, which facilities' and bands' regions its sky map shows, and whether it charts their bands.
  test.each([
    ['the home page', PAGES.home, () => true, true],
    ['an imaging facility’s page', PAGES.facility, (file: string) => file === VST, true],
    ['a band’s page', PAGES.band, (file: string, band: string) => file === VST && band === 'r', false],
  ])('%s maps each of its imaging regions (and charts each band), as links, served and from the zip', (_name, page, shown, charted) =>
    browser.page({}, async (watched) => {
      const bands = (await imagingOf(normal.dir)).flatMap((f) => f.bands.filter((b) => shown(f.file, b.name)));
      const regions = bands.flatMap((b) => b.regions.map((r) => String(r.id)));
      expect(regions.length).toBeGreaterThan(1);
      for (const base of [`${normal.origin}/`, `${pathToFileURL(normal.offline).href}/`]) {
        await watched.goto(base + page);
        const found = await marks(watched);
        expect(found.pictures).toEqual([1, charted ? 1 : 0]);
        expect(found.regions.map((m) => m.key).sort()).toEqual([...regions].sort());
        expect(found.regionLinks).toBe(regions.length);
        if (charted) {
          expect(found.bands.map((m) => m.label).sort()).toEqual(bands.map((b) => b.name).sort());
          expect(found.bandLinks).toBe(bands.length);
        }
        for (const mark of [...found.regions, ...found.bands]) await expectTarget(mark.href);
      }
    }),
  );
});

/** The colour each sky-map region and band-chart band is drawn in on the page open, by its data-region or data-band. */
function markColours(watched: WatchedPage): Promise<Record<string, string>> {
  return watched.page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('svg.pic-sky [data-region], svg.pic-bands [data-band]')].map((mark) => [
        mark.getAttribute('data-region') ?? `band ${mark.getAttribute('data-band') ?? ''}`,
        getComputedStyle(mark).fill,
      ]),
    ),
  );
}

describe.concurrent.each(['light', 'dark'])('one colour per facility, %s', (scheme) => {
  test('each facility’s regions and bands have its colour on the home page, its own page and its bands’ pages; facilities differ', () =>
    browser.page({}, async (watched) => {
      await watched.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      const facilities = await imagingOf(normal.dir);
      expect(facilities.length).toBeGreaterThan(1);
      await watched.goto(`${normal.origin}/${PAGES.home}`);
      const home = await markColours(watched);
      const colourOf = new Map<string, string>();
      for (const facility of facilities) {
        const page = `browse/${facility.file.replace(/\.yaml$/, '')}`;
        const pages = [`${page}.html`, ...facility.bands.filter((b) => b.regions.length > 0).map((b) => `${page}/${b.name}.html`)];
        for (const at of pages) {
          await watched.goto(`${normal.origin}/${at}`);
          const own = await markColours(watched);
          expect(Object.keys(own).length, at).toBeGreaterThan(0);
          for (const [key, colour] of Object.entries(own)) {
            expect(colour, `${key} on ${at}`).toBe(home[key]);
            expect(colourOf.get(facility.name) ?? colour, `${key} on ${at}`).toBe(colour);
            colourOf.set(facility.name, colour);
          }
        }
      }
      expect(new Set(colourOf.values()).size).toBe(facilities.length);
    }));
});

// ---- A table's columns -------------------------------------------------------------------------------------

test('a table’s page lists every column in the metadata’s order, its main columns marked', () =>
  browser.page({}, async (watched) => {
    const group = load(await readFile(path.join(normal.dir, 'metadata/alpha/dr2/catalogues/Photometry.yaml'), 'utf8')) as {
      tables: { name: string; columns: { name: string; ucd: string }[] }[];
    };
    const columns = group.tables[0]?.columns ?? [];
    const isMain = (ucd: string) => ucd.split(';').some((word) => word.trim().toLowerCase() === 'meta.main');
    expect(columns.filter((c) => isMain(c.ucd)).length).toBeGreaterThan(0);
    expect(columns.filter((c) => !isMain(c.ucd)).length).toBeGreaterThan(0);

    await watched.goto(`${normal.origin}/${PAGES.table}`);
    const rows = await watched.page.$$eval('table.columns tbody tr', (trs) =>
      trs.map((tr) => ({
        id: tr.id,
        name: tr.querySelector('th code.name')?.textContent,
        main: tr.classList.contains('main'),
        badge: tr.querySelector('th .badge')?.textContent ?? null,
        // The row is found by its own link's fragment, as written (the browser looks it up so first).
        linked: document.getElementById(tr.querySelector('a.permalink')?.getAttribute('href')?.slice(1) ?? '') === tr,
      })),
    );
    expect(rows).toEqual(
      columns.map((c) => ({
        id: `col-${encodeURIComponent(c.name)}`,
        name: c.name,
        main: isMain(c.ucd),
        badge: isMain(c.ucd) ? 'main' : null,
        linked: true,
      })),
    );
  }));

// ---- Density: a table's columns at a glance ------------------------------------------------------------------

// Issue 32: a 531-column table showed ~7 rows, inside an 80vh box that scrolled inside the page.
describe.concurrent('a wide table at 1280 × 800', () => {
  test('shows at least 20 column rows at once, and nothing on the page scrolls inside it', () =>
    browser.page({}, async (watched) => {
      await watched.goto(`${normal.origin}/${WIDE_TABLE}`);
      const seen = await watched.page.evaluate(() => {
        document.querySelector('table.columns tbody tr')?.scrollIntoView();
        const head = document.querySelector('table.columns thead th')?.getBoundingClientRect();
        const rows = [...document.querySelectorAll('table.columns tbody tr')].map((tr) => tr.getBoundingClientRect());
        const boxes = [...document.body.querySelectorAll('*')].filter((e) => {
          const style = getComputedStyle(e);
          return /auto|scroll/.test(style.overflowY) && e.scrollHeight > e.clientHeight + 1;
        });
        return {
          headBottom: head?.bottom ?? -1,
          visible: rows.filter((r) => r.top >= (head?.bottom ?? 0) - 1 && r.bottom <= innerHeight).length,
          boxes: boxes.map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
        };
      });
      expect(seen.visible).toBeGreaterThanOrEqual(20);
      expect(seen.boxes).toEqual([]);
      // The columns' header stays at the top of the window as the page scrolls.
      expect(seen.headBottom).toBeGreaterThan(0);
      expect(seen.headBottom).toBeLessThan(60);
    }));

  test('a deep-linked row is wholly in view, below the sticky header', () =>
    browser.page({}, async (watched) => {
      await watched.goto(`${normal.origin}/${WIDE_TABLE}#col-FLUX_60`);
      await watched.page.waitForFunction(() => window.scrollY > 0);
      const { row, head } = await watched.page.evaluate(() => {
        const r = document.getElementById('col-FLUX_60')?.getBoundingClientRect();
        const h = document.querySelector('table.columns thead th')?.getBoundingClientRect();
        return { row: r && { top: r.top, bottom: r.bottom }, head: h && { bottom: h.bottom } };
      });
      expect(row && head).toBeTruthy();
      expect(row?.top ?? 0).toBeGreaterThanOrEqual(head?.bottom ?? Infinity);
      expect(row?.bottom ?? Infinity).toBeLessThanOrEqual(800);
    }));
});

// ---- Keyboard ------------------------------------------------------------------------------------------------

/** The elements the Tab key stops at, in order, from the top of the page: each as a description. */
async function tabStops(watched: WatchedPage, most: number): Promise<{ where: string; inSky: boolean }[]> {
  const stops: { where: string; inSky: boolean }[] = [];
  await watched.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < most; i++) {
    await watched.page.keyboard.press('Tab');
    const stop = await watched.page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const sky = document.querySelector('svg.pic-sky')?.closest('.picture-scroll');
      return {
        where: `${e.tagName.toLowerCase()} ${e.getAttribute('href') ?? e.getAttribute('aria-label') ?? e.id}`,
        inSky: !!sky?.contains(e),
      };
    });
    if (!stop) break;
    // Round the page and back to the first: every stop seen.
    if (stop.where === stops[0]?.where) break;
    stops.push(stop);
  }
  return stops;
}

// Issue 32: every region mark of the home page's sky map was a tab stop (80 here, 5,000 in a large archive).
test('the home page’s sky map is one tab stop, and its regions are reached through the facilities listed under it', () =>
  browser.page({}, async (watched) => {
    await watched.goto(`${normal.origin}/${PAGES.home}`);
    const stops = await tabStops(watched, 200);
    expect(stops.filter((s) => s.inSky).map((s) => s.where)).toEqual(['div Sky map']);
    // The marks still link their regions, for the pointer.
    const marksLinked = await watched.page.$$eval('svg.pic-sky a', (as) => as.map((a) => a.getAttribute('tabindex')));
    expect(marksLinked.length).toBeGreaterThan(1);
    expect(new Set(marksLinked)).toEqual(new Set(['-1']));
    // Each imaging facility with regions is linked under the map, and its page has the marks as tab stops.
    const facilities = (await imagingOf(normal.dir)).filter((f) => f.bands.some((b) => b.regions.length > 0));
    const listed = await watched.page.$$eval('ul.facility-list a', (as) => as.map((a) => a.href));
    expect(listed).toHaveLength(facilities.length);
    for (const href of listed) expect(stops.map((s) => s.where)).toContain(`a ${new URL(href).pathname.slice(1)}`);
    await watched.goto(listed.find((h) => h.endsWith('VST.html')) ?? '');
    const onFacility = (await tabStops(watched, 200)).filter((s) => s.inSky);
    const vst = facilities.find((f) => f.name === 'VST');
    expect(onFacility.length).toBe(1 + (vst?.bands.flatMap((b) => b.regions).length ?? 0));
  }));

// ---- Accessibility -----------------------------------------------------------------------------------------

describe.concurrent('axe-core', () => {
  test.each(ALL_PAGES)('the %s page has no serious or critical violation, light or dark', (_name, page) =>
    browser.page({ bypassCsp: true }, async (watched) => {
      const response = await watched.goto(`${normal.origin}/${page}`);
      expect(response?.status()).toBe(statusOf(page));
      // Every page in the site's shell has the search box; the API's browsable page has none.
      const searchable = (await watched.page.$('#search')) !== null;
      expect(searchable).toBe(page !== OTHER_PAGES['format=api']);
      for (const scheme of ['light', 'dark'] as const) {
        await watched.page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        expect(await watched.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
        // The search panel open and showing results, as a visitor sees it, and every copy-link button.
        if (searchable) {
          await watched.page.focus('#search');
          await watched.page.type('#search', 'a');
          await watched.page.waitForFunction(() => /found/i.test(document.getElementById('search-status')?.textContent ?? ''));
        }
        const violations = await axeViolations(watched.page);
        const found = violations.flatMap((v) => v.nodes.map((n) => `${scheme}: ${v.id} (${v.impact}) ${n.target}: ${n.summary}`));
        expect(found).toEqual([]);
        if (searchable)
          await watched.page.evaluate(() => {
            (document.getElementById('search') as HTMLInputElement).value = '';
          });
      }
    }),
  );
});

// ---- Narrow screens ----------------------------------------------------------------------------------------

describe.concurrent('390 px wide', () => {
  test.each([...ALL_PAGES, ['wide table', WIDE_TABLE] as const])('the %s page does not scroll sideways', (_name, page) =>
    browser.page({ width: 390 }, async (watched) => {
      const response = await watched.goto(`${normal.origin}/${page}`);
      expect(response?.status()).toBe(statusOf(page));
      const { scrollWidth, clientWidth, overflowing } = await watched.page.evaluate(() => {
        const root = document.scrollingElement ?? document.documentElement;
        const width = root.clientWidth;
        // What reaches past the right edge outside the wrappers that scroll tables sideways: the culprits.
        const overflowing = [...document.body.querySelectorAll('*')]
          .filter((e) => !e.closest('.scroll, .picture-scroll') && e.getBoundingClientRect().right > width + 0.5)
          .map(
            (e) =>
              `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className}` : ''}`,
          );
        return { scrollWidth: root.scrollWidth, clientWidth: width, overflowing };
      });
      expect(clientWidth).toBe(390);
      expect(scrollWidth, overflowing.join(', ')).toBeLessThanOrEqual(clientWidth);
    }),
  );
});

// ---- Hostile curator text ----------------------------------------------------------------------------------

describe.concurrent.each([
  ['with the pages’ security policy', false],
  // The sanitiser alone must hold: the policy is the second line, not the only one.
  ['without the pages’ security policy', true],
])('curator script, %s', (_how, bypassCsp) => {
  test.each(PAGE_LIST)('the %s page holds none and runs none, its links clicked', (_name, page) =>
    browser.page({ bypassCsp }, async (watched) => {
      await watched.goto(`${attacked.origin}/${page}`);
      // The attacks reached the page: as text in the names, which are escaped.
      expect(await watched.page.evaluate(() => document.body.textContent)).toContain('<script>window.__pwned=1</script>');

      const found = await watched.page.evaluate(() => {
        const urls = ['href', 'xlink:href', 'src', 'srcdoc', 'action', 'formaction', 'data', 'style'];
        const bad: string[] = [];
        for (const e of document.querySelectorAll('*')) {
          const tag = e.tagName.toLowerCase();
          for (const name of e.getAttributeNames()) {
            const value = e.getAttribute(name) ?? '';
            if (/^on/i.test(name)) bad.push(`${tag} ${name}`);
            if (urls.includes(name) && /javascript:/i.test(value)) bad.push(`${tag} ${name}="${value}"`);
          }
          if (['img', 'iframe', 'object', 'embed', 'form'].includes(tag)) bad.push(tag);
          // The page's own scripts only: from the site, never inline.
          if (tag === 'script' && !/^(?:\.\.\/)*browse\/[^/]+\.js$/.test(e.getAttribute('src') ?? '')) bad.push(`script ${e.outerHTML}`);
          if (tag === 'svg' && !e.closest('figure.picture')) bad.push('svg outside a picture');
        }
        return bad;
      });
      expect(found).toEqual([]);

      // The curator's links (their text "x") are clicked; the site's own lead to other pages.
      const clicked = await watched.page.$$eval('main a', (links) => {
        const curators = links.filter((a) => a.textContent === 'x');
        for (const a of curators) a.click();
        return curators.length;
      });
      expect(clicked, 'no curator link to click').toBeGreaterThan(0);
      expect(watched.page.url()).toBe(`${attacked.origin}/${page}`);
      expect(await watched.page.evaluate(() => typeof (window as { __pwned?: unknown }).__pwned)).toBe('undefined');
      expect(watched.pageErrors).toEqual([]);
      expect(watched.dialogs).toEqual([]);
    }),
  );
});
