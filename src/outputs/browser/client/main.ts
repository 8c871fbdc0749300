// The schema browser's one script, `browse/site.js`, which every page loads (deferred, from the
// site itself, as the pages' security policy allows). It adds what static pages cannot do alone:
// search over every column, deep links, and a copy-link button on each column. The pages read
// well without it. Bundled into one classic script by scripts/compile.mjs; it runs in the visitor's
// browser, so it imports nothing from the build's code (.dependency-cruiser.cjs).

import { addCopyLinks } from './copy-link.ts';
import { followDeepLinks } from './deep-links.ts';
import { leadOfflineLinksToSite } from './offline-links.ts';
import { startSearch } from './search-box.ts';
import { findSite } from './site.ts';

// Found first, while the script runs and so knows its own element.
const site = findSite();
startSearch(site);
leadOfflineLinksToSite(site);
addCopyLinks(site);
followDeepLinks(site);
