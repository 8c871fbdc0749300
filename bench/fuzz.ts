// Property-based fuzzing of the parsers and the pipeline, shared by the short run in `npm test`
// (test/fuzz.test.ts, on src/ through vitest) and the long one (scripts/fuzz.mjs, on the compiled
// lib/). It lives in bench/ because bench/ is compiled apart (into bench/lib/) by the existing
// setup; it imports nothing from src/, and is handed the code under test (a Subject) instead.
//
// The properties:
// - parsers: the fast parser (js-yaml) and the position-keeping one (yaml) read every text alike:
//   both give a file with the same data, or both refuse it with an error; no diagnostic lacks its
//   file or has a negative line or column; neither throws. Where the line reader the fast path
//   tries first reads a text, it gives js-yaml's data.
// - verdicts: `check`, `build` and `build --reference` never crash on any metadata tree (exit 0
//   or 1, no internal error, no stack trace), and agree on whether the metadata is valid.
// - output: whenever a build succeeds, its output is byte for byte the reference build's, and a
//   cached rebuild's; after an edit, a cached build gives the reference output of the edited tree,
//   or fails and leaves the output as it was.

import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
// mulberry32, for the many small choices of a file's style.
import { Rng } from './synthetic.ts';
import { HOSTILE_GROUP } from './hostile-archive.ts';

// ---- The code under test ---------------------------------------------------------------------------

export interface FuzzDiagnostic {
  file: string;
  line: number;
  col: number;
  severity: string;
  rule: string;
  message: string;
}

export interface Parsed {
  file?: {
    data: unknown;
    locate: (pointer: readonly (string | number)[], where?: 'key' | 'value') => { line: number; col: number };
    source: (pointer: readonly (string | number)[]) => string | undefined;
  };
  diagnostics: readonly FuzzDiagnostic[];
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Subject {
  /** js-yaml's fast path (src/pipeline/parse.ts). */
  parseFileFast: (display: string, text: string) => Parsed;
  /** The position-keeping `yaml` path. */
  parseFile: (display: string, text: string) => Parsed;
  /** The command line, in-process, in the folder `cwd`. */
  cli: (argv: string[], cwd: string) => Promise<CliRun>;
  /** The file a build leaves in its output to name the build (not part of the API). */
  marker: string;
}

// ---- Texts -----------------------------------------------------------------------------------------

/** Characters YAML and JavaScript treat specially: breaks, BOMs, controls, surrogates, indicators. */
const ODD = [
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\0',
  '\x07',
  '\x1b',
  '\x7f',
  '\x9f',
  '\u00a0',
  '\u200b',
  '\u202e',
  '\ud800',
  '\udfff',
  '\ufffe',
  '\uffff',
  '\u{1f600}',
  '\u{10ffff}',
  'é',
  'e\u0301',
  'ß',
  '\\',
  ...'#:-?[]{},&*!|>\'"%@` '.split(''),
];

/** Scalars whose type depends on the schema, or on the parser. */
const NUMBERS = [
  '0x1F',
  '0o17',
  '0b101',
  '1e400',
  '-1e400',
  '1e-400',
  '2e-324',
  '4.9e-324',
  '1e309',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '-.Inf',
  '+.INF',
  '18446744073709551616',
  '9007199254740993',
  '123456789012345678901234567890',
  '0xFFFFFFFFFFFFFFFFFF',
  '-0',
  '+0',
  '007',
  '08',
  '0o8',
  '1_000',
  '1:20',
  '1.',
  '.5',
  '-.5',
  '1.5e3',
  '1E+3',
  '1e',
  '0x_1',
  '-0x1F',
  '+12',
  '0.0',
  '1.2.3',
  '٣',
  '１２',
];

const WORDS = [
  'true',
  'True',
  'TRUE',
  'tRue',
  'false',
  'yes',
  'No',
  'on',
  'off',
  'y',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  '',
  '-',
  'None',
  '=',
  '<<',
  '?',
  '-a',
  '#a',
  'a#b',
  'a #b',
  'a:b',
  'a: b',
  'https://example.org/a?b=1&c=<d>',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2002-12-14 21:59:43.10',
  '\u0000F0',
  '\u0000F1',
  '\u0000Fx',
  '"\\u0000F0"',
  '</script><script>alert(1)</script>',
  '<b>&amp;</b>',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '\\u0000',
  '${x}',
  '%2F',
];

const PLAIN_CHARS = 'abcxyzAZ019 ._/'.split('');

const charArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN_CHARS) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

/** Any text, biased towards what parsers and serialisers get wrong. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: charArb, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS, ...WORDS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...NUMBERS, ...WORDS), fc.string({ unit: charArb, maxLength: 4 }), fc.boolean())
      .map(([word, more, after]) => (after ? word + more : more + word)),
  },
);

/** Text that is mostly plain words, for where valid metadata wants a name or a sentence. */
const proseArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Alpha', 'Redshifts.', 'Unique ID', 'A survey with <b>HTML</b> &amp; ünïcode', 'x') },
  { weight: 2, arbitrary: textArb },
);

// ---- Raw YAML ---------------------------------------------------------------------------------------

type ScalarStyle = 'plain' | 'single' | 'double' | 'escaped' | 'literal' | 'folded';

interface Props {
  anchor?: string | undefined;
  tag?: string | undefined;
}

type YNode =
  | { kind: 'scalar'; text: string; style: ScalarStyle; chomp: '' | '-' | '+'; indicator: number; props: Props; comment: string }
  | { kind: 'alias'; name: string }
  | { kind: 'map'; entries: [YNode, YNode][]; flow: boolean; explicit: boolean; props: Props }
  | { kind: 'seq'; items: YNode[]; flow: boolean; props: Props };

const propsArb: fc.Arbitrary<Props> = fc.record(
  {
    anchor: fc.constantFrom('a', 'b', 'x'),
    tag: fc.constantFrom(
      '!!str',
      '!!int',
      '!!float',
      '!!bool',
      '!!null',
      '!!binary',
      '!!timestamp',
      '!!map',
      '!!seq',
      '!!set',
      '!!omap',
      '!!pairs',
      '!!merge',
      '!custom',
      '!',
      '!e!x',
      '!<tag:yaml.org,2002:str>',
    ),
  },
  { requiredKeys: [] },
);

const noProps = fc.oneof({ weight: 5, arbitrary: fc.constant<Props>({}) }, { weight: 1, arbitrary: propsArb });

const commentArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom(' # note', ' #', '#no space', ' # key: value', ' # ü \u{1f600}', '\t# tab') },
);

const scalarArb = (text: fc.Arbitrary<string>): fc.Arbitrary<YNode> =>
  fc.record({
    kind: fc.constant('scalar' as const),
    text,
    style: fc.constantFrom<ScalarStyle>('plain', 'plain', 'single', 'double', 'escaped', 'literal', 'folded'),
    chomp: fc.constantFrom<'' | '-' | '+'>('', '-', '+'),
    indicator: fc.constantFrom(0, 0, 0, 1, 2, 9),
    props: noProps,
    comment: commentArb,
  });

const KEY_WORDS = ['a', 'b', 'id', 'name', 'x y', '', '~', 'null', '__proto__', 'constructor', '<<', '1', 'true', '-1', 'é', '? a'];

const longKeyArb = fc.integer({ min: 1010, max: 1030 }).map((n) => 'k'.repeat(n));

const yamlArb = fc.letrec<{ node: YNode; collection: YNode; key: YNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalarArb(textArb) },
    { weight: 3, arbitrary: tie('collection') },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('alias' as const), name: fc.constantFrom('a', 'b', 'x', 'zz') }) },
  ),
  collection: fc.oneof(
    fc.record({
      kind: fc.constant('map' as const),
      entries: fc.array(fc.tuple(tie('key'), tie('node')), { maxLength: 4 }),
      flow: fc.boolean(),
      explicit: fc.constantFrom(false, false, false, true),
      props: noProps,
    }),
    fc.record({ kind: fc.constant('seq' as const), items: fc.array(tie('node'), { maxLength: 4 }), flow: fc.boolean(), props: noProps }),
  ),
  key: fc.oneof(
    { weight: 12, arbitrary: scalarArb(fc.constantFrom(...KEY_WORDS)) },
    { weight: 3, arbitrary: scalarArb(textArb) },
    { weight: 1, arbitrary: scalarArb(longKeyArb) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('alias' as const), name: fc.constantFrom('a', 'b') }) },
  ),
}));

function propsText(props: Props): string {
  return [props.anchor === undefined ? '' : `&${props.anchor}`, props.tag ?? ''].filter(Boolean).join(' ');
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** The text as a double-quoted YAML scalar; `all` escapes every character outside printable ASCII. */
function doubleQuoted(text: string, all: boolean): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += all ? '\\t' : '\t';
    else if (ch === '\0') out += '\\0';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\x${hex(code, 2)}`;
    else if (ch === '\u2028') out += all ? '\\L' : '\u2028';
    else if (ch === '\u2029') out += all ? '\\P' : '\\u2029';
    else if (ch === '\u00a0' && all) out += '\\_';
    else if ((code >= 0xd800 && code <= 0xdfff) || code === 0xfeff || code === 0xfffe || code === 0xffff) out += `\\u${hex(code, 4)}`;
    else if (code > 0x7e && all) out += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
    else out += ch;
  }
  return `${out}"`;
}

/** A block scalar: its header, then its lines at `indent`. */
function blockScalar(text: string, indicator: '|' | '>', chomp: string, explicit: number, indent: number): string {
  const pad = ' '.repeat(indent);
  const lines = text.split('\n').map((line) => (line === '' ? '' : pad + line));
  return `${indicator}${explicit > 0 ? String(explicit) : ''}${chomp}\n${lines.join('\n')}\n`;
}

/** A node in flow context (inside [..] or {..}, as a key, or after `key: `). */
function inline(node: YNode): string {
  if (node.kind === 'alias') return `*${node.name}`;
  const props = propsText(node.props);
  const prefix = props ? `${props} ` : '';
  if (node.kind === 'map') return `${prefix}{${node.entries.map(([k, v]) => `${inline(k)}: ${inline(v)}`).join(', ')}}`;
  if (node.kind === 'seq') return `${prefix}[${node.items.map(inline).join(', ')}]`;
  switch (node.style) {
    case 'plain':
      return prefix + node.text;
    case 'single':
      return `${prefix}'${node.text.replaceAll("'", "''")}'`;
    case 'escaped':
      return prefix + doubleQuoted(node.text, true);
    default:
      return prefix + doubleQuoted(node.text, false);
  }
}

/** What follows `key:` or `-` in block context, through its last line break. */
function after(node: YNode, indent: number, step: number): string {
  if (node.kind === 'alias') return ` *${node.name}\n`;
  const props = propsText(node.props);
  if ((node.kind === 'map' && node.entries.length > 0 && !node.flow) || (node.kind === 'seq' && node.items.length > 0 && !node.flow)) {
    return `${props ? ` ${props}` : ''}\n${block(node, indent + step, step)}`;
  }
  if (node.kind === 'scalar' && (node.style === 'literal' || node.style === 'folded')) {
    const header = blockScalar(node.text, node.style === 'literal' ? '|' : '>', node.chomp, node.indicator, indent + step);
    return ` ${props ? `${props} ` : ''}${header}`;
  }
  return ` ${inline(node)}${node.kind === 'scalar' ? node.comment : ''}\n`;
}

/** A collection in block context, its lines at `indent`. */
function block(node: YNode, indent: number, step: number): string {
  const pad = ' '.repeat(indent);
  if (node.kind === 'map' && !node.flow && node.entries.length > 0) {
    return node.entries
      .map(([key, value]) => {
        if (node.explicit || key.kind === 'map' || key.kind === 'seq')
          return `${pad}? ${inline(key)}\n${pad}:${after(value, indent, step)}`;
        return `${pad}${inline(key)}${key.kind === 'alias' ? ' ' : ''}:${after(value, indent, step)}`;
      })
      .join('');
  }
  if (node.kind === 'seq' && !node.flow && node.items.length > 0) {
    return node.items.map((item) => `${pad}-${after(item, indent, Math.max(step, 2))}`).join('');
  }
  return `${pad}${inline(node)}\n`;
}

interface Dressing {
  bom: boolean;
  directive: string;
  start: boolean;
  end: boolean;
  second: boolean;
  comment: string;
  eol: '\n' | '\r\n' | '\r' | 'mixed';
  finalNewline: boolean;
}

const dressingArb: fc.Arbitrary<Dressing> = fc.record({
  bom: fc.constantFrom(false, false, false, true),
  directive: fc.constantFrom('', '', '', '', '%YAML 1.2\n', '%YAML 1.1\n', '%TAG !e! tag:example.com,2000:\n', '%FOO bar\n'),
  start: fc.constantFrom(false, false, true),
  end: fc.constantFrom(false, false, false, true),
  second: fc.constantFrom(false, false, false, false, false, true),
  comment: fc.constantFrom('', '', '', '# yaml-language-server: $schema=x.json\n', '#\n'),
  eol: fc.constantFrom<Dressing['eol']>('\n', '\n', '\n', '\r\n', '\r', 'mixed'),
  finalNewline: fc.constantFrom(true, true, true, false),
});

function dress(body: string, d: Dressing): string {
  let text = `${d.comment}${d.directive}${d.start || d.directive ? '---\n' : ''}${body}${d.end ? '...\n' : ''}${d.second ? '---\nb: 2\n' : ''}`;
  if (!d.finalNewline) text = text.replace(/\n$/, '');
  if (d.eol === 'mixed') {
    let i = 0;
    text = text.replace(/\n/g, () => ['\n', '\r\n', '\r'][i++ % 3] ?? '\n');
  } else if (d.eol !== '\n') text = text.replaceAll('\n', d.eol);
  return (d.bom ? '\ufeff' : '') + text;
}

/** Documents built from YAML's whole syntax, with odd scalars, props, comments and line endings. */
const generatedYamlArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ weight: 6, arbitrary: yamlArb.collection }, { weight: 1, arbitrary: yamlArb.node }),
    fc.constantFrom(1, 2, 2, 4),
    dressingArb,
  )
  .map(([root, step, dressing]) => {
    const body =
      root.kind === 'scalar' && (root.style === 'literal' || root.style === 'folded')
        ? blockScalar(root.text, root.style === 'literal' ? '|' : '>', root.chomp, root.indicator, step)
        : block(root, 0, step);
    return dress(body, dressing);
  });

// ---- Edits of text ----------------------------------------------------------------------------------

export type TextEdit =
  | { op: 'insert'; at: number; text: string }
  | { op: 'delete'; at: number; length: number }
  | { op: 'replace'; at: number; length: number; text: string }
  | { op: 'swapLines'; a: number; b: number }
  | { op: 'duplicateLine'; line: number }
  | { op: 'deleteLine'; line: number }
  | { op: 'indent'; line: number; by: number }
  | { op: 'tabIndent'; line: number }
  | { op: 'unquote'; line: number }
  | { op: 'truncate'; at: number }
  | { op: 'lineEndings'; eol: '\r\n' | '\r' }
  | { op: 'bom' };

const SNIPPETS = [
  ': ',
  '- ',
  ' #',
  '&a ',
  '*a',
  '!!str ',
  '!!binary ',
  '<<: ',
  '[',
  '{',
  '"',
  "'",
  '|',
  '>',
  '\n  ',
  '\n- ',
  '\n---\n',
  '\n...\n',
  '%YAML 1.1\n---\n',
  '<<<<<<< HEAD\n',
  '=======\n',
  '\t',
  '  ',
  '~',
  '1e400',
  'x'.repeat(1030),
];

const insertArb = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ODD, ...SNIPPETS) }, { weight: 1, arbitrary: textArb });

export const textEditArb: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: insertArb }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 3 }), text: insertArb }),
  fc.record({ op: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ op: fc.constant('duplicateLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('deleteLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('indent' as const), line: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ op: fc.constant('tabIndent' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('unquote' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('lineEndings' as const), eol: fc.constantFrom<'\r\n' | '\r'>('\r\n', '\r') }),
  fc.record({ op: fc.constant('bom' as const) }),
);

export function applyEdit(text: string, edit: TextEdit): string {
  const at = (n: number) => n % (text.length + 1);
  const lines = text.split('\n');
  const line = (n: number) => n % lines.length;
  const withLines = (change: (ls: string[]) => void) => {
    const ls = lines.slice();
    change(ls);
    return ls.join('\n');
  };
  switch (edit.op) {
    case 'insert':
      return text.slice(0, at(edit.at)) + edit.text + text.slice(at(edit.at));
    case 'delete':
      return text.slice(0, at(edit.at)) + text.slice(at(edit.at) + edit.length);
    case 'replace':
      return text.slice(0, at(edit.at)) + edit.text + text.slice(at(edit.at) + edit.length);
    case 'swapLines':
      return withLines((ls) => {
        const a = line(edit.a);
        const b = line(edit.b);
        [ls[a], ls[b]] = [ls[b] ?? '', ls[a] ?? ''];
      });
    case 'duplicateLine':
      return withLines((ls) => ls.splice(line(edit.line), 0, ls[line(edit.line)] ?? ''));
    case 'deleteLine':
      return withLines((ls) => ls.splice(line(edit.line), 1));
    case 'indent':
      return withLines((ls) => {
        const l = ls[line(edit.line)] ?? '';
        ls[line(edit.line)] = edit.by >= 0 ? ' '.repeat(edit.by) + l : l.replace(new RegExp(`^ {0,${-edit.by}}`), '');
      });
    case 'tabIndent':
      return withLines((ls) => {
        ls[line(edit.line)] = (ls[line(edit.line)] ?? '').replace(/^ {0,2}/, '\t');
      });
    case 'unquote':
      return withLines((ls) => {
        ls[line(edit.line)] = (ls[line(edit.line)] ?? '').replace(/(['"])(.*?)\1/, '$2');
      });
    case 'truncate':
      return text.slice(0, at(edit.at));
    case 'lineEndings':
      return text.replaceAll('\n', edit.eol);
    case 'bom':
      return `\ufeff${text}`;
  }
}

// ---- Metadata trees ---------------------------------------------------------------------------------

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = Record<string, Json>;

/** How a file is written: every way YAML allows that reads back as the same data. */
export interface FileStyle {
  seed: number;
  indent: 2 | 4;
  /** Sequences under a key indented (`key:\n  - a`) or not (`key:\n- a`). */
  seqIndent: boolean;
  flow: 'never' | 'small' | 'often';
  quoting: 'fmt' | 'single' | 'double' | 'escaped' | 'literal' | 'mixed';
  numbers: 'plain' | 'mixed';
  comments: boolean;
  shuffle: boolean;
  eol: '\n' | '\r\n' | '\r';
  bom: boolean;
  finalNewline: boolean;
  documentStart: boolean;
}

const PLAIN_STYLE: FileStyle = {
  seed: 1,
  indent: 2,
  seqIndent: true,
  flow: 'small',
  quoting: 'fmt',
  numbers: 'plain',
  comments: false,
  shuffle: false,
  eol: '\n',
  bom: false,
  finalNewline: true,
  documentStart: false,
};

export const fileStyleArb: fc.Arbitrary<FileStyle> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(PLAIN_STYLE) },
  {
    weight: 3,
    arbitrary: fc.record({
      seed: fc.nat(),
      indent: fc.constantFrom<2 | 4>(2, 2, 4),
      seqIndent: fc.boolean(),
      flow: fc.constantFrom<FileStyle['flow']>('never', 'small', 'often'),
      quoting: fc.constantFrom<FileStyle['quoting']>('fmt', 'single', 'double', 'escaped', 'literal', 'mixed'),
      numbers: fc.constantFrom<FileStyle['numbers']>('plain', 'mixed'),
      comments: fc.boolean(),
      shuffle: fc.boolean(),
      eol: fc.constantFrom<FileStyle['eol']>('\n', '\n', '\r\n', '\r'),
      bom: fc.constantFrom(false, false, false, true),
      finalNewline: fc.constantFrom(true, true, true, false),
      documentStart: fc.constantFrom(false, false, true),
    }),
  },
);

const CORE = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** Plain scalars that read back as the same string in both parsers: letters first, no indicators. */
const SAFE_PLAIN = /^[\p{L}_/(][\p{L}\p{N} _.,;()/+='*-]*$/u;
/** Characters a single-quoted or block scalar may hold as themselves (no breaks, no controls, no lone surrogates). */
const QUOTABLE = /^[\t\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;

function plainOk(text: string, flow: boolean): boolean {
  return SAFE_PLAIN.test(text) && !/\s$/.test(text) && !CORE.test(text) && !(flow && /[,[\]{}]/.test(text));
}

function literalOk(text: string): boolean {
  if (!/\S/.test(text) || text.includes('\r')) return false;
  return text.split('\n').every((line) => QUOTABLE.test(line) && !/^[ \t]+$/.test(line));
}

function stringScalar(text: string, rng: Rng, style: FileStyle, flow: boolean, indent: number): string {
  const options: string[] = [];
  const plain = plainOk(text, flow);
  const single = QUOTABLE.test(text) && !text.includes('\n');
  const literal = !flow && literalOk(text);
  const quoting = style.quoting === 'mixed' ? rng.pick(['fmt', 'single', 'double', 'escaped', 'literal'] as const) : style.quoting;
  if (quoting === 'fmt') options.push(plain ? 'plain' : single ? 'single' : 'double');
  else if (quoting === 'single') options.push(single ? 'single' : 'double');
  else if (quoting === 'literal') options.push(literal ? 'literal' : plain ? 'plain' : 'double');
  else options.push(quoting);
  switch (options[0]) {
    case 'plain':
      return text;
    case 'single':
      return `'${text.replaceAll("'", "''")}'`;
    case 'escaped':
      return doubleQuoted(text, true);
    case 'literal': {
      const trailing = /\n*$/.exec(text)?.[0].length ?? 0;
      const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
      const body = trailing > 0 ? text.slice(0, -1) : text;
      const first = body.split('\n').find((l) => l !== '') ?? '';
      return blockScalar(body, '|', chomp, /^[ \t]/.test(first) ? style.indent : 0, indent).replace(/\n$/, '');
    }
    default:
      return doubleQuoted(text, false);
  }
}

function numberScalar(n: number, rng: Rng, style: FileStyle): string {
  const forms = [String(n)];
  if (style.numbers === 'mixed') {
    // Never 5.0 for 5: where a whole number is expected (an id), that is refused as written.
    if (Number.isSafeInteger(n) && n >= 0) forms.push(`+${n}`, `0x${n.toString(16)}`, `0o${n.toString(8)}`);
    if (!Number.isInteger(n)) forms.push(n.toExponential(), n.toExponential().toUpperCase());
  }
  return rng.pick(forms);
}

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: Json): boolean => v === null || typeof v !== 'object';

/**
 * A string that stands for YAML text written as it is (`{I}` being the indentation of the lines
 * under it): what no JSON value renders to, such as tags, aliases, odd numbers and block scalars.
 */
const RAW = '\u0000raw:';

function scalar(v: Json, rng: Rng, style: FileStyle, flow: boolean, indent: number): string {
  if (typeof v === 'string' && v.startsWith(RAW)) return v.slice(RAW.length).replaceAll('{I}', ' '.repeat(indent));
  if (v === null) return rng.pick(flow ? ['null', '~'] : ['null', '~', 'null', '']);
  if (typeof v === 'boolean') return rng.pick(v ? ['true', 'True'] : ['false', 'FALSE']);
  if (typeof v === 'number') return numberScalar(v, rng, style);
  if (typeof v === 'string') return stringScalar(v, rng, style, flow, indent);
  throw new Error('not a scalar');
}

function keyText(key: string, rng: Rng): string {
  return plainOk(key, true) && !rng.chance(0.1) ? key : doubleQuoted(key, false);
}

function flowText(v: Json, rng: Rng, style: FileStyle): string {
  if (Array.isArray(v)) return `[${v.map((x) => flowText(x, rng, style)).join(', ')}]`;
  if (isObject(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${keyText(k, rng)}: ${flowText(x, rng, style)}`)
      .join(', ')}}`;
  return scalar(v, rng, style, true, 0);
}

function wantsFlow(v: Json, rng: Rng, style: FileStyle): boolean {
  const items = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
  if (items.length === 0) return true;
  if (style.flow === 'never' || !items.every(isScalar)) return false;
  return style.flow === 'often' || (items.length <= 2 && rng.chance(0.7));
}

const COMMENTS = ['# note', '#', '# ü \u{1f600}', '# key: value', '# \'"', '#\ttab'];

/** A value in block context after `key:` or `-`, through its last line break. */
function blockAfter(v: Json, rng: Rng, style: FileStyle, indent: number, inSeq: boolean): string {
  if ((Array.isArray(v) || isObject(v)) && !wantsFlow(v, rng, style)) {
    const childIndent = Array.isArray(v) && !inSeq && !style.seqIndent ? indent : indent + style.indent;
    return `\n${blockText(v, rng, style, childIndent)}`;
  }
  const text = Array.isArray(v) || isObject(v) ? flowText(v, rng, style) : scalar(v, rng, style, false, indent + style.indent);
  const comment = style.comments && !text.includes('\n') && rng.chance(0.2) ? ` ${rng.pick(COMMENTS)}` : '';
  return `${text === '' ? '' : ' '}${text}${comment}\n`;
}

function blockText(v: Json, rng: Rng, style: FileStyle, indent: number, keepOrder = false): string {
  const pad = ' '.repeat(indent);
  const comment = () => (style.comments && rng.chance(0.1) ? `${rng.chance(0.5) ? pad : ''}${rng.pick(COMMENTS)}\n` : '');
  if (Array.isArray(v)) {
    return v
      .map((item) => {
        // Mostly the compact form, `- id: 1` with the rest of the item under it.
        if (isObject(item) && rng.chance(0.7) && !wantsFlow(item, rng, style)) {
          const inner = blockText(item, rng, style, indent + 2);
          if (inner.startsWith(' '.repeat(indent + 2))) return `${comment()}${pad}- ${inner.slice(indent + 2)}`;
        }
        return `${comment()}${pad}-${blockAfter(item, rng, style, indent, true)}`;
      })
      .join('');
  }
  if (isObject(v)) {
    const entries = Object.entries(v);
    if (style.shuffle && !keepOrder) {
      for (let i = entries.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [entries[i], entries[j]] = [entries[j] as [string, Json], entries[i] as [string, Json]];
      }
    }
    return entries
      .map(([k, x]) => {
        // A FITS header keeps its order: it is published as written.
        const inner =
          k === 'fits_header' && isObject(x) && !wantsFlow(x, rng, style)
            ? `\n${blockText(x, rng, style, indent + style.indent, true)}`
            : blockAfter(x, rng, style, indent, false);
        return `${comment()}${pad}${keyText(k, rng)}:${inner}`;
      })
      .join('');
  }
  return `${pad}${scalar(v, rng, style, false, indent)}\n`;
}

/** A metadata file's data as YAML text in the given style, after `prefix` (raw YAML text). */
export function renderYaml(value: Json, style: FileStyle, prefix = ''): string {
  const rng = new Rng(style.seed);
  let text = blockText(value, rng, style, 0);
  if (style.documentStart) text = `---\n${text}`;
  text = prefix + text;
  if (!style.finalNewline) text = text.replace(/\n$/, '');
  if (style.eol !== '\n') text = text.replaceAll('\n', style.eol);
  return (style.bom ? '\ufeff' : '') + text;
}

// ---- Valid archives ---------------------------------------------------------------------------------

/** Instants of increasing time, each in forms that name the same instant. */
const INSTANTS: readonly (readonly string[])[] = [
  [
    '2011-07-21T00:00:00Z',
    '20110721T000000Z',
    '2011-07-21t00:00z',
    '2011-07-21T10:00:00+10:00',
    '2011-07-20T19:00-05',
    '2011-07-21T00:00:00.000000000Z',
    '2011-07-21T00:00:00,0z',
    '20110721T00Z',
  ],
  ['2015-04-01T00:00:00.5Z', '2015-04-01T00:00:00,5Z', '20150401T000000.5Z', '2015-04-01T00:00:00.5000009Z'],
  ['2016-02-29T23:59:59.999999Z', '2016-03-01T09:59:59.999999+10:00', '2016-02-29T23:59:59.9999999Z'],
  ['2020-07-01T00:00:00Z', '2020-07-01T02:00+02:00', '2020-06-30T23:00:00-0100'],
  ['2024-12-31T23:59:59Z', '2025-01-01T05:29:59+05:30'],
];

interface Span {
  created: number;
  updated: number;
  form: number;
}

const spanArb: fc.Arbitrary<Span> = fc
  .tuple(fc.nat(INSTANTS.length - 1), fc.nat(INSTANTS.length - 1), fc.nat())
  .map(([a, b, form]) => ({ created: Math.min(a, b), updated: Math.max(a, b), form }));

const instant = (index: number, form: number): string => {
  const forms = INSTANTS[index] ?? [];
  return forms[form % forms.length] ?? '2020-07-01T00:00:00Z';
};

interface Override {
  span: Span;
  which: 'both' | 'created' | 'updated';
}

const overrideArb: fc.Arbitrary<Override | null> = fc.option(
  fc.record({ span: spanArb, which: fc.constantFrom<Override['which']>('both', 'created', 'updated') }),
  { nil: null, freq: 3 },
);

/** A node's own created/updated, kept in order with what it inherits; its span for its children. */
function ownSpan(node: JsonObject, parent: Span, override: Override | null): Span {
  if (!override) return parent;
  const { span, which } = override;
  const created = which === 'updated' ? parent.created : span.created;
  const updated = which === 'created' ? parent.updated : span.updated;
  if (created > updated) return parent;
  if (which !== 'updated') node.created = instant(created, span.form);
  if (which !== 'created') node.updated = instant(updated, span.form + 1);
  return { created, updated, form: span.form };
}

const contactArb: fc.Arbitrary<Json> = fc.record({
  name: proseArb.map((t) => t || 'Team'),
  email: fc.constantFrom('a@example.org', 'alpha-team@example.org', 'x.y+z@sub.example.co.uk'),
});

const FILE_NAMES = ['SpecObj.fits', 'a.tar.gz', 'noext', 'x.FITS', 'é.csv', 'has space.fits', '.hidden'];

interface Optional {
  pretty_name?: string | null;
  description?: string | null;
  documentation?: string;
  file_path?: string | null;
  file_name?: string | null;
  version?: string | null;
  contact?: Json;
  extension?: boolean;
}

const optionalArb: fc.Arbitrary<Optional> = fc.record(
  {
    pretty_name: fc.option(proseArb, { nil: null }),
    description: fc.option(proseArb, { nil: null }),
    documentation: proseArb,
    file_path: fc.option(fc.constantFrom('/alpha/dr1/', '/x y/', 'relative/path', '/ü/'), { nil: null }),
    file_name: fc.option(fc.constantFrom(...FILE_NAMES), { nil: null }),
    version: fc.option(fc.oneof(fc.constantFrom('v08', '3', '1.0'), proseArb), { nil: null }),
    contact: fc.option(contactArb, { nil: null }),
    extension: fc.boolean(),
  },
  { requiredKeys: [] },
);

function applyOptional(node: JsonObject, optional: Optional): void {
  const { extension, ...fields } = optional;
  for (const [k, v] of Object.entries(fields)) node[k] = v;
  const name = optional.file_name;
  const dot = typeof name === 'string' ? name.lastIndexOf('.') : -1;
  if (extension && typeof name === 'string' && dot > 0 && dot < name.length - 1) node.file_extension = name.slice(dot + 1);
}

/** A name for an item that allows any text but white space at either end, unique among its siblings. */
function itemName(text: string, index: number, taken: Set<string>): string {
  let name = text.replace(/[\n\r\u2028\u2029]/g, '_').replace(/^\s+|\s+$/gu, '') || 'c';
  if (taken.has(name)) name = `${name}_${index}`;
  taken.add(name);
  return name;
}

const columnArb = fc.record({
  name: fc.oneof(fc.constantFrom('CATAID', 'RA', 'Z', 'DEC', 'e_Z'), textArb),
  optional: optionalArb,
  span: overrideArb,
  ucd: fc.option(fc.constantFrom('-', 'meta.id;meta.main', 'pos.eq.ra', 'src.redshift', 'phot.mag;em.opt.R', 'meta.bogus'), {
    nil: undefined,
  }),
  unit: fc.option(fc.constantFrom('-', 'None', 'deg', 'km/s', 'mag', 'km s-1', 'Msun', 'erg.s**-1'), { nil: undefined }),
});

const tableArb = fc.record({
  name: fc.constantFrom('SpecObj', 'T1', '_x', 'a-b', 'Cat9'),
  optional: optionalArb,
  span: overrideArb,
  input_cat: fc.option(fc.boolean(), { nil: undefined }),
  columns: fc.array(columnArb, { maxLength: 3 }),
});

const groupArb = fc.record({
  name: fc.constantFrom('SpecCat', 'InputCat', 'Phot_1', 'a-b', 'X'),
  optional: optionalArb,
  span: spanArb,
  tables: fc.uniqueArray(tableArb, { selector: (t) => t.name, maxLength: 2 }),
});

/** Finite numbers that JSON keeps exactly when whole (larger whole numbers are refused, by design). */
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x) || Number.isSafeInteger(x));

/** FITS cards, as groups that keep a header valid (NAXIS with its NAXISn). */
const cardsArb: fc.Arbitrary<[string, Json][]> = fc.oneof(
  fc.constant<[string, Json][]>([['SIMPLE', true]]),
  fc.constantFrom(8, 16, 32, 64, -32, -64).map((b): [string, Json][] => [['BITPIX', b]]),
  fc
    .array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 3 })
    .map((sizes): [string, Json][] => [['NAXIS', sizes.length], ...sizes.map((s, i): [string, Json] => [`NAXIS${i + 1}`, s])]),
  fc.constantFrom('RA---TAN', 'DEC--TAN', '').map((v): [string, Json][] => [['CTYPE1', v]]),
  finite.map((x): [string, Json][] => [['CRVAL1', x]]),
  textArb.map((t): [string, Json][] => [['OBJECT', t]]),
  fc.constantFrom('2020-01-01', '2020-01-01T00:00:00', '2020-01-01T00:00:00.123').map((d): [string, Json][] => [['DATE-OBS', d]]),
  fc.tuple(fc.constantFrom('EXPTIME', 'MJD-OBS', 'CD1_1'), finite).map(([k, x]): [string, Json][] => [[k, x]]),
  fc
    .tuple(
      fc.constantFrom('HIERARCH ESO DET NAME', 'GAIN', 'FILTER', 'COMMENT', 'X_1', 'A-B', '0A'),
      fc.oneof(textArb, finite, fc.boolean(), fc.integer()),
    )
    .map(([k, v]): [string, Json][] => [[k, v]]),
);

const regionArb = fc.record({
  name: fc.oneof(fc.constantFrom('G09', 'G12', 'tile 1', 'ü'), textArb),
  optional: optionalArb,
  span: overrideArb,
  ra: fc.constantFrom('135.0', '0', '359.999', '.5', '+10', '-0.0', '0.000001'),
  dec: fc.constantFrom('-0.50', '90', '-90', '0.0', '+45.5', '-.5'),
  frame: fc.constantFrom('icrs', 'fk5', 'galactic'),
  equinox: fc.constantFrom('j2000', 'b1950', '2000.0'),
  cards: fc.array(fc.tuple(cardsArb, textArb), { maxLength: 5 }),
});

const bandArb = fc.record({
  name: fc.constantFrom('r', 'g', 'Ks', 'W1', 'NB921', '0x', 'aü', 'x:y'),
  optional: optionalArb,
  span: overrideArb,
  wave: fc.constantFrom(6200, 6313.5, 4750, 21500, 33900, 1e4, 3570, 0.5),
  regions: fc.array(regionArb, { maxLength: 2 }),
});

const facilityArb = fc.record({
  name: fc.constantFrom('VST', 'HSC', 'Sub-aru', 'W_1', '9'),
  optional: optionalArb,
  span: spanArb,
  bands: fc.uniqueArray(bandArb, { selector: (b) => b.name, maxLength: 2 }),
});

const releaseArb = fc.record({
  name: fc.constantFrom('dr1', 'dr2', 'edr', 'v1-0'),
  pretty_name: proseArb.map((t) => t || 'DR'),
  version: fc.constantFrom(1.0, 2, 3.5, 0.1, 10),
  contact: contactArb,
  span: spanArb,
  groups: fc.uniqueArray(groupArb, { selector: (g) => g.name, maxLength: 2 }),
  facilities: fc.uniqueArray(facilityArb, { selector: (f) => f.name, maxLength: 2 }),
});

const surveyArb = fc.record({
  name: fc.constantFrom('alpha', 'beta', 'gamma', 's-1', 'x_2', '0a'),
  pretty_name: proseArb.map((t) => t || 'S'),
  title: proseArb.map((t) => t || 'T'),
  description: proseArb,
  pi: proseArb.map((t) => t || 'P'),
  contact: contactArb,
  website: fc.constantFrom('https://alpha.example.org/', 'http://x.example.org/a?b=1&c=2', 'https://example.org/%C3%BC'),
  active: fc.boolean(),
  releases: fc.uniqueArray(releaseArb, { selector: (r) => r.name, maxLength: 2 }),
});

/** A metadata file before it is written: where it goes, its data, and how it is written. */
export interface ModelFile {
  path: string;
  value: Json;
  style: FileStyle;
  /** YAML text before the data: directives, document markers, odd lines. */
  prefix?: string;
}

interface IdPlan {
  start: number;
  gap: number;
}

const archiveArb = fc.record({
  surveys: fc.uniqueArray(surveyArb, { selector: (s) => s.name, minLength: 1, maxLength: 2 }),
  ids: fc.record({ start: fc.integer({ min: 1, max: 1000 }), gap: fc.integer({ min: 1, max: 3 }) }),
  retired: fc.boolean(),
  styles: fc.array(fileStyleArb, { minLength: 1, maxLength: 4 }),
});

type ArchiveShape = typeof archiveArb extends fc.Arbitrary<infer T> ? T : never;

/** Builds the files of an archive that is valid by construction (every rule of the README kept). */
function archiveFiles(a: ArchiveShape): ModelFile[] {
  const files: ModelFile[] = [];
  const next = new Map<string, number>();
  const id = (kind: string, plan: IdPlan) => {
    const n = next.get(kind) ?? plan.start;
    next.set(kind, n + plan.gap);
    return n;
  };
  const style = () => a.styles[files.length % a.styles.length] ?? PLAIN_STYLE;
  const add = (p: string, value: JsonObject) => files.push({ path: p, value, style: style() });
  a.surveys.forEach((s, si) => {
    add(`${s.name}/survey.yaml`, {
      id: si + 1 + (a.ids.start % 7),
      name: s.name,
      pretty_name: s.pretty_name,
      title: s.title,
      description: s.description,
      pi: s.pi,
      contact: s.contact,
      website: s.website,
      active: s.active,
    });
    s.releases.forEach((r, ri) => {
      const base = `${s.name}/${r.name}`;
      add(`${base}/release.yaml`, {
        name: r.name,
        pretty_name: r.pretty_name,
        version: r.version,
        data_release_number: ri + 1,
        contact: r.contact,
        created: instant(r.span.created, r.span.form),
        updated: instant(r.span.updated, r.span.form + 1),
      });
      for (const g of r.groups) {
        const group: JsonObject = { id: id('group', a.ids), name: g.name };
        applyOptional(group, g.optional);
        group.created = instant(g.span.created, g.span.form);
        group.updated = instant(g.span.updated, g.span.form + 2);
        group.tables = g.tables.map((t) => {
          const table: JsonObject = { id: id('table', a.ids), name: t.name };
          applyOptional(table, t.optional);
          const span = ownSpan(table, g.span, t.span);
          if (t.input_cat !== undefined) table.input_cat = t.input_cat;
          const taken = new Set<string>();
          table.columns = t.columns.map((c, ci) => {
            const column: JsonObject = { id: id('column', a.ids), name: itemName(c.name, ci, taken) };
            applyOptional(column, c.optional);
            ownSpan(column, span, c.span);
            if (c.ucd !== undefined) column.ucd = c.ucd;
            if (c.unit !== undefined) column.unit = c.unit;
            return column;
          });
          return table;
        });
        add(`${base}/catalogues/${g.name}.yaml`, group);
      }
      for (const f of r.facilities) {
        const facility: JsonObject = { id: id('facility', a.ids), name: f.name };
        applyOptional(facility, f.optional);
        facility.created = instant(f.span.created, f.span.form);
        facility.updated = instant(f.span.updated, f.span.form + 1);
        facility.bands = f.bands.map((b) => {
          const band: JsonObject = { id: id('band', a.ids), name: b.name };
          applyOptional(band, b.optional);
          const span = ownSpan(band, f.span, b.span);
          band.central_wave_ang = b.wave;
          const taken = new Set<string>();
          band.regions = b.regions.map((g, gi) => {
            const region: JsonObject = { id: id('region', a.ids), name: itemName(g.name, gi, taken) };
            applyOptional(region, g.optional);
            ownSpan(region, span, g.span);
            const header: JsonObject = {};
            for (const [cards, comment] of g.cards) for (const [k, v] of cards) if (!(k in header)) header[k] = [v, comment];
            Object.assign(region, { ra_c: g.ra, dec_c: g.dec, unit: 'deg', frame: g.frame, equinox: g.equinox, fits_header: header });
            return region;
          });
          return band;
        });
        add(`${base}/imaging/${f.name}.yaml`, facility);
      }
    });
  });
  if (a.retired) {
    add('retired.yaml', {
      retired: [{ kind: 'CatalogueColumn', id: 999_999, name: 'gone', retired: '2020-07-01T00:00:00Z', reason: 'withdrawn' }],
    });
  }
  return files;
}

/** Archives that pass `check`, in every style of writing. */
export const validModelArb: fc.Arbitrary<ModelFile[]> = archiveArb.map(archiveFiles);

// ---- Breaking archives ------------------------------------------------------------------------------

export type TreeMutation =
  | { op: 'deleteField'; file: number; at: number }
  | { op: 'rawValue'; file: number; at: number; yaml: string }
  | { op: 'rawPrefix'; file: number; yaml: string }
  | { op: 'changeType'; file: number; at: number; to: Json }
  | { op: 'duplicateId'; from: number; to: number }
  | { op: 'editText'; file: number; edits: TextEdit[] }
  | { op: 'removeFile'; file: number }
  | { op: 'renameFile'; file: number; to: 'yml' | 'YAML' | 'mismatch' | 'folder' | 'top' | 'unsupported' | 'nested' | 'survey' }
  | { op: 'addFile'; path: string; text: string }
  | { op: 'badBytes'; file: number; at: number; bytes: number[] }
  | { op: 'folderNamedYaml'; path: string }
  | { op: 'symlink'; file: number };

const otherValueArb: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, 1e308, '', 'x', '1', 'NaN', [], {}, ['a'], { a: 1 }, [1, 'x'], {
    name: 'n',
    email: 'e',
  }),
  textArb,
  finite,
);

/** Values as YAML text, where the parsers, the schema's types and the checks may part ways. */
const RAW_VALUES = [
  '1e400',
  '-1e400',
  '1e-400',
  '.inf',
  '-.Inf',
  '.NaN',
  '!!seq',
  '!!map',
  '!!str',
  '!!null',
  '!!binary aGVsbG8=',
  '!!set {a}',
  '&a [*a]',
  '&a {b: *a}',
  '*a',
  '&a x',
  '&a\n{I}b: *a',
  '~',
  '',
  'yes',
  'no',
  'on',
  'y',
  '0x1F',
  '0o17',
  '0b1',
  '1_000',
  '2001-12-14',
  '12:30:00',
  '! x',
  '!!int "3"',
  '!!float 1',
  '!!str 1',
  '!x y',
  '"\\0F0"',
  '"\\0F"',
  '"\\0F1"',
  '|\n{I}x\n\t',
  '|\n{I}x\n \t',
  '>\n{I}x\n\t',
  '|2-\n{I} x',
  '|1\n{I}x',
  '|+\n{I}x\n\n',
  '>-\n{I}a\n\n{I}b',
  '[1, 2]',
  '{a: 1}',
  '"a\\\n{I}b"',
  "'a\n{I}b'",
  'a\n{I}b',
  '@x',
  '`x',
  '%x',
  'x #y',
  'x#y',
  '"\\ud800"',
  '"\\U0001F600"',
  '"\\x00"',
  '"\\N\\_\\L\\P"',
  '- a',
  '? a',
  '<<: {a: 1}',
  'x'.repeat(1030),
  '18446744073709551616',
  '9007199254740993',
  '-0',
  '+.5',
  '1.',
  '.5',
  '٣',
];

/** Lines before a file's data. */
const RAW_PREFIXES = [
  ' ---\n',
  '\t---\n',
  '%YAML 1.1\n---\n',
  '%YAML 1.2\n---\n',
  '%TAG ! tag:x,2000:\n---\n',
  '--- !!map\n',
  '--- &a\n',
  '\ufeff',
  '# c\n',
  '---\n...\n---\n',
  '\n\n',
  ' \n',
  '\t\n',
  '<<<<<<< HEAD\n',
];

export const treeMutationArb: fc.Arbitrary<TreeMutation> = fc.oneof(
  fc.record({ op: fc.constant('deleteField' as const), file: fc.nat(), at: fc.nat() }),
  fc.record({ op: fc.constant('rawValue' as const), file: fc.nat(), at: fc.nat(), yaml: fc.constantFrom(...RAW_VALUES) }),
  fc.record({ op: fc.constant('rawValue' as const), file: fc.nat(), at: fc.nat(), yaml: fc.constantFrom(...RAW_VALUES) }),
  fc.record({ op: fc.constant('rawPrefix' as const), file: fc.nat(), yaml: fc.constantFrom(...RAW_PREFIXES) }),
  fc.record({ op: fc.constant('changeType' as const), file: fc.nat(), at: fc.nat(), to: otherValueArb }),
  fc.record({ op: fc.constant('duplicateId' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('editText' as const), file: fc.nat(), edits: fc.array(textEditArb, { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant('removeFile' as const), file: fc.nat() }),
  fc.record({
    op: fc.constant('renameFile' as const),
    file: fc.nat(),
    to: fc.constantFrom('yml', 'YAML', 'mismatch', 'folder', 'top', 'unsupported', 'nested', 'survey'),
  }),
  fc.record({
    op: fc.constant('addFile' as const),
    path: fc.constantFrom(
      'retired.yaml',
      'notes.txt',
      'alpha/notes.yaml',
      'a/b/c/d/e.yaml',
      '.hidden.yaml',
      'alpha/dr1/catalogues/New.yaml',
    ),
    text: fc.oneof(fc.constant(''), generatedYamlArb),
  }),
  fc.record({
    op: fc.constant('badBytes' as const),
    file: fc.nat(),
    at: fc.nat(),
    bytes: fc.constantFrom<number[]>(
      [0xff],
      [0xc3],
      [0xe9, 0x41],
      [0x00],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xef, 0xbb, 0xbf],
    ),
  }),
  fc.record({ op: fc.constant('folderNamedYaml' as const), path: fc.constantFrom('x.yaml', 'alpha/dr1/catalogues/Dir.yaml') }),
  fc.record({ op: fc.constant('symlink' as const), file: fc.nat() }),
);

type Pointer = (string | number)[];

function pointers(v: Json, at: Pointer = [], out: Pointer[] = []): Pointer[] {
  const children: [string | number, Json][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : isObject(v) ? Object.entries(v) : [];
  for (const [k, x] of children) {
    out.push([...at, k]);
    pointers(x, [...at, k], out);
  }
  return out;
}

function parentOf(root: Json, pointer: Pointer): { parent: Json; key: string | number } | undefined {
  let node: Json = root;
  for (const k of pointer.slice(0, -1)) {
    if (Array.isArray(node) && typeof k === 'number') node = node[k] ?? null;
    else if (isObject(node) && typeof k === 'string') node = node[k] ?? null;
    else return undefined;
  }
  const key = pointer[pointer.length - 1];
  return key === undefined ? undefined : { parent: node, key };
}

function setAt(root: Json, pointer: Pointer, value: Json | undefined): void {
  const found = parentOf(root, pointer);
  if (!found) return;
  const { parent, key } = found;
  if (Array.isArray(parent) && typeof key === 'number') {
    if (value === undefined) parent.splice(key, 1);
    else parent[key] = value;
  } else if (isObject(parent) && typeof key === 'string') {
    if (value === undefined) Reflect.deleteProperty(parent, key);
    else parent[key] = value;
  }
}

/** One entry of a tree on disk. */
export type Entry = { text: string } | { bytes: number[] } | { folder: true } | { link: string };

/** A metadata folder as written: path under metadata/ → entry. */
export interface Tree {
  entries: Map<string, Entry>;
}

function showEntry(entry: Entry): string {
  if ('text' in entry) return JSON.stringify(entry.text);
  if ('bytes' in entry) return `bytes ${JSON.stringify(Buffer.from(entry.bytes).toString('latin1'))}`;
  if ('folder' in entry) return '(a folder)';
  return `(a symbolic link to ${entry.link})`;
}

/** The tree's files, each with its text, for a counterexample that can be rebuilt by hand. */
export function showTree(tree: Tree): string {
  return `{\n${[...tree.entries].map(([p, e]) => `  ${JSON.stringify(p)}: ${showEntry(e)}`).join(',\n')}\n}`;
}

function makeTree(entries: Map<string, Entry>): Tree {
  return Object.defineProperty({ entries }, fc.toStringMethod, {
    value: function (this: Tree) {
      return showTree(this);
    },
  });
}

function mutateModel(files: ModelFile[], mutations: readonly TreeMutation[]): ModelFile[] {
  const model = files.map((f) => ({ ...f, value: structuredClone(f.value) }));
  const pick = (n: number) => model[n % Math.max(1, model.length)];
  for (const m of mutations) {
    if (m.op === 'deleteField' || m.op === 'changeType' || m.op === 'rawValue') {
      const file = pick(m.file);
      if (!file) continue;
      const all = pointers(file.value);
      const at = all[m.at % Math.max(1, all.length)];
      if (at) setAt(file.value, at, m.op === 'deleteField' ? undefined : m.op === 'rawValue' ? RAW + m.yaml : structuredClone(m.to));
    } else if (m.op === 'rawPrefix') {
      const file = pick(m.file);
      if (file) file.prefix = m.yaml + (file.prefix ?? '');
    } else if (m.op === 'duplicateId') {
      const ids = model.flatMap((f, i) => pointers(f.value).flatMap((p) => (p[p.length - 1] === 'id' ? [{ i, p }] : [])));
      const from = ids[m.from % Math.max(1, ids.length)];
      const to = ids[m.to % Math.max(1, ids.length)];
      if (!from || !to) continue;
      const fromFile = model[from.i];
      const toFile = model[to.i];
      const found = fromFile && parentOf(fromFile.value, from.p);
      if (!found || !toFile || !isObject(found.parent)) continue;
      setAt(toFile.value, to.p, found.parent.id ?? null);
    }
  }
  return model;
}

function renamed(p: string, to: Extract<TreeMutation, { op: 'renameFile' }>['to']): string {
  const parts = p.split('/');
  const base = parts[parts.length - 1] ?? 'x.yaml';
  const stem = base.replace(/\.yaml$/, '');
  const dir = parts.slice(0, -1);
  switch (to) {
    case 'yml':
      return [...dir, `${stem}.yml`].join('/');
    case 'YAML':
      return [...dir, `${stem}.YAML`].join('/');
    case 'mismatch':
      return [...dir, `${stem}2.yaml`].join('/');
    case 'folder':
      return dir.length > 0 ? [...dir.slice(0, -1), `${dir[dir.length - 1] ?? ''}x`, base].join('/') : `x/${base}`;
    case 'top':
      return base;
    case 'unsupported':
      return [...parts.slice(0, 2), 'spectra', base].join('/');
    case 'nested':
      return [...dir, 'sub', base].join('/');
    case 'survey':
      return ['zeta', ...parts.slice(1)].join('/');
  }
}

/** Writes the model's files, then applies the mutations that work on texts and on the file system. */
function writeTree(model: ModelFile[], mutations: readonly TreeMutation[]): Tree {
  const entries = new Map<string, Entry>(model.map((f) => [f.path, { text: renderYaml(f.value, f.style, f.prefix) }]));
  const paths = () => [...entries.keys()];
  const pick = (n: number) => {
    const all = paths();
    return all[n % Math.max(1, all.length)];
  };
  for (const m of mutations) {
    switch (m.op) {
      case 'editText': {
        const p = pick(m.file);
        const entry = p === undefined ? undefined : entries.get(p);
        if (p !== undefined && entry && 'text' in entry) entries.set(p, { text: m.edits.reduce(applyEdit, entry.text) });
        break;
      }
      case 'removeFile': {
        const p = pick(m.file);
        if (p !== undefined) entries.delete(p);
        break;
      }
      case 'renameFile': {
        const p = pick(m.file);
        const entry = p === undefined ? undefined : entries.get(p);
        if (p === undefined || !entry) break;
        const target = renamed(p, m.to);
        if (entries.has(target) || [...entries.keys()].some((q) => q.startsWith(`${target}/`) || target.startsWith(`${q}/`))) break;
        entries.delete(p);
        entries.set(target, entry);
        break;
      }
      case 'addFile':
        if (!entries.has(m.path) && ![...entries.keys()].some((q) => q.startsWith(`${m.path}/`))) entries.set(m.path, { text: m.text });
        break;
      case 'badBytes': {
        const p = pick(m.file);
        const entry = p === undefined ? undefined : entries.get(p);
        if (p === undefined || !entry || !('text' in entry)) break;
        const bytes = [...Buffer.from(entry.text)];
        bytes.splice(m.at % (bytes.length + 1), 0, ...m.bytes);
        entries.set(p, { bytes });
        break;
      }
      case 'folderNamedYaml':
        if (!entries.has(m.path) && ![...entries.keys()].some((q) => q.startsWith(`${m.path}/`))) entries.set(m.path, { folder: true });
        break;
      case 'symlink': {
        const p = pick(m.file);
        const entry = p === undefined ? undefined : entries.get(p);
        if (p === undefined || !entry || !('text' in entry)) break;
        entries.set(p, { link: '../outside.yaml' });
        break;
      }
      default:
        break;
    }
  }
  return makeTree(entries);
}

/** Metadata trees: valid archives, and archives with up to three things broken. */
export const treeArb: fc.Arbitrary<Tree> = fc
  .tuple(validModelArb, fc.array(treeMutationArb, { maxLength: 3 }))
  .map(([model, mutations]) => writeTree(mutateModel(model, mutations), mutations));

/** A valid tree, and the same tree after an edit (which may break it or not). */
export interface TreePair {
  before: Tree;
  after: Tree;
}

export const treePairArb: fc.Arbitrary<TreePair> = fc
  .tuple(
    validModelArb,
    fc.oneof(
      { weight: 2, arbitrary: fc.constant<TreeMutation[]>([]) },
      { weight: 2, arbitrary: fc.array(treeMutationArb, { minLength: 1, maxLength: 2 }) },
    ),
    fc.option(fileStyleArb, { nil: undefined }),
    fc.option(fc.tuple(fc.nat(), fc.nat(), textArb), { nil: undefined }),
  )
  .map(([model, mutations, restyle, retext]) => {
    let edited = mutateModel(model, mutations);
    // Benign edits too: a file written another way, or a text changed.
    if (restyle) edited = edited.map((f, i) => (i === 0 ? { ...f, style: restyle } : f));
    if (retext) {
      const [file, at, text] = retext;
      const target = edited[file % Math.max(1, edited.length)];
      const strings = target
        ? pointers(target.value).filter((p) => ['description', 'pretty_name', 'documentation'].includes(String(p[p.length - 1])))
        : [];
      const p = strings[at % Math.max(1, strings.length)];
      if (target && p) setAt(target.value, p, text);
    }
    const pair = { before: writeTree(model, []), after: writeTree(edited, mutations) };
    return Object.defineProperty(pair, fc.toStringMethod, {
      value: () => `{ before: ${showTree(pair.before)}, after: ${showTree(pair.after)} }`,
    });
  });

// ---- YAML cases for the parsers ---------------------------------------------------------------------

/** Texts for the parsers: generated documents, and valid metadata files with their texts edited. */
export function yamlCaseArb(samples: readonly string[]): fc.Arbitrary<string> {
  const metadataText = fc.oneof(
    ...(samples.length > 0 ? [fc.constantFrom(...samples)] : []),
    fc.tuple(validModelArb, fc.nat()).map(([files, n]) => {
      const file = files[n % files.length];
      return file ? renderYaml(file.value, file.style) : '';
    }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: generatedYamlArb },
    { weight: 1, arbitrary: metadataText },
    {
      weight: 3,
      arbitrary: fc
        .tuple(metadataText, fc.array(textEditArb, { minLength: 1, maxLength: 4 }))
        .map(([text, edits]) => edits.reduce(applyEdit, text)),
    },
  );
}

// ---- Properties -------------------------------------------------------------------------------------

const excerpt = (text: string, max = 1500) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** JSON text of a value (JSON.stringify gives undefined for undefined). */
const stringify: (value: unknown) => string | undefined = JSON.stringify;
const json = (value: unknown): string => stringify(value) ?? 'undefined';

const describe = (r: Parsed): string =>
  r.file
    ? `a file with data ${excerpt(json(r.file.data))}`
    : `no file (${r.diagnostics.map((d) => `${d.severity} ${d.rule} at ${d.line}:${d.col}: ${d.message}`).join('; ')})`;

/**
 * Key `~` (a null key) is the one documented difference between the parsers: js-yaml names it
 * "null", yaml "" (test/parsers.test.ts; check reports it as an unknown key "null" either way).
 */
function nullKeysAsYamlNames(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(nullKeysAsYamlNames);
  if (v && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k === 'null' ? '' : k, nullKeysAsYamlNames(x)]));
  return v;
}

/** Where data holds itself, as a path (`$[0]`), if it does. */
function cycleIn(data: unknown, at = '$', open = new Set<unknown>()): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  if (open.has(data)) return at;
  open.add(data);
  const children: [string, unknown][] = Array.isArray(data)
    ? data.map((x, i): [string, unknown] => [`${at}[${i}]`, x])
    : Object.entries(data).map(([k, x]): [string, unknown] => [`${at}.${k}`, x]);
  for (const [where, child] of children) {
    const found = cycleIn(child, where, open);
    if (found) return found;
  }
  open.delete(data);
  return undefined;
}

/**
 * Property a, on one text: the fast path and the position-keeping parser give the same data, or
 * both refuse it, and every diagnostic has a place.
 */
export function parsersAgreeOn(subject: Subject, text: string): void {
  const results: [string, Parsed][] = [];
  for (const [name, parse] of [
    ['parseFileFast', subject.parseFileFast],
    ['parseFile', subject.parseFile],
  ] as const) {
    let result: Parsed;
    try {
      result = parse('metadata/fuzz.yaml', text);
    } catch (error) {
      throw new Error(`${name} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, { cause: error });
    }
    for (const d of result.diagnostics) {
      if (!d.file) throw new Error(`${name} gave a diagnostic without a file: ${JSON.stringify(d)}`);
      if (!Number.isInteger(d.line) || !Number.isInteger(d.col) || d.line < 0 || d.col < 0)
        throw new Error(`${name} gave a diagnostic at line ${d.line}, column ${d.col}: ${JSON.stringify(d)}`);
    }
    if (!result.file && !result.diagnostics.some((d) => d.severity === 'error'))
      throw new Error(`${name} gave no file and no error: ${JSON.stringify(result.diagnostics)}`);
    results.push([name, result]);
  }
  const [[, fast], [, slow]] = results as [[string, Parsed], [string, Parsed]];
  for (const [name, result] of results) {
    // Metadata is JSON-like data: a cycle (an alias inside its own anchor) breaks every later stage.
    const cycle = result.file && cycleIn(result.file.data);
    if (cycle) throw new Error(`${name} gave data with a cycle (${cycle}), which no later stage can walk or serialise`);
  }
  if (Boolean(fast.file) !== Boolean(slow.file)) {
    throw new Error(`the parsers disagree: parseFileFast gave ${describe(fast)}, parseFile gave ${describe(slow)}`);
  }
  if (fast.file && slow.file) {
    const a = json(fast.file.data);
    const b = json(slow.file.data);
    if (a !== b && json(nullKeysAsYamlNames(fast.file.data)) !== b) {
      throw new Error(`the parsers read different data: parseFileFast ${excerpt(a)}, parseFile ${excerpt(b)}`);
    }
    positionsAgree(fast.file, slow.file);
  }
}

function valueAt(data: unknown, pointer: readonly (string | number)[]): unknown {
  let node = data;
  for (const segment of pointer) node = (node as Record<string | number, unknown> | null | undefined)?.[segment];
  return node;
}

/** Every path into the data, and one past it (a missing key, where a curator would add it). */
function pathsOf(value: unknown, pointer: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(pointer);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...pointer, i], out));
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...pointer, key], out);
  else out.push([...pointer, 'missing']);
  return out;
}

/**
 * The fast path says where a value and its key are (from js-yaml's events) as the position-keeping
 * parser says it, and gives the same text for a scalar: a problem is reported at one place whichever
 * parser read the file.
 */
function positionsAgree(fast: NonNullable<Parsed['file']>, slow: NonNullable<Parsed['file']>): void {
  for (const pointer of pathsOf(slow.data).slice(0, 2000)) {
    for (const where of ['value', 'key'] as const) {
      const a = fast.locate(pointer, where);
      const b = slow.locate(pointer, where);
      if (a.line !== b.line || a.col !== b.col) {
        throw new Error(
          `the parsers place ${where} ${JSON.stringify(pointer)} apart: parseFileFast at ${a.line}:${a.col}, parseFile at ${b.line}:${b.col}`,
        );
      }
    }
    // The text as written is asked for numbers, booleans and nulls (how a number was written): a
    // string's is never asked for, and the parsers end a block of blank lines at the end apart.
    if (typeof valueAt(slow.data, pointer) === 'string') continue;
    const a = fast.source(pointer);
    const b = slow.source(pointer);
    if (a !== b)
      throw new Error(
        `the parsers give the text of ${JSON.stringify(pointer)} apart: parseFileFast ${JSON.stringify(a)}, parseFile ${JSON.stringify(b)}`,
      );
  }
}

export function parsersProperty(subject: Subject, samples: readonly string[]): fc.IPropertyWithHooks<[string]> {
  return fc.property(yamlCaseArb(samples), (text) => parsersAgreeOn(subject, text));
}

/** A folder of its own for one case: metadata/ holds the tree; removed afterwards. */
async function inProject<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'archive-schema-fuzz-'));
  try {
    await mkdir(path.join(dir, 'metadata'));
    await writeFile(path.join(dir, 'outside.yaml'), 'id: 1\n');
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function writeEntry(target: string, entry: Entry): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  if ('text' in entry) await writeFile(target, entry.text);
  else if ('bytes' in entry) await writeFile(target, Buffer.from(entry.bytes));
  else if ('folder' in entry) await mkdir(target, { recursive: true });
  else await symlink(entry.link, target);
}

const sameEntry = (a: Entry | undefined, b: Entry | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Puts the tree in `metadata/`, touching only what differs from `previous` (as an edit would). */
export async function placeTree(metadataDir: string, tree: Tree, previous?: Tree): Promise<void> {
  const before = previous?.entries ?? new Map<string, Entry>();
  for (const [p, entry] of before) {
    if (!sameEntry(entry, tree.entries.get(p))) await rm(path.join(metadataDir, p), { recursive: true, force: true });
  }
  for (const [p, entry] of tree.entries) {
    if (sameEntry(entry, before.get(p))) continue;
    const target = path.join(metadataDir, p);
    // A file may now sit where a folder was, or the other way round.
    const existing = await lstat(target).catch(() => undefined);
    if (existing) await rm(target, { recursive: true, force: true });
    await writeEntry(target, entry);
  }
}

const STACK_LINE = /^\s+at .+(?:\(.+:\d+:\d+\)|:\d+:\d+)$/m;
const BASE_URL = 'https://fuzz.example.org';

/** Runs a command and holds it to its contract: exit 0 or 1, never a crash. */
async function command(subject: Subject, dir: string, argv: string[]): Promise<CliRun> {
  let result: CliRun;
  try {
    result = await subject.cli(argv, dir);
  } catch (error) {
    throw new Error(`archive-schema ${argv.join(' ')} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, {
      cause: error,
    });
  }
  const said = `${result.stdout}\n${result.stderr}`;
  const shown = () => `\n--- stdout\n${excerpt(result.stdout)}\n--- stderr\n${excerpt(result.stderr)}`;
  if (result.code !== 0 && result.code !== 1) throw new Error(`archive-schema ${argv.join(' ')} exited ${result.code}${shown()}`);
  if (said.includes('internal error')) throw new Error(`archive-schema ${argv.join(' ')} reported an internal error${shown()}`);
  if (STACK_LINE.test(said)) throw new Error(`archive-schema ${argv.join(' ')} printed a stack trace${shown()}`);
  return result;
}

const checkArgs = ['check', '--metadata', 'metadata', '--cache-dir', 'cache'];
const buildArgs = (out: string) => ['build', '--metadata', 'metadata', '--out', out, '--cache-dir', 'cache', '--base-url', BASE_URL];
const referenceArgs = (out: string) => ['build', '--reference', '--metadata', 'metadata', '--out', out, '--base-url', BASE_URL];

/** Property b, on one tree: check, build and build --reference never crash, and agree on the verdict. */
export async function verdictsAgreeOn(subject: Subject, tree: Tree): Promise<void> {
  await inProject(async (dir) => {
    await placeTree(path.join(dir, 'metadata'), tree);
    const check = await command(subject, dir, checkArgs);
    const build = await command(subject, dir, buildArgs('out'));
    const reference = await command(subject, dir, referenceArgs('reference'));
    if (check.code !== build.code || build.code !== reference.code) {
      throw new Error(
        `the verdicts differ: check exited ${check.code}, build ${build.code}, build --reference ${reference.code}` +
          `\n--- check\n${excerpt(check.stdout + check.stderr)}\n--- build\n${excerpt(build.stdout + build.stderr)}` +
          `\n--- build --reference\n${excerpt(reference.stdout + reference.stderr)}`,
      );
    }
  });
}

export function verdictsProperty(subject: Subject): fc.IAsyncPropertyWithHooks<[Tree]> {
  return fc.asyncProperty(treeArb, (tree) => verdictsAgreeOn(subject, tree));
}

/** Every file below a folder with its bytes, but the marker that names the build. */
async function snapshot(dir: string, marker: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (sub: string) => {
    const entries = (await readdir(path.join(dir, sub), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) await walk(rel);
      else if (rel !== marker) out.set(rel, await readFile(path.join(dir, rel)));
    }
  };
  await walk('');
  return out;
}

function sameSnapshots(what: string, actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  const missing = [...expected.keys()].filter((k) => !actual.has(k));
  const extra = [...actual.keys()].filter((k) => !expected.has(k));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`${what}: missing ${JSON.stringify(missing.slice(0, 10))}, extra ${JSON.stringify(extra.slice(0, 10))}`);
  }
  for (const [file, bytes] of expected) {
    const got = actual.get(file);
    if (got && !got.equals(bytes)) {
      let i = 0;
      while (i < bytes.length && got[i] === bytes[i]) i++;
      const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 80), i + 80).toString('utf8'));
      throw new Error(`${what}: ${file} differs from byte ${i}:\n  got      ${around(got)}\n  expected ${around(bytes)}`);
    }
  }
}

/**
 * Property c, on a pair: a successful build gives the reference bytes, a cached rebuild too; after
 * the edit a cached build gives the edited tree's reference bytes, or fails and changes nothing.
 */
export async function outputMatchesOn(subject: Subject, pair: TreePair): Promise<{ built: boolean }> {
  return inProject(async (dir) => {
    const metadata = path.join(dir, 'metadata');
    const out = path.join(dir, 'out');
    await placeTree(metadata, pair.before);
    const first = await command(subject, dir, buildArgs('out'));
    const reference = await command(subject, dir, referenceArgs('reference'));
    if (first.code !== reference.code) {
      throw new Error(
        `build exited ${first.code} but build --reference ${reference.code}\n--- build\n${excerpt(first.stdout + first.stderr)}\n--- build --reference\n${excerpt(reference.stdout + reference.stderr)}`,
      );
    }
    if (first.code !== 0) return { built: false };
    const expected = await snapshot(path.join(dir, 'reference'), subject.marker);
    sameSnapshots('build and build --reference', await snapshot(out, subject.marker), expected);
    const again = await command(subject, dir, buildArgs('out'));
    if (again.code !== 0)
      throw new Error(`a cached rebuild of the same tree exited ${again.code}\n${excerpt(again.stdout + again.stderr)}`);
    const built = await snapshot(out, subject.marker);
    sameSnapshots('a cached rebuild and build --reference', built, expected);

    await placeTree(metadata, pair.after, pair.before);
    const edited = await command(subject, dir, buildArgs('out'));
    const editedReference = await command(subject, dir, referenceArgs('reference-after'));
    if (edited.code !== editedReference.code) {
      throw new Error(
        `after the edit, build exited ${edited.code} but build --reference ${editedReference.code}\n--- build\n${excerpt(edited.stdout + edited.stderr)}\n--- build --reference\n${excerpt(editedReference.stdout + editedReference.stderr)}`,
      );
    }
    if (edited.code === 0) {
      sameSnapshots(
        'a cached build after the edit and build --reference of the edited tree',
        await snapshot(out, subject.marker),
        await snapshot(path.join(dir, 'reference-after'), subject.marker),
      );
    } else {
      sameSnapshots('the output after a failed build, and before it', await snapshot(out, subject.marker), built);
    }
    return { built: true };
  });
}

export function outputProperty(subject: Subject, stats?: { runs: number; built: number }): fc.IAsyncPropertyWithHooks<[TreePair]> {
  return fc.asyncProperty(treePairArb, async (pair) => {
    const { built } = await outputMatchesOn(subject, pair);
    if (stats) {
      stats.runs++;
      if (built) stats.built++;
    }
  });
}

// ---- Running ----------------------------------------------------------------------------------------

// ---- Hostile texts and names ----------------------------------------------------------------------

/** A metadata file to put hostile parts into: a group, valid as written. */
const HOSTILE_BASE = HOSTILE_GROUP;

/** One family of what a hostile pull request puts in a file, and how much of it. */
export type Hostile =
  | { family: 'aliases'; anchor: number; aliases: number; flow: boolean }
  | { family: 'keys'; keys: number; flow: boolean; duplicates: boolean }
  | { family: 'nesting'; style: 'flow-list' | 'flow-mapping' | 'block-mapping' | 'block-list'; depth: number }
  | { family: 'problems'; columns: number }
  | { family: 'markup'; depth: number; closed: boolean };

/** Sizes up to `scale` times the base ones: the short run keeps them small, the long one can ask for more. */
export function hostileArb(scale = 1): fc.Arbitrary<{ hostile: Hostile; breakAt?: number }> {
  const n = (max: number) => fc.integer({ min: 0, max: Math.max(1, Math.round(max * scale)) });
  const hostile: fc.Arbitrary<Hostile> = fc.oneof(
    fc.record({ family: fc.constant('aliases' as const), anchor: fc.integer({ min: 1, max: 12 }), aliases: n(3_000), flow: fc.boolean() }),
    fc.record({ family: fc.constant('keys' as const), keys: n(20_000), flow: fc.boolean(), duplicates: fc.boolean() }),
    fc.record({
      family: fc.constant('nesting' as const),
      style: fc.constantFrom('flow-list' as const, 'flow-mapping' as const, 'block-mapping' as const, 'block-list' as const),
      depth: n(5_000),
    }),
    fc.record({ family: fc.constant('problems' as const), columns: n(3_000) }),
    fc.record({ family: fc.constant('markup' as const), depth: n(5_000), closed: fc.boolean() }),
  );
  // Sometimes a syntax error or a character js-yaml refuses, on a line before the hostile part or inside it.
  return fc.record({ hostile, breakAt: fc.option(fc.nat(), { nil: undefined }) }, { requiredKeys: ['hostile'] });
}

/** The text of a hostile case. */
export function hostileText({ hostile, breakAt }: { hostile: Hostile; breakAt?: number }): string {
  let part: string;
  switch (hostile.family) {
    case 'aliases': {
      const anchor = `{${Array.from({ length: hostile.anchor }, (_, i) => `k${i}: ${i}`).join(', ')}}`;
      const uses = Array.from({ length: hostile.aliases }, () => '*a');
      part = `x: &a ${anchor}\ny: ${hostile.flow ? `[${uses.join(', ')}]` : `\n${uses.map((u) => `  - ${u}`).join('\n')}`}\n`;
      break;
    }
    case 'keys': {
      const key = (i: number) => (hostile.duplicates ? 'dup' : `k${i}`);
      const keys = Array.from({ length: hostile.keys }, (_, i) => `${key(i)}: 1`);
      part = hostile.flow ? `x: {${keys.join(', ')}}\n` : `x:\n${keys.map((k) => `  ${k}`).join('\n')}\n`;
      break;
    }
    case 'nesting': {
      const d = hostile.depth;
      part = {
        'flow-list': () => `x: ${'['.repeat(d)}${']'.repeat(d)}\n`,
        'flow-mapping': () => `x: ${'{a: '.repeat(d)}b${'}'.repeat(d)}\n`,
        'block-mapping': () =>
          `x:\n${Array.from({ length: Math.min(d, 3_000) }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} leaf\n`,
        'block-list': () => `x: ${'- '.repeat(d)}leaf\n`,
      }[hostile.style]();
      break;
    }
    case 'problems':
      part = `z: [${Array.from({ length: hostile.columns }, (_, i) => `{id: x${i}, name: '${i}'}`).join(', ')}]\n`;
      break;
    case 'markup':
      part = `pretty_name: "${'<div>'.repeat(hostile.depth)}x${hostile.closed ? '</div>'.repeat(hostile.depth) : ''}"\n`;
      break;
  }
  const lines = `${HOSTILE_BASE}${part}`.split('\n');
  if (breakAt !== undefined) {
    const at = breakAt % lines.length;
    // A closing bracket where no collection is open, or a bell in a double-quoted string.
    lines.splice(at, 0, breakAt % 2 === 0 ? 'broken: ]' : 'bell: "a\u0007b"');
  }
  return lines.join('\n');
}

/**
 * Whatever a hostile text holds, both parsers end without throwing, agree on whether the file is
 * read, locate each problem (or name the whole file), list at most a hundred problems of a kind
 * and one more that counts the rest, and refuse what the limits refuse: nesting past 64, aliases
 * expanding past 100 nodes, keys given twice.
 */
export function hostileAgreesOn(subject: Subject, text: string, hostile: Hostile, broken: boolean): void {
  parsersAgreeOn(subject, text);
  for (const parse of [subject.parseFileFast, subject.parseFile]) {
    const { diagnostics } = parse('metadata/hostile.yaml', text);
    const kinds = new Map<string, number>();
    for (const d of diagnostics) kinds.set(d.rule, (kinds.get(d.rule) ?? 0) + 1);
    for (const [rule, count] of kinds) if (count > 101) throw new Error(`${count} diagnostics of ${rule} listed, where at most 101 are`);
    const rules = diagnostics.map((d) => d.rule);
    // A syntax error put before the hostile part may be all that is said: the rest is never read.
    const refused = (rule: string) => rules.includes(rule) || (broken && rules.some((r) => r.startsWith('yaml/')));
    if (hostile.family === 'nesting' && hostile.depth > 70 && !refused('yaml/too-deep')) {
      throw new Error(`nesting ${hostile.depth} deep was not refused: ${JSON.stringify(diagnostics.slice(0, 3))}`);
    }
    if (hostile.family === 'aliases' && hostile.aliases * (hostile.anchor * 2 + 1) > 100 && !refused('yaml/aliases')) {
      throw new Error(`${hostile.aliases} aliases were not refused: ${JSON.stringify(diagnostics.slice(0, 3))}`);
    }
    if (hostile.family === 'keys' && hostile.duplicates && hostile.keys > 1 && !refused('yaml/duplicate-key')) {
      throw new Error(`${hostile.keys} keys given twice were not refused: ${JSON.stringify(diagnostics.slice(0, 3))}`);
    }
  }
}

export function hostileProperty(subject: Subject, scale = 1): fc.IPropertyWithHooks<[{ hostile: Hostile; breakAt?: number }]> {
  return fc.property(hostileArb(scale), (c) => hostileAgreesOn(subject, hostileText(c), c.hostile, c.breakAt !== undefined));
}

/** A file or folder name as bytes: any but `/` and NUL, up to the 255 a name may have; often not UTF-8, or with a line break or a workflow command. */
export const nameBytesArb: fc.Arbitrary<readonly number[]> = fc.oneof(
  fc.array(
    fc.integer({ min: 1, max: 255 }).filter((b) => b !== 0x2f),
    { minLength: 1, maxLength: 40 },
  ),
  fc.constantFrom(
    [...Buffer.from('x\n::error file=README.md,line=1::forged.yaml')],
    [...Buffer.from('##[error]forged.yaml')],
    [...Buffer.from('notes'), 0xff],
    [...Buffer.from('\u001b[31mred\u0007.yaml')],
    [...Buffer.from(`${'G'.repeat(250)}.yaml`)],
  ),
);

/** Folders of the fixture's layout a hostile name goes in. */
const NAME_FOLDERS = ['', 'zeta', 'zeta/dr1', 'zeta/dr1/catalogues'];

/**
 * Whatever the names of the files under the metadata folder, `check` and `fmt --check` end with
 * exit 0 or 1, report every name that is not UTF-8 at its path, and print nothing a terminal or a
 * CI log would act on: no control character, no line that starts a workflow command, no `##[`.
 */
export async function namesAgreeOn(subject: Subject, names: readonly { folder: number; name: readonly number[] }[]): Promise<void> {
  await inProject(async (dir) => {
    const metadata = path.join(dir, 'metadata');
    await mkdir(path.join(metadata, 'zeta/dr1/catalogues'), { recursive: true });
    await writeFile(path.join(metadata, 'zeta/survey.yaml'), 'id: 990\nname: zeta\n');
    const undecodable = new Set<string>();
    for (const { folder, name } of names) {
      const bytes = Buffer.from(name);
      const where = NAME_FOLDERS[folder % NAME_FOLDERS.length] ?? '';
      const target = Buffer.concat([Buffer.from(path.join(metadata, where) + path.sep), bytes]);
      await writeFile(target, HOSTILE_BASE).catch(() => undefined);
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        undecodable.add(`${where}/${[...bytes].map((b) => b.toString(16)).join('')}`);
      }
    }
    for (const argv of [['check'], ['check', '--format', 'github'], ['fmt', '--check']]) {
      const result = await command(subject, dir, argv);
      const said = `${result.stdout}${result.stderr}`;
      // eslint-disable-next-line no-control-regex
      const control = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(said);
      if (control)
        throw new Error(
          `archive-schema ${argv.join(' ')} printed a control character (U+${control[0].charCodeAt(0).toString(16)}): ${excerpt(said)}`,
        );
      for (const line of said.split('\n')) {
        const github = argv.includes('github') && /^::(error|warning) /.test(line);
        if (!github && line.trimStart().startsWith('::'))
          throw new Error(`archive-schema ${argv.join(' ')} printed a workflow command: ${line}`);
        if (line.includes('##[')) throw new Error(`archive-schema ${argv.join(' ')} printed ##[: ${line}`);
      }
      if (argv[0] === 'check' && undecodable.size > 0) {
        if (result.code !== 1) throw new Error(`names that are not UTF-8 passed archive-schema ${argv.join(' ')}: ${excerpt(said)}`);
        if (argv.length === 1 && !said.includes('has a name that is not UTF-8'))
          throw new Error(`names that are not UTF-8 were not reported: ${excerpt(said)}`);
      }
    }
  });
}

export function namesProperty(subject: Subject): fc.IAsyncPropertyWithHooks<[{ folder: number; name: readonly number[] }[]]> {
  return fc.asyncProperty(fc.array(fc.record({ folder: fc.nat(), name: nameBytesArb }), { minLength: 1, maxLength: 6 }), (names) =>
    namesAgreeOn(subject, names),
  );
}

export const PROPERTIES = ['parsers', 'verdicts', 'output', 'hostile', 'names'] as const;
export type PropertyName = (typeof PROPERTIES)[number];

/** The texts of the fixture archive's files, as seeds for edits. */
export async function readSamples(folder: string): Promise<string[]> {
  const texts: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.yaml')) texts.push(await readFile(full, 'utf8'));
    }
  };
  await walk(folder);
  return texts;
}

export interface RunOptions {
  numRuns: number;
  seed: number;
  path?: string;
  /** Stop (and report the smallest case found so far) after this long. */
  timeLimitMs?: number;
  /** Report the first failing case as it is, without shrinking it (the replay line shrinks it). */
  endOnFailure?: boolean;
}

/** A property that failed: the message says how to replay it; the counterexample is the shrunk case. */
export class FuzzFailure extends Error {
  override name = 'FuzzFailure';

  constructor(
    message: string,
    readonly counterexample: unknown,
  ) {
    super(message);
  }
}

/**
 * Runs a property; on failure throws an error (a FuzzFailure) that gives the seed and path to replay it with,
 * and the shrunk counterexample. Returns what fast-check reports.
 */
export async function runProperty<T extends unknown[]>(
  name: PropertyName,
  property: fc.IRawProperty<T>,
  options: RunOptions,
): Promise<fc.RunDetails<T>> {
  const details = await fc.check(property, {
    numRuns: options.numRuns,
    seed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    ...(options.timeLimitMs ? { interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false } : {}),
    ...(options.endOnFailure ? { endOnFailure: true } : {}),
  });
  if (details.failed) {
    const report = (await fc.asyncDefaultReportMessage(details)) ?? 'the property failed';
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const at = details.counterexamplePath ?? '';
    const replay =
      `node scripts/fuzz.mjs --property ${name} --seed ${details.seed} --path ${at} --runs 1\n` +
      `    or FUZZ_SEED=${details.seed} FUZZ_PATH=${at} npx vitest run test/fuzz.test.ts -t ${name}:`;
    throw new FuzzFailure(
      `fuzz property "${name}" failed (seed ${details.seed}, path ${details.counterexamplePath ?? '?'})\nreplay: ${replay}\n${report}\nWhat went wrong: ${error}`,
      details.counterexample?.[0],
    );
  }
  return details;
}
