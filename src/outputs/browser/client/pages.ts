// The schema browser's page addresses, made as the pages are (outputs/browser/pages/html.ts makes
// them on the build's side): a group's, facility's, table's or band's page is a file of its own.

/** A page's file from the site's root, its names percent-encoded: `browse/gama/dr3/index.html`. */
export function pageHref(names: readonly string[]): string {
  return `${names.map(encodeURIComponent).join('/')}${names.length >= 5 ? '.html' : '/index.html'}`;
}
