// Curator-written HTML (a survey's description, any node's documentation) as the schema browser shows
// it: through an allow-list of harmless elements and attributes. Anything else is dropped, its text
// kept; a script's or style's content goes with it. Links may only go to http(s) and mailto addresses
// and open without giving the page they leave access to the browser's window.

import sanitizeHtml from 'sanitize-html';

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

const OPTIONS: sanitizeHtml.IOptions = {
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
    a: (tagName, attribs): sanitizeHtml.Tag => {
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
  return sanitizeHtml(html, OPTIONS);
}
