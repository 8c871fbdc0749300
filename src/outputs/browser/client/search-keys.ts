// The search's keyboard: from the box, the down arrow goes to the first result and Enter opens it;
// in the results, the arrows move between them (up from the first goes back to the box); Escape,
// in either, closes the panel.

import type { SearchPanel } from './search-panel.ts';

/** Listens to the box's and the results' keys; `close` closes the panel until the visitor types again. */
export function addSearchKeys(panel: Pick<SearchPanel, 'box' | 'list'>, close: () => void): void {
  const { box, list } = panel;
  const links = (): HTMLAnchorElement[] => [...list.querySelectorAll('a')];
  box.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      links()[0]?.focus();
      event.preventDefault();
    } else if (event.key === 'Enter') {
      const first = links()[0];
      if (first) location.href = first.href;
      event.preventDefault();
    } else if (event.key === 'Escape') {
      close();
    }
  });
  list.addEventListener('keydown', (event) => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === 'ArrowDown') all[Math.min(at + 1, all.length - 1)]?.focus();
    else if (event.key === 'ArrowUp') (at <= 0 ? box : all[at - 1])?.focus();
    else if (event.key === 'Escape') {
      close();
      box.focus();
    } else return;
    event.preventDefault();
  });
}
