// A "Copy link" button on each column of a table's page, which copies the column's deep link
// (`browse/#survey.release.catalogues.group.table.column`); where the clipboard is refused, the
// link is shown beside it, selected. A status line, read out, says which.

import type { Site } from './site.ts';

/** Adds a button to each row of each table that carries its address (a table's columns). */
export function addCopyLinks(site: Site): void {
  const live = document.createElement('p');
  live.className = 'visually-hidden';
  live.setAttribute('role', 'status');
  document.body.append(live);
  for (const table of document.querySelectorAll<HTMLElement>('table[data-address]')) {
    const address = table.dataset.address ?? '';
    for (const row of table.querySelectorAll<HTMLTableRowElement>('tr[data-name]')) {
      const name = row.dataset.name ?? '';
      // The name as a URL may hold it (a `%` or `#` escaped), so the link reads back as written.
      const link = new URL(`browse/#${address}.${encodeURIComponent(name)}`, site.root).href;
      row.querySelector('th')?.append(' ', copyButton(row, name, link, live));
    }
  }
}

function copyButton(row: HTMLTableRowElement, name: string, link: string, live: HTMLElement): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy-link';
  button.textContent = 'Copy link';
  button.setAttribute('aria-label', `Copy link to column ${name}`);
  button.dataset.link = link;
  const done = (copied: boolean): void => {
    button.textContent = copied ? 'Copied' : 'Copy it below';
    live.textContent = copied ? `Link to ${name} copied` : `Could not copy; the link is shown selected`;
    setTimeout(() => (button.textContent = 'Copy link'), 2000);
  };
  // Without the clipboard (an old browser, a refused permission) the link is shown, selected.
  const fallback = (): void => {
    let field = row.querySelector<HTMLInputElement>('input.copy-field');
    if (!field) {
      field = document.createElement('input');
      field.className = 'copy-field';
      field.readOnly = true;
      field.value = link;
      field.setAttribute('aria-label', `Link to column ${name}`);
      button.after(field);
    }
    field.focus();
    field.select();
    done(false);
  };
  button.addEventListener('click', () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- absent outside secure contexts
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => done(true), fallback);
    else fallback();
  });
  return button;
}
