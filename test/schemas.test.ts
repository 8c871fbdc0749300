// The JSON Schemas document the metadata for curators' editors and the API for clients: each
// declares its draft, every property has a description, and every object refuses unknown keys.

import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { newAjv } from '../src/pipeline/ajv.ts';
import { loadMetadata } from '../src/pipeline/parse.ts';
import { SCHEMA_DIR } from '../src/project.ts';
import { compileValidators, validateFiles, writePrecompiledValidators } from '../src/pipeline/validate.ts';
import { BUNDLED, FIXTURE, PROJECT, syntheticdir, tempdir, testdir } from './helpers.ts';

const files = [
  ...readdirSync(path.join(PROJECT, 'schemas'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `schemas/${f}`),
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

test('the metadata schemas as written compile in strict mode, strict types included', () => {
  // The build compiles them with their references inlined, where strict types cannot judge them.
  const ajv = newAjv({ strict: true, allowUnionTypes: true, allErrors: true });
  ajv.addKeyword('patternErrorMessage');
  ajv.addKeyword({ keyword: 'x-check', schemaType: ['string', 'array'], validate: () => true });
  ajv.addKeyword('x-suggest');
  for (const file of readdirSync(path.join(PROJECT, 'schemas')).filter((f) => f.endsWith('.json')))
    ajv.addSchema(JSON.parse(readFileSync(path.join(PROJECT, 'schemas', file), 'utf8')) as object, file);
  for (const file of readdirSync(path.join(PROJECT, 'schemas')).filter((f) => f.endsWith('.json') && f !== 'common.schema.json'))
    expect(() => ajv.getSchema(file)).not.toThrow();
});

describe('validators compiled ahead of time', async () => {
  // Inside the project, so that the module finds ajv's runtime in node_modules as lib/ does.
  await mkdir(path.join(PROJECT, 'node_modules/.cache'), { recursive: true });
  const folder = await mkdtemp(path.join(PROJECT, 'node_modules/.cache/validators-test-'));
  afterAll(() => rm(folder, { recursive: true, force: true }));
  const file = pathToFileURL(path.join(folder, 'validators.cjs'));
  writePrecompiledValidators(SCHEMA_DIR, file);
  const ahead = compileValidators(SCHEMA_DIR, file);
  const now = compileValidators(SCHEMA_DIR, pathToFileURL(path.join(folder, 'none.cjs')));

  test('are the ones used when made from the same schemas', () => {
    // ajv's own validators carry their schema; the standalone ones are plain functions.
    expect(ahead.Survey.schema).toBeUndefined();
    expect(now.Survey.schema).toBeDefined();
  });

  /** A copy of the fixture archive with one file changed. */
  async function broken(file: string, change: (text: string) => string): Promise<string> {
    const metadata = path.join(await testdir(), 'metadata');
    const target = path.join(metadata, file);
    await writeFile(target, change(await readFile(target, 'utf8')));
    return metadata;
  }

  const GROUP = 'alpha/dr1/catalogues/SpecCat.yaml';
  const FACILITY = 'alpha/dr2/imaging/VST.yaml';
  test.each([
    ['the fixture archive', () => Promise.resolve(FIXTURE)],
    ['the bundled metadata, with its warnings', () => Promise.resolve(BUNDLED)],
    ['the synthetic S archive', async () => path.join(await syntheticdir(), 'metadata')],
    ['an unknown key', () => broken(GROUP, (t) => t.replace('\n    description:', '\n    descripton:'))],
    ['a missing key', () => broken(GROUP, (t) => t.replace(/\nupdated: .*\n/, '\n'))],
    ['a wrong type', () => broken(GROUP, (t) => t.replace(/^id: \d+/m, 'id: twelve'))],
    ['a broken pattern', () => broken(GROUP, (t) => t.replace(/\nname: SpecCat/, '\nname: Spec Cat'))],
    ['a bad UCD and unit', () => broken(GROUP, (t) => t.replace(/ucd: \S+/, 'ucd: pos..eq;').replace(/unit: \S+/, 'unit: m//s'))],
    ['a bad FITS card', () => broken(FACILITY, (t) => t.replace(/NAXIS: \[/, 'NAXIS: [2, 3, ').replace(/ra_c: \S+/, 'ra_c: 400'))],
  ])('give the same diagnostics on %s', async (name, make) => {
    const { files } = await loadMetadata(await make());
    expect(files.length).toBeGreaterThan(0);
    const expected = validateFiles(files, now);
    // The broken copies each have an error to report; the archives, at most warnings.
    expect(expected.diagnostics.some((d) => d.severity === 'error')).toBe(!name.startsWith('the '));
    expect(validateFiles(files, ahead)).toEqual(expected);
  });

  test('are not used once the schemas have changed', async () => {
    const schemas = await tempdir();
    await cp(path.join(PROJECT, 'schemas'), schemas, { recursive: true });
    const survey = JSON.parse(await readFile(path.join(schemas, 'survey.schema.json'), 'utf8')) as { required: string[] };
    survey.required.push('pi');
    await writeFile(path.join(schemas, 'survey.schema.json'), JSON.stringify(survey));
    const changed = compileValidators(pathToFileURL(`${schemas}/`), file);
    expect(changed.Survey({ id: 1, name: 'x' })).toBe(false);
    expect(
      changed.Survey.errors?.some((e) => e.keyword === 'required' && (e.params as { missingProperty: string }).missingProperty === 'pi'),
    ).toBe(true);
  });
});
