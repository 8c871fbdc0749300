// UCD syntax: '-' for undefined, or words of dot-separated atoms joined by ';'
// (the lexical rules of the IVOA UCD1+ list, as astropy and ucidy implement them).

import { readFileSync } from 'node:fs';
import { distance } from 'fastest-levenshtein';
import { SCHEMA_DIR } from '../project.ts';

const ATOM = '[A-Za-z0-9][A-Za-z0-9_-]*';
const WORD = new RegExp(`^(?:${ATOM}:)?${ATOM}(?:\\.${ATOM})*$`);

/** Returns undefined when the UCD is well formed, else what is wrong with it. */
export function ucdSyntaxProblem(ucd: string): string | undefined {
  if (ucd === '-') return undefined;
  if (ucd.includes(',') || /\s/.test(ucd)) {
    // The words as the curator meant them, split at commas, semicolons and white space, when they
    // make a well-formed UCD: "pos.eq.ra, meta.main" is pos.eq.ra;meta.main.
    const parts = ucd.split(/\s*[,;]\s*|\s+/).filter(Boolean);
    const fixed = parts.join(';');
    const meant = (ucd.includes(',') || ucd.includes(';') || parts.every((p) => p.includes('.'))) && ucdSyntaxProblem(fixed) === undefined;
    const hint = meant ? ` (${fixed})` : '';
    if (ucd.includes(',')) return `joins words with ","; use ";" instead${hint}`;
    return `contains white space; join words with ";" and atoms with "." and no spaces${hint}`;
  }
  const words = ucd.split(';');
  for (const [index, word] of words.entries()) {
    if (word === '') return `has an empty word at position ${index + 1}; remove the extra ";"`;
    if (!WORD.test(word)) {
      return `has the malformed word "${word}"; a word is atoms of letters, digits, "_" or "-" joined by "."`;
    }
  }
  return undefined;
}

/** Whether a UCD has a word, compared as the list's words are: `meta.main` in pos.eq.ra;META.MAIN. */
export function hasUcdWord(ucd: string, word: string): boolean {
  const wanted = word.toLowerCase();
  return ucd.split(';').some(
    (w) =>
      w
        .trim()
        .toLowerCase()
        .replace(/^ivoa:/, '') === wanted,
  );
}

// ---------------------------------------------------------------------------
// The UCD1+ controlled vocabulary: which words exist, where each may stand.
//
// The list is vendored in schemas/vocabularies/ucd1p-words.txt (format in its header;
// refreshed by scripts/update-ucd-vocabulary.sh) and read once, on first use.
// Everything below gives WARNINGS for curators, never errors: a UCD that breaks
// these rules is still published as written.
//
// What is checked, and why (the IVOA list document, UCDList EN 1.6 §2, and the
// checks astropy and ucidy make):
// - every word is compared case-insensitively, as astropy and ucidy do; a word
//   written with other capitals than the list's is accepted silently;
// - an unknown word is named with a listed word when one is likely meant: a
//   unique one within a few edits (a typo), the split when two words were
//   joined by "." instead of ";", the word it is the tail of ("fit.param" for
//   stat.fit.param), or the word it spells out further ("meta.ident" for
//   meta.id); failing those, with its nearest listed ancestor ("em.opt" for the
//   unlisted em.opt.G, which is one edit from every em.opt band);
// - a deprecated word is named with the replacement the IVOA gives;
// - a secondary-only (S) word must not come first, a primary-only (P) word
//   must not come after the first position (both are errors for astropy and ucidy);
// - "phot.color" (C) followed by exactly one em.* word: a colour has two bands,
//   so one band is an incomplete description.
// Deliberately NOT warned (ucidy gives these as advice only, and the list says
// such words "can" be followed, not "must"): a photometric (E) word or a colour
// not followed by em.* words (e.g. "phot.mag" alone), a vector (V) word not
// followed by an axis or frame word, and repeated words (legitimate in
// correlations such as "stat.correlation;pos.pm;pos.eq.ra;pos.pm;pos.eq.dec").
// Namespaces: "ivoa:" is the default, so an explicit one gets a gentle warning
// and the word is checked without it; a word in any other namespace (e.g. the
// SIAv1 "VOX:") is outside the list: one warning says it cannot be checked, and
// it takes no part in the position checks.

/** Syntax codes of the UCD1+ list (P primary only, S secondary only, Q either,
 * E photometric, C colour, V vector: E, C and V stand anywhere, like Q). */
export type UcdWordType = 'P' | 'S' | 'Q' | 'E' | 'C' | 'V';

export interface UcdWord {
  type: UcdWordType;
  /** Canonical capitalisation, as in the list. */
  word: string;
  description: string;
}

export interface UcdDeprecatedWord {
  word: string;
  /** The UCD (one or more words joined by ";") the IVOA suggests instead. */
  replacement: string;
}

export interface UcdVocabulary {
  /** The upstream version tag from the first line, e.g. "EN-UCDlist-v1.6-2024-12-18" ('' if none). */
  tag: string;
  /** The list version, e.g. "v1.6" ('' if the tag names none). */
  version: string;
  /** Listed words, keyed by their lower-case form, in list order. */
  words: Map<string, UcdWord>;
  /** Deprecated words, keyed by their lower-case form. */
  deprecated: Map<string, UcdDeprecatedWord>;
}

const TYPES = new Set<string>(['P', 'S', 'Q', 'E', 'C', 'V']);
const TAG = /^#\s*((?:[A-Za-z]+-)?UCDlist-(v\d+(?:\.\d+)*)\S*)/i;

/**
 * Reads a UCD1+ word list: the upstream `ucd-list.txt` (`X | word | text`, padded or not),
 * Debian's copies of it, or the vendored normalised file (which adds `D|word|replacement`
 * lines). `#` lines are comments, the first naming a version (`#EN-UCDlist-v1.6-…`) gives
 * the tag; a line without "|" continues the previous description (one upstream draft
 * wraps a description). Throws on a line it cannot read.
 */
export function parseUcdList(text: string): UcdVocabulary {
  const vocabulary: UcdVocabulary = { tag: '', version: '', words: new Map(), deprecated: new Map() };
  let last: UcdWord | undefined;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const tag = TAG.exec(line);
      if (tag && vocabulary.tag === '') {
        vocabulary.tag = tag[1] ?? '';
        vocabulary.version = tag[2] ?? '';
      }
      continue;
    }
    const fields = line.split('|');
    if (fields.length < 3) {
      if (fields.length === 1 && last) {
        last.description = `${last.description} ${line}`.trim();
        continue;
      }
      throw new Error(`UCD list line ${index + 1} is not "TYPE | word | description": ${line}`);
    }
    const type = (fields[0] ?? '').trim().toUpperCase();
    const word = (fields[1] ?? '').trim();
    const rest = fields.slice(2).join('|').replace(/\s+/g, ' ').trim();
    if (!WORD.test(word) || word.includes(':')) {
      throw new Error(`UCD list line ${index + 1} has the malformed word "${word}"`);
    }
    const key = word.toLowerCase();
    if (type === 'D') {
      if (!vocabulary.deprecated.has(key)) vocabulary.deprecated.set(key, { word, replacement: rest });
      last = undefined;
    } else if (TYPES.has(type)) {
      if (vocabulary.words.has(key)) throw new Error(`UCD list line ${index + 1} repeats the word "${word}"`);
      last = { type: type as UcdWordType, word, description: rest };
      vocabulary.words.set(key, last);
    } else {
      throw new Error(`UCD list line ${index + 1} has the unknown syntax code "${type}" (expected P, S, Q, E, C or V)`);
    }
  }
  // A word both listed and deprecated (re-admitted upstream) counts as listed.
  for (const key of vocabulary.deprecated.keys()) if (vocabulary.words.has(key)) vocabulary.deprecated.delete(key);
  return vocabulary;
}

/**
 * Reads a deprecated-words list: upstream `ucd-list-deprecated.txt` lines
 * `old.word replacement;ucd` (white space between), or normalised `D|old.word|replacement` lines.
 */
export function parseUcdDeprecatedList(text: string): UcdDeprecatedWord[] {
  const entries: UcdDeprecatedWord[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.includes('|')
      ? line
          .split('|')
          .slice(1)
          .map((f) => f.trim())
      : line.split(/\s+/);
    const [word = '', replacement = '', ...extra] = fields;
    if (extra.length > 0 || !WORD.test(word) || (replacement !== '' && ucdSyntaxProblem(replacement) !== undefined)) {
      throw new Error(`deprecated UCD list line ${index + 1} is not "old.word replacement": ${line}`);
    }
    entries.push({ word, replacement });
  }
  return entries;
}

export interface NormaliseUcdListOptions {
  /** Text of a deprecated-words list (see parseUcdDeprecatedList). */
  deprecated?: string;
  /** Where the word list came from, recorded in the header. */
  source?: string;
  /** Where the deprecated list came from, recorded in the header. */
  deprecatedSource?: string;
}

/**
 * Rewrites a UCD1+ word list (either upstream line format) in the vendored format:
 * the upstream version tag, a header, then `X|word|description` lines in upstream order
 * and `D|word|replacement` lines. Replacement words are given the list's capitalisation.
 */
export function normaliseUcdList(text: string, options: NormaliseUcdListOptions = {}): string {
  const vocabulary = parseUcdList(text);
  if (vocabulary.words.size === 0) throw new Error('the UCD list has no words');
  const deprecated = new Map(vocabulary.deprecated);
  if (options.deprecated !== undefined) {
    for (const entry of parseUcdDeprecatedList(options.deprecated)) {
      const key = entry.word.toLowerCase();
      if (!vocabulary.words.has(key) && !deprecated.has(key)) deprecated.set(key, entry);
    }
  }
  const canonical = (ucd: string) =>
    ucd === ''
      ? ''
      : ucd
          .split(';')
          .map((w) => vocabulary.words.get(w.toLowerCase())?.word ?? w)
          .join(';');
  const counts = [...TYPES].map((t) => `${t} ${[...vocabulary.words.values()].filter((w) => w.type === t).length}`);
  const header = [
    vocabulary.tag === '' ? '#UCDlist-unversioned' : `#${vocabulary.tag}`,
    '# UCD1+ controlled vocabulary of the IVOA, vendored for the UCD warnings of archive-schema (src/ucd.ts).',
    '# Generated by scripts/update-ucd-vocabulary.sh: do not edit by hand, re-run the script.',
    `# Source: ${options.source ?? 'not recorded'}`,
    `# Deprecated words: ${options.deprecatedSource ?? (deprecated.size > 0 ? 'kept from the previous vendored file' : 'none')}`,
    '# Licence: CC0 1.0. The IVOA distributes ucd-list.txt and ucd-list-deprecated.txt under CC0 (UCD1+ list',
    '#   document, section "Associated Files"; the files end "distributed under CC-0 by the IVOA"); the README of',
    '#   the ivoa-std/UCDList repository states CC BY 4.0 for the repository as a whole.',
    '# Format: line 1 is the upstream version tag (#DOCTYPE-UCDlist-vVERSION-DATE); other # lines are comments;',
    '#   every other line is TYPE|word|text, split on the first two "|", without padding, where TYPE is',
    '#     P  primary only: the word can only come first',
    '#     S  secondary only: the word can never come first',
    '#     Q  either position',
    '#     E  photometric quantity: like Q, may be followed by an em.* word',
    '#     C  colour index (phot.color): like Q, followed by two em.* words',
    '#     V  vector: like Q, may be followed by an axis or reference frame word',
    '#     D  deprecated word: text is the UCD the IVOA suggests instead (words joined by ";")',
    "#   and text is the IVOA description. Words keep the list's capitalisation; comparisons ignore case.",
    `# Counts: ${vocabulary.words.size} words (${counts.join(', ')}), ${deprecated.size} deprecated.`,
  ];
  const lines = [...vocabulary.words.values()].map((w) => `${w.type}|${w.word}|${w.description}`);
  const old = [...deprecated.values()].map((d) => `D|${d.word}|${canonical(d.replacement)}`);
  return [...header, ...lines, ...old].join('\n') + '\n';
}

let vendored: UcdVocabulary | undefined;

/** The vendored vocabulary (read on first use). */
export function ucdVocabulary(): UcdVocabulary {
  vendored ??= parseUcdList(readFileSync(new URL('vocabularies/ucd1p-words.txt', SCHEMA_DIR), 'utf8'));
  return vendored;
}

/** One warning about a UCD, written to follow `ucd "X" `. */
export interface UcdAdvice {
  message: string;
}

interface Checked {
  /** As written. */
  raw: string;
  /** The listed word, if it is one (not for unknown, deprecated or foreign-namespace words). */
  entry?: UcdWord;
}

/** Warnings for a syntactically valid UCD (call only when ucdSyntaxProblem returned undefined; '-' gives none). */
export function ucdWordProblems(ucd: string): UcdAdvice[] {
  if (ucd === '-' || ucdSyntaxProblem(ucd) !== undefined) return [];
  const vocabulary = ucdVocabulary();
  const messages: string[] = [];
  const checked: Checked[] = ucd.split(';').map((raw) => {
    let word = raw;
    const colon = raw.indexOf(':');
    if (colon >= 0) {
      const namespace = raw.slice(0, colon);
      word = raw.slice(colon + 1);
      if (namespace.toLowerCase() !== 'ivoa') {
        messages.push(`has "${raw}", from the "${namespace}" namespace, which the UCD1+ list does not cover, so it cannot be checked`);
        return { raw };
      }
      // Only for a listed word: for any other, the message below says enough.
      const entry = vocabulary.words.get(word.toLowerCase());
      if (entry) messages.push(`has "${raw}", whose "${namespace}:" prefix is unnecessary; write "${entry.word}"`);
    }
    const key = word.toLowerCase();
    const entry = vocabulary.words.get(key);
    if (entry) return { raw, entry };
    const old = vocabulary.deprecated.get(key);
    if (old) {
      messages.push(
        old.replacement === ''
          ? `has the deprecated word "${word}", which the UCD1+ list gives no replacement for`
          : `has the deprecated word "${word}"; the UCD1+ list replaces it with "${old.replacement}"`,
      );
    } else {
      messages.push(unknownWord(word, vocabulary));
    }
    return { raw };
  });

  const first = checked[0];
  // A primary word further on is reported below, with the order that fixes both.
  if (first?.entry?.type === 'S' && !checked.some((w) => w.entry?.type === 'P')) {
    const order = reordered(checked);
    messages.push(
      `starts with "${first.raw}", a secondary word that cannot come first; ` +
        (order ? `try "${order}"` : 'put the quantity it qualifies before it'),
    );
  }
  for (const [index, word] of checked.entries()) {
    if (index > 0 && word.entry?.type === 'P') {
      const order = reordered(checked);
      messages.push(
        `has "${word.raw}" at position ${index + 1}, but it is a primary word and can only come first` + (order ? `; try "${order}"` : ''),
      );
    }
    if (word.entry?.type === 'C') {
      const bands = checked.slice(index + 1).findIndex((w) => !isEm(w));
      const following = bands === -1 ? checked.length - index - 1 : bands;
      if (following === 1) {
        messages.push(
          `has "${word.raw}" followed by one band only ("${checked[index + 1]?.raw}"); ` +
            'a colour names its two bands, as in "phot.color;em.opt.B;em.opt.V"',
        );
      }
    }
  }
  return messages.map((message) => ({ message }));
}

function isEm(word: Checked): boolean {
  const key = word.entry?.word.toLowerCase();
  return key !== undefined && (key === 'em' || key.startsWith('em.'));
}

/** A valid order of the same words, when moving one word to the front gives one. */
function reordered(words: Checked[]): string | undefined {
  if (words.some((w) => !w.entry)) return undefined;
  const entries = words.map((w) => w.entry as UcdWord);
  const primaries = entries.flatMap((e, i) => (e.type === 'P' ? [i] : []));
  if (primaries.length > 1) return undefined;
  const pick = primaries[0] ?? (entries[0]?.type === 'S' ? entries.findIndex((e) => e.type !== 'S') : -1);
  if (pick <= 0) return undefined;
  const order = [entries[pick] as UcdWord, ...entries.filter((_, i) => i !== pick)];
  if (order[0]?.type === 'S' || order.slice(1).some((e) => e.type === 'P')) return undefined;
  return order.map((e) => e.word).join(';');
}

/** The message for a word that is neither listed nor deprecated, naming the nearest listed word. */
function unknownWord(word: string, vocabulary: UcdVocabulary): string {
  const key = word.toLowerCase();
  const known = [...vocabulary.words.values()];
  const said = `has the unknown word "${word}"`;
  const notListed = `${said}, which is not in the UCD1+ list${vocabulary.version ? ` ${vocabulary.version}` : ''}`;

  // 1. one listed word within a few edits (a typo);
  let best = Infinity;
  let nearest: UcdWord[] = [];
  for (const entry of known) {
    const d = distance(key, entry.word.toLowerCase());
    if (d < best) [best, nearest] = [d, [entry]];
    else if (d === best) nearest.push(entry);
  }
  const close = best <= Math.max(2, Math.floor(key.length / 4));
  if (close && nearest.length === 1) return `${said}; did you mean "${nearest[0]?.word}"?`;
  // 2. two words joined by "." instead of ";" ("phot.mag.em.opt.Z"): a listed word, then a branch name;
  const atoms = word.split('.');
  const branches = new Set(known.map((e) => e.word.split('.')[0]?.toLowerCase()));
  for (let n = atoms.length - 1; n > 0; n--) {
    const head = vocabulary.words.get(atoms.slice(0, n).join('.').toLowerCase());
    if (head && branches.has(atoms[n]?.toLowerCase())) {
      return `${said}, which looks like two words joined by "." instead of ";"; try "${head.word};${atoms.slice(n).join('.')}"`;
    }
  }
  // 3. leading atoms left out ("fit.param" for stat.fit.param);
  const longer = known.filter((e) => e.word.toLowerCase().endsWith(`.${key}`));
  if (longer.length === 1) return `${said}; did you mean "${longer[0]?.word}"?`;
  // 4. a listed word spelt out further ("meta.ident" for meta.id);
  const stem = known
    .filter((e) => key.startsWith(e.word.toLowerCase()) && !key.slice(e.word.length).includes('.'))
    .sort((a, b) => b.word.length - a.word.length)[0];
  if (stem) return `${said}; did you mean "${stem.word}"?`;
  // 5. otherwise the nearest listed ancestor ("em.opt" for em.opt.G, which ties with every em.opt band).
  for (let n = atoms.length - 1; n > 0; n--) {
    const ancestor = vocabulary.words.get(atoms.slice(0, n).join('.').toLowerCase());
    if (ancestor) return `${notListed}; the nearest broader word is "${ancestor.word}"`;
  }
  if (close && nearest.length <= 3) {
    const names = nearest.map((e) => `"${e.word}"`);
    return `${said}; did you mean ${names.slice(0, -1).join(', ')} or ${names.at(-1)}?`;
  }
  return notListed;
}
