// Pages escape by default: `html` (src/outputs/html.ts) escapes every value put into it, so a value
// with markup in any field of any page reads back as the same text and adds no element; HTML goes in
// unescaped only through `raw`, and only in the places listed here.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { requestHtml } from '../src/outputs/browsable/page.ts';
import { planDownloadIndex } from '../src/outputs/checksums/plan.ts';
import { html, joinHtml, raw } from '../src/outputs/html.ts';
import { apiReferencePage } from '../src/outputs/openapi/page.ts';
import {
  addressPage,
  bandPage,
  facilityPage,
  homePage,
  productFacilityPage,
  shell,
  surveyPage,
  tablePage,
} from '../src/outputs/browser/pages/index.ts';
import type {
  CatalogueColumn,
  CatalogueTable,
  DataProduct,
  ImagingBand,
  ImagingFacility,
  ImagingRegion,
  ParentPlace,
  ProductFacility,
  ReleasePlace,
  Survey,
} from '../src/outputs/browser/pages/index.ts';
import { planOf, wholeText } from '../src/site/plan.ts';
import { PROJECT } from './helpers.ts';
import { node } from './page-fixture.ts';

/** A value with every character that means something in HTML. */
const MARKUP = `<script>alert("x")</script> & 'q' <b>`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &lt;b&gt;';

describe('html', () => {
  test.each([
    ['<script>', '&lt;script&gt;'],
    ['"', '&quot;'],
    ['&', '&amp;'],
    ["'", '&#39;'],
    ['>', '&gt;'],
    ['&amp;', '&amp;amp;'],
    ['plain text', 'plain text'],
  ])('%j is escaped between tags and in an attribute', (value, escaped) => {
    expect(html`<p title="${value}">${value}</p>`.text).toBe(`<p title="${escaped}">${escaped}</p>`);
  });

  test('HTML made by html goes in as it is, once; a list goes in item by item, each escaped', () => {
    const items = ['a<', html`<b>b</b>`, 'c&'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>`.text).toBe('<ul><li>a&lt;</li><li><b>b</b></li><li>c&amp;</li></ul>');
    expect(html`${['<', '>']}`.text).toBe('&lt;&gt;');
  });

  test('raw writes its text as it is', () => {
    expect(html`<div>${raw('<em>x</em> & y')}</div>`.text).toBe('<div><em>x</em> & y</div>');
  });

  test('numbers are written as String writes them; false, null and undefined write nothing', () => {
    expect(html`${3}|${0}|${-1.5}|${false}|${null}|${undefined}|`.text).toBe('3|0|-1.5||||');
  });

  test('joinHtml puts its separator between the items, escaped unless it is HTML', () => {
    expect(joinHtml(['a', html`<br>`, '<c>'], ' & ').text).toBe('a &amp; <br> &amp; &lt;c&gt;');
    expect(joinHtml(['a', 'b'], html`<br>`).text).toBe('a<br>b');
    expect(joinHtml([], ', ').text).toBe('');
  });
});

// ---- Pages ----------------------------------------------------------------------------------------------------------

interface Element {
  tag: string;
  attrs: Record<string, string>;
  text: string;
}

/** Every element of a page with its attributes and text, entities decoded, as a browser reads them. */
function elements(page: string): Element[] {
  const found: Element[] = [];
  const open: Element[] = [];
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        const element = { tag, attrs, text: '' };
        found.push(element);
        open.push(element);
      },
      onclosetag() {
        open.pop();
      },
      ontext(text) {
        for (const element of open) element.text += text;
      },
    },
    { decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.end(page);
  return found;
}

const SURVEY: Survey = {
  url: 'http://localhost:8080/api/schema/1/',
  name: 'gama',
  pretty_name: 'GAMA',
  title: 'Galaxy And Mass Assembly',
  description: '<p>The survey.</p>',
  pi: 'Simon Driver',
  contact: { email: 'gama-team@example.org', name: 'GAMA Team' },
  website: 'https://www.gama-survey.org/',
  active: true,
  type: 'Survey',
  data_releases: [],
};
const RELEASE: ReleasePlace = { survey: SURVEY, release: { name: 'dr3', pretty_name: 'Data Release 3' } };
const GROUP: ParentPlace = { ...RELEASE, parent: { name: 'SpecCat', pretty_name: null } };

function table(column: Partial<CatalogueColumn>): CatalogueTable {
  const columns = [{ ...node('CATAID', 'CatalogueColumn'), ucd: 'meta.id', unit: 'deg', ...column }];
  return { ...node('SpecObj', 'CatalogueTable'), input_cat: false, columns };
}

function band(region: Partial<ImagingRegion>): ImagingBand {
  const regions = [
    {
      ...node('G09', 'ImagingRegion'),
      fits_header: { NAXIS: [2, 'number of axes'] as const },
      ra_c: '135.0',
      dec_c: '0.5',
      unit: 'deg',
      frame: 'icrs',
      equinox: 'j2000',
      ...region,
    },
  ];
  return { ...node('r', 'ImagingBand'), band_key: 'gama.dr3.VST.r', central_wave_ang: 6200, regions };
}

function products(product: Partial<DataProduct>): ProductFacility {
  const one: DataProduct = {
    ...node('cube_blue', 'IFSDataProduct'),
    product_key: 'sami.dr3.sami.cube_blue',
    product_type: 'cube',
    arm: 'blue',
    wave_min_ang: 3700,
    wave_max_ang: 5700,
    wave_step_ang: 1.05,
    resolving_power: 1800,
    spatial_sampling_arcsec: 0.5,
    dimensions: [50, 50, 2048],
    flux_unit: 'erg/s',
    extensions: [{ name: 'PRIMARY', holds: 'flux' }],
    ...product,
  };
  return { ...node('SAMI', 'IFSFacility'), products: [one] };
}

const openapi = (edit: (document: Record<string, Record<string, unknown>>) => void): string => {
  const document: Record<string, Record<string, unknown>> = {
    info: { title: 'Archive', version: '1' },
    paths: { '/api/schema/': { get: { summary: 'Listing', responses: { 200: { description: 'The listing.' } } } } },
  };
  edit(document);
  return apiReferencePage({ openapi: '3.1.1', ...document });
};

function downloadPage(name: string): string {
  const [page] = planDownloadIndex([planOf(`download/${name}`, ['x'])], new Map(), () => '0'.repeat(64));
  return page ? wholeText(page.path, page.pieces) : '';
}

/** A page with MARKUP in one of its fields, and the element that shows it: by its text, or by one attribute. */
const CASES: [field: string, page: () => string, shows: (e: Element) => boolean, attribute?: string][] = [
  ['a page’s title', () => shell({ path: ['a'], title: MARKUP, body: html`` }), (e) => e.tag === 'h1'],
  ['the document’s title', () => shell({ path: ['a'], title: MARKUP, body: html`` }), (e) => e.tag === 'title'],
  ['the site’s name', () => shell({ path: [], title: 'T', body: html``, site: MARKUP }), (e) => e.attrs.class === 'site-name'],
  [
    'a page’s description',
    () => shell({ path: [], title: 'T', body: html``, description: MARKUP }),
    (e) => e.attrs.name === 'description',
    'content',
  ],
  [
    'a breadcrumb',
    () => shell({ path: ['a', 'b'], title: 'T', body: html``, crumbs: [{ label: MARKUP, path: ['a'] }, { label: 'T' }] }),
    (e) => e.tag === 'li',
  ],
  ['the home page’s introduction', () => homePage([], { intro: MARKUP }), (e) => e.attrs.class === 'lead'],
  ['a survey’s title', () => surveyPage({ ...SURVEY, title: MARKUP }), (e) => e.attrs.class === 'title'],
  ['a survey’s principal investigator', () => surveyPage({ ...SURVEY, pi: MARKUP }), (e) => e.tag === 'dd'],
  ['a survey’s website that is no address', () => surveyPage({ ...SURVEY, website: MARKUP }), (e) => e.tag === 'dd'],
  ['a contact’s name', () => surveyPage({ ...SURVEY, contact: { name: MARKUP, email: 'a@b.org' } }), (e) => e.tag === 'a'],
  ['a survey’s label on the addresses page', () => addressPage([{ name: 'gama', label: MARKUP, releases: [] }]), (e) => e.tag === 'a'],
  ['a column’s name', () => tablePage(table({ name: MARKUP }), GROUP), (e) => e.tag === 'code' && e.attrs.class === 'name'],
  ['a column’s name, as its row’s data', () => tablePage(table({ name: MARKUP }), GROUP), (e) => e.tag === 'tr', 'data-name'],
  ['a column’s pretty name', () => tablePage(table({ pretty_name: MARKUP }), GROUP), (e) => e.attrs.class === 'pretty'],
  ['a column’s unit', () => tablePage(table({ unit: MARKUP }), GROUP), (e) => e.attrs.class === 'unit'],
  ['a column’s UCD', () => tablePage(table({ ucd: MARKUP }), GROUP), (e) => e.attrs.class === 'ucd'],
  ['a table’s file', () => tablePage({ ...table({}), file_name: MARKUP }, GROUP), (e) => e.tag === 'code'],
  ['a table’s version', () => tablePage({ ...table({}), version: MARKUP }, GROUP), (e) => e.tag === 'dd'],
  ['a region’s frame', () => bandPage(band({ frame: MARKUP }), GROUP), (e) => e.tag === 'dd'],
  ['a region’s centre', () => bandPage(band({ ra_c: MARKUP }), GROUP), (e) => e.tag === 'code'],
  [
    'a FITS card’s comment',
    () => bandPage(band({ fits_header: { NAXIS: [2, MARKUP] } }), GROUP),
    (e) => e.tag === 'td' && e.attrs.class === undefined,
  ],
  ['a FITS card’s keyword', () => bandPage(band({ fits_header: { [MARKUP]: [2, ''] } }), GROUP), (e) => e.tag === 'code'],
  ['a band’s key', () => bandPage({ ...band({}), band_key: MARKUP }, GROUP), (e) => e.tag === 'code'],
  ['a product’s type', () => productFacilityPage(products({ product_type: MARKUP }), RELEASE, 'ifs'), (e) => e.tag === 'td'],
  ['a product’s arm', () => productFacilityPage(products({ arm: MARKUP }), RELEASE, 'ifs'), (e) => e.tag === 'td'],
  ['a product’s flux unit', () => productFacilityPage(products({ flux_unit: MARKUP }), RELEASE, 'ifs'), (e) => e.tag === 'code'],
  [
    'what an extension holds',
    () => productFacilityPage(products({ extensions: [{ name: 'PRIMARY', holds: MARKUP }] }), RELEASE, 'ifs'),
    (e) => e.tag === 'li',
  ],
  ['a browsable page’s request', () => requestHtml('list', 'GET', `/api/schema/?q=${MARKUP}`), (e) => e.attrs.class === 'request'],
  // The page's heading is the shell's ("API reference"); the API's title opens its first paragraph.
  ['the API’s title', () => openapi((d) => (d.info = { title: MARKUP, version: '1' })), (e) => e.tag === 'p' && e.attrs.class === 'muted'],
  ['a path’s summary', () => openapi((d) => (d.paths = { '/a': { summary: MARKUP, get: { responses: {} } } })), (e) => e.tag === 'strong'],
  ['a file in the download', () => downloadPage(MARKUP), (e) => e.tag === 'a'],
];

describe.each(CASES)('%s', (_field, page, shows, attribute) => {
  test('shows the value as written, escaped, and adds no element', () => {
    const text = page();
    expect(text).toContain(ESCAPED);
    expect(text).not.toContain(MARKUP);
    const all = elements(text);
    const shown = all.filter(shows).map((e) => (attribute === undefined ? e.text : (e.attrs[attribute] ?? '')));
    expect(shown.some((value) => value.includes(MARKUP))).toBe(true);
    // The one script a browser page has is the site's own.
    expect(all.filter((e) => e.tag === 'script').map((e) => e.attrs.src ?? '')).toEqual(
      all.some((e) => e.tag === 'script') ? [expect.stringMatching(/browse\/site\.js$/)] : [],
    );
    expect(all.filter((e) => e.tag === 'b')).toEqual(
      // The browsable request line's method is bold; nothing else in these pages is.
      attribute === undefined && text.includes('<pre class="request">') ? [expect.objectContaining({ text: 'GET' })] : [],
    );
  });
});

// ---- Raw HTML -------------------------------------------------------------------------------------------------------

describe('raw HTML', () => {
  test('curator HTML is shown as HTML, through the sanitiser', () => {
    const page = tablePage(table({ description: '<p>A <em>kept</em> word<script>alert(1)</script></p>' }), GROUP);
    const all = elements(page);
    expect(all.find((e) => e.tag === 'em')?.text).toBe('kept');
    expect(all.filter((e) => e.tag === 'script')).toHaveLength(1);
    expect(page).not.toContain('alert(1)');
  });

  test('a facility’s pictures are inline SVG', () => {
    const facility: ImagingFacility = { ...node('VST', 'ImagingFacility'), bands: [band({})] };
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><title>a &amp; b</title></svg>';
    const all = elements(facilityPage(facility, RELEASE, { bandChart: svg }));
    expect(all.find((e) => e.tag === 'svg')?.text).toBe('a & b');
  });

  test('is written only where it is meant: curator HTML, the pictures, constant CSS and the request’s place', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && full !== path.join(PROJECT, 'src/outputs/html.ts')) {
          for (const [, argument = ''] of readFileSync(full, 'utf8').matchAll(/\braw\((\w*)/g)) {
            found.push(`${path.relative(PROJECT, full)}: raw(${argument}`);
          }
        }
      }
    };
    walk(path.join(PROJECT, 'src'));
    expect(found.sort()).toEqual([
      // The JSON a browsable page shows, and where the edge writes the request into it.
      'src/outputs/browsable/page.ts: raw(REQUEST',
      'src/outputs/browsable/page.ts: raw(STYLE',
      // Curator HTML, once the sanitiser has made it safe.
      'src/outputs/browser/pages/html.ts: raw(clean',
      'src/outputs/browser/pages/html.ts: raw(sanitiseHtml',
      // The SVG pictures, which escape their own text (pictures/svg.ts).
      'src/outputs/browser/pages/imaging.ts: raw(svg',
      // The home page's pictures, made by homePictures in this build or an earlier one.
      'src/outputs/browser/plan.ts: raw(recall',
      // Where a facility's colour class goes on its pages: a NUL, which the planner fills.
      'src/outputs/browser/texts.ts: raw(COLOUR_MARK',
      // Where another output's note goes, a constant comment the page's texts are cut at.
      'src/outputs/browser/texts.ts: raw(NOTE_SLOT',
    ]);
  });
});
