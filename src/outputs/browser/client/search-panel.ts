// The search box's panel, under the page's header: the survey, release and kind menus, a status
// line read out as it changes, the results, each a link to its page with where it is, its UCD,
// unit and type, and its description, and the help, its examples from the archive. Built with DOM
// calls, so every text from the data is text.

import { parseQuery, search } from './search.ts';
import { helpExamples } from './search-help.ts';
import type { Found, Index } from './search-index.ts';

export interface SearchPanel {
  box: HTMLInputElement;
  panel: HTMLElement;
  survey: HTMLSelectElement;
  release: HTMLSelectElement;
  kind: HTMLSelectElement;
  status: HTMLElement;
  list: HTMLOListElement;
  help: HTMLElement;
}

// The panel's fixed parts: no text from the data, so a constant.
const PANEL =
  '<div class="search-filters">' +
  '<label>Survey <select id="search-survey"><option value="">any</option></select></label>' +
  '<label>Release <select id="search-release"><option value="">any</option></select></label>' +
  '<label>Kind <select id="search-kind"><option value="">any</option><option value="catalogues">catalogues</option>' +
  '<option value="imaging">imaging</option><option value="ifs">IFS</option><option value="spectra">spectra</option></select></label>' +
  '</div><p class="search-status" id="search-status" role="status" aria-live="polite"></p>' +
  '<ol class="search-results" id="search-results"></ol>' +
  // Until the data is there to take examples from (fillHelp).
  '<p class="search-help" id="search-help">Words match names and descriptions; <code>ucd:</code>, <code>unit:</code>, ' +
  '<code>type:</code>, <code>survey:</code>, <code>release:</code> and <code>kind:</code> narrow them, or list what they select alone.</p>';

/** The panel for the box, hidden, after the header that holds the box. */
export function addPanel(box: HTMLInputElement): SearchPanel {
  const panel = document.createElement('div');
  panel.className = 'search-panel';
  panel.id = 'search-panel';
  panel.hidden = true;
  panel.innerHTML = PANEL;
  const header = box.closest('header') ?? document.body;
  header.after(panel);
  box.setAttribute('aria-controls', panel.id);
  const select = (id: string) => document.getElementById(id) as HTMLSelectElement;
  return {
    box,
    panel,
    survey: select('search-survey'),
    release: select('search-release'),
    kind: select('search-kind'),
    status: document.getElementById('search-status') as HTMLElement,
    list: document.getElementById('search-results') as HTMLOListElement,
    help: document.getElementById('search-help') as HTMLElement,
  };
}

function option(value: string, label: string): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  return o;
}

/** The survey menu's choices, once the index is there. */
export function fillSurveys(panel: SearchPanel, index: Index): void {
  for (const s of index.surveys) panel.survey.append(option(s.name.toLowerCase(), s.label || s.name));
}

/** The release menu's choices: the chosen survey's releases, or every release's name. */
export function fillReleases(panel: SearchPanel, index: Index): void {
  const chosen = index.surveys.find((s) => s.name.toLowerCase() === panel.survey.value);
  panel.release.replaceChildren(option('', 'any'));
  const releases = chosen
    ? chosen.releases
    : [...new Set(index.surveys.flatMap((s) => s.releases.map((r) => r.name)))].map((name) => ({ name, label: '' }));
  for (const r of releases) panel.release.append(option(r.name.toLowerCase(), r.label || r.name));
}

function code(text: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = text;
  return element;
}

/**
 * The help, with examples from this archive: a part of a name and the name it finds, then each
 * field with a value it has. A unit with spaces is quoted, or runs over the words that make it up.
 */
export function fillHelp(panel: SearchPanel, index: Index): void {
  const examples = helpExamples(index);
  const parts: (string | Node)[] = ['Words match names'];
  if (examples.part) parts.push(' (', code(examples.part.part), ' finds ', code(examples.part.name), ')');
  parts.push(' and descriptions. Fields narrow them, or alone list everything they select: ');
  const fields: [string, string | undefined][] = [
    ['ucd', examples.ucd],
    ['unit', examples.unit],
    ['type', examples.type],
    ['survey', examples.survey],
    ['release', examples.release],
    ['kind', examples.kind],
  ];
  fields.forEach(([field, value], i) => {
    if (i > 0) parts.push(i === fields.length - 1 ? ' and ' : ', ');
    parts.push(code(`${field}:${value ?? ''}`));
  });
  parts.push('.');
  const spaced = examples.spacedUnit;
  if (spaced !== undefined) {
    parts.push(' A unit with spaces is quoted, ', code(`unit:"${spaced}"`), ', or written as it is, ', code(`unit:${spaced}`));
    parts.push(': it takes the words after it that make a unit of this archive.');
  }
  panel.help.replaceChildren(...parts);
}

/** The results of the box's query with the menus' choices, and how many there are. */
export function showResults(panel: SearchPanel, index: Index, root: string): void {
  const input = panel.box.value;
  if (input.trim() === '') {
    panel.list.replaceChildren();
    panel.status.textContent = 'Type a name, a word, ucd:…, unit:… or type:…';
    return;
  }
  const query = parseQuery(input, { survey: panel.survey.value, release: panel.release.value, kind: panel.kind.value }, index.units);
  const { shown, total } = search(index, query);
  panel.status.textContent =
    total === 0 ? 'Nothing found.' : total > shown.length ? `${total} found; the first ${shown.length} shown.` : `${total} found.`;
  panel.list.replaceChildren(...shown.map((item) => resultItem(item, root)));
}

function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}

/** A result: its name, what it is and where, its UCD, unit and type, and its description, as a link to it. */
function resultItem(item: Found, root: string): HTMLLIElement {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = root + item.href;
  a.className = `result ${item.type}`;
  const name = document.createElement('code');
  name.className = 'name';
  name.textContent = item.name;
  a.append(name, ' ', span('type', item.type), ' ', span('where', item.where));
  const facts = [item.ucd, item.unit && `[${item.unit}]`, item.datatype].filter(Boolean).join(' ');
  if (facts) a.append(span('facts', facts));
  if (item.description) a.append(span('description', item.description));
  li.append(a);
  return li;
}
