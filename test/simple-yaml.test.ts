// The line reader the build reads metadata with first (src/pipeline/simple-yaml.ts): where it reads a
// text, it gives js-yaml's data; what it is not sure of it declines, and the file is parsed as
// before. The parser fuzzing (fuzz.test.ts, `npm run fuzz`) holds it to js-yaml on generated texts.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { load } from 'js-yaml';
import { describe, expect, test } from 'vitest';
import { parseFile, parseFileFast } from '../src/pipeline/parse.ts';
import { readSimpleYaml } from '../src/pipeline/simple-yaml.ts';
import { PROJECT } from './helpers.ts';

const READ: [string, string, unknown][] = [
  [
    'plain scalars, resolved as the core schema resolves them',
    'id: 7\nratio: 0.5\ndec: -76.0671\nbig: 1e3\nactive: true\nold: False\nnothing: ~\nempty:\ndate: 2016-03-14\nyes: yes\nhex: 0x1F\n',
    {
      id: 7,
      ratio: 0.5,
      dec: -76.0671,
      big: 1000,
      active: true,
      old: false,
      nothing: null,
      empty: null,
      date: '2016-03-14',
      yes: 'yes',
      hex: 31,
    },
  ],
  [
    'quoted scalars',
    `unit: '-'\nit: 'it''s'\ncolon: "x: y # z"\nnone: ''\nquoted: '123'\n`,
    { unit: '-', it: "it's", colon: 'x: y # z', none: '', quoted: '123' },
  ],
  [
    'comments, after values and on lines of their own',
    "# head\na: 1 # one\n    # indented\nb: 'q # not' # comment\nc: C# # a language\n",
    { a: 1, b: 'q # not', c: 'C#' },
  ],
  [
    'lists of mappings, nested',
    'tables:\n  - id: 1\n    columns:\n      - id: 2\n        name: RA\n      -   id: 3\n          name: DEC\n    name: T\nafter: x\n',
    {
      tables: [
        {
          id: 1,
          columns: [
            { id: 2, name: 'RA' },
            { id: 3, name: 'DEC' },
          ],
          name: 'T',
        },
      ],
      after: 'x',
    },
  ],
  [
    'one-line flow lists and mappings of scalars',
    "naxis: [2811, '']\ncontact: {name: A Team, email: a@example.org}\nsoft: [IAP  http://www.iap.fr, Institute]\nnone: []\nquote: ['a, b', 'it''s']\n",
    {
      naxis: [2811, ''],
      contact: { name: 'A Team', email: 'a@example.org' },
      soft: ['IAP  http://www.iap.fr', 'Institute'],
      none: [],
      quote: ['a, b', "it's"],
    },
  ],
  ['a list of scalars at the root', '- one\n- 2\n- [a]\n', ['one', 2, ['a']]],
  ['a no-break space, which is text and not a space', 'a: \u00a0x\u00a0\n', { a: '\u00a0x\u00a0' }],
  ['keys named like an object’s own properties', 'constructor: 1\ntoString: 2\n', { constructor: 1, toString: 2 }],
  ['text with brackets and quotes inside', 'd: Flux [mJy] of the \'best\' "fit"\n', { d: `Flux [mJy] of the 'best' "fit"` }],
  [
    'text ending like a block scalar’s header, and a \\U escape, which is none outside double quotes',
    'a: x |2\nb: y \\U00110000\n',
    { a: 'x |2', b: 'y \\U00110000' },
  ],
  ['a key of 1,024 characters', `${'k'.repeat(1024)}: 1\n`, { ['k'.repeat(1024)]: 1 }],
];

const DECLINED: [string, string][] = [
  ['a plain scalar continued on the next line', 'a: one\n  two\n'],
  ['a block scalar', 'a: |\n  one\n'],
  ['an escape in double quotes', 'a: "x\\ty"\n'],
  ['a quoted scalar over two lines', "a: 'one\n  two'\n"],
  ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
  ['an explicit tag', 'a: !!str 1\n'],
  ['a list at its key’s own column', 'a:\n- 1\n'],
  ['a key given twice', 'a: 1\na: 2\n'],
  ['a key with a space in it', 'x y: 1\n'],
  ['a key that is a number', '1: one\n'],
  ['a key that is null', 'null: x\n'],
  ['a key named __proto__', '__proto__: x\n'],
  ['a flow list inside a flow list', 'a: [1, [2]]\n'],
  ['a flow mapping over two lines', 'a: {b: 1,\n  c: 2}\n'],
  ['a comment glued to a flow list', 'a: [1]#c\n'],
  ['a tab', 'a:\t1\n'],
  ['carriage returns', 'a: 1\r\nb: 2\r\n'],
  ['a number too large for a double', 'a: 1e400\n'],
  ['a document marker', '---\na: 1\n'],
  ['an empty file', ''],
  ['a key without a space after its colon', 'a:1\n'],
  ['a key of more than 1,024 characters', `${'k'.repeat(1025)}: 1\n`],
  ['a key indented where no mapping is', 'a:\n    b: 1\n  c: 2\n'],
  ['a list item that is a list', '- - 1\n'],
  ['a mapping value on a key’s line', 'a: b: c\n'],
  [
    'nesting deeper than metadata goes',
    Array.from({ length: 40 }, (_, i) => `${' '.repeat(2 * i)}k${i}:\n`).join('') + `${' '.repeat(80)}v: 1\n`,
  ],
];

describe('reads what it can, as js-yaml does', () => {
  test.each(READ)('%s', (_name, text, expected) => {
    const read = readSimpleYaml(text);
    expect(read?.value).toStrictEqual(expected);
    expect(read?.value).toStrictEqual(load(text));
    // Both parsers read it alike, as the fast path relies on.
    expect(parseFile('x.yaml', text).file?.data).toEqual(expected);
  });
});

describe('declines the rest, which the fast path still reads as before', () => {
  test.each(DECLINED)('%s', (_name, text) => {
    expect(readSimpleYaml(text)).toBeUndefined();
    const fast = parseFileFast('x.yaml', text);
    const slow = parseFile('x.yaml', text);
    expect(fast.file?.data).toEqual(slow.file?.data);
    expect(fast.diagnostics.map((d) => d.rule)).toEqual(slow.diagnostics.map((d) => d.rule));
  });
});

const files = fg.sync(['metadata/**/*.yaml', 'test/fixtures/**/*.yaml'], { cwd: PROJECT }).sort();

test('the bundled metadata and the fixtures read as js-yaml reads them, where the line reader reads them', () => {
  const read = files.flatMap((file) => {
    const text = readFileSync(path.join(PROJECT, file), 'utf8');
    const simple = readSimpleYaml(text);
    return simple ? [{ file, data: simple.value, expected: load(text) }] : [];
  });
  expect(read.length).toBeGreaterThan(0);
  for (const { file, data, expected } of read) expect(data, file).toStrictEqual(expected);
});
