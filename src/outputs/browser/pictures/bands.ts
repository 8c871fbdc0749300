// The band chart: every band's central wavelength on a logarithmic axis, one row per facility, each
// band a mark named and linked to its page. SVG text made at build time, needing no script.

import { escapeXml, facilityAttributes, facilityOrder, num, pointMark, svgOpen, textWidth } from './svg.ts';

/** A band as the chart needs it. */
export interface ChartBand {
  /** What identifies the band, written as its mark's data-band attribute (its band_key, say). */
  key: string;
  name: string;
  /** Its central wavelength in Ångström, as the metadata gives it. */
  central_wave_ang: number;
}

/** A facility and its bands: one row of the chart. */
export interface ChartFacility {
  /** The facility's name: what its colour goes by (see facilityOrder), and its row's label unless `label` is given. */
  name: string;
  /** The row's label, when the name alone does not tell rows apart (a facility in several releases). */
  label?: string;
  bands: readonly ChartBand[];
}

export interface BandChartOptions {
  /** The address of a band's page; no link when it returns undefined or is not given. */
  href?: (band: ChartBand, facility: ChartFacility) => string | undefined;
  /** The picture's name for assistive technology and as its tooltip. */
  title?: string;
  /** A sentence put before the generated description. */
  description?: string;
  /** Facility names in the order their colours are given; pass the sky map's, and both agree. */
  facilities?: readonly string[];
}

const WIDTH = 960;
const RIGHT = 28;
const TOP = 30;
const FONT = 12;
const LABEL_FONT = 11;
const LANE = 14;
const RADIUS = 5;
const AXIS = 34;

/** Spectral regions shaded behind the rows, in Ångström, each with a short name for a narrow strip. */
const REGIONS: readonly [number, number, string, string][] = [
  [10, 3200, 'ultraviolet', 'UV'],
  [3200, 1e4, 'optical', 'opt.'],
  [1e4, 5e4, 'near-infrared', 'near-IR'],
  [5e4, 3e5, 'mid-infrared', 'mid-IR'],
  [3e5, 1e7, 'far-infrared', 'far-IR'],
  [1e7, 1e12, 'radio', 'radio'],
];

/** A wavelength in Ångström as a tick label: Å below 1 µm, then µm, mm, cm and m. */
export function wavelengthLabel(angstrom: number): string {
  const units: [number, string][] = [
    [1e10, 'm'],
    [1e8, 'cm'],
    [1e7, 'mm'],
    [1e4, 'µm'],
  ];
  for (const [size, unit] of units) if (angstrom >= size) return `${trim(angstrom / size)} ${unit}`;
  return `${trim(angstrom)} Å`;
}

function trim(value: number): string {
  return String(Number(value.toPrecision(6)));
}

/** Ticks at 1, 2 and 5 times each power of ten that the range [lo, hi] holds. */
function ticks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const m of [1, 2, 5]) {
      const t = Number((m * 10 ** e).toPrecision(12));
      if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) out.push(t);
    }
  return out;
}

/** The tick at or below (or above) a value: the axis ends on ticks. */
function snap(value: number, down: boolean): number {
  const e = Math.floor(Math.log10(value));
  const steps = [1, 2, 5, 10].map((m) => m * 10 ** e);
  if (down) return steps.filter((s) => s <= value * (1 + 1e-9)).pop() ?? 10 ** e;
  return steps.find((s) => s >= value * (1 - 1e-9)) ?? 10 ** (e + 1);
}

interface Placed {
  band: ChartBand;
  x: number;
  width: number;
  /** 0 above the mark, 1 below, 2 above that, 3 below that, ... */
  lane: number;
}

/**
 * The band chart of `facilities` as SVG text. Each band with a positive wavelength is exactly one
 * mark (a `<circle>` with a data-band attribute holding its key) with its name beside it, inside a
 * link to its page with a title naming band, facility and wavelength. Names that would overlap are
 * moved to further lanes above and below their marks. The same input gives the same bytes.
 */
export function bandChart(facilities: readonly ChartFacility[], options: BandChartOptions = {}): string {
  const rows = facilities.map((f) => ({
    facility: f,
    bands: f.bands.filter((b) => Number.isFinite(b.central_wave_ang) && b.central_wave_ang > 0),
  }));
  const waves = rows.flatMap((r) => r.bands.map((b) => b.central_wave_ang));
  const min = waves.length > 0 ? Math.min(...waves) : 3000;
  const max = waves.length > 0 ? Math.max(...waves) : 30000;
  // A little room either side of the outermost bands, and at least a factor of ten in all.
  let lo = snap(min / 1.15, true);
  let hi = snap(max * 1.15, false);
  if (hi / lo < 10) {
    const middle = Math.sqrt(lo * hi);
    lo = snap(middle / Math.sqrt(10), true);
    hi = snap(middle * Math.sqrt(10), false);
  }
  const labels = new Map(facilities.map((f) => [f, labelLines(f.label ?? f.name)]));
  const left = Math.min(LABEL_ROOM + 28, Math.max(80, ...[...labels.values()].flat().map((line) => textWidth(line, FONT) + 28)));
  const plotWidth = WIDTH - left - RIGHT;
  const x = (wave: number) => left + (plotWidth * Math.log(wave / lo)) / Math.log(hi / lo);

  const order = facilityOrder(
    options.facilities,
    facilities.map((f) => f.name),
  );
  const index = new Map(order.map((name, i) => [name, i]));

  let body = '';
  let y = TOP;
  rows.forEach((row) => {
    const placed = lanes(
      row.bands.map((band) => ({ band, x: x(band.central_wave_ang), width: textWidth(band.name, LABEL_FONT) + 6, lane: 0 })),
    );
    const above = Math.max(1, ...placed.filter((p) => p.lane % 2 === 0).map((p) => p.lane / 2 + 1));
    const below = Math.max(0, ...placed.filter((p) => p.lane % 2 === 1).map((p) => (p.lane + 1) / 2));
    const baseline = y + 6 + above * LANE + RADIUS;
    const height = 6 + above * LANE + 2 * RADIUS + below * LANE + 8;
    const lines = labels.get(row.facility) ?? [];
    const full = row.facility.label ?? row.facility.name;
    // A long name on two lines, centred on the row's line; the whole of it in a title when cut short.
    const first = baseline + 4 - ((lines.length - 1) * (FONT + 2)) / 2;
    const spans = lines
      .map((line, i) => `<tspan x="${num(left - 12)}" y="${num(first + i * (FONT + 2))}">${escapeXml(line)}</tspan>`)
      .join('');
    const cut = lines.join(' ') === full ? '' : `<title>${escapeXml(full)}</title>`;
    body +=
      lines.length === 1 && cut === ''
        ? `<text x="${num(left - 12)}" y="${num(baseline + 4)}" text-anchor="end" font-size="${FONT}">${escapeXml(full)}</text>`
        : `<text text-anchor="end" font-size="${FONT}">${cut}${spans}</text>`;
    body += `<line class="pic-grid" stroke="#c9ced6" x1="${num(left)}" x2="${num(left + plotWidth)}" y1="${num(baseline)}" y2="${num(baseline)}"/>`;
    const facility = index.get(row.facility.name) ?? 0;
    body += `<g ${facilityAttributes(facility, false)} fill-opacity=".85" stroke-width="1.5">`;
    for (const p of placed) {
      const level = Math.floor(p.lane / 2);
      const labelY = p.lane % 2 === 0 ? baseline - RADIUS - 4 - level * LANE : baseline + RADIUS + 12 + level * LANE;
      const labelX = Math.min(Math.max(p.x, left + p.width / 2), left + plotWidth - p.width / 2);
      const leader =
        level > 0
          ? `<line class="pic-grid" stroke="#c9ced6" x1="${num(p.x)}" x2="${num(p.x)}" y1="${num(p.lane % 2 === 0 ? labelY + 3 : labelY - 11)}" y2="${num(p.lane % 2 === 0 ? baseline - RADIUS : baseline + RADIUS)}"/>`
          : '';
      const wave = p.band.central_wave_ang;
      const title = `${p.band.name} (${row.facility.label ?? row.facility.name}): ${trim(wave)} Å${wave >= 1e4 ? ` (${wavelengthLabel(wave)})` : ''}`;
      const content =
        `<title>${escapeXml(title)}</title>${leader}` +
        pointMark(facility, p.x, baseline, RADIUS, `data-band="${escapeXml(p.band.key)}"`) +
        `<text x="${num(labelX)}" y="${num(labelY)}" text-anchor="middle" font-size="${LABEL_FONT}">${escapeXml(p.band.name)}</text>`;
      const address = options.href?.(p.band, row.facility);
      body += address === undefined ? `<g>${content}</g>` : `<a href="${escapeXml(address)}">${content}</a>`;
    }
    body += '</g>';
    y += height;
  });

  const bottom = y;
  const height = bottom + AXIS;
  let axis = `<g class="pic-axis" font-size="${LABEL_FONT}" text-anchor="middle">`;
  for (const t of ticks(lo, hi)) {
    const tx = x(t);
    axis += `<line class="pic-grid" stroke="#c9ced6" stroke-width=".7" x1="${num(tx)}" x2="${num(tx)}" y1="${TOP}" y2="${num(bottom + 4)}"/>`;
    axis += `<text class="pic-muted" x="${num(tx)}" y="${num(bottom + 17)}">${wavelengthLabel(t)}</text>`;
  }
  axis += `<text class="pic-muted" x="${num(left + plotWidth / 2)}" y="${num(bottom + 31)}">central wavelength (logarithmic)</text></g>`;
  // The spectral regions, shaded in turn, named where there is room.
  let regions = '';
  REGIONS.forEach(([a, b, long, short], i) => {
    const x0 = x(Math.max(a, lo));
    const x1 = x(Math.min(b, hi));
    if (x1 <= x0) return;
    if (i % 2 === 0)
      regions += `<rect class="pic-band" fill="#000" fill-opacity=".025" x="${num(x0)}" y="${num(TOP - 20)}" width="${num(x1 - x0)}" height="${num(bottom - TOP + 20)}"/>`;
    regions += regionLabel(long, short, x0, x1);
  });

  const count = rows.reduce((n, r) => n + r.bands.length, 0);
  let description = options.description ? `${options.description.trim()} ` : '';
  description += `The central wavelengths of ${count} imaging band${count === 1 ? '' : 's'} on a logarithmic axis from ${wavelengthLabel(lo)} to ${wavelengthLabel(hi)}, one row per facility`;
  description +=
    rows.length > 0
      ? `: ${rows.map((r) => `${r.facility.label ?? r.facility.name} (${r.bands.map((b) => b.name).join(', ') || 'no bands'})`).join('; ')}.`
      : '.';

  let out = svgOpen(WIDTH, height, 'bands', options.title ?? 'Imaging bands by wavelength', description);
  out += regions + axis + body;
  return `${out}</svg>\n`;
}

/**
 * A spectral region's name over its strip where it has room: the long one, else the short one (the
 * axis often ends a little past a region's start, 30 µm say), else none.
 */
function regionLabel(long: string, short: string, x0: number, x1: number): string {
  const name = [long, short].find((n) => textWidth(n, LABEL_FONT) + 8 < x1 - x0);
  if (name === undefined) return '';
  return `<text class="pic-muted" x="${num((x0 + x1) / 2)}" y="${TOP - 6}" text-anchor="middle" font-size="${LABEL_FONT}">${name}</text>`;
}

/** The widest a facility's name may be on a line, in viewBox units. */
const LABEL_ROOM = 232;

/** A facility's name on one line, or two where it is long, the second shortened with an ellipsis if need be. */
function labelLines(label: string): string[] {
  if (textWidth(label, FONT) <= LABEL_ROOM) return [label];
  const words = label.split(' ');
  let first = '';
  let i = 0;
  for (; i < words.length; i++) {
    const next = first === '' ? (words[i] ?? '') : `${first} ${words[i] ?? ''}`;
    if (first !== '' && textWidth(next, FONT) > LABEL_ROOM) break;
    first = next;
  }
  let second = words.slice(i).join(' ');
  if (second === '') return [shorten(first)];
  if (textWidth(second, FONT) > LABEL_ROOM) second = shorten(second);
  return [shorten(first), second];
}

function shorten(text: string): string {
  if (textWidth(text, FONT) <= LABEL_ROOM) return text;
  let kept = text;
  while (kept.length > 1 && textWidth(`${kept}…`, FONT) > LABEL_ROOM) kept = kept.slice(0, -1);
  return `${kept.trimEnd()}…`;
}

/**
 * Gives each label the first lane, alternating above and below the marks, where it does not overlap
 * a label placed before it. Bands are taken by wavelength, and those of equal wavelength in the
 * order given.
 */
function lanes(placed: Placed[]): Placed[] {
  const sorted = placed
    .map((p, i) => ({ p, i }))
    .sort((a, b) => a.p.x - b.p.x || a.i - b.i)
    .map(({ p }) => p);
  const ends: number[] = [];
  for (const p of sorted) {
    const start = p.x - p.width / 2;
    let lane = 0;
    while ((ends[lane] ?? -Infinity) > start) lane++;
    ends[lane] = p.x + p.width / 2;
    p.lane = lane;
  }
  return sorted;
}
