// The page at `browse/`, where deep links land: it reads the address after its `#`, and leads on
// to that page, or says what is missing and links the nearest page that exists. An address typed
// over the page's own is followed too.

import { resolve } from './addresses.ts';
import type { PageLink } from './addresses.ts';
import { loadIndex } from './search-index.ts';
import type { Site } from './site.ts';

/** On the deep links' page, follows its address. */
export function followDeepLinks(site: Site): void {
  const resolving = document.getElementById('resolve');
  if (!resolving) return;
  const say = (text: string, to?: PageLink): void => {
    resolving.replaceChildren(text);
    if (to) {
      const a = document.createElement('a');
      a.href = site.root + to.href;
      a.textContent = to.label;
      resolving.append(' ', a);
    }
  };
  const follow = (): void => {
    const address = decoded(location.hash.slice(1));
    if (address === '') return;
    say(`Finding ${address}…`);
    loadIndex(site.root).then(
      (index) => {
        const target = resolve(index, address);
        if ('href' in target) location.replace(site.root + target.href);
        else say(target.missing, target.nearest);
      },
      (error: unknown) => {
        say(error instanceof Error ? error.message : String(error));
      },
    );
  };
  follow();
  addEventListener('hashchange', follow);
}

/** A URL's fragment as text: percent-escapes decoded, or as written where they are not valid. */
function decoded(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
