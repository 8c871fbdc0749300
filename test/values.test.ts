// Values curators write and what the API publishes for them: ISO 8601 instants and UCD syntax.

import { describe, expect, test } from 'vitest';
import { formatInstant, isInstant, parseInstant } from '../src/vocabularies/instant.ts';
import { ucdSyntaxProblem } from '../src/vocabularies/ucd.ts';

describe('instants', () => {
  test.each([
    ['2020-07-01T00:00:00Z', '2020-07-01T00:00:00.000000Z'],
    ['2020-07-01T10:00:00+10:00', '2020-07-01T00:00:00.000000Z'],
    ['2020-06-30T23:30:00-01:00', '2020-07-01T00:30:00.000000Z'],
    ['2020-07-01T00:00Z', '2020-07-01T00:00:00.000000Z'],
    ['2020-07-01T00:00:00.5Z', '2020-07-01T00:00:00.500000Z'],
    ['2020-07-01T00:00:00,25+0100', '2020-06-30T23:00:00.250000Z'],
    ['2020-07-01T00:00:00.123456789Z', '2020-07-01T00:00:00.123456Z'],
    ['2020-07-01t12:00:00z', '2020-07-01T12:00:00.000000Z'],
    ['20200701T120000Z', '2020-07-01T12:00:00.000000Z'],
    ['20200701T1200+02', '2020-07-01T10:00:00.000000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000000Z'],
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000000Z'],
  ])('%s is published as %s', (written, published) => {
    const parsed = parseInstant(written);
    expect(isInstant(parsed) ? formatInstant(parsed) : parsed.problem).toBe(published);
  });

  test.each([
    ['2020-07-01', 'has a date but no time and zone; write 2020-07-01T00:00:00Z for midnight UTC'],
    ['2020-07-01T00:00:00', 'has no zone; add Z for UTC or an offset such as +10:00'],
    ['2023-02-29T00:00:00Z', 'has day 29, which month 02 of 2023 does not have'],
    ['2020-13-01T00:00:00Z', 'has month 13, which does not exist'],
    ['2020-07-01T24:00:00Z', 'has hour 24; hours run from 00 to 23'],
    ['2020-07-01T00:00:60Z', 'has second 60; seconds run from 00 to 59'],
    ['2020-07-01T00:00:00+25:00', 'has the zone offset +25:00, which does not exist'],
    ['0000-01-01T00:30:00+01:00', 'falls outside the years 0000 to 9999 once converted to UTC'],
    ['yesterday', 'is not an ISO 8601 instant; write it like 2020-07-01T00:00:00Z'],
  ])('%s is refused: %s', (written, problem) => {
    const parsed = parseInstant(written);
    expect(isInstant(parsed) ? 'accepted' : parsed.problem).toBe(problem);
  });
});

describe('UCD syntax', () => {
  test.each([
    '-',
    'pos.eq.ra',
    'pos.eq.ra;meta.main',
    'phot.mag;em.opt.R',
    'stat.error;phot.mag;em.IR.4-8um',
    'ivoa:meta.id',
    'VOX:Image_Title',
    'em.IR.K',
  ])('%s is well formed', (ucd) => {
    expect(ucdSyntaxProblem(ucd)).toBeUndefined();
  });

  test.each([
    ['pos.eq.ra; meta.main', 'contains white space; join words with ";" and atoms with "." and no spaces (pos.eq.ra;meta.main)'],
    ['pos.eq.ra meta.main', 'contains white space; join words with ";" and atoms with "." and no spaces (pos.eq.ra;meta.main)'],
    ['pos eq ra', 'contains white space; join words with ";" and atoms with "." and no spaces'],
    ['meta.code.qual,stat.fit', 'joins words with ","; use ";" instead (meta.code.qual;stat.fit)'],
    // With a space after the comma, as people write lists, the corrected form was missing.
    ['pos.eq.ra, meta.main', 'joins words with ","; use ";" instead (pos.eq.ra;meta.main)'],
    [' phot.mag , em.opt.R ', 'joins words with ","; use ";" instead (phot.mag;em.opt.R)'],
    ['pos.eq.ra, meta..main', 'joins words with ","; use ";" instead'],
    ['phot.mag;', 'has an empty word at position 2; remove the extra ";"'],
    ['meta.model...', 'has the malformed word "meta.model..."; a word is atoms of letters, digits, "_" or "-" joined by "."'],
    ['', 'has an empty word at position 1; remove the extra ";"'],
    ['.pos', 'has the malformed word ".pos"; a word is atoms of letters, digits, "_" or "-" joined by "."'],
  ])('%s is refused', (ucd, problem) => {
    expect(ucdSyntaxProblem(ucd)).toBe(problem);
  });
});
