// Column types as VOTable writes them, case by case: the arraysize syntax, TAP_SCHEMA's "size",
// ADQL types as TAP services write them, and the spellings a curator's typo is read as.

import { describe, expect, test } from 'vitest';
import { ARRAYSIZE, datatypeMeant, sizeOf, typeFromTap } from '../src/vocabularies/datatypes.ts';

describe('arraysize', () => {
  test.each(['1', '10', '*', '10*', '3x4', '3x*', '3x4x5*', '2147483647*'])('%s is VOTable syntax', (text) => {
    expect(ARRAYSIZE.test(text)).toBe(true);
  });
  test.each(['', '0', '010', 'x', '3x', '*x3', '**', '3*x4', '-1', ' 3'])('%j is not', (text) => {
    expect(ARRAYSIZE.test(text)).toBe(false);
  });
});

describe('TAP_SCHEMA\'s "size" (TAP 1.1: the length of a one-dimensional array, null otherwise)', () => {
  test.each([
    [undefined, null],
    ['1', 1],
    ['256', 256],
    ['256*', 256],
    ['*', null],
    ['3x4', null],
    ['3x*', null],
  ])('%s → %s', (arraysize, size) => {
    expect(sizeOf(arraysize)).toBe(size);
  });
});

describe('ADQL and VOTable types as TAP services write them', () => {
  test.each([
    ['double', undefined, undefined, { datatype: 'double' }],
    ['char', '*', undefined, { datatype: 'char', arraysize: '*' }],
    ['char', undefined, 64, { datatype: 'char', arraysize: '64*' }],
    ['float', 'nonsense', undefined, { datatype: 'float' }],
    ['BIGINT', undefined, undefined, { datatype: 'long' }],
    ['adql:INTEGER', undefined, undefined, { datatype: 'int' }],
    ['smallint', undefined, undefined, { datatype: 'short' }],
    ['REAL', undefined, undefined, { datatype: 'float' }],
    ['adql:DOUBLE', undefined, undefined, { datatype: 'double' }],
    ['VARCHAR', undefined, undefined, { datatype: 'char', arraysize: '*' }],
    ['VARCHAR(64)', undefined, undefined, { datatype: 'char', arraysize: '64*' }],
    ['adql:VARCHAR', undefined, 32, { datatype: 'char', arraysize: '32*' }],
    ['CHAR(8)', undefined, undefined, { datatype: 'char', arraysize: '8' }],
    ['CHAR', undefined, 1, { datatype: 'char' }],
    ['TIMESTAMP', undefined, undefined, { datatype: 'char', arraysize: '*' }],
    ['BOOLEAN', undefined, undefined, { datatype: 'boolean' }],
    ['POINT', undefined, undefined, { datatype: 'double', arraysize: '2' }],
    ['CIRCLE', undefined, undefined, { datatype: 'double', arraysize: '3' }],
    ['REGION', undefined, undefined, { datatype: 'char', arraysize: '*' }],
    ['BLOB', undefined, undefined, { datatype: 'unsignedByte', arraysize: '*' }],
    ['DATE', undefined, undefined, undefined],
    ['geometry', undefined, undefined, undefined],
  ])('%s (arraysize %s, size %s)', (datatype, arraysize, size, type) => {
    expect(typeFromTap(datatype, arraysize, size)).toEqual(type);
  });
});

describe('the datatype a curator meant', () => {
  test.each([
    ['integer', 'int'],
    ['float64', 'double'],
    ['float32', 'float'],
    ['int64', 'long'],
    ['string', 'char'],
    ['Double', 'double'],
    ['UNICODECHAR', 'unicodeChar'],
    ['bool', 'boolean'],
    ['flaot', undefined],
  ])('%s → %s', (written, meant) => {
    expect(datatypeMeant(written)).toBe(meant);
  });
});
