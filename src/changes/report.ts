// A diff as people read it (text for a terminal, Markdown for a pull request's job summary) and as
// tools read it (JSON, every field old and new). Pure: the same changes give the same bytes.

import { KINDS } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { CHANGE_TYPES, countChanges, fieldOrder } from './diff.ts';
import type { Change, ChangeType, Counts } from './diff.ts';
import { surveyKey } from './snapshot.ts';
import type { Snapshot } from './snapshot.ts';

/** A piece of a phrase: words, a name (of a node or a field's subject), or a field's value. */
export type Part = { text: string } | { name: string } | { value: unknown };
export type Phrase = Part[];

interface Bullet {
  subject: string;
  phrases: Phrase[];
  /** The children's changes, by change type and kind, gathered before they become phrases. */
  children: Map<string, Change[]>;
}

export interface Section {
  title: string;
  /** The survey's id, and the release's name (none for a survey's own section). */
  survey: number;
  release?: string;
  counts: Counts;
  bullets: Bullet[];
}

/** Names the survey (and release) a change belongs to, e.g. "GAMA DR4". */
export type Titles = (survey: number, release?: string) => string;

/** Where the two sides of a diff came from, as they are named in its report. */
export interface Sides {
  from: string;
  to: string;
}

/** At most this many phrases in one line; the rest are counted. */
const MAX_PHRASES = 12;
/** At most this many names listed for added or removed children; the rest are counted. */
const MAX_NAMES = 8;
/** A section with more lines than this is folded away in Markdown, for a pull request that touches a whole release. */
const FOLD_BULLETS = 25;

/** Survey and release titles for reports: the survey's display name and the release's in capitals, "GAMA DR4". */
export function titlesOf(...sides: Snapshot[]): Titles {
  return (survey, release) => {
    const state = sides.map((s) => s.get(surveyKey(survey))).find((s) => s !== undefined);
    const pretty = state?.fields.pretty_name;
    const name = typeof pretty === 'string' && pretty !== '' ? pretty : (state?.names[0] ?? `survey ${survey}`);
    return release === undefined ? name : `${name} ${release.toUpperCase()}`;
  };
}

// ---- Words --------------------------------------------------------------------------------------------

function plural(word: string, n: number): string {
  if (n === 1) return word;
  return word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`;
}

const labelOf = (kind: KindType): string => KINDS[kind].label;

/** "3 columns added, 1 column changed": counts by kind label (IFS and spectra products together). */
export function countsText(counts: Counts): string {
  const byLabel = new Map<string, Record<ChangeType, number>>();
  for (const [kind, count] of counts) {
    const label = labelOf(kind);
    const sum = byLabel.get(label) ?? { added: 0, removed: 0, changed: 0 };
    for (const type of CHANGE_TYPES) sum[type] += count[type];
    byLabel.set(label, sum);
  }
  const parts: string[] = [];
  for (const [label, count] of byLabel)
    for (const type of CHANGE_TYPES) if (count[type] > 0) parts.push(`${count[type]} ${plural(label, count[type])} ${type}`);
  return parts.join(', ');
}

/** "2 tables and 40 columns". */
function listCounts(counts: ReadonlyMap<string, number>): string {
  const parts = [...counts].map(([label, n]) => `${n} ${plural(label, n)}`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}

// ---- Where a change sits --------------------------------------------------------------------------

/** How deep a kind sits: a survey 1, a release 2, a group or facility 3, a table 4, a column 5. */
function depthOf(kind: KindType): number {
  if (kind === 'Survey') return 1;
  if (kind === 'DataRelease') return 2;
  const parent = KINDS[kind].nested?.parent;
  return parent ? depthOf(parent) + 1 : 3;
}

/** The kinds above a kind, nearest first. */
function ancestorsOf(kind: KindType): KindType[] {
  if (kind === 'Survey') return [];
  if (kind === 'DataRelease') return ['Survey'];
  const parent = KINDS[kind].nested?.parent;
  return parent ? [parent, ...ancestorsOf(parent)] : ['DataRelease', 'Survey'];
}

/**
 * A path's first `count` names and the rest: names above a column's never hold `/` (their
 * schemas forbid it), a column's may.
 */
function splitPath(path: string, count: number): { head: string[]; rest: string } {
  const head: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const slash = path.indexOf('/', at);
    if (slash < 0) break;
    head.push(path.slice(at, slash));
    at = slash + 1;
  }
  return { head, rest: path.slice(at) };
}

/** A path's first `depth` names: the path of the node above at that depth. */
function prefixOf(path: string, depth: number): string {
  const { head, rest } = splitPath(path, depth - 1);
  return head.length === depth - 1 ? [...head, splitPath(rest, 1).head[0] ?? rest].join('/') : '';
}

/** The name a change's node goes by: the last of its path. */
const ownName = (change: Change): string => splitPath(change.path, depthOf(change.kind) - 1).rest;

/**
 * Changes inside an added or removed node are told with it ("table added with 12 columns"):
 * for each change, the highest added (or removed) node above it, if any.
 */
function foldedInto(changes: readonly Change[]): Map<Change, Change> {
  const wholes = new Map<string, Change>();
  for (const c of changes) if (c.change !== 'changed') wholes.set(`${c.change}|${c.kind}|${c.path}`, c);
  const into = new Map<Change, Change>();
  for (const c of changes) {
    if (c.change === 'changed') continue;
    let top: Change | undefined;
    for (const kind of ancestorsOf(c.kind)) {
      const found = wholes.get(`${c.change}|${kind}|${prefixOf(c.path, depthOf(kind))}`);
      if (found) top = found;
    }
    if (top) into.set(c, top);
  }
  return into;
}

// ---- Phrases ---------------------------------------------------------------------------------------------

/** Values short enough to read in a line; others are only said to have changed. */
function isShort(value: unknown): boolean {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return true;
  return typeof value === 'string' && value.length <= 40 && !/[\n\r]/.test(value);
}

/** One phrase per changed field; `subject` names a child ("unit of `logmstar` …"), none the line's own node. */
function fieldPhrases(change: Change, subject?: string): Phrase[] {
  const old = change.old ?? {};
  const now = change.new ?? {};
  const of = (field: string): Phrase => (subject === undefined ? [{ text: field }] : [{ text: `${field} of ` }, { name: subject }]);
  const phrases: Phrase[] = [];
  if (change.movedFrom !== undefined)
    phrases.push(
      subject === undefined
        ? [{ text: 'moved from ' }, { name: change.movedFrom }]
        : [{ name: subject }, { text: ' moved here from ' }, { name: change.movedFrom }],
    );
  for (const field of fieldOrder([...Object.keys(old), ...Object.keys(now)])) {
    const had = Object.hasOwn(old, field);
    const has = Object.hasOwn(now, field);
    if (field === 'name' && had && has) {
      phrases.push(
        subject === undefined
          ? [{ text: 'renamed from ' }, { name: String(old.name) }]
          : [{ name: String(old.name) }, { text: ' renamed ' }, { name: String(now.name) }],
      );
    } else if (had && has) {
      const values = isShort(old[field]) && isShort(now[field]);
      phrases.push([
        ...of(field),
        { text: ' changed' },
        ...(values ? [{ text: ' from ' }, { value: old[field] }, { text: ' to ' }, { value: now[field] }] : []),
      ]);
    } else if (has) {
      phrases.push([...of(field), ...(isShort(now[field]) ? [{ text: ' set to ' }, { value: now[field] }] : [{ text: ' added' }])]);
    } else {
      phrases.push([
        ...of(field),
        { text: ' removed' },
        ...(isShort(old[field]) ? [{ text: ' (was ' }, { value: old[field] }, { text: ')' }] : []),
      ]);
    }
  }
  return phrases;
}

/** What was folded into a whole node: " with 2 tables and 40 columns" (or " with its …" for a removal). */
function withParts(change: Change, folded: ReadonlyMap<Change, Map<string, number>>): string {
  const inside = folded.get(change);
  if (!inside || inside.size === 0) return '';
  return ` with ${change.change === 'removed' ? 'its ' : ''}${listCounts(inside)}`;
}

/** "3 columns added (`a`, `b`, `c`)", the names of the first few. */
function childrenPhrase(
  type: ChangeType,
  kind: KindType,
  changes: readonly Change[],
  folded: ReadonlyMap<Change, Map<string, number>>,
): Phrase {
  const names: Phrase = [];
  for (const [i, c] of changes.slice(0, MAX_NAMES).entries())
    names.push(...(i > 0 ? [{ text: ', ' }] : []), { name: ownName(c) }, { text: withParts(c, folded) });
  const more = changes.length > MAX_NAMES ? [{ text: ` and ${changes.length - MAX_NAMES} more` }] : [];
  return [{ text: `${changes.length} ${plural(labelOf(kind), changes.length)} ${type} (` }, ...names, ...more, { text: ')' }];
}

// ---- Sections --------------------------------------------------------------------------------------------

/**
 * The changes grouped for reading: a section per survey or release, in it a line per group or
 * facility and per table, band or product, each saying what happened to it and to what it holds.
 */
export function summarise(changes: readonly Change[], titles: Titles): Section[] {
  const into = foldedInto(changes);
  const folded = countFolded(into);
  const sections = new Map<string, Gathering>();
  for (const c of changes) {
    // What is folded into a whole node is counted in that node's section, and told with it.
    const top = into.get(c) ?? c;
    const key = depthOf(top.kind) === 1 ? `${top.survey}` : `${top.survey}/${top.release ?? ''}`;
    let section = sections.get(key);
    if (!section) {
      const release = depthOf(top.kind) === 1 ? undefined : top.release;
      section = {
        title: depthOf(top.kind) === 1 ? titles(top.survey) : titles(top.survey, top.release),
        survey: top.survey,
        ...(release === undefined ? {} : { release }),
        all: [],
        lines: new Map(),
      };
      sections.set(key, section);
    }
    section.all.push(c);
    if (top === c) place(section, c, folded);
  }
  return [...sections.values()].map((s) => ({
    title: s.title,
    survey: s.survey,
    ...(s.release === undefined ? {} : { release: s.release }),
    counts: countChanges(s.all),
    bullets: [...s.lines.values()].map((b) => ({ ...b, phrases: [...b.phrases, ...childPhrases(b.children, folded)] })),
  }));
}

/** A section as its changes are gathered: all of them, for its counts, and its lines in the order they come. */
interface Gathering {
  title: string;
  survey: number;
  release?: string;
  all: Change[];
  lines: Map<string, Bullet>;
}

/** How many of each kind each whole node holds: "with 2 tables and 40 columns". */
function countFolded(into: ReadonlyMap<Change, Change>): Map<Change, Map<string, number>> {
  const folded = new Map<Change, Map<string, number>>();
  for (const [c, top] of into) {
    const counts = folded.get(top) ?? new Map<string, number>();
    counts.set(labelOf(c.kind), (counts.get(labelOf(c.kind)) ?? 0) + 1);
    folded.set(top, counts);
  }
  return folded;
}

/**
 * Puts a change in its line: a survey's, a release's, a group's or a table's own change in that
 * node's line; a table's addition or removal, and a column's change, in the line of the node above.
 */
function place(section: Gathering, c: Change, folded: ReadonlyMap<Change, Map<string, number>>): void {
  const depth = depthOf(c.kind);
  const ownLine = depth <= 3 || (depth === 4 && c.change === 'changed');
  const { head, rest } = splitPath(c.path, depth - 1);
  const subject = depth === 1 ? 'survey' : depth === 2 ? 'release' : [...head, rest].slice(2, ownLine ? depth : depth - 1).join(' / ');
  let bullet = section.lines.get(subject);
  if (!bullet) {
    bullet = { subject, phrases: [], children: new Map() };
    section.lines.set(subject, bullet);
  }
  if (!ownLine) {
    const key = `${c.change}|${c.kind}`;
    bullet.children.set(key, [...(bullet.children.get(key) ?? []), c]);
  } else if (c.change === 'changed') {
    bullet.phrases.push(...fieldPhrases(c));
  } else {
    bullet.phrases.push([{ text: `${labelOf(c.kind)} ${c.change}${withParts(c, folded)}` }]);
  }
}

function childPhrases(children: ReadonlyMap<string, Change[]>, folded: ReadonlyMap<Change, Map<string, number>>): Phrase[] {
  const phrases: Phrase[] = [];
  for (const type of CHANGE_TYPES) {
    for (const [key, list] of children) {
      const [t, kind] = key.split('|') as [ChangeType, KindType];
      if (t !== type) continue;
      if (type === 'changed') for (const c of list) phrases.push(...fieldPhrases(c, ownName(c)));
      else phrases.push(childrenPhrase(type, kind, list, folded));
    }
  }
  return phrases;
}

/** A line's phrases, the first few, and how many more there are. */
export function shown(phrases: readonly Phrase[]): Phrase[] {
  if (phrases.length <= MAX_PHRASES) return [...phrases];
  return [...phrases.slice(0, MAX_PHRASES), [{ text: `and ${phrases.length - MAX_PHRASES} more changes` }]];
}

// ---- Rendering -----------------------------------------------------------------------------------------

const headline = (changes: readonly Change[]): string => (changes.length === 0 ? 'no changes' : countsText(countChanges(changes)));

function textPart(part: Part): string {
  if ('text' in part) return part.text;
  if ('name' in part) return part.name;
  return typeof part.value === 'string' ? JSON.stringify(part.value) : String(part.value);
}

/** The report for a terminal: a headline, then each section's lines. */
export function formatText(changes: readonly Change[], sides: Sides, titles: Titles): string {
  const lines = [`Metadata changes from ${sides.from} to ${sides.to}: ${headline(changes)}.`];
  for (const section of summarise(changes, titles)) {
    lines.push('', `${section.title}: ${countsText(section.counts)}`);
    for (const bullet of section.bullets)
      lines.push(
        `  ${bullet.subject}: ${shown(bullet.phrases)
          .map((p) => p.map(textPart).join(''))
          .join('; ')}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** Text that Markdown shows as it is. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~&]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`));
}

/** A code span that holds any text: fenced by one backtick more than the longest run in it, on one line. */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

function markdownPart(part: Part): string {
  if ('text' in part) return escapeMarkdown(part.text);
  if ('name' in part) return codeSpan(part.name);
  return codeSpan(typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
}

/**
 * The report for a pull request (a GitHub job summary): a heading and headline, then a section per
 * survey or release with its counts, its lines as a list (folded away when a section is long).
 */
export function formatMarkdown(changes: readonly Change[], sides: Sides, titles: Titles): string {
  const out = [
    '### Metadata changes',
    '',
    `From ${escapeMarkdown(sides.from)} to ${escapeMarkdown(sides.to)}: ${escapeMarkdown(headline(changes))}.`,
  ];
  for (const section of summarise(changes, titles)) {
    const counts = escapeMarkdown(countsText(section.counts));
    const items = section.bullets.map(
      (b) =>
        `- **${escapeMarkdown(b.subject)}**: ${shown(b.phrases)
          .map((p) => p.map(markdownPart).join(''))
          .join('; ')}`,
    );
    out.push('');
    if (items.length > FOLD_BULLETS)
      out.push(`<details><summary><b>${escapeMarkdown(section.title)}</b>: ${counts}</summary>`, '', ...items, '', '</details>');
    else out.push(`**${escapeMarkdown(section.title)}**: ${counts}`, '', ...items);
  }
  return `${out.join('\n')}\n`;
}

/** A change as data, its keys in a fixed order: as JSON reports write it and change records keep it. */
export function changeEntry(change: Change): Record<string, unknown> {
  return {
    change: change.change,
    kind: change.kind,
    ...(change.id !== undefined ? { id: change.id } : {}),
    ...(change.kind !== 'Survey' ? { survey: change.survey } : {}),
    ...(change.release !== undefined && change.kind !== 'Survey' ? { release: change.release } : {}),
    path: change.path,
    ...(change.movedFrom !== undefined ? { moved_from: change.movedFrom } : {}),
    // A change's side with no field (a field that was not there before) says nothing: left out.
    ...(change.old !== undefined && (change.change !== 'changed' || Object.keys(change.old).length > 0) ? { old: change.old } : {}),
    ...(change.new !== undefined && (change.change !== 'changed' || Object.keys(change.new).length > 0) ? { new: change.new } : {}),
  };
}

/** The whole diff as JSON: both sides, the counts by kind, and every change with its fields old and new. */
export function formatJson(changes: readonly Change[], sides: Sides): string {
  const counts = Object.fromEntries(countChanges(changes));
  return `${JSON.stringify({ from: sides.from, to: sides.to, counts, changes: changes.map(changeEntry) }, null, 2)}\n`;
}
