// Opened from the offline download (file://), the links to what the browser's zip does not hold
// (the API, the download, the VO tables) lead to them on the site the pages were built for.

import type { Site } from './site.ts';

export function leadOfflineLinksToSite(site: Site): void {
  if (location.protocol !== 'file:' || !/^https?:\/\//.test(site.builtFor)) return;
  const base = site.builtFor.endsWith('/') ? site.builtFor : `${site.builtFor}/`;
  for (const a of document.querySelectorAll('a[href]')) {
    // The pictures' links are SVG elements, and lead only to the browser's own pages.
    if (!(a instanceof HTMLAnchorElement)) continue;
    const href = a.href;
    if (!href.startsWith(site.root)) continue;
    const inside = href.slice(site.root.length);
    if (inside.startsWith('browse/') || inside === 'index.html' || inside.startsWith('index.html#')) continue;
    a.href = base + inside;
  }
}
