// How deep curator HTML nests, read as an HTML parser reads it: check refuses markup nested past
// a limit before the schema browser's sanitiser (outputs/browser/sanitise.ts) ever parses it.

/**
 * The deepest markup curator HTML may nest. The HTML parser under the sanitiser keeps its open
 * elements with the newest first, moving all of them at each new one: 200,000 `<div>` never closed
 * took a build 69 s (400,000, minutes), while `check` passed them. Curator HTML nests a few deep.
 */
export const MAX_MARKUP_DEPTH = 64;

/** Elements that never hold others, so never nest. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Elements an HTML parser closes when the one named opens, as it does for lists, tables and paragraphs left open. */
const CLOSED_BY: Record<string, readonly string[]> = {
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['tr', 'td', 'th'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
  p: ['p'],
};

const TAG = /<(\/?)([a-zA-Z][^\s/>]*)/g;

/**
 * Whether the HTML nests elements deeper than MAX_MARKUP_DEPTH, read as the parser reads it, or
 * deeper (an end tag closes only an element that is open, as in the parser; void elements never
 * nest; the common elements a parser closes by itself are closed): one pass, with a count of each
 * open element so that an end tag never walks the open ones.
 */
export function markupTooDeep(html: string): boolean {
  if (!html.includes('<')) return false;
  const open: string[] = [];
  const counts = new Map<string, number>();
  const pop = () => {
    const name = open.pop();
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 1) - 1);
    return name;
  };
  for (const [, closing, raw = ''] of html.matchAll(TAG)) {
    const name = raw.toLowerCase();
    if (closing) {
      if ((counts.get(name) ?? 0) > 0) while (pop() !== name);
      continue;
    }
    if (VOID.has(name)) continue;
    const closes = CLOSED_BY[name];
    const top = open[open.length - 1];
    if (closes && top !== undefined && closes.includes(top)) pop();
    open.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (open.length > MAX_MARKUP_DEPTH) return true;
  }
  return false;
}
