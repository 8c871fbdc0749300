// UCD words against the IVOA UCD1+ controlled vocabulary, and the vendored word list itself.

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  normaliseUcdList,
  parseUcdDeprecatedList,
  parseUcdList,
  ucdSyntaxProblem,
  ucdVocabulary,
  ucdWordProblems,
} from '../src/vocabularies/ucd.ts';

const version = ucdVocabulary().version;
const messages = (ucd: string) => ucdWordProblems(ucd).map((advice) => advice.message);

describe('UCDs the UCD1+ list accepts', () => {
  test.each([
    'pos.eq.ra;meta.main',
    'phot.mag;em.opt.R',
    'stat.error;phot.mag;em.opt.B',
    'phot.color;em.opt.B;em.opt.V',
    'src.redshift',
    'meta.id;meta.main',
    'phys.abund.Fe',
    'POS.EQ.RA;META.MAIN', // compared case-insensitively, like astropy and ucidy
    'Phot.Mag;Em.Opt.R',
    '-',
    // advice-only cases in ucidy, deliberately silent here:
    'phot.mag', // photometric word without a band
    'phot.color', // colour without bands
    'pos.distance', // vector without an axis or frame
    'stat.correlation;pos.pm;pos.eq.ra;pos.pm;pos.eq.dec', // repeated words
    'stat.error;phot.mag;em.opt.B;stat.fit', // Q words anywhere
    'phot.color;em.IR.J;em.IR.K',
    'meta.code.qual;stat.fit', // stat.fit is Q since 1.6
    'obs.atmos.humidity', // new in 1.6
  ])('%s gives no warning', (ucd) => {
    expect(ucdSyntaxProblem(ucd)).toBeUndefined();
    expect(messages(ucd)).toEqual([]);
  });
});

describe('UCDs that get warnings', () => {
  test.each([
    ['em.opt.R;src.redshift', ['starts with "em.opt.R", a secondary word that cannot come first; try "src.redshift;em.opt.R"']],
    ['em.opt', ['starts with "em.opt", a secondary word that cannot come first; put the quantity it qualifies before it']],
    [
      'phot.mag;em.opt.R;stat.error',
      ['has "stat.error" at position 3, but it is a primary word and can only come first; try "stat.error;phot.mag;em.opt.R"'],
    ],
    // one message, not two, when moving the primary word also fixes the secondary one
    [
      'em.opt.R;stat.error',
      ['has "stat.error" at position 2, but it is a primary word and can only come first; try "stat.error;em.opt.R"'],
    ],
    ['meta.code;meta.id', ['has "meta.id" at position 2, but it is a primary word and can only come first']],
    ['mata.code.qual', ['has the unknown word "mata.code.qual"; did you mean "meta.code.qual"?']],
    ['phys.angsSize', ['has the unknown word "phys.angsSize"; did you mean "phys.angSize"?']],
    ['statm.ax', ['has the unknown word "statm.ax"; did you mean "stat.max"?']],
    ['pos.az.zd;time.rnd', ['has the unknown word "time.rnd"; did you mean "time.end"?']],
    ['meta.ident', ['has the unknown word "meta.ident"; did you mean "meta.id"?']],
    ['phys.velocity;pos.heliocentric', ['has the unknown word "phys.velocity"; did you mean "phys.veloc"?']],
    ['fit.param;phys.mass', ['has the unknown word "fit.param"; did you mean "stat.fit.param"?']],
    [
      'fit.param;stat.error;phys.abund',
      [
        'has the unknown word "fit.param"; did you mean "stat.fit.param"?',
        'has "stat.error" at position 2, but it is a primary word and can only come first',
      ],
    ],
    [
      'phot.mag.em.opt.R',
      ['has the unknown word "phot.mag.em.opt.R", which looks like two words joined by "." instead of ";"; try "phot.mag;em.opt.R"'],
    ],
    ['em.opt.G', [`has the unknown word "em.opt.G", which is not in the UCD1+ list ${version}; the nearest broader word is "em.opt"`]],
    ['em.IR.Y', [`has the unknown word "em.IR.Y", which is not in the UCD1+ list ${version}; the nearest broader word is "em.IR"`]],
    [
      'stat.error;phot.mag;em.opt.Z',
      [`has the unknown word "em.opt.Z", which is not in the UCD1+ list ${version}; the nearest broader word is "em.opt"`],
    ],
    ['phos', ['has the unknown word "phos"; did you mean "phot", "phys" or "pos"?']],
    ['xyzzy', [`has the unknown word "xyzzy", which is not in the UCD1+ list ${version}`]],
    ['pos.pm.ra', ['has the deprecated word "pos.pm.ra"; the UCD1+ list replaces it with "pos.pm;pos.eq.ra"']],
    ['phys.at.level.sweight', ['has the deprecated word "phys.at.level.sweight"; the UCD1+ list replaces it with "phys.atmol.sWeight"']],
    ['pos.lambert', ['has the deprecated word "pos.lambert"; the UCD1+ list replaces it with "pos.projection"']],
    [
      'phot.color;em.opt.B',
      ['has "phot.color" followed by one band only ("em.opt.B"); a colour names its two bands, as in "phot.color;em.opt.B;em.opt.V"'],
    ],
    ['ivoa:meta.id;meta.main', ['has "ivoa:meta.id", whose "ivoa:" prefix is unnecessary; write "meta.id"']],
    [
      'ivoa:em.opt.R;phot.mag',
      [
        'has "ivoa:em.opt.R", whose "ivoa:" prefix is unnecessary; write "em.opt.R"',
        'starts with "ivoa:em.opt.R", a secondary word that cannot come first; try "phot.mag;em.opt.R"',
      ],
    ],
    ['ivoa:foo.bar', [`has the unknown word "foo.bar", which is not in the UCD1+ list ${version}`]],
    ['VOX:Image_Title', ['has "VOX:Image_Title", from the "VOX" namespace, which the UCD1+ list does not cover, so it cannot be checked']],
    // a foreign word takes no part in the position checks
    [
      'custom:flux;em.opt.R',
      ['has "custom:flux", from the "custom" namespace, which the UCD1+ list does not cover, so it cannot be checked'],
    ],
  ])('%s', (ucd, expected) => {
    expect(ucdSyntaxProblem(ucd)).toBeUndefined();
    expect(messages(ucd)).toEqual(expected);
  });

  test('a UCD with a syntax problem gets no word warnings (the syntax problem is reported instead)', () => {
    expect(ucdSyntaxProblem('mata.code.qual; meta.main')).toBeDefined();
    expect(messages('mata.code.qual; meta.main')).toEqual([]);
  });
});

describe('normalising upstream word lists', () => {
  // Debian's astropy copy: no version tag, "X|word   |text".
  const unpadded = [
    'Q|arith                                |Arithmetic quantities',
    'P|meta.id                              |Identifier, name or designation',
    'S|em.opt.R                             |Optical band between 600 and 750 nm',
  ].join('\n');
  // The IVOA's ucd-list.txt (and python3-gavo's copy): tag, padded "X | word | text", a description
  // wrapped onto the next line (as in one upstream draft), comments and blank lines.
  const padded = [
    '#PEN-UCDlist-v1.6-2024-09-11',
    'Q | arith                             |  Arithmetic quantities                 ',
    'C | phot.color                        |  Color index or magnitude difference',
    'Q | meta.coverage                     |  A coverage (spatial, temporal, spectral, etc)',
    'with any combination of physical axis (such as moc, tmoc, stmoc, s_region).',
    '',
    'P | stat.error                        |  Statistical error',
    '# This file distributed under CC-0 by the IVOA',
  ].join('\n');
  const deprecated = [
    '#PEN-UCDlist-v1.5-2024-09-11',
    '# deprecated_term  replacement_term',
    'pos.pm.ra pos.pm;pos.eq.ra',
    'phys.at.branchingRatio \tphys.atmol.branchingratio',
    '',
    'arith arith.zp',
  ].join('\n');
  const body = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

  test('the unpadded format', () => {
    const text = normaliseUcdList(unpadded, { source: 'sample' });
    expect(text.split('\n')[0]).toBe('#UCDlist-unversioned');
    expect(text).toContain('\n# Source: sample\n');
    expect(text).toContain('\n# Counts: 3 words (P 1, S 1, Q 1, E 0, C 0, V 0), 0 deprecated.\n');
    expect(body(text)).toEqual([
      'Q|arith|Arithmetic quantities',
      'P|meta.id|Identifier, name or designation',
      'S|em.opt.R|Optical band between 600 and 750 nm',
    ]);
  });

  test('the padded format, with a deprecated list', () => {
    const text = normaliseUcdList(padded, { deprecated, source: 'sample', deprecatedSource: 'sample-deprecated' });
    expect(text.split('\n')[0]).toBe('#PEN-UCDlist-v1.6-2024-09-11');
    expect(text).toContain('\n# Deprecated words: sample-deprecated\n');
    expect(body(text)).toEqual([
      'Q|arith|Arithmetic quantities',
      'C|phot.color|Color index or magnitude difference',
      'Q|meta.coverage|A coverage (spatial, temporal, spectral, etc) with any combination of physical axis (such as moc, tmoc, stmoc, s_region).',
      'P|stat.error|Statistical error',
      // replacements get the list's capitalisation where it has the word; a listed word is never deprecated
      'D|pos.pm.ra|pos.pm;pos.eq.ra',
      'D|phys.at.branchingRatio|phys.atmol.branchingratio',
    ]);
  });

  test('normalising the normalised format changes nothing', () => {
    const once = normaliseUcdList(padded, { deprecated, source: 'sample', deprecatedSource: 'sample-deprecated' });
    expect(normaliseUcdList(once, { source: 'sample', deprecatedSource: 'sample-deprecated' })).toBe(once);
    const parsed = parseUcdList(once);
    expect([parsed.tag, parsed.version, parsed.words.size, parsed.deprecated.size]).toEqual(['PEN-UCDlist-v1.6-2024-09-11', 'v1.6', 4, 2]);
    expect(parsed.words.get('phot.color')).toEqual({ type: 'C', word: 'phot.color', description: 'Color index or magnitude difference' });
  });

  test('a word both listed and deprecated counts as listed', () => {
    const parsed = parseUcdList('Q|arith|Arithmetic quantities\nD|ARITH|arith.zp\nD|pos.ec|pos.ecliptic');
    expect([...parsed.deprecated.keys()]).toEqual(['pos.ec']);
  });

  test.each([
    ['X | arith | Arithmetic quantities', 'UCD list line 1 has the unknown syntax code "X" (expected P, S, Q, E, C or V)'],
    ['Q | arith', 'UCD list line 1 is not "TYPE | word | description": Q | arith'],
    ['Q | ar ith | Arithmetic', 'UCD list line 1 has the malformed word "ar ith"'],
    ['Q | arith | a\nQ | ARITH | b', 'UCD list line 2 repeats the word "ARITH"'],
    ['# only comments', 'the UCD list has no words'],
  ])('refuses %j', (text, error) => {
    expect(() => normaliseUcdList(text)).toThrow(error);
  });

  test('refuses a deprecated list line it cannot read', () => {
    expect(parseUcdDeprecatedList('pos.pm.ra pos.pm;pos.eq.ra\nD|pos.ec|pos.ecliptic')).toEqual([
      { word: 'pos.pm.ra', replacement: 'pos.pm;pos.eq.ra' },
      { word: 'pos.ec', replacement: 'pos.ecliptic' },
    ]);
    expect(() => parseUcdDeprecatedList('pos.pm.ra pos.pm; pos.eq.ra')).toThrow(
      'deprecated UCD list line 1 is not "old.word replacement": pos.pm.ra pos.pm; pos.eq.ra',
    );
  });
});

describe('the vendored word list', () => {
  const file = new URL('../schemas/vocabularies/ucd1p-words.txt', import.meta.url);
  const text = readFileSync(file, 'utf8');
  const vocabulary = ucdVocabulary();

  test('is an Endorsed Note list with a version tag, at least 470 words and the deprecated words', () => {
    expect(text.split('\n')[0]).toMatch(/^#EN-UCDlist-v\d+(\.\d+)+-\d{4}-\d{2}-\d{2}$/);
    expect(vocabulary.version).toMatch(/^v\d+(\.\d+)+$/);
    expect(vocabulary.words.size).toBeGreaterThanOrEqual(470);
    expect(vocabulary.deprecated.size).toBeGreaterThanOrEqual(200);
    expect(vocabulary.words.get('phot.color')?.type).toBe('C');
    expect(vocabulary.words.get('meta.main')?.type).toBe('S');
    expect(vocabulary.words.get('stat.error')?.type).toBe('P');
  });

  test('records its source and licence and is exactly what the normaliser writes', () => {
    const header = (name: string) => new RegExp(`^# ${name}: (.*)$`, 'm').exec(text)?.[1];
    const source = header('Source');
    const deprecatedSource = header('Deprecated words');
    expect(source).toMatch(/\S/);
    expect(deprecatedSource).toMatch(/\S/);
    expect(header('Licence')).toMatch(/CC0/);
    expect(normaliseUcdList(text, { source, deprecatedSource })).toBe(text);
  });

  test('suggests replacements made of listed words only', () => {
    const unlisted = [...vocabulary.deprecated.values()].filter((d) =>
      d.replacement.split(';').some((word) => vocabulary.words.get(word.toLowerCase())?.word !== word),
    );
    expect(unlisted).toEqual([]);
  });

  test('is read once', () => {
    expect(ucdVocabulary()).toBe(vocabulary);
  });
});
