// The schema browser's pages: well-formed HTML under a strict security policy, curator HTML made
// harmless, every column in order with its id, main columns marked, UCD words explained, "no unit"
// for the placeholders and "not recorded" for nulls, relative links that lead to the other pages,
// and the same bytes every time.

import { gzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import {
  bandPage,
  columnId,
  CONTENT_SECURITY_POLICY,
  facilityPage,
  groupPage,
  homePage,
  pageHref,
  productFacilityPage,
  releasePage,
  shell,
  stylesheet,
  surveyPage,
  tablePage,
} from '../src/outputs/browser/pages/index.ts';
import type {
  CatalogueColumn,
  CatalogueGroup,
  CatalogueTable,
  DataProduct,
  DataRelease,
  ImagingBand,
  ImagingFacility,
  ImagingRegion,
  PagePath,
  ProductFacility,
  Survey,
} from '../src/outputs/browser/pages/index.ts';
import { bandChart, skyMap } from '../src/outputs/browser/pictures/index.ts';
import { sanitiseHtml, sanitiseWithParser } from '../src/outputs/browser/sanitise.ts';
import { raw } from '../src/outputs/html.ts';
import { BEYOND_API } from '../src/outputs/api/objects.ts';
import { columnType } from '../src/outputs/browser/pages/html.ts';
import { ucdVocabulary } from '../src/vocabularies/ucd.ts';
import { node } from './page-fixture.ts';

// ---- Fixtures ------------------------------------------------------------------------------------------------------

const HOSTILE = `<img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">x</a>`;
const EXTERNAL = 'https://example.org/docs?a=1&b=2';

function column(name: string, ucd: string, unit: string | null, description: string | null = `About ${name}`): CatalogueColumn {
  return { ...node(name, 'CatalogueColumn', { description }), ucd, unit };
}

const COLUMNS: CatalogueColumn[] = [
  column('CATAID', 'meta.id;meta.main', '-'),
  column('RA', 'pos.eq.ra;meta.main', 'deg'),
  column('DEC', 'pos.eq.dec;meta.main', 'deg'),
  column('Z', 'src.redshift', 'None'),
  column('FLAG', 'meta.code', ''),
  column('NQ', '-', null, '-'),
  column('a"b<c> d\'e&f', 'phot.mag;em.opt.R', 'mag', HOSTILE),
  column('weird', 'custom.word;VOX:Image_Title', 'erg/s/cm**2/Angstrom'),
];

const TABLE: CatalogueTable = {
  ...node('SpecObj', 'CatalogueTable', {
    description: `<p>Spectra <em>with</em> <a href="${EXTERNAL}">docs</a></p>${HOSTILE}`,
    documentation: `<h2 style="color:red" onclick="x()">Doc</h2><p>More <a href="data:text/html,<script>x</script>">here</a></p>`,
    file_path: '/gama/dr3/',
    file_name: 'SpecObj.fits',
    version: 'v27',
    contact: { email: 'team@example.org', name: 'Team <b>' },
  }),
  input_cat: false,
  columns: COLUMNS,
};

const GROUP: CatalogueGroup = {
  ...node('SpecCat', 'CatalogueGroup', { pretty_name: 'Spectroscopic catalogues', description: HOSTILE }),
  tables: [TABLE, { ...node('Other<Table>', 'CatalogueTable'), input_cat: true, columns: [column('X', 'meta.id', 'deg')] }],
};

function region(name: string, ra: string, dec: string): ImagingRegion {
  return {
    ...node(name, 'ImagingRegion', { file_path: '/img/', file_name: `${name}.fits` }),
    fits_header: {
      SIMPLE: [true, 'conforms to FITS standard'],
      NAXIS: [2, ''],
      OBJECT: ["O'Brien <script>alert(1)</script>", 'hostile " comment <img onerror=x>'],
      CTYPE1: ['RA---TAN', ''],
      CTYPE2: ['DEC--TAN', ''],
    },
    ra_c: ra,
    dec_c: dec,
    unit: 'deg',
    frame: 'icrs',
    equinox: 'j2000',
  };
}

const BAND: ImagingBand = {
  ...node('FUV', 'ImagingBand', { pretty_name: 'GALEX FUV' }),
  band_key: 'gama.dr3.GALEX.FUV',
  central_wave_ang: 1535,
  regions: [region('G09', '135.0', '0.5'), region('G12', '180', '-0.5')],
};

const FACILITY: ImagingFacility = { ...node('GALEX', 'ImagingFacility', { description: HOSTILE }), bands: [BAND] };

function product(name: string, extra: Partial<DataProduct>): DataProduct {
  return {
    ...node(name, 'IFSDataProduct'),
    product_key: `sami.dr3.sami.${name}`,
    product_type: 'cube',
    arm: 'blue',
    wave_min_ang: 3700,
    wave_max_ang: 5700,
    wave_step_ang: 1.05,
    resolving_power: 1800,
    spatial_sampling_arcsec: 0.5,
    dimensions: [50, 50, 2048],
    flux_unit: '1e-16 erg/(s cm2 Angstrom)',
    extensions: [
      { name: 'PRIMARY', holds: 'flux' },
      { name: 'VARIANCE', holds: 'variance <of> flux' },
    ],
    ...extra,
  };
}

const IFS: ProductFacility = {
  ...node('SAMI', 'IFSFacility'),
  products: [
    product('cube_blue', {}),
    product('map_ha', { product_type: 'map', arm: null, wave_min_ang: null, wave_max_ang: null, wave_step_ang: null, flux_unit: null }),
  ],
};

const RELEASE: DataRelease = {
  name: 'dr3',
  pretty_name: 'Data Release 3',
  version: 3,
  data_release_number: 3,
  contact: { email: 'team@example.org', name: 'GAMA Team' },
  created: '2018-01-29T00:00:00.000000Z',
  updated: '2018-04-11T03:20:00.000000Z',
  type: 'DataRelease',
  catalogues: { groups: [GROUP] },
  imaging: { facilities: [FACILITY] },
  ifs: { facilities: [IFS] },
  spectra: null,
};

const SURVEY: Survey = {
  url: 'http://localhost:8080/api/schema/1/',
  name: 'gama',
  pretty_name: 'GAMA',
  title: 'Galaxy And Mass Assembly <script>',
  description: `<p>The survey.</p>${HOSTILE}<p onmouseover="x">see <a href="${EXTERNAL}" onclick="x">the docs</a></p>`,
  pi: 'Simon Driver',
  contact: { email: 'gama-team@example.org', name: 'GAMA Team' },
  website: 'https://www.gama-survey.org/',
  active: true,
  type: 'Survey',
  data_releases: [RELEASE],
};

const EMPTY_SURVEY: Survey = {
  ...SURVEY,
  url: 'http://localhost:8080/api/schema/2/',
  name: 'empty',
  pretty_name: 'Empty',
  data_releases: [],
};

const SITE = { survey: SURVEY, release: RELEASE };

function pictures(): { skyMap: string; bandChart: string } {
  return {
    skyMap: skyMap(BAND.regions.map((r) => ({ ...r, key: String(r.id), facility: FACILITY.name, band: BAND.name }))),
    bandChart: bandChart([
      { name: FACILITY.name, bands: [{ key: BAND.band_key, name: BAND.name, central_wave_ang: BAND.central_wave_ang }] },
    ]),
  };
}

/** Every page of the fixture archive, with where it lives. */
function pages(): { name: string; path: PagePath; html: string }[] {
  const r = ['browse', 'gama', 'dr3'];
  return [
    { name: 'home', path: [], html: homePage([SURVEY, EMPTY_SURVEY]) },
    { name: 'survey', path: ['browse', 'gama'], html: surveyPage(SURVEY) },
    { name: 'empty survey', path: ['browse', 'empty'], html: surveyPage(EMPTY_SURVEY) },
    { name: 'release', path: r, html: releasePage(RELEASE, { survey: SURVEY }) },
    { name: 'group', path: [...r, 'catalogues', 'SpecCat'], html: groupPage(GROUP, SITE) },
    { name: 'table', path: [...r, 'catalogues', 'SpecCat', 'SpecObj'], html: tablePage(TABLE, { ...SITE, parent: GROUP }) },
    {
      name: 'odd table',
      path: [...r, 'catalogues', 'SpecCat', 'Other<Table>'],
      html: tablePage(GROUP.tables[1] as CatalogueTable, { ...SITE, parent: GROUP }),
    },
    { name: 'facility', path: [...r, 'imaging', 'GALEX'], html: facilityPage(FACILITY, SITE, pictures()) },
    { name: 'band', path: [...r, 'imaging', 'GALEX', 'FUV'], html: bandPage(BAND, { ...SITE, parent: FACILITY }) },
    { name: 'ifs facility', path: [...r, 'ifs', 'SAMI'], html: productFacilityPage(IFS, SITE, 'ifs') },
  ];
}

// ---- Reading pages back --------------------------------------------------------------------------------------------

interface Element {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  children: Element[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * Parses a page with htmlparser2, failing on anything a browser would have to repair: an end tag
 * with no open element, an element closed by another's end tag, an element left open, a duplicate
 * attribute. Returns the root element.
 */
function parsePage(html: string): Element {
  const root: Element = { tag: '#root', attrs: {}, text: '', children: [] };
  const stack: Element[] = [root];
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const el: Element = { tag, attrs, text: '', children: [] };
        stack.at(-1)?.children.push(el);
        if (!VOID.has(tag)) stack.push(el);
      },
      onattribute(name) {
        if (/^on/i.test(name)) problems.push(`event handler attribute ${name}`);
      },
      onclosetag(tag, implied) {
        if (VOID.has(tag)) return;
        const top = stack.pop();
        // An element written self-closed (SVG's <path/>) is closed where it is opened.
        const selfClosed = implied && html.slice(parser.startIndex, parser.endIndex + 1).endsWith('/>');
        if ((implied && !selfClosed) || top?.tag !== tag) problems.push(`<${tag}> closed by implication (open: ${top?.tag ?? 'none'})`);
      },
      ontext(text) {
        for (const el of stack) el.text += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  if (stack.length !== 1) problems.push(`left open: ${stack.map((e) => e.tag).join(' > ')}`);
  expect(problems).toEqual([]);
  return root;
}

function all(el: Element, pick: (e: Element) => boolean): Element[] {
  return [...(pick(el) ? [el] : []), ...el.children.flatMap((c) => all(c, pick))];
}

function byId(root: Element, id: string): Element | undefined {
  return all(root, (e) => e.attrs.id === id)[0];
}

/** Where a relative link from a page lands, below the site's root ('' for outside it). */
function resolve(from: PagePath, href: string): string {
  const base = new URL(`file:///site/${pageHref(from)}`);
  const to = new URL(href, base);
  return to.pathname.startsWith('/site/') ? decodeURIComponent(to.pathname.slice('/site/'.length)) + to.search : '';
}

// ---- Tests ---------------------------------------------------------------------------------------------------------

describe('sanitiser', () => {
  test.each([
    [HOSTILE, '<a>x</a>'],
    ['<p onclick="x()">a</p>', '<p>a</p>'],
    ['<a href="JaVaScRiPt:alert(1)">j</a>', '<a>j</a>'],
    ['<a href=" javascript:alert(1)">j</a>', '<a>j</a>'],
    ['<a href="java&#x09;script:alert(1)">j</a>', '<a>j</a>'],
    ['<a href="data:text/html,x">d</a>', '<a>d</a>'],
    ['<a href="/relative">r</a><a href="//evil.example">p</a>', '<a>r</a><a>p</a>'],
    [
      '<a href="https://a.org/?x=1&y=2" target="_blank" rel="opener">ok</a>',
      '<a href="https://a.org/?x=1&amp;y=2" rel="noopener noreferrer">ok</a>',
    ],
    ['<a href="mailto:a@b.org">m</a>', '<a href="mailto:a@b.org" rel="noopener noreferrer">m</a>'],
    ['<p style="color:red">t<style>p{}</style></p>', '<p>t</p>'],
    ['<svg><script>x</script><a xlink:href="javascript:1">s</a></svg>t', 't'],
    ['<iframe src="https://x.org"></iframe><object data="x"></object>t', 't'],
    ['<h1>H</h1><h2>I</h2><h3>J</h3>', 'HI<h3>J</h3>'],
    [
      '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
      '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    ],
    [
      'x<sub>2</sub>y<sup>3</sup><br><code>c</code><pre>p</pre><blockquote>q</blockquote>',
      'x<sub>2</sub>y<sup>3</sup><br /><code>c</code><pre>p</pre><blockquote>q</blockquote>',
    ],
    [
      '<ul><li><b>b</b><i>i</i><em>e</em><strong>s</strong></li></ul><ol><li>1</li></ol>',
      '<ul><li><b>b</b><i>i</i><em>e</em><strong>s</strong></li></ul><ol><li>1</li></ol>',
    ],
    ['<!-- c --><form action="x"><input name="q"><button>b</button></form>', 'b'],
    ['5 < 6 & 7 > 3', '5 &lt; 6 &amp; 7 &gt; 3'],
  ])('%s', (input, expected) => {
    expect(sanitiseHtml(input)).toBe(expected);
  });
});

test('plain markup, links among it, comes out as the sanitiser’s parser gives it', () => {
  // Pieces of curator HTML, plain and not: joined at random (a fixed seed), each text sanitised
  // through the shortcut for plain markup where it applies and through the parser alone.
  const PIECES = [
    '<p>',
    '</p>',
    '<em>',
    '</em>',
    '<ul><li>',
    '</li></ul>',
    '<br>',
    '<a href="https://www.example.org/surveys/gama/dr2/">',
    '<a href="mailto:help@example.org">',
    '<a href="https://x.org/a?b=1;c=(2)*\'3\'!$,~%20#f">',
    '<a href="http://x.org/">',
    '</a>',
    '<a href="HTTPS://X.ORG/">',
    '<a href="https://x.org/a b">',
    '<a href="https://x.org/?a=1&amp;b=2">',
    '<a href="https://x.org/[x]">',
    '<a href="javascript:alert(1)">',
    '<a href="//x.org/">',
    "<a href='https://x.org/'>",
    '<a  href="https://x.org/">',
    '<a href="https://x.org/" title="t">',
    '<A HREF="https://x.org/">',
    'text',
    ' > ',
    '&amp;',
    '&lt;',
    '&',
    '<',
    '"',
    '<script>x</script>',
  ];
  let seed = 20261125;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let plainLinks = 0;
  for (let n = 0; n < 4000; n++) {
    const html = Array.from({ length: 1 + Math.floor(random() * 6) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
    expect(sanitiseHtml(html), html).toBe(sanitiseWithParser(html));
    if (html.includes('<a href="h') && !/[<&]/.test(html.replace(/<\/?(?:a|p|em|ul|li)\b[^>]*>/g, ''))) plainLinks++;
  }
  // Enough of the texts hold links the shortcut takes, or this says nothing about it.
  expect(plainLinks).toBeGreaterThan(200);
});

describe.each(pages())('$name page', ({ path, html }) => {
  test('is well-formed, with the policy, the style sheet and the chrome', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    const root = parsePage(html);
    const metas = all(root, (e) => e.tag === 'meta');
    expect(metas.find((m) => m.attrs['http-equiv'] === 'Content-Security-Policy')?.attrs.content).toBe(CONTENT_SECURITY_POLICY);
    expect(metas.some((m) => m.attrs.charset === 'utf-8')).toBe(true);
    expect(metas.some((m) => m.attrs.name === 'viewport')).toBe(true);
    const sheet = all(root, (e) => e.tag === 'link' && e.attrs.rel === 'stylesheet');
    expect(sheet.map((l) => resolve(path, l.attrs.href ?? ''))).toEqual(['browse/style.css']);
    const search = all(root, (e) => e.tag === 'input' && e.attrs.type === 'search')[0];
    expect(search).toBeDefined();
    expect(all(root, (e) => e.tag === 'label' && e.attrs.for === search?.attrs.id)).toHaveLength(1);
    expect(all(root, (e) => e.tag === 'main')).toHaveLength(1);
    expect(all(root, (e) => e.tag === 'h1')).toHaveLength(1);
    const footer = all(root, (e) => e.tag === 'footer')[0];
    const footLinks = footer ? all(footer, (e) => e.tag === 'a').map((a) => resolve(path, a.attrs.href ?? '')) : [];
    expect(footLinks).toEqual(expect.arrayContaining(['download/index.html', 'download/tables.xml']));
    expect(footLinks.some((l) => l.startsWith('api/schema/'))).toBe(true);
    if (path.length > 0) expect(all(root, (e) => e.tag === 'nav' && e.attrs['aria-label'] === 'Breadcrumbs')).toHaveLength(1);
  });

  test('runs nothing from the curators', () => {
    // The one script is the site's own, from the site, and not inline.
    const own = /<script src="(?:\.\.\/)*browse\/site\.js" defer><\/script>\n/g;
    expect(html.match(own)).toHaveLength(1);
    const html_ = html.replace(own, '');
    expect(html_).not.toMatch(/<script/i);
    expect(html_).not.toMatch(/javascript:/i);
    expect(html_).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
    expect(html_).not.toMatch(/<(?:img|iframe|object|embed|svg:script|style)\b/i);
    expect(html_).not.toMatch(/data:text/i);
    const root = parsePage(html_);
    for (const el of all(root, () => true)) {
      expect(el.tag).not.toBe('script');
      for (const [name, value] of Object.entries(el.attrs)) {
        expect(name).not.toMatch(/^on/);
        if (name === 'style') expect.fail(`style attribute on <${el.tag}>`);
        expect(value).not.toMatch(/^\s*(?:javascript|data|vbscript):/i);
      }
    }
  });

  test('links are relative and stay in the site, but for the curators’ own addresses', () => {
    const root = parsePage(html);
    const allowedOutside = new Set([EXTERNAL, SURVEY.website, 'mailto:team@example.org', 'mailto:gama-team@example.org']);
    for (const a of all(root, (e) => 'href' in e.attrs || 'src' in e.attrs)) {
      const href = a.attrs.href ?? a.attrs.src ?? '';
      if (/^(?:https?:|mailto:)/i.test(href)) {
        expect(allowedOutside.has(href), href).toBe(true);
        if (a.tag === 'a' && !href.startsWith('mailto:')) expect(a.attrs.rel).toContain('noopener');
        continue;
      }
      expect(href, href).not.toMatch(/^\/|^[a-z][a-z0-9+.-]*:/i);
      if (href.startsWith('#')) {
        expect(byId(root, href.slice(1)), href).toBeDefined();
        continue;
      }
      expect(resolve(path, href), href).not.toBe('');
    }
  });

  test('is the same every time', () => {
    expect(pages().find((p) => p.path.join('/') === path.join('/'))?.html).toBe(html);
  });
});

test('links between pages lead to pages that exist', () => {
  const made = new Set(pages().map((p) => resolve([], pageHref(p.path))));
  const others = /^(?:api\/|download\/|browse\/style\.css$)/;
  for (const page of pages()) {
    for (const a of all(parsePage(page.html), (e) => e.tag === 'a' && typeof e.attrs.href === 'string')) {
      const href = a.attrs.href ?? '';
      if (/^(?:https?:|mailto:|#)/.test(href)) continue;
      const to = resolve(page.path, href);
      if (!others.test(to)) expect(made.has(to), `${page.name}: ${href} → ${to}`).toBe(true);
    }
  }
});

describe('table page', () => {
  const html = tablePage(TABLE, { ...SITE, parent: GROUP });
  const root = parsePage(html);
  const rows = all(root, (e) => e.tag === 'tr' && (e.attrs.id ?? '').startsWith('col-'));

  test('has every column in metadata order, with its id, and a permalink to it', () => {
    expect(rows.map((r) => r.attrs.id)).toEqual(COLUMNS.map((c) => columnId(c.name)));
    expect(columnId('a"b<c> d\'e&f')).toBe("col-a%22b%3Cc%3E%20d'e%26f");
    for (const [i, row] of rows.entries()) {
      const c = COLUMNS[i] as CatalogueColumn;
      expect(row.text).toContain(c.name);
      expect(row.text).toContain(String(c.id));
      expect(row.attrs.id).not.toMatch(/\s/);
      const permalink = all(row, (e) => e.tag === 'a' && e.attrs.class === 'permalink')[0];
      expect(permalink?.attrs.href).toBe(`#${row.attrs.id ?? ''}`);
    }
  });

  test.each(COLUMNS.map((c, i) => [c.name, c.ucd, i] as const))('%s (%s) is marked main only when meta.main', (_, ucd, i) => {
    const row = rows[i] as Element;
    const badge = all(row, (e) => e.attrs.class === 'badge');
    const main = ucd.split(';').includes('meta.main');
    expect(badge.length).toBe(main ? 1 : 0);
    if (main) {
      expect(badge[0]?.text).toBe('main');
      expect(row.attrs.class).toBe('main');
    }
  });

  test('explains each UCD word from the UCD1+ vocabulary', () => {
    const words = ucdVocabulary().words;
    for (const [i, c] of COLUMNS.entries()) {
      const row = rows[i] as Element;
      const listed = c.ucd.split(';').filter((w) => words.has(w.toLowerCase()));
      const dts = all(row, (e) => e.tag === 'dt').map((d) => d.text);
      expect(dts).toEqual(listed);
      const dds = all(row, (e) => e.tag === 'dd').map((d) => d.text);
      expect(dds).toEqual(listed.map((w) => words.get(w.toLowerCase())?.description));
      if (c.ucd === '-') expect(row.text).toContain('undefined');
      if (c.ucd.startsWith('custom')) expect(row.text).toContain('custom.word;VOX:Image_Title');
    }
    expect(words.get('meta.main')?.description).toBeTruthy();
  });

  test.each([
    ['CATAID', '-', 'no unit'],
    ['Z', 'None', 'no unit'],
    ['FLAG', '', 'no unit'],
    // Null is not known, which is not the same as having none.
    ['NQ', null, 'not recorded'],
  ])('%s with unit %j shows %j', (name, written, shown) => {
    expect(COLUMNS.find((c) => c.name === name)?.unit).toBe(written);
    const row = byId(root, columnId(name)) as Element;
    const unit = all(row, (e) => e.tag === 'td' && e.attrs.class === 'unit')[0] as Element;
    expect(unit.text).toBe(shown);
    expect(all(unit, (e) => e.attrs.class === 'muted')).toHaveLength(1);
  });

  test('shows units as written, escaped, and descriptions made safe', () => {
    expect(byId(root, columnId('weird'))?.text).toContain('erg/s/cm**2/Angstrom');
    const hostile = byId(root, columnId('a"b<c> d\'e&f')) as Element;
    expect(hostile.text).toContain('a"b<c> d\'e&f');
    expect(html).toContain('<a href="https://example.org/docs?a=1&amp;b=2" rel="noopener noreferrer">docs</a>');
    expect(html).toContain('<section class="prose" aria-label="Documentation">Doc<p>More <a>here</a></p></section>');
    expect(byId(root, columnId('NQ'))?.text).toContain('no description');
  });
});

test('a table page of 1,000 columns weighs at most 100 KB compressed (gzip, the weaker of the two a host uses)', () => {
  // Varied text, as a real table's: names, descriptions, UCDs and units drawn from a seeded stream,
  // a note on every fifth column.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const vocabulary = [...ucdVocabulary().words.keys()];
  const words = [
    'flux',
    'error',
    'aperture',
    'Petrosian',
    'magnitude',
    'redshift',
    'quality',
    'flag',
    'corrected',
    'extinction',
    'radius',
    'half-light',
    'Sersic',
    'index',
    'stellar',
    'mass',
    'velocity',
    'dispersion',
    'signal-to-noise',
    'band',
    'model',
    'fit',
  ];
  const units = ['mag', 'deg', 'arcsec', 'Jy', 'km/s', 'solMass', '-', 'erg/s/cm**2/Angstrom', 'None'];
  const columns = Array.from({ length: 1000 }, (_, i) =>
    column(
      `${pick(['FLUX', 'MAG', 'RAD', 'SB', 'Z', 'VDISP'])}_${pick(['u', 'g', 'r', 'i', 'z', 'Y', 'J', 'H', 'K'])}_${i}`,
      Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(vocabulary)).join(';'),
      pick(units),
      Array.from({ length: 6 + Math.floor(next() * 14) }, () => pick(words)).join(' '),
    ),
  ).map((c, i) => (i % 5 === 0 ? { ...c, documentation: `<p>${c.description ?? ''}; see the <em>release notes</em>.</p>` } : c));
  const html = tablePage({ ...TABLE, columns }, { ...SITE, parent: GROUP });
  expect(all(parsePage(html), (e) => e.tag === 'tr' && (e.attrs.id ?? '').startsWith('col-'))).toHaveLength(1000);
  expect(gzipSync(html).length).toBeLessThanOrEqual(100 * 1024);
});

describe('other pages', () => {
  test('home lists every survey with its title, description, releases and counts', () => {
    const root = parsePage(homePage([SURVEY, EMPTY_SURVEY]));
    const cards = all(root, (e) => e.tag === 'article');
    expect(cards).toHaveLength(2);
    const gama = cards[0] as Element;
    expect(gama.text).toContain('Galaxy And Mass Assembly <script>');
    expect(gama.text).toContain('The survey.');
    expect(gama.text).toContain('Data Release 3');
    expect(gama.text).toContain('2 tables, 9 columns; 1 band, 2 regions; 2 data products');
    expect(cards[1]?.text).toContain('No releases.');
  });

  test('the release page links each group and facility', () => {
    const root = parsePage(releasePage(RELEASE, { survey: SURVEY }));
    const hrefs = all(root, (e) => e.tag === 'a').map((a) => resolve(['browse', 'gama', 'dr3'], a.attrs.href ?? ''));
    expect(hrefs).toEqual(
      expect.arrayContaining([
        'browse/gama/dr3/catalogues/SpecCat.html',
        'browse/gama/dr3/imaging/GALEX.html',
        'browse/gama/dr3/ifs/SAMI.html',
      ]),
    );
  });

  test.each(['..', '.', '', '%2e%2E'])('a page named %j is refused: it could not stay in its folder', (name) => {
    expect(() => groupPage({ ...GROUP, name, tables: [] }, SITE)).toThrow(/cannot name a page's folder/);
  });

  test('the band page shows each region as a card with its FITS header escaped', () => {
    const html = bandPage(BAND, { ...SITE, parent: FACILITY });
    const root = parsePage(html);
    const cards = all(root, (e) => e.tag === 'article');
    expect(cards.map((c) => c.attrs.id)).toEqual(['region-G09', 'region-G12']);
    const first = cards[0] as Element;
    expect(first.text).toContain('135.0');
    // The frame and equinox as astronomers write them (issue 32), not as the metadata spells them.
    expect(first.text).toContain('ICRS');
    expect(first.text).toContain('J2000');
    expect(first.text).not.toMatch(/icrs|j2000/);
    const fits = all(first, (e) => e.tag === 'table')[0] as Element;
    const cells = all(fits, (e) => e.tag === 'tr')
      .slice(1)
      .map((r) => all(r, (e) => e.tag === 'th' || e.tag === 'td').map((c) => c.text));
    expect(cells).toEqual([
      ['SIMPLE', 'T', 'conforms to FITS standard'],
      ['NAXIS', '2', ''],
      ['OBJECT', "'O''Brien <script>alert(1)</script>'", 'hostile " comment <img onerror=x>'],
      ['CTYPE1', "'RA---TAN'", ''],
      ['CTYPE2', "'DEC--TAN'", ''],
    ]);
  });

  test('the facility page inlines the pictures without their own style', () => {
    const html = facilityPage(FACILITY, SITE, pictures());
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).not.toContain('<style');
    expect(parsePage(html).text).toContain('GALEX FUV');
  });

  test('the products listing gives type, arm, wavelengths, R, sampling, dimensions, flux unit and extensions', () => {
    const withNulls: ProductFacility = {
      ...IFS,
      products: [
        ...IFS.products,
        product('cube_red', {
          resolving_power: null,
          wave_step_ang: null,
          spatial_sampling_arcsec: null,
          dimensions: null,
          flux_unit: null,
        }),
        product('spec_red', { product_type: 'spectrum', spatial_sampling_arcsec: null, flux_unit: '-' }),
      ],
    };
    const root = parsePage(productFacilityPage(withNulls, SITE, 'ifs'));
    const rows = all(root, (e) => e.tag === 'tr' && (e.attrs.id ?? '').startsWith('product-'));
    const text = rows.map((r) => all(r, (e) => e.tag === 'td').map((c) => c.text));
    expect(text[0]).toEqual([
      'cube',
      'blue',
      '3700–5700\u00a0Å',
      '1800',
      '1.05\u00a0Å',
      '0.5″',
      '50×50×2048',
      '1e-16 erg/(s cm2 Angstrom)',
    ]);
    // The description and extensions in the row under the product's, across the table.
    const details = all(root, (e) => e.tag === 'tr' && e.attrs.class === 'detail');
    expect(details.map((d) => d.attrs['data-product'])).toEqual(withNulls.products.map((p) => p.name));
    expect(details[0]?.text).toContain('Extensions: PRIMARY fluxVARIANCE variance <of> flux');
    // A map has no wavelengths and a spectrum no spaxels: a dash. What a product has but the
    // metadata leaves null is "not recorded", never "no unit" or a default.
    expect(text[1]).toEqual(['map', 'combined', '–', '1800', '–', '0.5″', '50×50×2048', 'not recorded']);
    expect(text[2]).toEqual([
      'cube',
      'blue',
      '3700–5700\u00a0Å',
      'not recorded',
      'not recorded',
      'not recorded',
      'not recorded',
      'not recorded',
    ]);
    expect(text[3]?.slice(5)).toEqual(['–', '50×50×2048', 'no unit']);
  });

  test('the shell escapes what it is given', () => {
    const html = shell({ path: ['a'], title: 'T <i>', body: raw('<p>b</p>'), crumbs: [{ label: 'H&', path: [] }, { label: 'x"' }] });
    const root = parsePage(html);
    expect(all(root, (e) => e.tag === 'h1')[0]?.text).toBe('T <i>');
    expect(all(root, (e) => e.tag === 'title')[0]?.text).toBe('T <i> – Archive schema');
    expect(all(root, (e) => e.attrs['aria-current'] === 'page')[0]?.text).toBe('x"');
  });
});

describe('style sheet', () => {
  const css = stylesheet();
  test.each([
    ['system fonts', /font:[^;]*system-ui/],
    ['a reading width', /max-width:46rem/],
    ['tables that scroll sideways', /\.scroll\{overflow-x:auto/],
    ['a sticky header row', /thead th\{position:sticky/],
    ['a dark scheme', /@media \(prefers-color-scheme:dark\)\{:root\{color-scheme:dark;/],
    ['a visible focus', /:focus-visible\{outline:3px solid/],
    ['the deep-linked row', /tr:target\{background:/],
    ['printing', /@media print\{/],
    [
      'column and product rows stacked as cards on narrow screens',
      /@media \(max-width:48rem\)\{[^@]*table:is\(\.columns,\.products,\.files\) tr\{display:block/,
    ],
    ['the pictures’ colours', /--pic-f0:#4477aa;.*--pic-f0:#6a9fd8;/s],
    ['the pictures’ rules', /\.pic-sphere\{fill:var\(--pic-sphere/],
  ])('has %s', (_, pattern) => {
    expect(css).toMatch(pattern);
  });

  test('is balanced and the same every time', () => {
    expect(css.split('{').length).toBe(css.split('}').length);
    expect(stylesheet()).toBe(css);
  });
});

// A column's type comes from its fields beyond the API (its YAML's datatype and arraysize): shown as
// the VO writes it, and never guessed where the metadata has none.
describe("a column's type on its table's page", () => {
  const typed = (name: string, datatype: string | null, arraysize: string | null): CatalogueColumn =>
    Object.assign(column(name, 'meta.id', '-'), { [BEYOND_API]: { datatype, arraysize, principal: false } });
  const cases: [string, CatalogueColumn, string][] = [
    ['a scalar', typed('a', 'double', null), 'double'],
    ['text of any length', typed('b', 'char', '*'), 'char[*]'],
    ['a fixed array', typed('c', 'float', '3'), 'float[3]'],
    ['a bounded string', typed('d', 'char', '80*'), 'char[80*]'],
    ['no datatype', typed('e', null, null), 'not recorded'],
    ['no fields beyond the API at all', column('f', 'meta.id', '-'), 'not recorded'],
  ];
  const html = tablePage({ ...TABLE, columns: cases.map(([, c]) => c) }, { ...SITE, parent: GROUP });
  const rows = all(parsePage(html), (e) => e.tag === 'tr' && (e.attrs.id ?? '').startsWith('col-'));
  test.each(cases.map(([what, c, shown], i) => [what, c.name, shown, i] as const))('%s (%s) shows %s', (_, name, shown, i) => {
    const cell = all(rows[i] as Element, (e) => e.tag === 'td' && e.attrs.class === 'datatype')[0];
    expect(rows[i]?.attrs.id).toBe(columnId(name));
    expect(cell?.attrs['data-label']).toBe('Type');
    expect(cell?.text).toBe(shown);
    expect(columnType(cases[i]?.[1] as CatalogueColumn)).toBe(shown === 'not recorded' ? '' : shown);
  });
});
