// Where the site is, as the script finds it: its root, from the script's own address, so that the
// pages work served from any folder and opened from disk alike; and the address it was built for.

declare global {
  /**
   * Set by the first line of browse/site.js, which the planner writes before this bundle
   * (outputs/browser/script.ts): the site's address as the build was given it.
   */
  var archiveSite: { url: string } | undefined;
}

export interface Site {
  /** The site's root as this page reached it, ending in `/`: every link the script makes starts here. */
  root: string;
  /** The address the site was built for, where links beyond the browser lead from the offline copy. */
  builtFor: string;
}

/** The site this page belongs to; asked for while the script first runs, when it knows its own element. */
export function findSite(): Site {
  const me = document.currentScript as HTMLScriptElement | null;
  const root = me ? me.src.replace(/browse\/site\.js(?:[?#].*)?$/, '') : new URL('./', location.href).href;
  return { root, builtFor: globalThis.archiveSite?.url ?? '' };
}
