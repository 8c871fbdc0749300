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

/** Allowed elements that are never void and never carry an attribute. */
const BARE_TAGS = new Set(ALLOWED_TAGS.filter((t) => t !== 'a' && t !== 'br'));

const TOKEN = /<(\/?)([a-z][a-z0-9]*)>|&(?:lt|gt|amp|quot|#[0-9]{1,7});|[<&]/g;

/**
 * Markup already as plain as the allow-list's output (allowed elements without attributes, each
 * closed in order, and only the named or numeric entities of text), with `>` in text escaped; or
 * undefined when it holds anything else, for the sanitiser to read. Such text is most of what
 * curators write, and nothing in it can run: reading it with a whole HTML parser is only slower.
 */
function plainMarkup(html: string): string | undefined {
  const open: string[] = [];
  let out = '';
  let from = 0;
  for (const match of html.matchAll(TOKEN)) {
    const [token, closing, tag] = match;
    if (tag === undefined) {
      if (token === '<' || token === '&') return undefined;
    } else {
      if (!BARE_TAGS.has(tag)) return undefined;
      if (closing === '') open.push(tag);
      else if (open.pop() !== tag) return undefined;
    }
    out += html.slice(from, match.index).replaceAll('>', '&gt;') + token;
    from = match.index + token.length;
  }
  if (open.length > 0) return undefined;
  return out + html.slice(from).replaceAll('>', '&gt;');
}
