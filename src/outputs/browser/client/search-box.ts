// The header's search box: its panel opens as the box is used, the search data is loaded the first
// time (never before), and the results follow each keystroke and each menu's choice. Escape closes
// the panel until the visitor types or clicks in the box again.

import { loadIndex } from './search-index.ts';
import type { Index } from './search-index.ts';
import { addSearchKeys } from './search-keys.ts';
import { addPanel, fillHelp, fillReleases, fillSurveys, showResults } from './search-panel.ts';
import type { Site } from './site.ts';

/** Makes the page's search box search, if it has one. */
export function startSearch(site: Site): void {
  const box = document.getElementById('search') as HTMLInputElement | null;
  if (!box) return;
  const panel = addPanel(box);
  let index: Index | undefined;
  // Closed with Escape: focus coming back to the box, or a search box emptying itself on Escape,
  // leaves it closed.
  let dismissed = false;
  // Whether the data is on its way: it is asked for, and its results shown, once.
  let waiting = false;
  const show = (open: boolean): void => {
    panel.panel.hidden = !open;
  };
  const render = (): void => {
    if (index) showResults(panel, index, site.root);
  };
  const loaded = (ready: Index): void => {
    index = ready;
    fillSurveys(panel, ready);
    fillReleases(panel, ready);
    fillHelp(panel, ready);
    render();
  };
  const start = (): void => {
    if (dismissed) return;
    show(true);
    if (index) {
      render();
      return;
    }
    if (waiting) return;
    waiting = true;
    panel.status.textContent = 'Loading the search data…';
    loadIndex(site.root).then(loaded, (error: unknown) => {
      panel.status.textContent = error instanceof Error ? error.message : String(error);
    });
  };

  // Focus coming back to the box (from another window or tab) leaves results on show as they are.
  box.addEventListener('focus', () => {
    if (panel.panel.hidden) start();
  });
  box.addEventListener('input', () => {
    if (box.value !== '') dismissed = false;
    start();
  });
  box.addEventListener('click', () => {
    dismissed = false;
    start();
  });
  for (const s of [panel.release, panel.kind]) s.addEventListener('change', render);
  panel.survey.addEventListener('change', () => {
    if (index) fillReleases(panel, index);
    render();
  });
  addSearchKeys(panel, () => {
    dismissed = true;
    show(false);
  });
  document.addEventListener('click', (event) => {
    const target = event.target as Node | null;
    if (target && !panel.panel.contains(target) && target !== box) show(false);
  });
}
