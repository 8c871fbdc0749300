// What the pictures share: escaping curator text, compact numbers and paths, the facility palette,
// the style sheet that lets a page restyle them, and the accessible root element.

import { xmlText } from '../../vo/text.ts';

/** Curator text as SVG element text or a double-quoted attribute value, well-formed whatever it holds. */
export const escapeXml = xmlText;

/** A number rounded to `digits` decimals, in its shortest form: 0.5 → ".5", -0.5 → "-.5", 2.0 → "2". */
export function num(value: number, digits = 1): string {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  if (Object.is(rounded, -0) || rounded === 0) return '0';
  return String(rounded).replace(/^(-?)0\./, '$1.');
}

/** Numbers joined as SVG path data allows: a minus sign separates as well as a space does. */
function joined(values: readonly string[]): string {
  let out = '';
  for (const v of values) out += out === '' || v.startsWith('-') ? v : ` ${v}`;
  return out;
}

/**
 * A d3-geo path context that writes compact SVG path data: coordinates rounded to one decimal, each
 * segment relative to the rounded point before it (so rounding never drifts), `h` and `v` for
 * straight runs, and points that round onto the one before left out.
 */
export class PathWriter {
  private out = '';
  private x = 0;
  private y = 0;
  // The start of the current subpath, where closing it returns.
  private startX = 0;
  private startY = 0;
  // The bounds of the current subpath, and the largest width or height of any subpath so far.
  private box: [number, number, number, number] = [0, 0, 0, 0];
  private largest = 0;
  /** The largest width or height of a subpath of the path last taken: how large it shows. */
  extent = 0;

  moveTo(x: number, y: number): void {
    const rx = round(x);
    const ry = round(y);
    const first = this.out === '';
    this.out += `${first ? 'M' : 'm'}${joined(first ? [num(rx), num(ry)] : [num(rx - this.x), num(ry - this.y)])}`;
    this.x = this.startX = rx;
    this.y = this.startY = ry;
    this.box = [rx, ry, rx, ry];
  }

  lineTo(x: number, y: number): void {
    const rx = round(x);
    const ry = round(y);
    const dx = rx - this.x;
    const dy = ry - this.y;
    if (dx === 0 && dy === 0) return;
    if (dy === 0) this.out += `h${num(dx)}`;
    else if (dx === 0) this.out += `v${num(dy)}`;
    else this.out += `l${joined([num(dx), num(dy)])}`;
    this.x = rx;
    this.y = ry;
    const [x0, y0, x1, y1] = this.box;
    this.box = [Math.min(x0, rx), Math.min(y0, ry), Math.max(x1, rx), Math.max(y1, ry)];
    this.largest = Math.max(this.largest, this.box[2] - this.box[0], this.box[3] - this.box[1]);
  }

  closePath(): void {
    this.out += 'z';
    this.x = this.startX;
    this.y = this.startY;
  }

  // Part of d3-geo's context interface; a path starts with its first moveTo.
  beginPath(): void {
    // nothing to do
  }

  // geoPath draws Point geometries with arcs; the pictures draw points as circles of their own.
  arc(): void {
    throw new Error('PathWriter draws no arcs');
  }

  /** The path data so far, and a fresh start. */
  take(): string {
    const d = this.out;
    this.extent = this.largest;
    this.out = '';
    this.x = this.y = this.startX = this.startY = this.largest = 0;
    return d;
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

// ---- Colours -------------------------------------------------------------------------------------------------------

/**
 * Paul Tol's "bright" qualitative scheme: seven colours told apart with any common colour-vision
 * deficiency, and each visible on white and on near-black. The dark variants are lightened a little
 * where the light ones are too dim on a dark background.
 */
export const PALETTE: readonly { light: string; dark: string }[] = [
  { light: '#4477aa', dark: '#6a9fd8' },
  { light: '#ee6677', dark: '#ee6677' },
  { light: '#228833', dark: '#3fb350' },
  { light: '#ccbb44', dark: '#ccbb44' },
  { light: '#66ccee', dark: '#66ccee' },
  { light: '#aa3377', dark: '#d05a9c' },
  { light: '#bbbbbb', dark: '#bbbbbb' },
];

/** Dash patterns that tell apart facilities that share a colour (the eighth onwards). */
const DASHES = ['', '4 2', '1.5 1.5'];

/** How the i-th facility is drawn: its colour's index in PALETTE and its variant (0 solid, then dashed, dotted). */
export function facilityStyle(index: number): { colour: number; variant: number } {
  return { colour: index % PALETTE.length, variant: Math.floor(index / PALETTE.length) % DASHES.length };
}

/**
 * The class that gives a picture drawn with one facility in the first colour (its own page's, its
 * bands') the colour of the i-th facility instead, the colour it has where the archive's facilities
 * are drawn together: the browser's style sheet sets the first colour's property to the i-th's.
 */
export function facilityColourClass(index: number): string {
  return `pic-colour-${facilityStyle(index).colour}`;
}

/** The style sheet's rules behind facilityColourClass. */
export function facilityColourRules(): string {
  return PALETTE.map((_, i) => `.pic-colour-${i}{--pic-f0:var(--pic-f${i})}`).join('');
}

/**
 * Presentation attributes of a facility's colour (and, for outlines, its dash pattern): the defaults
 * the style sheet overrides.
 */
export function facilityAttributes(index: number, outline: boolean): string {
  const { colour, variant } = facilityStyle(index);
  const c = PALETTE[colour]?.light ?? '#888888';
  const dashed = outline && variant > 0;
  return `class="pic-f${colour}${dashed ? ` pic-v${variant}` : ''}" fill="${c}" stroke="${c}"${dashed ? ` stroke-dasharray="${DASHES[variant]}"` : ''}`;
}

/**
 * A point mark of the i-th facility at (x, y), about `r` across its middle: a circle for the first
 * seven facilities, then squares, then diamonds, so that facilities sharing a colour differ in shape.
 * `attributes` go first (the data attribute, so tests find the mark).
 */
export function pointMark(index: number, x: number, y: number, r: number, attributes: string): string {
  const { variant } = facilityStyle(index);
  if (variant === 0) return `<circle ${attributes} cx="${num(x)}" cy="${num(y)}" r="${num(r)}"/>`;
  if (variant === 1) {
    const a = r * 0.9;
    return `<path ${attributes} d="M${joined([num(x - a), num(y - a)])}h${num(2 * a)}v${num(2 * a)}h${num(-2 * a)}z"/>`;
  }
  const a = r * 1.25;
  return `<path ${attributes} d="M${joined([num(x), num(y - a)])}l${joined([num(a), num(a), num(-a), num(a), num(-a), num(-a)])}z"/>`;
}

/**
 * Facilities in the order their colours are given: those named in `order` first, as named, then the
 * rest in the order they first appear. Giving the archive's facilities by id keeps each one's colour
 * as new ones are added.
 */
export function facilityOrder(order: readonly string[] | undefined, seen: Iterable<string>): string[] {
  const out = new Set(order ?? []);
  for (const name of seen) out.add(name);
  return [...out];
}

/**
 * The style sheet of a picture. Every colour is a custom property with a default, so a page can
 * restyle an inlined picture by setting them on any ancestor: --pic-text, --pic-muted, --pic-grid,
 * --pic-sphere, --pic-outline, --pic-background and --pic-f0 to --pic-f6 (the facility colours).
 * The defaults follow prefers-color-scheme. Selectors carry the pic- prefix: an inlined picture's
 * style sheet applies to the whole page.
 */
export function styleSheet(): string {
  const scheme = (dark: boolean) => {
    const v = (name: string, light: string, darkValue: string) => `var(--pic-${name},${dark ? darkValue : light})`;
    const colours = PALETTE.map((c, i) => `.pic-f${i}{fill:${v(`f${i}`, c.light, c.dark)};stroke:${v(`f${i}`, c.light, c.dark)}}`).join('');
    return (
      `.pic{background:${v('background', 'transparent', 'transparent')}}` +
      `.pic text{fill:${v('text', '#222', '#e4e4e4')}}` +
      `.pic .pic-muted{fill:${v('muted', '#5c5c5c', '#a8a8a8')}}` +
      `.pic-grid{stroke:${v('grid', '#c9ced6', '#3e4450')}}` +
      `.pic-band{fill:${v('text', '#222', '#e4e4e4')}}` +
      `.pic-sphere{fill:${v('sphere', '#f6f8fb', '#171a20')}}` +
      `.pic-outline{stroke:${v('outline', '#7d8591', '#8a919c')}}` +
      `.pic-halo{stroke:${v('sphere', '#f6f8fb', '#171a20')}}` +
      colours
    );
  };
  return (
    '<style>' +
    '.pic{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
    '.pic text{stroke:none}' +
    '.pic a{cursor:pointer}' +
    '.pic a:hover>*,.pic a:focus>*{fill-opacity:.55;stroke-width:2}' +
    '.pic a:focus{outline:none}' +
    '.pic .pic-v1{stroke-dasharray:4 2}.pic .pic-v2{stroke-dasharray:1.5 1.5}' +
    scheme(false) +
    `@media (prefers-color-scheme:dark){${scheme(true)}}` +
    '</style>'
  );
}

/**
 * The root element of a picture: it scales to its container (a viewBox and no size), is one image to
 * assistive technology, named by its title and described by its description.
 */
export function svgOpen(width: number, height: number, kind: string, title: string, description: string): string {
  const t = escapeXml(title);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${num(width)} ${num(height)}" role="group" aria-label="${t}"` +
    ` class="pic pic-${kind}" font-size="12" fill="#222">` +
    `<title>${t}</title><desc>${escapeXml(description)}</desc>${styleSheet()}`
  );
}

/**
 * The width a text takes in the pictures' sans-serif at `size` units: an estimate from character
 * classes (no fonts are measured at build time), on the generous side so that labels keep apart.
 */
export function textWidth(text: string, size: number): number {
  let em = 0;
  for (const c of text) {
    if (/[iIl.,:;'|!()[\]]/.test(c)) em += 0.3;
    else if (/[fjrt ]/.test(c)) em += 0.38;
    else if (/[mwMW]/.test(c)) em += 0.9;
    else if (/[A-Z0-9]/.test(c)) em += 0.68;
    else em += 0.57;
  }
  return em * size;
}
