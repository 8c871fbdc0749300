// One change record as the changelog's readers see it: its summary, date and counts, then what it
// changed, survey by survey and release by release (the lines `diff` prints, changes/report.ts), and
// the reason for each correction of released data. The same HTML on the changelog's pages and in
// the feed's entries; a page of one survey or release shows only that survey's or release's part.

import { countChanges } from '../../changes/diff.ts';
import { itemWords } from '../../changes/record.ts';
import type { RecordedChange } from '../../changes/record.ts';
import type { PublishedRecord } from '../../changes/published.ts';
import { countsText, shown, summarise } from '../../changes/report.ts';
import type { Part, Section } from '../../changes/report.ts';
import { html, joinHtml } from '../html.ts';
import type { Html } from '../html.ts';
import type { Places } from './places.ts';

/** What part of the archive a changelog shows: all of it, a survey (by id), or one of its releases. */
export interface Scope {
  survey?: number;
  release?: string;
}

/** Whether an entry (or a section of its record) is in the scope. */
export function inScope(scope: Scope, place: { survey: number; release?: string; kind?: string }): boolean {
  if (scope.survey === undefined) return true;
  if (place.survey !== scope.survey) return false;
  return scope.release === undefined || (place.kind !== 'Survey' && place.release === scope.release);
}

/** The record's entries in the scope. */
export function entriesIn(record: PublishedRecord, scope: Scope): RecordedChange[] {
  return record.changes.filter((entry) => inScope(scope, entry));
}

/** The date a record gives, as its readers see it: the day, in a <time> with the instant. */
export function dateHtml(date: string): Html {
  return html`<time datetime="${date}">${date.slice(0, 10)}</time>`;
}

function partHtml(part: Part): Html {
  if ('text' in part) return html`${part.text}`;
  if ('name' in part) return html`<code>${part.name}</code>`;
  return html`<code>${typeof part.value === 'string' ? part.value : JSON.stringify(part.value)}</code>`;
}

/** How a record's section heads are linked: to the survey's or release's page, or not at all. */
export type SectionLink = (section: Pick<Section, 'survey' | 'release'>) => string | undefined;

function sectionHtml(section: Section, link: SectionLink, level: number): Html {
  const href = link(section);
  const title = href === undefined ? html`${section.title}` : html`<a href="${href}">${section.title}</a>`;
  const lines = section.bullets.map(
    (b) => html`<li><strong>${b.subject}</strong>: ${joinHtml(shown(b.phrases).map((p) => p.map(partHtml)), '; ')}</li>`,
  );
  const h = `h${level}`;
  return html`<${h}>${title} <span class="muted">${countsText(section.counts)}</span></${h}>
<ul class="nodes">${lines}</ul>
`;
}

/** The reasons given for the record's corrections of released data, in the scope. */
function correctionsHtml(entries: readonly RecordedChange[]): Html {
  const corrected = entries.filter((e) => e.correction);
  if (corrected.length === 0) return html``;
  const items = corrected.map(
    (e) => html`<li><span class="tag">correction</span> ${itemWords(e)} <code>${e.path}</code>: ${e.correction?.reason ?? ''}</li>`,
  );
  return html`<ul class="nodes corrections">${items}</ul>
`;
}

/**
 * What a record changed in the scope, section by section, with the reasons for its corrections:
 * section heads at heading `level`, linked as `link` says.
 */
export function recordBody(record: PublishedRecord, scope: Scope, places: Places, link: SectionLink, level = 3): Html {
  const entries = entriesIn(record, scope);
  const sections = summarise(entries, places.title);
  const commit = record.commit && html` <span class="muted">(from commit <code>${record.commit.slice(0, 12)}</code>)</span>`;
  return html`<p class="note">${dateHtml(record.date)} · ${countsText(countChanges(entries))}${commit}</p>
${sections.map((s) => sectionHtml(s, link, level))}${correctionsHtml(entries)}`;
}
