// Curator-written HTML (a survey's description, any node's documentation) as the schema browser shows
// it: through an allow-list of harmless elements and attributes. Anything else is dropped, its text
// kept; a script's or style's content goes with it. Links may only go to http(s) and mailto addresses
// and open without giving the page they leave access to the browser's window.

import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';

// Loaded when first needed (it takes longer to load than most builds spend in it): most curator
// text is plain enough to need no parser (plainMarkup).
let library: typeof SanitizeHtml | undefined;
const sanitizeHtml = (html: string, options: SanitizeHtml.IOptions): string =>
  (library ??= createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml)(html, options);

/** The elements curator HTML may use. */
export const ALLOWED_TAGS: readonly string[] = [
  'p',
  'br',
  'a',
  'em',
  'strong',
  'b',
  'i',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'sub',
  'sup',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'h3',
  'h4',
  'h5',
  'h6',
];

/** The URL schemes a link may have. */
export const ALLOWED_SCHEMES: readonly string[] = ['http', 'https', 'mailto'];

const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  // A relative address would resolve against the browser's own pages, where it means nothing.
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // These elements go with everything inside them, not only their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
  allowVulnerableTags: false,
  transformTags: {
    a: (tagName, attribs): SanitizeHtml.Tag => {
      const href = attribs.href;
      // Only an absolute address with an allowed scheme stays (sanitize-html checks the scheme again
      // after this); a link without one keeps its text and loses its address. The tag keeps its name:
      // renaming it here would leave its end tag misnamed.
      if (href === undefined || !/^(?:https?:|mailto:)/i.test(href.trim())) return { tagName, attribs: {} };
      return { tagName, attribs: { href: href.trim(), rel: 'noopener noreferrer' } };
    },
  },
};

/** The curator's HTML with only allowed elements, attributes and link schemes left. */
export function sanitiseHtml(html: string): string {
  // Text with neither markup nor entities (most descriptions) only needs escaping: the same safe
  // result without parsing it, which at 100,000 columns is most of the pages' cost.
  // sanitize-html gives such text back with only `>` escaped; so does this.
  if (!/[<&]/.test(html)) return html.replaceAll('>', '&gt;');
  // Curators repeat a note on many columns: each distinct text is parsed once per thread.
  let clean = CLEAN.get(html);
  if (clean === undefined) {
    clean = plainMarkup(html) ?? sanitizeHtml(html, OPTIONS);
    if (CLEAN.size >= 10_000) CLEAN.clear();
    CLEAN.set(html, clean);
  }
  return clean;
}

const CLEAN = new Map<string, string>();

/** The sanitiser's own reading of the HTML, without the shortcut for plain markup: what the shortcut must give. */
export function sanitiseWithParser(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Allowed elements that are never void and never carry an attribute. */
const BARE_TAGS = new Set(ALLOWED_TAGS.filter((t) => t !== 'a' && t !== 'br'));

/**
 * A tag without attributes; a link whose only attribute is an absolute http(s) or mailto address
 * written plainly (characters the sanitiser leaves as they are: no entity, quote, space or
 * bracket); an entity of text; or a `<` or `&` of anything else.
 */
const TOKEN =
  /<(\/?)([a-z][a-z0-9]*)>|<a href="((?:https?:\/\/|mailto:)[\w\-.~:/?#@!$'()*+,;=%]*)">|&(?:lt|gt|amp|quot|#[0-9]{1,7});|[<&]/g;

/**
 * Markup already as plain as the allow-list's output (allowed elements without attributes, each
 * closed in order, links to absolute addresses not inside another, and only the named or numeric
 * entities of text), with `>` in text escaped and each link given the rel the sanitiser gives it;
 * or undefined when it holds anything else, for the sanitiser to read. Such text is most of what
 * curators write, and nothing in it can run: reading it with a whole HTML parser is only slower.
 */
function plainMarkup(html: string): string | undefined {
  const open: string[] = [];
  let links = 0;
  let out = '';
  let from = 0;
  for (const match of html.matchAll(TOKEN)) {
    const [token, closing, tag, href] = match;
    let kept = token;
    if (href !== undefined) {
      // Counted, not looked for: markup nested thousands deep would make each look a walk of it.
      if (links > 0) return undefined;
      links++;
      open.push('a');
      kept = `<a href="${href}" rel="noopener noreferrer">`;
    } else if (tag === undefined) {
      if (token === '<' || token === '&') return undefined;
    } else if (closing === '/' && tag === 'a') {
      if (open.pop() !== 'a') return undefined;
      links--;
    } else {
      if (!BARE_TAGS.has(tag)) return undefined;
      if (closing === '') open.push(tag);
      else if (open.pop() !== tag) return undefined;
    }
    out += html.slice(from, match.index).replaceAll('>', '&gt;') + kept;
    from = match.index + token.length;
  }
  if (open.length > 0) return undefined;
  return out + html.slice(from).replaceAll('>', '&gt;');
}
