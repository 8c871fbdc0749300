// The header row of a CSV file as `import columns` reads it: only the first record, found as the
// file streams by, with csv-parse's rules for quotes, whatever the chunks it arrives in.

import { describe, expect, test } from 'vitest';
import { CsvError, firstRecord, readCsvHeader } from '../src/readers/csv.ts';

function* pieces(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const SIZES = [1, 2, 3, 5, 1000];

describe('firstRecord and readCsvHeader', () => {
  test.each(
    (
      [
        ['plain names', 'ra,dec,mag\n1,2,3\n', ',', ['ra', 'dec', 'mag']],
        ['CRLF', 'ra,dec\r\n1,2\r\n', ',', ['ra', 'dec']],
        ['a line break inside quotes', '"ra\nnorth",dec\n1,2\n', ',', ['ra\nnorth', 'dec']],
        ['doubled quotes inside quotes', '"say ""hi""",b\n', ',', ['say "hi"', 'b']],
        ['a doubled quote then a line break', '"a""\nb",c\n', ',', ['a"\nb', 'c']],
        ['spaces before an opening quote', 'a, "b,c"\n', ',', ['a', 'b,c']],
        ['no line break at the end', 'a,b', ',', ['a', 'b']],
        ['tabs', 'a\tb c\t"d\te"\n1\t2\t3\n', '\t', ['a', 'b c', 'd\te']],
      ] as const
    ).flatMap(([name, text, delimiter, names]) => SIZES.map((size) => [name, size, text, delimiter, names] as const)),
  )('%s, in chunks of %i', (_, size, text, delimiter, names) => {
    expect(readCsvHeader(firstRecord(pieces(text, size), delimiter), delimiter)).toEqual(names);
  });

  test.each([
    ['a quote never closed', 'a,"b\n1,2\n', 'the quote (") at character 3 of the header row is never closed'],
    ['a quote in the middle of a name', 'ab"c,d\n1,2\n', 'the header row is not valid CSV: Invalid Opening Quote'],
    ['text after a closing quote', '"a"b,c\n', 'the header row is not valid CSV: Invalid Closing Quote'],
    // Was: the empty names were left out without a word, and b took the second column's place.
    [
      'an empty name between two',
      'a,,b\n1,2,3\n',
      'the header row has no name for column 2 (after "a"); name every column, or remove the extra commas',
    ],
    [
      'empty names, one at the end',
      'a,,b,\n',
      'the header row has no name for column 2 (after "a"), column 4 (after "b"); name every column',
    ],
    ['a name of spaces only', ' a , ,b\n', 'the header row has no name for column 2 (after "a")'],
    ['an empty first name', ',a\n', 'the header row has no name for column 1; name every column'],
    [
      'a tab-separated header',
      'a\t\tb\n',
      'the header row has no name for column 2 (after "a"); name every column, or remove the extra tabs',
      '\t',
    ],
  ] as [string, string, string, (',' | '\t')?][])('refuses %s', (_, text, message, delimiter = ',') => {
    for (const size of SIZES) {
      expect(() => readCsvHeader(firstRecord(pieces(text, size), delimiter), delimiter)).toThrow(CsvError);
      expect(() => readCsvHeader(firstRecord(pieces(text, size), delimiter), delimiter)).toThrow(message);
    }
  });
});
