// The schema browser's one script, `browse/site.js`, which every page loads (deferred, from the
// site itself, as the pages' security policy allows). It adds what static pages cannot do alone:
//
//   - search: the header's box looks through every column, table, band and data product as the
//     visitor types, from `browse/search-data.js`, loaded the first time the box is used;
//   - deep links: `browse/#survey.release.kind.group.table.column` leads to the column's row on its
//     table's page (any shorter address to its page), and says so when nothing has that address;
//   - a copy-link button on each column, which copies that address as a link.
//
// The pages read well without it. It is written as one function whose compiled text becomes the
// file (see script.ts): it may use nothing from outside itself. It keeps working from the offline download
// opened as files: it loads the search data with a script element, and finds the site's root from
// its own address.

export function siteScript(site: string): void {
  interface Survey {
    name: string;
    label: string;
    releases: { name: string; label: string }[];
  }
  /** A table: name, label, description, then its columns' names, UCDs, units and descriptions. */
  type TableEntry = [string, string, string, string[], string[], string[], string[]];
  /** A band or data product: name, label, description. */
  type ItemEntry = [string, string, string];
  type FileEntry = [string, string, string, string, string, (TableEntry | ItemEntry)[]];
  interface SearchData {
    surveys: [string, string, [string, string][]][];
    files: FileEntry[];
  }
  /** A thing a search can find, with what it is matched on, lower-cased once. */
  interface Found {
    type: 'column' | 'table' | 'group' | 'band' | 'facility' | 'product';
    name: string;
    lower: string;
    description: string;
    words: string;
    ucd: string;
    unit: string;
    /** The UCD's words after a `;` each, and the unit's words between spaces, lower-cased. */
    ucdKey: string;
    unitKey: string;
    kind: string;
    survey: string;
    release: string;
    /** The dotted address, and the page (from the site's root) with its anchor. */
    address: string;
    href: string;
    /** Where it is, for people: survey, release, group, table. */
    where: string;
  }
  interface Index {
    surveys: Survey[];
    items: Found[];
    /** Every item's lower-cased name, one per line, and where each starts: scanned whole per keystroke. */
    names: string;
    nameAt: Int32Array;
    /** Every item's lower-cased description after a space, one per line, and where each starts. */
    texts: string;
    textAt: Int32Array;
  }

  const me = document.currentScript as HTMLScriptElement | null;
  const root = me ? me.src.replace(/browse\/site\.js(?:[?#].*)?$/, '') : new URL('./', location.href).href;
  const LIMIT = 100;
  const enc = encodeURIComponent;
  // As pages/html.ts has it: a group's, facility's, table's or band's page is a file of its own.
  const page = (segments: string[]): string => `${segments.map(enc).join('/')}${segments.length >= 5 ? '.html' : '/index.html'}`;

  let loading: Promise<Index> | undefined;

  /** The search data, loaded once, as a flat list of everything it names. */
  function load(): Promise<Index> {
    loading ??= new Promise<Index>((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = `${root}browse/search-data.js`;
      tag.async = true;
      tag.onload = () => {
        const data = (self as unknown as { archiveSearch?: SearchData }).archiveSearch;
        if (data) resolve(indexOf(data));
        else reject(new Error('the search data did not load'));
      };
      tag.onerror = () => {
        reject(new Error('the search data could not be loaded'));
      };
      document.head.appendChild(tag);
    });
    return loading;
  }

  function indexOf(data: SearchData): Index {
    const surveys: Survey[] = data.surveys.map(([name, label, releases]) => ({
      name,
      label,
      releases: releases.map(([r, l]) => ({ name: r, label: l })),
    }));
    const labels = new Map<string, string>();
    for (const s of surveys) {
      labels.set(s.name, s.label || s.name);
      for (const r of s.releases) labels.set(`${s.name}.${r.name}`, `${s.label || s.name} ${r.label || r.name}`);
    }
    const items: Found[] = [];
    const add = (found: Omit<Found, 'lower' | 'words' | 'ucdKey' | 'unitKey'>): void => {
      const unit = found.unit.toLowerCase();
      items.push({
        ...found,
        lower: found.name.toLowerCase(),
        // Words after any mark that is not part of one (a bracket, a comma) count as words.
        words: ` ${found.description.toLowerCase().replace(/[^\p{L}\p{N}_.+-]+/gu, ' ')}`,
        ucdKey: found.ucd
          .toLowerCase()
          .split(';')
          .map((w) => `;${w.trim().replace(/^ivoa:/, '')}`)
          .join(''),
        unitKey: unit === '' ? '' : ` ${unit} ${unit.split(/[^a-z0-9]+/).join(' ')} `,
      });
    };
    for (const [kind, survey, release, parent, parentLabel, children] of data.files) {
      const base = [survey, release, kind, parent];
      const release_ = labels.get(`${survey}.${release}`) ?? `${survey} ${release}`;
      const common = { kind, survey, release, ucd: '', unit: '' };
      const parentType = kind === 'catalogues' ? 'group' : 'facility';
      add({
        ...common,
        type: parentType,
        name: parent,
        description: parentLabel,
        address: base.join('.'),
        href: page(['browse', ...base]),
        where: `${release_} · ${kind}`,
      });
      for (const child of children) {
        const [name, label, description] = child;
        const where = `${release_} · ${parentLabel || parent}`;
        if (kind === 'catalogues') {
          const [, , , names, ucds, units, descriptions] = child as TableEntry;
          const tableHref = page(['browse', ...base, name]);
          add({
            ...common,
            type: 'table',
            name,
            description: label ? `${label}. ${description}` : description,
            address: [...base, name].join('.'),
            href: tableHref,
            where,
          });
          const at = `${where} · ${label || name}`;
          names.forEach((column, i) => {
            add({
              ...common,
              type: 'column',
              name: column,
              description: descriptions[i] ?? '',
              ucd: ucds[i] ?? '',
              unit: units[i] ?? '',
              address: [...base, name, column].join('.'),
              href: `${tableHref}#col-${enc(column)}`,
              where: at,
            });
          });
        } else if (kind === 'imaging') {
          add({
            ...common,
            type: 'band',
            name,
            description: label ? `${label}. ${description}` : description,
            address: [...base, name].join('.'),
            href: page(['browse', ...base, name]),
            where,
          });
        } else {
          add({
            ...common,
            type: 'product',
            name,
            description: label ? `${label}. ${description}` : description,
            address: [...base, name].join('.'),
            href: `${page(['browse', ...base])}#product-${enc(name)}`,
            where,
          });
        }
      }
    }
    const joined = (texts: string[]): { text: string; at: Int32Array } => {
      const at = new Int32Array(texts.length);
      let offset = 0;
      texts.forEach((t, i) => {
        at[i] = offset;
        offset += t.length + 1;
      });
      return { text: texts.join('\n'), at };
    };
    const names = joined(items.map((i) => i.lower));
    const texts = joined(items.map((i) => i.words));
    return { surveys, items, names: names.text, nameAt: names.at, texts: texts.text, textAt: texts.at };
  }

  interface Query {
    text: string;
    words: string[];
    ucd: string[];
    unit: string[];
    survey?: string;
    release?: string;
    kind?: string;
  }

  function parse(input: string, filters: { survey: string; release: string; kind: string }): Query {
    const query: Query = { text: '', words: [], ucd: [], unit: [] };
    const free: string[] = [];
    for (const token of input.trim().toLowerCase().split(/\s+/)) {
      if (token === '') continue;
      const field = /^(ucd|unit|survey|release|kind):(.*)$/.exec(token);
      if (!field) {
        free.push(token);
        continue;
      }
      const [, key, value = ''] = field;
      if (value === '') continue;
      if (key === 'ucd') query.ucd.push(value.replace(/^ivoa:/, ''));
      else if (key === 'unit') query.unit.push(value);
      else if (key === 'survey') query.survey = value;
      else if (key === 'release') query.release = value;
      else query.kind = value;
    }
    query.survey ??= filters.survey || undefined;
    query.release ??= filters.release || undefined;
    query.kind ??= filters.kind || undefined;
    query.words = free;
    query.text = free.join(' ');
    return query;
  }

  function ucdMatches(item: Found, wanted: string): boolean {
    return item.ucdKey.includes(`;${wanted}`);
  }

  function unitMatches(item: Found, wanted: string): boolean {
    return item.unitKey.includes(` ${wanted} `);
  }

  /** How well an item answers a query: 0 (its name exactly) to 4, or -1 when it does not. */
  function rank(item: Found, query: Query): number {
    if (query.survey && item.survey.toLowerCase() !== query.survey) return -1;
    if (query.release && item.release.toLowerCase() !== query.release) return -1;
    if (query.kind && item.kind !== query.kind) return -1;
    for (const wanted of query.ucd) if (!ucdMatches(item, wanted)) return -1;
    for (const wanted of query.unit) if (!unitMatches(item, wanted)) return -1;
    if (query.words.length === 0) return query.ucd.length + query.unit.length > 0 ? 3 : -1;
    let described = false;
    for (const word of query.words) {
      if (item.lower.includes(word)) continue;
      if (item.words.includes(` ${word}`)) {
        described = true;
        continue;
      }
      return -1;
    }
    if (item.lower === query.text) return 0;
    if (item.lower.startsWith(query.text)) return 1;
    if (item.lower.includes(query.text)) return 2;
    return described ? 4 : 3;
  }

  /** The items that answer a query, best first (then in the archive's order), and how many there are. */
  function search(index: Index, query: Query): { shown: Found[]; total: number } {
    const buckets: Found[][] = [[], [], [], [], []];
    let total = 0;
    // With a word, only the items whose name or description holds the first one are ranked: found by
    // scanning the two joined texts, far faster than asking each item.
    const first = query.words[0];
    const marked = first === undefined ? undefined : new Uint8Array(index.items.length);
    if (marked && first !== undefined) {
      mark(index.names, index.nameAt, first, marked);
      mark(index.texts, index.textAt, ` ${first}`, marked);
    }
    for (let i = 0; i < index.items.length; i++) {
      if (marked?.[i] === 0) continue;
      const item = index.items[i];
      if (item === undefined) continue;
      const r = rank(item, query);
      if (r < 0) continue;
      total++;
      const bucket = buckets[r];
      if (bucket && bucket.length < LIMIT) bucket.push(item);
    }
    return { shown: buckets.flat().slice(0, LIMIT), total };
  }

  /** Marks each item whose text in `joined` (starting at `starts`) holds `needle`. */
  function mark(joined: string, starts: Int32Array, needle: string, marked: Uint8Array): void {
    let at = joined.indexOf(needle);
    while (at >= 0) {
      // The item the match is in: the last that starts at or before it.
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((starts[middle] ?? 0) <= at) low = middle;
        else high = middle - 1;
      }
      marked[low] = 1;
      const next = starts[low + 1];
      at = next === undefined ? -1 : joined.indexOf(needle, next);
    }
  }

  // The search box and its panel of filters and results.
  const box = document.getElementById('search') as HTMLInputElement | null;
  if (box) {
    const panel = document.createElement('div');
    panel.className = 'search-panel';
    panel.id = 'search-panel';
    panel.hidden = true;
    panel.innerHTML =
      '<div class="search-filters">' +
      '<label>Survey <select id="search-survey"><option value="">any</option></select></label>' +
      '<label>Release <select id="search-release"><option value="">any</option></select></label>' +
      '<label>Kind <select id="search-kind"><option value="">any</option><option value="catalogues">catalogues</option>' +
      '<option value="imaging">imaging</option><option value="ifs">IFS</option><option value="spectra">spectra</option></select></label>' +
      '</div><p class="search-status" id="search-status" role="status" aria-live="polite"></p>' +
      '<ol class="search-results" id="search-results"></ol>' +
      '<p class="search-help">Words match names (<code>r_err</code> finds <code>flux_r_err</code>) and descriptions; ' +
      '<code>ucd:phot.mag</code>, <code>unit:mag</code>, <code>survey:</code>, <code>release:</code> and <code>kind:</code> narrow them.</p>';
    const header = box.closest('header') ?? document.body;
    header.after(panel);
    box.setAttribute('aria-controls', panel.id);
    const select = (id: string) => document.getElementById(id) as HTMLSelectElement;
    const surveySelect = select('search-survey');
    const releaseSelect = select('search-release');
    const kindSelect = select('search-kind');
    const status = document.getElementById('search-status') as HTMLElement;
    const list = document.getElementById('search-results') as HTMLOListElement;
    let index: Index | undefined;

    const option = (value: string, label: string): HTMLOptionElement => {
      const o = document.createElement('option');
      o.value = value;
      o.textContent = label;
      return o;
    };
    const fillReleases = (): void => {
      const chosen = index?.surveys.find((s) => s.name.toLowerCase() === surveySelect.value);
      releaseSelect.replaceChildren(option('', 'any'));
      const releases = chosen
        ? chosen.releases
        : [...new Set(index?.surveys.flatMap((s) => s.releases.map((r) => r.name)))].map((name) => ({ name, label: '' }));
      for (const r of releases) releaseSelect.append(option(r.name.toLowerCase(), r.label || r.name));
    };

    const show = (open: boolean): void => {
      panel.hidden = !open;
    };

    const render = (): void => {
      if (!index) return;
      const input = box.value;
      const query = parse(input, { survey: surveySelect.value, release: releaseSelect.value, kind: kindSelect.value });
      if (input.trim() === '') {
        list.replaceChildren();
        status.textContent = 'Type a name, a word, ucd:… or unit:…';
        return;
      }
      const { shown, total } = search(index, query);
      status.textContent =
        total === 0 ? 'Nothing found.' : total > shown.length ? `${total} found; the first ${shown.length} shown.` : `${total} found.`;
      const items = shown.map((item) => {
        const li = document.createElement('li');
        const a = document.createElement('a');
        a.href = root + item.href;
        a.className = `result ${item.type}`;
        const name = document.createElement('code');
        name.className = 'name';
        name.textContent = item.name;
        const type = document.createElement('span');
        type.className = 'type';
        type.textContent = item.type;
        const where = document.createElement('span');
        where.className = 'where';
        where.textContent = item.where;
        a.append(name, ' ', type, ' ', where);
        if (item.ucd || item.unit) {
          const facts = document.createElement('span');
          facts.className = 'facts';
          facts.textContent = [item.ucd, item.unit && `[${item.unit}]`].filter(Boolean).join(' ');
          a.append(facts);
        }
        if (item.description) {
          const description = document.createElement('span');
          description.className = 'description';
          description.textContent = item.description;
          a.append(description);
        }
        li.append(a);
        return li;
      });
      list.replaceChildren(...items);
    };

    // Escape closes the panel until the visitor types or clicks in the box again: focus coming back
    // to the box, or a search box emptying itself on Escape, leaves it closed.
    let dismissed = false;
    // Whether the data is on its way: it is asked for, and its results shown, once.
    let waiting = false;
    const start = (): void => {
      if (dismissed) return;
      show(true);
      if (index) {
        render();
        return;
      }
      if (waiting) return;
      waiting = true;
      status.textContent = 'Loading the search data…';
      load().then(
        (loaded) => {
          index = loaded;
          for (const s of loaded.surveys) surveySelect.append(option(s.name.toLowerCase(), s.label || s.name));
          fillReleases();
          render();
        },
        (error: unknown) => {
          status.textContent = error instanceof Error ? error.message : String(error);
        },
      );
    };

    // Focus coming back to the box (from another window or tab) leaves results on show as they are.
    box.addEventListener('focus', () => {
      if (panel.hidden) start();
    });
    box.addEventListener('input', () => {
      if (box.value !== '') dismissed = false;
      start();
    });
    box.addEventListener('click', () => {
      dismissed = false;
      start();
    });
    for (const s of [releaseSelect, kindSelect]) s.addEventListener('change', render);
    surveySelect.addEventListener('change', () => {
      fillReleases();
      render();
    });
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
        dismissed = true;
        show(false);
      }
    });
    list.addEventListener('keydown', (event) => {
      const all = links();
      const at = all.indexOf(document.activeElement as HTMLAnchorElement);
      if (event.key === 'ArrowDown') all[Math.min(at + 1, all.length - 1)]?.focus();
      else if (event.key === 'ArrowUp') (at <= 0 ? box : all[at - 1])?.focus();
      else if (event.key === 'Escape') {
        dismissed = true;
        show(false);
        box.focus();
      } else return;
      event.preventDefault();
    });
    document.addEventListener('click', (event) => {
      const target = event.target as Node | null;
      if (target && !panel.contains(target) && target !== box) show(false);
    });
  }

  // Opened from the offline download, the links to what the browser's zip does not hold (the API,
  // the download, the VO tables) lead to them on the site the pages were built for.
  if (location.protocol === 'file:' && /^https?:\/\//.test(site)) {
    const base = site.endsWith('/') ? site : `${site}/`;
    for (const a of document.querySelectorAll('a[href]')) {
      // The pictures' links are SVG elements, and lead only to the browser's own pages.
      if (!(a instanceof HTMLAnchorElement)) continue;
      const href = a.href;
      if (!href.startsWith(root)) continue;
      const inside = href.slice(root.length);
      if (inside.startsWith('browse/') || inside === 'index.html' || inside.startsWith('index.html#')) continue;
      a.href = base + inside;
    }
  }

  // Copy-link buttons: each column's address as a deep link.
  const live = document.createElement('p');
  live.className = 'visually-hidden';
  live.setAttribute('role', 'status');
  document.body.append(live);
  for (const table of document.querySelectorAll<HTMLElement>('table[data-address]')) {
    const address = table.dataset.address ?? '';
    for (const row of table.querySelectorAll<HTMLTableRowElement>('tr[data-name]')) {
      const name = row.dataset.name ?? '';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-link';
      button.textContent = 'Copy link';
      button.setAttribute('aria-label', `Copy link to column ${name}`);
      // The name as a URL may hold it (a `%` or `#` escaped), so the link reads back as written.
      const link = new URL(`browse/#${address}.${enc(name)}`, root).href;
      button.dataset.link = link;
      button.addEventListener('click', () => {
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
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- absent outside secure contexts
        if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => done(true), fallback);
        else fallback();
      });
      row.querySelector('th')?.append(' ', button);
    }
  }

  // Deep links: the page at browse/ reads its address and leads on.
  const resolving = document.getElementById('resolve');
  if (resolving) {
    const say = (text: string, to?: { href: string; label: string }): void => {
      resolving.replaceChildren(text);
      if (to) {
        const a = document.createElement('a');
        a.href = root + to.href;
        a.textContent = to.label;
        resolving.append(' ', a);
      }
    };
    const follow = (): void => {
      const address = decoded(location.hash.slice(1));
      if (address === '') return;
      say(`Finding ${address}…`);
      load().then(
        (index) => {
          const target = resolve(index, address);
          if ('href' in target) location.replace(root + target.href);
          else say(target.missing, target.nearest);
        },
        (error: unknown) => {
          say(error instanceof Error ? error.message : String(error));
        },
      );
    };
    follow();
    // An address typed over this page's own.
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

  /** Where an address leads: a page, or what is missing and the nearest page that exists. */
  function resolve(index: Index, address: string): { href: string } | { missing: string; nearest?: { href: string; label: string } } {
    const [surveyName = '', releaseName, written, parent, child, ...rest] = address.split('.');
    const kind = written?.toLowerCase();
    // Names as written first, then in any case (as a person may type them).
    const named = <T extends { name: string }>(list: readonly T[], name: string): T | undefined =>
      list.find((x) => x.name === name) ?? list.find((x) => x.name.toLowerCase() === name.toLowerCase());
    const survey = named(index.surveys, surveyName);
    if (!survey) return { missing: `No survey is named “${surveyName}”.`, nearest: { href: 'index.html', label: 'All surveys' } };
    const surveyPage = { href: page(['browse', survey.name]), label: survey.label || survey.name };
    if (releaseName === undefined) return { href: surveyPage.href };
    const release = named(survey.releases, releaseName);
    if (!release) return { missing: `${surveyPage.label} has no release “${releaseName}”.`, nearest: surveyPage };
    const releasePage = {
      href: page(['browse', survey.name, release.name]),
      label: `${surveyPage.label} ${release.label || release.name}`,
    };
    if (kind === undefined) return { href: releasePage.href };
    const at = (type: Found['type'], dotted: string) =>
      index.items.find((i) => i.type === type && i.address === dotted) ??
      index.items.find((i) => i.type === type && i.address.toLowerCase() === dotted.toLowerCase());
    const base = [survey.name, release.name, kind];
    if (parent === undefined) return { missing: `An address needs a group or facility after “${kind}”.`, nearest: releasePage };
    const parentItem = at(kind === 'catalogues' ? 'group' : 'facility', [...base, parent].join('.'));
    if (!parentItem) return { missing: `${releasePage.label} has no ${kind} named “${parent}”.`, nearest: releasePage };
    if (child === undefined) return { href: parentItem.href };
    const childType: Found['type'] = kind === 'catalogues' ? 'table' : kind === 'imaging' ? 'band' : 'product';
    const childItem = at(childType, [...base, parent, child].join('.'));
    const parentPage = { href: parentItem.href, label: parent };
    if (!childItem) return { missing: `${parent} has no ${childType} named “${child}”.`, nearest: parentPage };
    if (rest.length === 0) return { href: childItem.href };
    const leaf = rest.join('.');
    if (kind === 'catalogues') {
      const column = at('column', [...base, parent, child, leaf].join('.'));
      if (!column) return { missing: `${child} has no column named “${leaf}”.`, nearest: { href: childItem.href, label: child } };
      return { href: column.href };
    }
    // A band's region: its card on the band's page.
    if (kind === 'imaging') return { href: `${childItem.href}#region-${enc(leaf)}` };
    return { missing: `Nothing is named “${leaf}” in ${child}.`, nearest: { href: childItem.href, label: child } };
  }
}
