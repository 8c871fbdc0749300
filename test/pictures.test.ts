// The schema browser's pictures: right ascension to the left, fields across 0h and large fields drawn
// as the sky has them, one mark per region and per band, labels apart, escaping, accessibility, the
// same bytes for the same input, and the size of a map of 5,000 regions.

import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { describe, expect, test } from 'vitest';
import { check } from '../src/build.ts';
import type { RegionYaml } from '../src/kinds/data.ts';
import {
  bandChart,
  markOnDefaultMap,
  pixelToSky,
  placeRegion,
  readWcs,
  skyMap,
  skyProjection,
  wavelengthLabel,
} from '../src/outputs/browser/pictures/index.ts';
import type { ChartFacility, RegionName, SkyPoint, SkyRegion } from '../src/outputs/browser/pictures/index.ts';
import { textWidth } from '../src/outputs/browser/pictures/svg.ts';
import { geoHammer, geoMollweide } from '../src/outputs/browser/pictures/projections.ts';
import { geoHammer as libraryHammer, geoMollweide as libraryMollweide } from 'd3-geo-projection';
import { walkNodes } from '../src/pipeline/assemble.ts';
import { PROJECT } from './helpers.ts';
import { header, tan } from './sky-fixture.ts';

// ---- Reading the pictures back ------------------------------------------------------------------------------------

interface Element {
  tag: string;
  attrs: Record<string, string>;
  /** The element's own text, entities decoded. */
  text: string;
  children: Element[];
  parent: Element | undefined;
}

/** Parses SVG text with a real XML parser after checking it is well-formed; the root element. */
function parseSvg(svg: string): Element {
  expect(() => SyntaxValidator.validate(svg)).not.toThrow();
  // The validator lets a raw < or & through in an attribute value; XML does not.
  expect(svg).not.toMatch(/="[^"]*</);
  expect(svg).not.toMatch(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
  });
  const nodes = parser.parse(svg) as Record<string, unknown>[];
  const build = (node: Record<string, unknown>, parent: Element | undefined): Element | undefined => {
    const tag = Object.keys(node).find((k) => k !== ':@');
    if (tag === undefined || tag === '#text') return undefined;
    const element: Element = { tag, attrs: (node[':@'] ?? {}) as Record<string, string>, text: '', children: [], parent };
    for (const child of node[tag] as Record<string, unknown>[]) {
      if ('#text' in child) element.text += String(child['#text']);
      else {
        const built = build(child, element);
        if (built) element.children.push(built);
      }
    }
    return element;
  };
  const roots = nodes.map((n) => build(n, undefined)).filter((e) => e !== undefined);
  expect(roots).toHaveLength(1);
  return roots[0] as Element;
}

function all(root: Element, predicate: (e: Element) => boolean): Element[] {
  const out: Element[] = [];
  const visit = (e: Element) => {
    if (predicate(e)) out.push(e);
    e.children.forEach(visit);
  };
  visit(root);
  return out;
}

const marksOf = (root: Element, attribute = 'data-region') => all(root, (e) => attribute in e.attrs);

/** The subpaths of path data as absolute points (the pictures write M, m, l, h, v and z). */
function subpaths(d: string): [number, number][][] {
  const tokens = d.match(/[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)/g) ?? [];
  const out: [number, number][][] = [];
  let x = 0;
  let y = 0;
  let command = '';
  let i = 0;
  const next = () => Number(tokens[i++]);
  while (i < tokens.length) {
    const token = tokens[i] ?? '';
    if (/[A-Za-z]/.test(token)) {
      command = token;
      i++;
      if (command === 'z' || command === 'Z') continue;
    }
    if (command === 'M' || command === 'm') {
      const [dx, dy] = [next(), next()];
      [x, y] = command === 'M' ? [dx, dy] : [x + dx, y + dy];
      out.push([[x, y]]);
      command = command === 'M' ? 'L' : 'l';
      continue;
    }
    if (command === 'l') {
      x += next();
      y += next();
    } else if (command === 'L') {
      x = next();
      y = next();
    } else if (command === 'h') x += next();
    else if (command === 'v') y += next();
    else throw new Error(`unexpected path command ${command}`);
    out.at(-1)?.push([x, y]);
  }
  return out;
}

/** The distance from a point to a polyline. */
function distanceToPolyline([px, py]: readonly [number, number], line: readonly [number, number][]): number {
  let best = Infinity;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1] as [number, number];
    const [bx, by] = line[i] as [number, number];
    const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2));
    best = Math.min(best, Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay))));
  }
  return best;
}

// ---- Fixtures -----------------------------------------------------------------------------------------------------

function region(key: string, fields: Partial<SkyRegion> = {}): SkyRegion {
  return { key, name: `R${key}`, facility: 'VST', band: 'r', ra_c: '150', dec_c: '2', unit: 'deg', frame: 'icrs', ...fields };
}

// ---- The sky map --------------------------------------------------------------------------------------------------

describe('the sky map', () => {
  const layouts = [
    { centre: 180, projection: 'hammer' as const },
    { centre: 0, projection: 'hammer' as const },
    { centre: 180, projection: 'mollweide' as const },
    { centre: 0, projection: 'mollweide' as const },
  ];

  test.each(layouts)('right ascension increases to the left (centre $centre, $projection)', (layout) => {
    const at = (ra: number) => region(String(ra), { ra_c: String(ra), dec_c: '10' });
    const svg = skyMap([at(90), at(60), at(300), at(330)], layout);
    const x: Record<string, number> = Object.fromEntries(
      marksOf(parseSvg(svg)).map((m) => [m.attrs['data-region'] ?? '', Number(m.attrs.cx)]),
    );
    expect(x['90']).toBeLessThan(x['60'] ?? NaN);
    expect(x['330']).toBeLessThan(x['300'] ?? NaN);
    const projection = skyProjection(layout);
    expect(projection([90, 0])?.[0]).toBeLessThan(projection([60, 0])?.[0] ?? NaN);
  });

  test('a field across 0h is drawn in two pieces at the edges, not across the map', () => {
    const field = region('wrap', { fits_header: tan(0.3, -10, 4, 10) });
    for (const centre of [180, 0]) {
      const root = parseSvg(skyMap([field], { centre }));
      const pieces = subpaths(marksOf(root)[0]?.attrs.d ?? '');
      expect(pieces).toHaveLength(centre === 180 ? 2 : 1);
      for (const piece of pieces) {
        const xs = piece.map(([x]) => x);
        expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(20);
      }
      const projection = skyProjection({ centre });
      const middle = projection([centre, 0])?.[0] ?? NaN;
      const xs = pieces.flat().map(([x]) => x);
      // At the edges when 0h is there, else about the middle.
      if (centre === 180) expect(Math.min(...xs.map((x) => Math.abs(x - middle)))).toBeGreaterThan(400);
      else expect(Math.max(...xs.map((x) => Math.abs(x - middle)))).toBeLessThan(20);
    }
  });

  test('a large field’s edges follow the sky: each edge’s middle pixel is on the outline drawn', () => {
    const big = tan(100, 50, 40, 36);
    const root = parseSvg(skyMap([region('big', { fits_header: big })]));
    const [outline] = subpaths(marksOf(root)[0]?.attrs.d ?? '');
    const wcs = readWcs(big);
    if (typeof wcs === 'string') throw new Error(wcs);
    const projection = skyProjection();
    const n = wcs.naxis[0];
    for (const [p1, p2] of [
      [n / 2 + 0.5, 0.5],
      [n + 0.5, n / 2 + 0.5],
      [n / 2 + 0.5, n + 0.5],
      [0.5, n / 2 + 0.5],
    ] as const) {
      const sky = pixelToSky(wcs, p1, p2) as SkyPoint;
      const xy = projection([sky[0], sky[1]]) as [number, number];
      expect(distanceToPolyline(xy, outline ?? [])).toBeLessThan(0.6);
    }
    // The middle of the top edge is not where a straight line between its corners would put it.
    const corner1 = projection([...(pixelToSky(wcs, 0.5, n + 0.5) as SkyPoint)]) as [number, number];
    const corner2 = projection([...(pixelToSky(wcs, n + 0.5, n + 0.5) as SkyPoint)]) as [number, number];
    const middle = projection([...(pixelToSky(wcs, n / 2 + 0.5, n + 0.5) as SkyPoint)]) as [number, number];
    expect(distanceToPolyline(middle, [corner1, corner2])).toBeGreaterThan(3);
  });

  test('a region whose header has no usable WCS is drawn at its centre, and one without a position nowhere', () => {
    expect(placeRegion(region('1', { fits_header: tan(150, 2, 1) }))).toMatchObject({ kind: 'footprint' });
    expect(placeRegion(region('2', { fits_header: header({ CTYPE1: 'RA---AIT', CTYPE2: 'DEC--AIT' }) }))).toEqual({
      kind: 'point',
      at: [150, 2],
    });
    expect(placeRegion(region('3', { fits_header: null, ra_c: '9', unit: 'hourangle' }))).toEqual({ kind: 'point', at: [135, 2] });
    expect(placeRegion(region('4', { unit: 'm' }))).toEqual({ kind: 'unplaced', reason: 'the unit "m" is not an angle' });
  });

  test('exactly one mark per region with a position, each with its key; the others counted in the description', () => {
    const regions = [
      ...Array.from({ length: 10 }, (_, i) => region(`f${i}`, { fits_header: tan(i * 36, i * 8 - 40, 5, 10) })),
      ...Array.from({ length: 10 }, (_, i) => region(`p${i}`, { ra_c: String(i * 30 + 5), dec_c: String(60 - i * 12) })),
      ...Array.from({ length: 5 }, (_, i) => region(`t${i}`, { fits_header: tan(i * 70, 20, 0.01, 1), facility: 'HSC' })),
      region('no-unit', { unit: 'm' }),
      region('no-frame', { frame: 'supergalactic' }),
    ];
    const root = parseSvg(skyMap(regions));
    const marks = marksOf(root);
    expect(marks.map((m) => m.attrs['data-region']).sort()).toEqual(
      regions
        .slice(0, 25)
        .map((r) => r.key)
        .sort(),
    );
    expect(marks.filter((m) => m.tag === 'path')).toHaveLength(10);
    expect(marks.filter((m) => m.tag === 'circle')).toHaveLength(15);
    const desc = all(root, (e) => e.tag === 'desc')[0]?.text ?? '';
    expect(desc).toContain('25 imaging regions');
    expect(desc).toContain('2 regions without a position on the sky are not shown');
  });

  test('each mark links to its region’s page, titled with region, facility and band', () => {
    const regions = [
      region('1', { name: 'G09', facility: 'VST', band: 'u', fits_header: tan(135, 0.5, 5, 10) }),
      region('2', { name: 'D10', facility: 'HSC', band: 'g' }),
    ];
    const linked = parseSvg(skyMap(regions, { href: (r) => `/browse/regions/${r.key}/` }));
    for (const mark of marksOf(linked)) {
      const a = mark.parent;
      expect(a?.tag).toBe('a');
      expect(a?.attrs.href).toBe(`/browse/regions/${mark.attrs['data-region']}/`);
    }
    const titles = all(linked, (e) => e.tag === 'a').map((a) => a.children.find((c) => c.tag === 'title')?.text);
    expect(titles.sort()).toEqual(['D10 (HSC g)', 'G09 (VST u)']);
    // Without addresses, no links: the title goes in the mark.
    const plain = parseSvg(skyMap(regions));
    expect(all(plain, (e) => e.tag === 'a')).toEqual([]);
    expect(
      marksOf(plain)
        .map((m) => m.children[0]?.text)
        .sort(),
    ).toEqual(['D10 (HSC g)', 'G09 (VST u)']);
  });

  test('the map is an accessible image that scales: role, name, description, a viewBox and no size', () => {
    const root = parseSvg(skyMap([region('1')], { title: 'Imaging of GAMA DR3', description: 'Where GAMA imaged.' }));
    expect(root.tag).toBe('svg');
    expect(root.attrs).toMatchObject({ role: 'group', 'aria-label': 'Imaging of GAMA DR3', xmlns: 'http://www.w3.org/2000/svg' });
    expect(root.attrs.viewBox).toMatch(/^0 0 960 \d+(\.\d)?$/);
    expect(root.attrs).not.toHaveProperty('width');
    expect(root.attrs).not.toHaveProperty('height');
    expect(root.children.slice(0, 3).map((e) => e.tag)).toEqual(['title', 'desc', 'style']);
    expect(root.children[0]?.text).toBe('Imaging of GAMA DR3');
    expect(root.children[1]?.text).toMatch(/^Where GAMA imaged\. An all-sky map in equatorial coordinates/);
    // Colours a page can set, with defaults for each scheme.
    expect(root.children[2]?.text).toContain('var(--pic-f0,#4477aa)');
    expect(root.children[2]?.text).toContain('@media (prefers-color-scheme:dark)');
  });

  const hostile = 'a<b & c "d" \'e\' ]]> \u0001 é 🌌';
  test('curator text is escaped: names, keys, facilities, bands and addresses with markup stay text', () => {
    const regions = [region(`k"<&>`, { name: hostile, facility: `<script>alert(1)</script>`, band: 'r&"i"' })];
    const root = parseSvg(skyMap(regions, { href: () => `/r?a=1&b="2"<x>`, title: hostile, description: hostile }));
    const mark = marksOf(root)[0];
    expect(mark?.attrs['data-region']).toBe('k"<&>');
    expect(mark?.parent?.attrs.href).toBe('/r?a=1&b="2"<x>');
    const cleaned = hostile.replace('\u0001', '\uFFFD');
    expect(mark?.parent?.children[0]?.text).toBe(`${cleaned} (<script>alert(1)</script> r&"i")`);
    expect(root.attrs['aria-label']).toBe(cleaned);
    expect(all(root, (e) => e.tag === 'script')).toEqual([]);
    expect(all(root, (e) => e.tag === 'text').map((t) => t.text)).toContain('<script>alert(1)</script> (1)');
  });

  test('the same regions give the same bytes', () => {
    const regions = Array.from({ length: 50 }, (_, i) =>
      region(String(i), { facility: ['VST', 'VISTA', 'WISE'][i % 3], fits_header: i % 2 ? tan(i * 7, i - 25, 2, 5) : null }),
    );
    const first = skyMap(regions, { href: (r) => `/r/${r.key}/` });
    expect(skyMap(structuredClone(regions), { href: (r) => `/r/${r.key}/` })).toBe(first);
    // Coordinates are written with at most one decimal.
    expect(first).not.toMatch(/\d\.\d\d/);
  });

  test('a facility keeps its colour when facilities are added after it', () => {
    const colourOf = (svg: string, key: string) => {
      const mark = marksOf(parseSvg(svg)).find((m) => m.attrs['data-region'] === key);
      let e = mark?.parent;
      while (e && !/pic-f\d/.test(e.attrs.class ?? '')) e = e.parent;
      return /pic-f\d/.exec(e?.attrs.class ?? '')?.[0];
    };
    const before = [region('1', { facility: 'VST' }), region('2', { facility: 'VISTA', ra_c: '30' })];
    const after = [region('0', { facility: 'Euclid', ra_c: '60' }), ...before];
    const order = ['VST', 'VISTA', 'Euclid'];
    expect(colourOf(skyMap(before, { facilities: order }), '1')).toBe(colourOf(skyMap(after, { facilities: order }), '1'));
    expect(colourOf(skyMap(before, { facilities: order }), '2')).toBe(colourOf(skyMap(after, { facilities: order }), '2'));
    expect(colourOf(skyMap(after, { facilities: order }), '1')).not.toBe(colourOf(skyMap(after, { facilities: order }), '2'));
  });

  test('one field imaged by several facilities shows each one’s colour along its outline, filled once', () => {
    const field = tan(135, 0.5, 6, 10);
    const regions = ['VST', 'VISTA', 'WISE'].flatMap((facility) =>
      ['a', 'b'].map((band) => region(`${facility}-${band}`, { facility, band, fits_header: field })),
    );
    const marks = marksOf(parseSvg(skyMap(regions)));
    expect(marks).toHaveLength(6);
    const offsets = new Set(marks.map((m) => m.attrs['stroke-dashoffset']));
    expect(offsets.size).toBe(3);
    for (const m of marks) expect(m.attrs['stroke-dasharray']).toBe('5 10');
    expect(marks.filter((m) => m.attrs['fill-opacity'] !== '0')).toHaveLength(1);
  });

  test('a map of 5,000 tiles of 0.25° to 2° keeps under 100 bytes a region besides the texts given, and 200 KB gzipped', () => {
    // A deterministic generator (a linear congruential one), tiles spread evenly over the sphere.
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const facilities = ['VST', 'VISTA', 'WISE', 'GALEX', 'HSC', 'SDSS', 'UKIRT', 'Euclid', 'HST', 'Spitzer'];
    const regions = Array.from({ length: 5000 }, (_, i) => {
      const ra = random() * 360;
      const dec = (Math.asin(random() * 2 - 1) * 180) / Math.PI;
      const facility = facilities[i % facilities.length] ?? '';
      return region(String(1000 + i), {
        name: `T${Math.round(ra * 10)}${dec < 0 ? '-' : '+'}${Math.round(Math.abs(dec) * 10)}`,
        facility,
        band: 'r',
        fits_header: tan(ra, dec, 0.25 + (i % 8) * 0.25, 0.5 + (i % 5) * 0.2),
      });
    });
    const href = (r: RegionName) => `/browse/r/${r.key}/`;
    const svg = skyMap(regions, { href });
    expect(marksOf(parseSvg(svg))).toHaveLength(5000);
    // Marked beforehand, as a facility's regions are for the home page's map: the same picture.
    const marked = regions.map((r) => ({ key: r.key, name: r.name, facility: r.facility, band: r.band, mark: markOnDefaultMap(r) }));
    expect(skyMap(marked, { href })).toBe(svg);
    expect(skyMap(marked.slice(0, 40), { facilities: ['b'] })).toBe(skyMap(regions.slice(0, 40), { facilities: ['b'] }));
    expect(() => skyMap(marked, { projection: 'mollweide' })).toThrow(/marked for another projection/);
    const given = regions.reduce((n, r) => n + href(r).length + r.key.length + `${r.name} (${r.facility} ${r.band})`.length, 0);
    const bytes = Buffer.byteLength(svg);
    expect((bytes - given) / 5000).toBeLessThan(100);
    expect(gzipSync(svg).length).toBeLessThan(200_000);
  });
});

describe('the sky map of the bundled metadata', () => {
  test('every region is drawn from its header’s WCS, as a footprint about its centre, one mark each', async () => {
    const project = path.join(PROJECT, 'metadata');
    const result = await check({ metadataDir: project, displayRoot: PROJECT, reference: true });
    if (!result.archive) throw new Error('the bundled metadata does not load');
    const regions: SkyRegion[] = walkNodes(result.archive)
      .filter((n) => n.kind === 'ImagingRegion')
      .map((n) => {
        const r = n.node as RegionYaml;
        return { ...r, key: String(r.id), facility: n.parent?.parent?.node.name ?? '', band: n.parent?.node.name ?? '' };
      });
    for (const r of regions) {
      const placement = placeRegion(r);
      expect(placement.kind, r.name).toBe('footprint');
      if (placement.kind !== 'footprint') continue;
      // The middle of the ring's bounds is within a degree of the centre the metadata gives.
      const ras = placement.ring.map(([ra]) => ((ra - Number(r.ra_c) + 540) % 360) - 180);
      const decs = placement.ring.map(([, dec]) => dec);
      expect(Math.abs((Math.max(...ras) + Math.min(...ras)) / 2), r.name).toBeLessThan(1);
      expect(Math.abs((Math.max(...decs) + Math.min(...decs)) / 2 - Number(r.dec_c)), r.name).toBeLessThan(1);
    }
    const marks = marksOf(parseSvg(skyMap(regions, { href: (r) => `/r/${r.key}/` })));
    expect(marks.map((m) => m.attrs['data-region']).sort()).toEqual(regions.map((r) => r.key).sort());
  });
});

// ---- The band chart -----------------------------------------------------------------------------------------------

describe('the band chart', () => {
  const band = (name: string, wave: number) => ({ key: `gama.dr3.X.${name}`, name, central_wave_ang: wave });
  const facilities: ChartFacility[] = [
    { name: 'GALEX', bands: [band('FUV', 1549), band('NUV', 2304)] },
    { name: 'VST', bands: [band('u', 3578), band('g', 4800), band('r', 6240), band('i', 7690)] },
    // Narrow bands close together, and a broad band among them: their names must keep apart.
    {
      name: 'HSC',
      bands: [
        band('NB387', 3862),
        band('NB395', 3952),
        band('NB400', 4000),
        band('g', 4798),
        band('NB816', 8177),
        band('i', 7706),
        band('z', 8908),
        band('y', 9775),
        band('NB921', 9214),
        band('NB926', 9260),
      ],
    },
    { name: 'WISE', bands: [band('W1', 33526), band('W2', 46028), band('W3', 115608), band('W4', 220883)] },
  ];

  test('exactly one mark per band, each with its key, further right for a longer wavelength', () => {
    const root = parseSvg(bandChart(facilities));
    const marks = marksOf(root, 'data-band');
    expect(marks.map((m) => m.attrs['data-band']).sort()).toEqual(facilities.flatMap((f) => f.bands.map((b) => b.key)).sort());
    const x = (key: string) => Number(marks.find((m) => m.attrs['data-band'] === key)?.attrs.cx);
    const waves = facilities.flatMap((f) => f.bands).sort((a, b) => a.central_wave_ang - b.central_wave_ang);
    for (let i = 1; i < waves.length; i++) {
      const [a, b] = [waves[i - 1], waves[i]];
      if (a && b && a.key !== b.key) expect(x(a.key)).toBeLessThanOrEqual(x(b.key));
    }
    // Bands of one facility share a row; each facility has its own.
    const rows = new Set(marks.map((m) => m.attrs.cy));
    expect(rows.size).toBe(facilities.length);
  });

  test('band names do not overlap', () => {
    const root = parseSvg(bandChart(facilities));
    // The band names are the texts beside the marks.
    const labels = all(root, (e) => e.tag === 'text' && (e.parent?.children.some((c) => 'data-band' in c.attrs) ?? false));
    expect(labels).toHaveLength(20);
    const boxes = labels.map((t) => {
      const width = textWidth(t.text, Number(t.attrs['font-size']));
      const x = Number(t.attrs.x);
      return { y: Number(t.attrs.y), x0: x - width / 2, x1: x + width / 2, text: t.text };
    });
    for (const a of boxes)
      for (const b of boxes)
        if (a !== b && Math.abs(a.y - b.y) < 10) expect(a.x1 <= b.x0 || b.x1 <= a.x0, `${a.text} and ${b.text}`).toBe(true);
  });

  test('each band links to its page, titled with its facility and wavelength', () => {
    const root = parseSvg(bandChart(facilities, { href: (b) => `/browse/bands/${b.key}/` }));
    const w1 = marksOf(root, 'data-band').find((m) => m.attrs['data-band'] === 'gama.dr3.X.W1');
    expect(w1?.parent?.tag).toBe('a');
    expect(w1?.parent?.attrs.href).toBe('/browse/bands/gama.dr3.X.W1/');
    expect(w1?.parent?.children.find((c) => c.tag === 'title')?.text).toBe('W1 (WISE): 33526 Å (3.3526 µm)');
  });

  test('the axis is logarithmic, with ticks at 1, 2 and 5 of each power of ten, in Å below 1 µm', () => {
    const root = parseSvg(bandChart(facilities));
    const ticks = all(root, (e) => e.tag === 'text' && e.parent?.attrs.class === 'pic-axis').map((t) => t.text);
    expect(ticks).toEqual([
      '1000 Å',
      '2000 Å',
      '5000 Å',
      '1 µm',
      '2 µm',
      '5 µm',
      '10 µm',
      '20 µm',
      '50 µm',
      'central wavelength (logarithmic)',
    ]);
    const x = Object.fromEntries(
      all(root, (e) => e.tag === 'text' && e.parent?.attrs.class === 'pic-axis').map((t) => [t.text, Number(t.attrs.x)]),
    );
    // Equal ratios, equal distances.
    expect((x['1 µm'] ?? 0) - (x['1000 Å'] ?? 0)).toBeCloseTo((x['10 µm'] ?? 0) - (x['1 µm'] ?? 0), 0);
  });

  const labels: [number, string][] = [
    [500, '500 Å'],
    [1000, '1000 Å'],
    [5000, '5000 Å'],
    [10_000, '1 µm'],
    [20_000, '2 µm'],
    [35_000, '3.5 µm'],
    [200_000, '20 µm'],
    [1e7, '1 mm'],
    [2.1e9, '21 cm'],
    [1e10, '1 m'],
  ];
  test.each(labels)('%d Å is labelled %s', (angstrom, text) => expect(wavelengthLabel(angstrom)).toBe(text));

  test('is accessible, escapes curator text, and gives the same bytes for the same bands', () => {
    const hostileFacilities: ChartFacility[] = [
      { name: 'A<&"B', label: `A<&"B · x'y`, bands: [{ key: `k"<&>`, name: 'r<i>&', central_wave_ang: 6000 }] },
    ];
    const svg = bandChart(hostileFacilities, { href: () => '/b?x=1&y="2"', title: 'Bands <of> "A"' });
    const root = parseSvg(svg);
    expect(root.attrs).toMatchObject({ role: 'group', 'aria-label': 'Bands <of> "A"' });
    expect(root.attrs).not.toHaveProperty('width');
    expect(root.children.slice(0, 2).map((e) => e.tag)).toEqual(['title', 'desc']);
    const mark = marksOf(root, 'data-band')[0];
    expect(mark?.attrs['data-band']).toBe('k"<&>');
    expect(mark?.parent?.attrs.href).toBe('/b?x=1&y="2"');
    expect(all(root, (e) => e.tag === 'text').map((t) => t.text)).toEqual(expect.arrayContaining(['r<i>&', `A<&"B · x'y`]));
    expect(bandChart(structuredClone(hostileFacilities), { href: () => '/b?x=1&y="2"', title: 'Bands <of> "A"' })).toBe(svg);
  });

  test('a long facility name goes on two lines, whole, within the room left of the axis', () => {
    const label = 'VLT Survey Telescope (OmegaCAM) (gama dr3)';
    const root = parseSvg(bandChart([{ name: 'VST', label, bands: [{ key: 'k', name: 'r', central_wave_ang: 6000 }] }]));
    const text = all(root, (e) => e.tag === 'text' && e.children.some((c) => c.tag === 'tspan'))[0];
    const lines = all(text as Element, (e) => e.tag === 'tspan').map((t) => t.text);
    expect(lines).toHaveLength(2);
    expect(lines.join(' ')).toBe(label);
    const firstMark = Number(all(root, (e) => e.tag === 'line')[0]?.attrs.x1 ?? 0);
    for (const line of lines) expect(textWidth(line, 12)).toBeLessThan(firstMark);
  });

  test('a facility has the same colour in the band chart as on the sky map', () => {
    const order = ['GALEX', 'VST', 'HSC', 'WISE'];
    const chart = parseSvg(bandChart(facilities, { facilities: order }));
    const map = parseSvg(skyMap([region('1', { facility: 'HSC' })], { facilities: order }));
    const classOf = (root: Element, attribute: string) => {
      let e = marksOf(root, attribute)[0]?.parent;
      while (e && !/pic-f\d/.test(e.attrs.class ?? '')) e = e.parent;
      return e?.attrs.class;
    };
    const hsc = marksOf(chart, 'data-band').find((m) => m.attrs['data-band'] === 'gama.dr3.X.NB387');
    let e = hsc?.parent;
    while (e && !/pic-f\d/.test(e.attrs.class ?? '')) e = e.parent;
    expect(e?.attrs.class).toBe('pic-f2');
    expect(classOf(map, 'data-region')).toBe('pic-f2');
  });
});

describe('the projections', () => {
  // The sky map's own Hammer and Mollweide against d3-geo-projection's, at points over the whole
  // sphere, poles and edges included, forward and back.
  const points: [number, number][] = [];
  for (let lon = -180; lon <= 180; lon += 15) for (let lat = -90; lat <= 90; lat += 7.5) points.push([lon, lat]);

  test.each([
    ['Hammer', geoHammer, libraryHammer],
    ['Mollweide', geoMollweide, libraryMollweide],
  ] as const)('%s is the library’s, forward and inverted', (_name, ours, theirs) => {
    const a = ours().rotate([-180, 0]);
    const b = theirs().rotate([-180, 0]);
    for (const point of points) {
      const p = a(point);
      const q = b(point);
      expect(p?.[0]).toBeCloseTo(q?.[0] ?? Number.NaN, 9);
      expect(p?.[1]).toBeCloseTo(q?.[1] ?? Number.NaN, 9);
      if (Math.abs(point[1]) < 90 && Math.abs(point[0]) < 180) {
        const back = a.invert?.(p ?? [0, 0]);
        expect(back?.[0]).toBeCloseTo(point[0], 6);
        expect(back?.[1]).toBeCloseTo(point[1], 6);
      }
    }
  });
});
