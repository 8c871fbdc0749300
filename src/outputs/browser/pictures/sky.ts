// The all-sky map of imaging regions: an equal-area projection in equatorial coordinates with right
// ascension increasing to the left, a labelled grid, each region's footprint (or centre) linked to
// its page, and a legend of facilities. SVG text made at build time, needing no script.

import { geoArea, geoCentroid, geoPath } from 'd3-geo';
import type { GeoProjection } from 'd3-geo';
import { centreOf, footprintOf } from './footprint.ts';
import { geoHammer, geoMollweide } from './projections.ts';
import type { FitsHeader, SkyPoint } from './footprint.ts';
import { PathWriter, escapeXml, facilityAttributes, facilityOrder, num, pointMark, svgOpen, textWidth } from './svg.ts';

/** A region as the sky map needs it: the metadata's fields, and names for its key, facility and band. */
export interface SkyRegion {
  /** What identifies the region, written as its mark's data-region attribute (its id, say). */
  key: string;
  name: string;
  /** Its facility's name: the legend groups and colours regions by it. */
  facility: string;
  /** Its band's name, shown with the region's name. */
  band: string;
  fits_header?: FitsHeader | null;
  ra_c: string | number;
  dec_c: string | number;
  unit: string;
  frame: string;
}

/** What names a region on a map: its key, name, facility and band. */
export type RegionName = Pick<SkyRegion, 'key' | 'name' | 'facility' | 'band'>;

/**
 * A region with its mark on the map of the default projection and centre made beforehand
 * (markOnDefaultMap), where it is drawn on several maps: its facility's, its band's and the home
 * page's, which is made from every facility's regions and would otherwise project each again.
 */
export interface MarkedRegion extends RegionName {
  mark: SkyMark;
}

/** A region's mark, before the map's facility order and shared places are known; null where it has no place. */
export type SkyMark = Pick<Mark, 'layer' | 'size' | 'element' | 'box' | 'at'> | null;

export interface SkyMapOptions {
  /** The address of a region's page; no link when it returns undefined or is not given. */
  href?: (region: RegionName) => string | undefined;
  /** The picture's name for assistive technology and as its tooltip. */
  title?: string;
  /** A sentence put before the generated description. */
  description?: string;
  /** Hammer–Aitoff (the default) or Mollweide; both equal-area. */
  projection?: 'hammer' | 'mollweide';
  /**
   * The right ascension at the map's centre, in degrees. 180 (the default) puts 12h in the middle and
   * 0h on both edges, and keeps the northern equatorial fields (GAMA's, KiDS-North) whole; 0 puts 0h
   * in the middle, for an archive whose fields gather about it (Stripe 82, the southern fields). A
   * field across the edge is drawn in two pieces either way.
   */
  centre?: number;
  /** Facility names in the order their colours are given (see facilityOrder); others follow. */
  facilities?: readonly string[];
  /**
   * Whether each mark's link is a stop of the page's tab order (true unless said). A map of every
   * region in the archive (80 here, thousands in a large one) would be that many stops before the
   * rest of the page: there the marks are left to the pointer, and the page lists the way to them.
   */
  tabbable?: boolean;
}

/** Where a region goes on the map. */
export type Placement = { kind: 'footprint'; ring: SkyPoint[] } | { kind: 'point'; at: SkyPoint } | { kind: 'unplaced'; reason: string };

/**
 * Where a region is drawn: the outline of its image where its FITS header has a celestial WCS,
 * otherwise a point at its centre (ra_c, dec_c), or nowhere when neither gives a position.
 */
export function placeRegion(region: SkyRegion): Placement {
  const ring = region.fits_header ? footprintOf(region.fits_header) : undefined;
  if (ring) return { kind: 'footprint', ring };
  const centre = centreOf(region.ra_c, region.dec_c, region.unit, region.frame);
  return typeof centre === 'string' ? { kind: 'unplaced', reason: centre } : { kind: 'point', at: centre };
}

// The map's layout, in viewBox units: room on the left for the declination labels, on the right for
// the edge's right ascension label, and the legend below.
const WIDTH = 960;
const LEFT = 46;
const RIGHT = 34;
const TOP = 12;
const MAP_WIDTH = WIDTH - LEFT - RIGHT;
const MAP_HEIGHT = MAP_WIDTH / 2;
const POINT_RADIUS = 3;
// A footprint smaller than this on the map, both ways, is drawn as a point: it would not be seen.
const SMALLEST = 2 * POINT_RADIUS;
const FONT = 12;
/** How far below the equator the hour labels sit. */
const HOUR_LABEL_DROP = 24;
const LEGEND_ROW = 20;

/**
 * The map's projection: from [RA, Dec] in degrees to the picture's viewBox units, right ascension
 * increasing to the left (reflected, as the sky is seen from inside).
 */
export function skyProjection(options: Pick<SkyMapOptions, 'projection' | 'centre'> = {}): GeoProjection {
  return (options.projection === 'mollweide' ? geoMollweide() : geoHammer())
    .reflectX(true)
    .rotate([-(options.centre ?? 180), 0])
    .precision(0.3)
    .fitExtent(
      [
        [LEFT, TOP],
        [LEFT + MAP_WIDTH, TOP + MAP_HEIGHT],
      ],
      { type: 'Sphere' },
    );
}

interface Mark {
  region: RegionName;
  facility: number;
  /** 0 for a footprint, 1 for a point: points are drawn over footprints. */
  layer: number;
  /** Larger footprints go beneath smaller ones, in steps of half a binary order of magnitude. */
  size: number;
  index: number;
  /** The mark element alone; a footprint's may take more attributes (see shareOutlines), a point's is made last (see sharePoints). */
  element: string;
  /** A footprint's bounds on the map: x0, y0, x1, y1. */
  box?: readonly [number, number, number, number];
  /** A point's place on the map. */
  at?: readonly [number, number];
  /** Attributes a footprint takes from the others drawn in the same place. */
  shared?: string;
}

/**
 * The all-sky map of `regions` as SVG text. Each placed region is exactly one mark with a data-region
 * attribute holding its key: a `<path>` for its footprint, or a point at its centre (a `<circle>`; a
 * square or diamond `<path>` from the eighth facility on), inside a link to its page with a title
 * naming region, facility and band. Regions without a position are left out and counted in the
 * description. The same input gives the same bytes.
 */
export function skyMap(regions: readonly (SkyRegion | MarkedRegion)[], options: SkyMapOptions = {}): string {
  const centre = options.centre ?? 180;
  const projectionName = options.projection ?? 'hammer';
  const byDefault = projectionName === 'hammer' && centre === 180;
  const { projection, draw } = byDefault ? defaultMap() : mapOf(options);

  const order = facilityOrder(
    options.facilities,
    regions.map((r) => r.facility),
  );
  const facilityIndex = new Map(order.map((name, i) => [name, i]));
  const counts = new Map<string, number>();
  const marks: Mark[] = [];
  let unplaced = 0;
  regions.forEach((region, index) => {
    const facility = facilityIndex.get(region.facility) ?? 0;
    let mark: SkyMark | undefined;
    if ('mark' in region) {
      if (!byDefault) throw new Error(`region ${region.key} was marked for another projection`);
      mark = region.mark;
    } else mark = markOf(region, projection, draw);
    if (!mark) {
      unplaced++;
      return;
    }
    counts.set(region.facility, (counts.get(region.facility) ?? 0) + 1);
    marks.push({ region, facility, index, ...mark });
  });
  marks.sort((a, b) => a.layer - b.layer || b.size - a.size || a.facility - b.facility || a.index - b.index);
  shareOutlines(marks);
  sharePoints(marks);

  const shown = order.filter((name) => counts.has(name));
  const legendTop = TOP + MAP_HEIGHT + 34;
  const legend = legendOf(shown, counts, facilityIndex, unplaced, legendTop);
  const height = legendTop + legend.height;
  const frame = frameOf(projectionName, centre, projection, draw);
  const sphere = frame.sphere;
  const description = descriptionOf(options.description, marks.length, unplaced, shown, counts, projectionName, centre);

  let out = svgOpen(WIDTH, height, 'sky', options.title ?? 'Imaging regions on the sky', description);
  out += `<path class="pic-sphere" fill="#f6f8fb" d="${sphere}"/>`;
  out += `<path class="pic-grid" fill="none" stroke="#c9ced6" stroke-width=".7" d="${frame.grid}"/>`;
  out += `<g class="pic-marks" stroke-width="1" stroke-linejoin="round">`;
  let open: number | undefined;
  let layer = 0;
  for (const mark of marks) {
    if (mark.facility !== open || mark.layer !== layer) {
      if (open !== undefined) out += '</g>';
      open = mark.facility;
      layer = mark.layer;
      out += `<g ${facilityAttributes(mark.facility, mark.layer === 0)} fill-opacity="${mark.layer === 0 ? '.15' : '.75'}">`;
    }
    const element = mark.shared ? mark.element.replace(/^<path /, `<path ${mark.shared} `) : mark.element;
    out += link(mark.region, element, options.href, options.tabbable ?? true);
  }
  if (open !== undefined) out += '</g>';
  out += '</g>';
  out += `<path class="pic-outline" fill="none" stroke="#7d8591" stroke-width="1.2" d="${sphere}"/>`;
  // The labels go over the marks, which hide them least there: a region under a label shows through
  // its translucent halo, and the labels let the pointer through to the links beneath.
  out += frame.labels;
  out += legend.svg;
  return `${out}</svg>\n`;
}

type Draw = (object: Parameters<ReturnType<typeof geoPath>>[0]) => { d: string; extent: number };

/** A projection, and a way to draw on it that gives SVG path data and how large it is. */
function mapOf(options: Pick<SkyMapOptions, 'projection' | 'centre'>): { projection: GeoProjection; draw: Draw } {
  const projection = skyProjection(options);
  const writer = new PathWriter();
  const path = geoPath(projection, writer);
  const draw: Draw = (object) => {
    path(object);
    const d = writer.take();
    return { d, extent: writer.extent };
  };
  return { projection, draw };
}

let theDefaultMap: ReturnType<typeof mapOf> | undefined;

/** The map of the default projection and centre: made once, as fitting it to the picture takes a while. */
function defaultMap(): ReturnType<typeof mapOf> {
  theDefaultMap ??= mapOf({});
  return theDefaultMap;
}

/** A region's mark on the map of the default projection and centre, to keep with it (MarkedRegion). */
export function markOnDefaultMap(region: SkyRegion): SkyMark {
  const { projection, draw } = defaultMap();
  return markOf(region, projection, draw) ?? null;
}

/** The sphere's outline, the grid and its labels: the same on every map of a projection and centre. */
interface Frame {
  sphere: string;
  grid: string;
  labels: string;
}

const FRAMES = new Map<string, Frame>();

function frameOf(projectionName: string, centre: number, projection: GeoProjection, draw: Draw): Frame {
  const key = `${projectionName} ${centre}`;
  let frame = FRAMES.get(key);
  if (!frame) {
    frame = { sphere: draw({ type: 'Sphere' }).d, grid: draw(grid(centre)).d, labels: gridLabels(projection, centre) };
    FRAMES.set(key, frame);
  }
  return frame;
}

function markOf(
  region: SkyRegion,
  projection: GeoProjection,
  draw: Draw,
): Pick<Mark, 'layer' | 'size' | 'element' | 'box' | 'at'> | undefined {
  const placement = placeRegion(region);
  if (placement.kind === 'unplaced') return undefined;
  const key = escapeXml(region.key);
  let at: SkyPoint;
  if (placement.kind === 'footprint') {
    // d3-geo reads a ring as enclosing the smaller part of the sphere only when it runs clockwise; an
    // image flipped in its header runs the other way, and would enclose the rest of the sky.
    let polygon: GeoJSON.Polygon = { type: 'Polygon', coordinates: [placement.ring.map(([ra, dec]) => [ra, dec])] };
    let area = geoArea(polygon);
    if (area > 2 * Math.PI) {
      polygon = { type: 'Polygon', coordinates: [placement.ring.map(([ra, dec]) => [ra, dec]).reverse()] };
      area = geoArea(polygon);
    }
    // Cut in two at the map's edge, a footprint shows as large as its larger piece.
    const { d, extent } = draw(polygon);
    if (extent >= SMALLEST) {
      const [[x0, y0], [x1, y1]] = geoPath(projection).bounds(polygon);
      const size = area > 0 ? Math.round(Math.log2(area) * 2) : -1000;
      return { layer: 0, size, element: `<path data-region="${key}" d="${d}"/>`, box: [x0, y0, x1, y1] };
    }
    const [ra, dec] = geoCentroid(polygon);
    at = [ra, dec];
  } else {
    at = placement.at;
  }
  const xy = projection([at[0], at[1]]);
  if (!xy) return undefined;
  return { layer: 1, size: 0, element: '', at: [xy[0], xy[1]] };
}

// Footprints this close on the map, at every side, are taken as the same field.
const SAME_PLACE = 2;
// The length of each facility's dash on an outline they share.
const SHARED_DASH = 5;

/**
 * Footprints of several facilities in the same place (one field imaged by each) would show only the
 * outline drawn last. Their outlines are dashed in turn instead, each facility's dash followed by the
 * others', so every facility's colour shows along the outline. Only the lowest is filled, so a field
 * is no darker for being imaged in more bands; the others keep a fill with no opacity, which still
 * takes the pointer and shows when hovered. `marks` are in drawing order.
 */
function shareOutlines(marks: Mark[]): void {
  const cells = new Map<string, Mark[][]>();
  const clusters: Mark[][] = [];
  for (const mark of marks) {
    const box = mark.box;
    if (!box) continue;
    const cx = Math.round((box[0] + box[2]) / 2 / (2 * SAME_PLACE));
    const cy = Math.round((box[1] + box[3]) / 2 / (2 * SAME_PLACE));
    let found: Mark[] | undefined;
    for (let dx = -1; dx <= 1 && !found; dx++)
      for (let dy = -1; dy <= 1 && !found; dy++)
        found = cells.get(`${cx + dx} ${cy + dy}`)?.find((cluster) => {
          const first = cluster[0]?.box;
          return first?.every((v, i) => Math.abs(v - (box[i] ?? v)) <= SAME_PLACE) ?? false;
        });
    if (found) {
      found.push(mark);
      continue;
    }
    const cluster = [mark];
    clusters.push(cluster);
    const key = `${cx} ${cy}`;
    cells.set(key, [...(cells.get(key) ?? []), cluster]);
  }
  for (const cluster of clusters) {
    if (cluster.length < 2) continue;
    const facilities = [...new Set(cluster.map((m) => m.facility))].sort((a, b) => a - b);
    const n = facilities.length;
    cluster.forEach((mark, i) => {
      const parts: string[] = [];
      if (i > 0) parts.push('fill-opacity="0"');
      if (n > 1)
        parts.push(
          `stroke-dasharray="${SHARED_DASH} ${SHARED_DASH * (n - 1)}" stroke-dashoffset="${-SHARED_DASH * facilities.indexOf(mark.facility)}"`,
        );
      if (parts.length > 0) mark.shared = parts.join(' ');
    });
  }
}

/**
 * Makes the points' marks. Points of several facilities in the same place would show only the one
 * drawn last; there each facility's mark is larger than the next one's, so all show, as rings.
 * `marks` are in drawing order, which puts a place's facilities in their order.
 */
function sharePoints(marks: Mark[]): void {
  const places = new Map<string, number[]>();
  const placeOf = (at: readonly [number, number]) => `${Math.round(at[0])} ${Math.round(at[1])}`;
  for (const mark of marks) {
    if (!mark.at) continue;
    const facilities = places.get(placeOf(mark.at)) ?? [];
    if (!facilities.includes(mark.facility)) facilities.push(mark.facility);
    places.set(placeOf(mark.at), facilities);
  }
  for (const mark of marks) {
    if (!mark.at) continue;
    const facilities = places.get(placeOf(mark.at)) ?? [];
    const outer = facilities.length - 1 - facilities.indexOf(mark.facility);
    mark.element = pointMark(
      mark.facility,
      mark.at[0],
      mark.at[1],
      POINT_RADIUS + 2 * outer,
      `data-region="${escapeXml(mark.region.key)}"`,
    );
  }
}

function link(region: RegionName, mark: string, href: SkyMapOptions['href'], tabbable: boolean): string {
  const title = `<title>${escapeXml(`${region.name} (${region.facility} ${region.band})`)}</title>`;
  const address = href?.(region);
  if (address === undefined) return mark.replace(/\/>$/, `>${title}</${mark.startsWith('<path') ? 'path' : 'circle'}>`);
  return `<a href="${escapeXml(address)}"${tabbable ? '' : ' tabindex="-1"'}>${title}${mark}</a>`;
}

/** Meridians every 2h and parallels every 30°, but the meridian on the map's edge (the outline draws it). */
function grid(centre: number): GeoJSON.MultiLineString {
  const lines: [number, number][][] = [];
  for (let k = -5; k <= 5; k++) {
    const ra = centre + k * 30;
    lines.push([-90, -60, -30, 0, 30, 60, 90].map((dec) => [ra, dec]));
  }
  for (const dec of [-60, -30, 0, 30, 60]) {
    const line: [number, number][] = [];
    // Along the parallel in steps short enough that a straight segment is one on the map, stopping
    // short of the edge so the line is not cut there.
    for (let ra = centre - 179.99; ra <= centre + 179.99; ra += 2.5) line.push([ra, dec]);
    line.push([centre + 179.99, dec]);
    lines.push(line);
  }
  return { type: 'MultiLineString', coordinates: lines };
}

/** Right ascension in hours along the equator, declination in degrees along the left edge. */
function gridLabels(projection: GeoProjection, centre: number): string {
  const label = (x: number, y: number, text: string, anchor: string) =>
    `<text x="${num(x)}" y="${num(y)}"${anchor === 'middle' ? '' : ` text-anchor="${anchor}"`}>${text}</text>`;
  let out = `<g class="pic-labels" text-anchor="middle" font-size="11" pointer-events="none">`;
  // Labels over the grid lines read better with a halo in the sphere's colour, drawn first.
  let labels = '';
  for (let k = -5; k <= 5; k++) {
    const ra = centre + k * 30;
    const xy = projection([ra, 0]);
    // Far enough below the equator to clear the fields along it (GAMA's, ±3°), which hid 12h.
    if (xy) labels += label(xy[0], xy[1] + HOUR_LABEL_DROP, `${hours(ra)}h`, 'middle');
  }
  const east = projection([centre - 179.999, 0]);
  if (east) labels += label(east[0] + 6, east[1] + 4, `${hours(centre + 180)}h`, 'start');
  // What the axes are, and in which frame: under the map, and up its left side.
  const below = TOP + MAP_HEIGHT + 16;
  labels += label(LEFT + MAP_WIDTH / 2, below, 'Right ascension (hours)', 'middle');
  labels += label(LEFT + MAP_WIDTH, below, 'Frame: ICRS, J2000', 'end');
  labels += `<text x="0" y="0" transform="translate(11 ${num(TOP + MAP_HEIGHT / 2)}) rotate(-90)">Declination</text>`;
  for (const dec of [-60, -30, 0, 30, 60]) {
    const xy = projection([centre + 179.999, dec]);
    if (xy) labels += label(xy[0] - 6, xy[1] + 4, `${dec > 0 ? '+' : dec < 0 ? '−' : ''}${Math.abs(dec)}°`, 'end');
  }
  out += `<g class="pic-halo" stroke="#f6f8fb" stroke-width="3" stroke-linejoin="round" stroke-opacity=".8" aria-hidden="true">${labels}</g>`;
  out += labels.replaceAll('<text ', '<text class="pic-muted" ');
  return `${out}</g>`;
}

function hours(ra: number): number {
  return Math.round((((ra % 360) + 360) % 360) / 15) % 24;
}

function legendOf(
  shown: readonly string[],
  counts: ReadonlyMap<string, number>,
  facilityIndex: ReadonlyMap<string, number>,
  unplaced: number,
  top: number,
): { svg: string; height: number } {
  const items = shown.map((name) => {
    const text = `${name} (${counts.get(name) ?? 0})`;
    return { name, text, width: 19 + textWidth(text, FONT) + 22 };
  });
  const rows: (typeof items)[] = [];
  let row: typeof items = [];
  let used = 0;
  for (const item of items) {
    if (row.length > 0 && used + item.width > MAP_WIDTH) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push(item);
    used += item.width;
  }
  if (row.length > 0) rows.push(row);
  let svg = '';
  rows.forEach((r, i) => {
    const total = r.reduce((sum, item) => sum + item.width, 0) - 22;
    let x = LEFT + (MAP_WIDTH - total) / 2;
    const y = i * LEGEND_ROW;
    for (const item of r) {
      // The swatch shows both ways a region is drawn: a footprint's outline and fill, and a point's shape.
      const facility = facilityIndex.get(item.name) ?? 0;
      svg +=
        `<rect ${facilityAttributes(facility, true)} fill-opacity=".15" x="${num(x)}" y="${num(y)}" width="14" height="11"/>` +
        `<g ${facilityAttributes(facility, false)} fill-opacity=".75">${pointMark(facility, x + 7, y + 5.5, 2.5, 'aria-hidden="true"')}</g>` +
        `<text x="${num(x + 19)}" y="${num(y + 10)}">${escapeXml(item.text)}</text>`;
      x += item.width;
    }
  });
  let height = rows.length * LEGEND_ROW;
  if (unplaced > 0) {
    svg += `<text class="pic-muted" x="${num(LEFT + MAP_WIDTH / 2)}" y="${num(height + 9.5)}" text-anchor="middle">${unplaced} ${unplaced === 1 ? 'region has' : 'regions have'} no position on the sky and ${unplaced === 1 ? 'is' : 'are'} not shown</text>`;
    height += LEGEND_ROW;
  }
  return { svg: `<g class="pic-legend" transform="translate(0 ${num(top)})" font-size="${FONT}">${svg}</g>`, height: Math.max(height, 4) };
}

function descriptionOf(
  given: string | undefined,
  placed: number,
  unplaced: number,
  shown: readonly string[],
  counts: ReadonlyMap<string, number>,
  projection: string,
  centre: number,
): string {
  const name = projection === 'hammer' ? 'Hammer–Aitoff' : 'Mollweide';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  let text = given ? `${given.trim()} ` : '';
  text += `An all-sky map in equatorial coordinates (ICRS) on the ${name} projection, centred on right ascension ${hours(centre)}h, right ascension increasing to the left`;
  text += `, of ${plural(placed, 'imaging region')}: each is the outline of its image where its FITS header gives one, otherwise a point at its centre.`;
  if (shown.length > 0) text += ` By facility: ${shown.map((f) => `${f} ${counts.get(f) ?? 0}`).join(', ')}.`;
  if (unplaced > 0) text += ` ${plural(unplaced, 'region')} without a position on the sky ${unplaced === 1 ? 'is' : 'are'} not shown.`;
  return text;
}
