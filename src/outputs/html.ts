// HTML that escapes by default, for every page the outputs write: the schema browser's, the
// browsable API's, the API reference and the download's page. Only web-standard JavaScript: the
// edge function renders browsable pages with it too.
//
//   html`<p class="lead">${title}</p>`           a text value is escaped (& < > " ')
//   html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`
//                                                HTML made by `html` goes in as it is; a list's
//                                                items go in one after another
//   html`<dl>${joinHtml(rows, '\n')}</dl>`      items with something between them
//   html`<div>${raw(sanitiseHtml(text))}</div>`  text that is HTML already: the one way to write it
//                                                unescaped, kept for what is made safe elsewhere
//                                                (sanitised curator HTML, the SVG pictures, CSS)
//   page.text                                    the HTML as a string, to write to a file
//
// A number is written as String writes it; false, null and undefined write nothing, so that
// `${cond && html`…`}` reads naturally. Attribute values are always quoted: an escaped value is
// safe in a quoted attribute and between tags, never unquoted. Html has no toString on purpose:
// the lint refuses `items.join('')` and a plain `${…}` of one, each of which would escape it again
// or lose it. Prettier leaves these templates as written (.prettierrc.json): their white space is
// the pages'. test/html.test.ts lists every `raw(` in src/, so a new one is a deliberate change.

// Set by the class's static block: declared before it, which runs as the class is defined.
let made: (text: string) => Html;

/** Text that is HTML, made by `html` or `raw` only: it is put into a page as it is. */
export class Html {
  // Nominal: no other object with a `text` is Html, so nothing reaches a page unescaped by mistake.
  declare private readonly brand: never;

  private constructor(readonly text: string) {}

  static {
    // The one way to make one, kept in this module for `html` and `raw`.
    made = (text) => new Html(text);
  }
}

/** What a template takes: text (escaped), HTML (as it is), a number, a list of these, or nothing. */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text escaped for anywhere in a page, attribute values included. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function textOf(value: HtmlValue): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (value instanceof Html) return value.text;
  if (typeof value === 'number') return String(value);
  if (value === false || value === null || value === undefined) return '';
  return value.map(textOf).join('');
}

/** A template of HTML: each value escaped, unless it is HTML already. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let text = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) text += textOf(values[i]) + (strings[i + 1] ?? '');
  return made(text);
}

/** Text that is HTML already, written as it is: only for what is made safe elsewhere. */
export function raw(text: string): Html {
  return made(text);
}

/** Items one after another with `separator` (text, escaped, or HTML) between them. */
export function joinHtml(items: readonly HtmlValue[], separator: HtmlValue): Html {
  const between = textOf(separator);
  return made(items.map(textOf).join(between));
}
