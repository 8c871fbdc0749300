// The JSON Schemas document the metadata for curators' editors and the API for clients: each
// declares its draft, every property has a description, and every object refuses unknown keys.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { newAjv } from '../src/formats.ts';
import { compileValidators } from '../src/validate.ts';
import { PROJECT } from './helpers.ts';

const files = [
  ...readdirSync(path.join(PROJECT, 'schemas')).filter((f) => f.endsWith('.json')).map((f) => `schemas/${f}`),
  ...readdirSync(path.join(PROJECT, 'schemas/api')).map((f) => `schemas/api/${f}`),
];

/** Every (path, subschema) pair below a schema. */
function* walk(node: unknown, at: string): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* walk(item, `${at}/${i}`);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  yield [at, schema];
  for (const key of ['properties', 'definitions']) {
    const children = schema[key] as Record<string, unknown> | undefined;
    for (const [name, child] of Object.entries(children ?? {})) yield* walk(child, `${at}/${key}/${name}`);
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'allOf', 'anyOf']) {
    if (typeof schema[key] === 'object') yield* walk(schema[key], `${at}/${key}`);
  }
}

describe.each(files)('%s', (file) => {
  const schema = JSON.parse(readFileSync(path.join(PROJECT, file), 'utf8')) as Record<string, unknown>;

  test('declares draft-07', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  test('describes every property', () => {
    const missing = [...walk(schema, '#')]
      .filter(([at]) => /\/properties\/[^/]+$/.test(at))
      .filter(([, s]) => typeof s.description !== 'string' || s.description.length < 3)
      .map(([at]) => at);
    expect(missing).toEqual([]);
  });

  test('refuses unknown keys in every object with listed properties', () => {
    const open = [...walk(schema, '#')].filter(([, s]) => s.properties && s.additionalProperties !== false).map(([at]) => at);
    expect(open).toEqual([]);
  });
});

test.each(files)('%s is a valid draft-07 schema', (file) => {
  // The build compiles the schemas without checking them (src/validate.ts): this is the check.
  const ajv = newAjv({ strict: true, allowUnionTypes: true });
  ajv.addKeyword('patternErrorMessage');
  ajv.addKeyword('x-check');
  const valid = ajv.validateSchema(JSON.parse(readFileSync(path.join(PROJECT, file), 'utf8')) as object);
  expect(ajv.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
});

test('the metadata schemas compile in strict mode', () => {
  const validators = compileValidators();
  for (const kind of Object.keys(validators) as (keyof typeof validators)[]) expect(() => validators[kind]).not.toThrow();
});
