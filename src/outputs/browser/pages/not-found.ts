// The page a host sends, with status 404, for an address outside the API that names no file: in the
// site's shell, so that a mistyped or outdated link still leaves the visitor the header's search and
// the way home. Hosts send it at the address that was asked for, so its links start at the root.

import { html } from '../../html.ts';
import { shell } from './shell.ts';

/** The 404 page. */
export function notFoundPage(site?: string): string {
  const body = html`<p class="lead">There is no page at this address. It may have moved, or the link that led here may be mistyped.</p>
<ul>
<li><a href="/index.html">The home page</a> lists every survey and release.</li>
<li>The search box above finds columns by name, UCD or unit.</li>
<li>The <a href="/api/docs/">API reference</a> lists the addresses of the JSON API.</li>
</ul>
`;
  return shell({ path: [], root: '/', title: 'Page not found', body, site, description: 'No page at this address.' });
}
