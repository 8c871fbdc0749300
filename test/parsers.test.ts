// The fast parser (js-yaml) and the position-keeping parser (yaml) must read every file the same
// way: the build parses with the first and reports problems with the second.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseFile, parseFileFast } from '../src/pipeline/parse.ts';
import { PROJECT } from './helpers.ts';

const files = fg.sync(['metadata/**/*.yaml', 'test/fixtures/**/*.yaml'], { cwd: PROJECT }).sort();

const SNIPPETS: [string, string][] = [
  ['integers in every base', 'a: 0x1F\nb: 0o17\nc: -42\nd: +7\ne: 007\n'],
  ['floats and their specials', 'a: 1e3\nb: -1.5E-3\nc: .inf\nd: -.Inf\ne: .nan\nf: 135.0\ng: .5\n'],
  ['booleans and nulls of YAML 1.2', 'a: true\nb: True\nc: FALSE\nd: yes\ne: on\nf: ~\ng: null\nh:\n'],
  ['timestamps stay strings', 'a: 2020-07-01T00:00:00Z\nb: 2020-07-01\nc: 2020-07-01 10:00:00\n'],
  ['quoting and escapes', `a: 'it''s'\nb: "tab\\tline\\u2028end"\nc: "\\x41\\U0001F600"\nd: '-'\ne: None\n`],
  ['block scalars', 'a: |\n  one\n  two\nb: >-\n  folded\n  text\nc: |+\n  keep\n\n'],
  ['flow collections', 'a: {name: A, email: a@example.org}\nb: [1, two, 3.0, true]\nc: []\nd: {}\n'],
  ['keys that are not strings', '1: one\ntrue: yes\n2.5: half\n'],
  ['comments everywhere', '# head\na: 1 # one\n# between\nb: [1, 2] # two\n'],
  ['deep lists of maps', 'tables:\n  - id: 1\n    columns:\n      - {id: 2, name: RA}\n      - id: 3\n        name: DEC\n'],
];

describe('js-yaml and yaml read the same data', () => {
  test.each(files)('%s', (file) => {
    const text = readFileSync(path.join(PROJECT, file), 'utf8');
    expect(load(text, { maxAliases: 0 })).toEqual(parse(text));
  });

  test.each(SNIPPETS)('%s', (_name, text) => {
    expect(load(text, { maxAliases: 0 })).toEqual(parse(text));
  });
});

test('a null key, which js-yaml names "null" and yaml "", is refused where it is', async () => {
  const text = 'id: 1\n~: nothing\n';
  expect(load(text)).toEqual({ id: 1, null: 'nothing' });
  expect(parse(text)).toEqual({ id: 1, '': 'nothing' });
  const { check } = await import('../src/build.ts');
  const { testdir } = await import('./helpers.ts');
  const dir = await testdir({
    'gamma/survey.yaml':
      "id: 3\nname: gamma\npretty_name: G\ntitle: G\ndescription: ''\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://g.example.org/\nactive: true\n~: x\n",
  });
  const result = await check({ metadataDir: `${dir}/metadata`, displayRoot: dir });
  expect(result.diagnostics).toMatchObject([
    {
      file: 'metadata/gamma/survey.yaml',
      line: 10,
      col: 1,
      rule: 'yaml/null-key',
      message: 'a key here is empty or null (`null:`, `~:`, or a value with no key); write the name of the key',
    },
  ]);
});

/** Every path into the data, and one past each leaf (a missing key, where a curator would add it). */
function pathsOf(value: unknown, pointer: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [pointer, ...value.flatMap((item, i) => pathsOf(item, [...pointer, i]))];
  if (value !== null && typeof value === 'object')
    return [pointer, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...pointer, key]))];
  return [pointer, [...pointer, 'missing']];
}

const PLACES =
  'a: "q"\nb:\nc: [1, 2]\nd: {k: v, e: , f}\ne:\n  - f: 1\n    g: x\n  -\n  - |\n    lit\n  - >-\n    fold\n\n' +
  "n:\n  p: 1\no: # c\n  q\nr:   \ns: |+\n  keep\n\nt: 'single'\nu:\n  - []\n  - {}\n  -\nv: 0x10\n1: one\ntrue: yes\nw: >\n\n  late\n";

describe('the fast path', () => {
  // Problems in a file the fast path read are located from js-yaml's events: where the
  // position-keeping parser would point, or a report would move when a file is read the other way.
  test.each([...files, 'empty values, block scalars, flow collections, keys that are not strings'])(
    'points at every value and key of %s where the position-keeping parser does',
    (file) => {
      const text = file.includes(' ') ? PLACES : readFileSync(path.join(PROJECT, file), 'utf8');
      const fast = parseFileFast('x.yaml', text).file;
      const slow = parseFile('x.yaml', text).file;
      if (!fast || !slow) throw new Error(`${file} does not parse`);
      for (const pointer of pathsOf(slow.data)) {
        expect(fast.locate(pointer), JSON.stringify(pointer)).toEqual(slow.locate(pointer));
        expect(fast.locate(pointer, 'key'), JSON.stringify(pointer)).toEqual(slow.locate(pointer, 'key'));
        expect(fast.source(pointer), JSON.stringify(pointer)).toBe(slow.source(pointer));
      }
    },
  );

  test('gives the same data and positions as the slow path', () => {
    const text = readFileSync(path.join(PROJECT, 'test/fixtures/archive/alpha/dr2/imaging/VST.yaml'), 'utf8');
    const fast = parseFileFast('VST.yaml', text).file;
    const slow = parseFile('VST.yaml', text).file;
    expect(fast?.data).toEqual(slow?.data);
    const pointer = ['bands', 0, 'regions', 0, 'ra_c'];
    expect(fast?.locate(pointer)).toEqual(slow?.locate(pointer));
    expect(fast?.source(['bands', 0, 'central_wave_ang'])).toBe('6313.5');
  });

  test.each([
    ['a syntax error', 'a: [1, 2\n', 'yaml/'],
    ['an alias', 'a: &x [1]\nb: *x\n', undefined],
    ['an anchor ending in a colon, which js-yaml reads as a name and yaml refuses', 'contact: &name: A, email: a@example.org}\n', 'yaml/'],
    ['an empty file', '', undefined],
  ])('falls back to the slow path for %s', (_name, text, rule) => {
    const fast = parseFileFast('x.yaml', text);
    const slow = parseFile('x.yaml', text);
    expect(fast.diagnostics).toEqual(slow.diagnostics);
    expect(fast.file?.data).toEqual(slow.file?.data);
    if (rule) expect(fast.diagnostics[0]?.rule).toMatch(rule);
  });
});
