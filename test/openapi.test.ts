// The OpenAPI description and its reference page: a real OpenAPI validator accepts the document,
// the document says what the route table says, every file a build writes is valid against the
// schema the document gives for its route, status and content type, and the page shows every path
// and schema in the site's shell, loads nothing but the site's own style sheet, icon and script,
// and escapes every text.

import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  BODIES,
  COMMON_METHODS,
  CONTENT_TYPES,
  DATA_TYPES,
  DOCUMENTS,
  DOCUMENT_TYPES,
  ERROR_FILES,
  FORMATS,
  HEADERS,
  METHODS,
  PAGE_ANSWERS,
  VIEWS,
  answerPageFile,
  detailFile,
  documentHeaders,
  listFile,
  methodNotAllowedBody,
  methodNotAllowedFile,
  optionsBody,
  optionsFile,
} from '../src/site/routes.ts';
import type { PageAnswer, View } from '../src/site/routes.ts';
import { OPENAPI_PATH, REFERENCE_PATH, openapiDocument } from '../src/outputs/openapi/document.ts';
import { apiReferencePage } from '../src/outputs/openapi/page.ts';
import { planOpenapi } from '../src/outputs/openapi/plan.ts';
import { toDialect2020 } from '../src/outputs/openapi/schemas.ts';
import { FIXTURE, PROJECT, cli, tempdir } from './helpers.ts';

/** The site's front page, the schema browser's home. */
const FRONT_PAGE = 'index.html';
/** The page hosts send for a path outside the API that names no file: a page of the site, no answer of the API. */
const NOT_FOUND_PAGE = '404.html';

type Json = Record<string, unknown>;
/** What the validator takes: the document is checked by it, not by the compiler. */
type OpenApiInput = Parameters<typeof validate>[0];

const obj = (value: unknown): Json => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Json;
};

/** The document as written to /api/openapi.json and read back, as a client gets it. */
const PLANS = planOpenapi();
const fileOf = (documentPath: string) => DOCUMENTS.find((d) => d.path === documentPath)?.file;
const planText = (file: string | undefined): string => {
  const pieces = PLANS.find((p) => p.path === file)?.pieces ?? [];
  return pieces.map((p) => (typeof p === 'string' ? p : '')).join('');
};
const DOC = obj(JSON.parse(planText(fileOf(OPENAPI_PATH))));
const PAGE = planText(fileOf(REFERENCE_PATH));

/** A local $ref followed to what it points at (refs to refs too). */
function resolve(value: unknown): Json {
  let current = obj(value);
  while (typeof current.$ref === 'string') {
    let target: unknown = DOC;
    for (const token of current.$ref.slice(2).split('/')) target = obj(target)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    current = obj(target);
  }
  return current;
}

/** A media type's example, or its named examples' values. */
const examplesOf = (media: Json): unknown[] => [
  ...('example' in media ? [media.example] : []),
  ...Object.values(obj(media.examples ?? {})).map((e) => resolve(e).value),
];

const operation = (route: string, method: string): Json => obj(obj(obj(DOC.paths)[route])[method]);
const response = (route: string, method: string, status: number): Json => resolve(obj(operation(route, method).responses)[String(status)]);
const pointer = (...tokens: string[]) => `#/${tokens.map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** A 2020-12 validator over the document itself, so every schema is looked up as a client would. */
function documentAjv(): Ajv2020 {
  const require = createRequire(import.meta.url);
  const formats = require('ajv-formats') as { default: (ajv: Ajv2020) => unknown };
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  formats.default(ajv);
  // The document's own keywords are not schema keywords; the schemas inside it are checked strictly.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'externalDocs', 'paths', 'components']);
  ajv.addSchema(DOC, 'openapi.json');
  return ajv;
}

describe('the document', () => {
  test('@readme/openapi-parser finds no error and no warning in it', async () => {
    const result = await validate(structuredClone(DOC) as OpenApiInput);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(DOC.openapi).toMatch(/^3\.1\.\d+$/);
  });

  test('the validator does find a broken one (a path parameter left undefined)', async () => {
    const broken = structuredClone(DOC);
    const detail = obj(obj(broken.paths)[VIEWS.detail.path]);
    delete detail.parameters;
    const result = await validate(broken as OpenApiInput);
    expect(result.valid).toBe(false);
  });

  test('is written with two-space indentation and a final newline, the same bytes every time', () => {
    const text = planText(fileOf(OPENAPI_PATH));
    expect(text).toBe(`${JSON.stringify(openapiDocument(), null, 2)}\n`);
    expect(planOpenapi()).toEqual(PLANS);
    expect(PLANS.map((p) => p.path)).toEqual([fileOf(OPENAPI_PATH), fileOf(REFERENCE_PATH)]);
  });

  test('takes its version from package.json, and names no host: the site can be served anywhere', async () => {
    const pkg = JSON.parse(await readFile(path.join(PROJECT, 'package.json'), 'utf8')) as { version: string };
    expect(obj(DOC.info).version).toBe(pkg.version);
    expect(DOC.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(JSON.stringify(DOC)).not.toMatch(/https?:\/\/(?!json-schema\.org)/);
  });

  test('its schemas are the response schemas of schemas/api/, in the 2020-12 dialect', async () => {
    const file = JSON.parse(await readFile(path.join(PROJECT, 'schemas/api/responses.schema.json'), 'utf8')) as { definitions: Json };
    const schemas = obj(obj(DOC.components).schemas);
    expect(Object.keys(schemas)).toEqual(Object.keys(file.definitions));
    const text = JSON.stringify(schemas);
    expect(text).not.toContain('#/definitions/');
    expect(text).not.toMatch(/"(additionalItems|definitions|dependencies|\$schema)":/);
    // A tuple becomes prefixItems, closed with items: false.
    const pair = obj(obj(obj(obj(schemas.ImagingRegion).properties).fits_header).additionalProperties);
    expect(pair.items).toBe(false);
    expect(Array.isArray(pair.prefixItems)).toBe(true);
    expect(Object.keys(obj(obj(schemas.Survey).properties))).toEqual(Object.keys(obj(obj(file.definitions.Survey).properties)));
  });

  test('the conversion rewrites what changed meaning between draft-07 and 2020-12, and refuses what it cannot', () => {
    expect(
      toDialect2020({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { A: { type: 'string' } },
        properties: { items: { $ref: '#/definitions/A' }, definitions: { items: { type: 'number' }, additionalItems: false } },
        items: [{ const: 1 }],
        additionalItems: { type: 'string' },
        dependencies: { a: ['b'], c: { required: ['d'] } },
      }),
    ).toEqual({
      $defs: { A: { type: 'string' } },
      properties: { items: { $ref: '#/components/schemas/A' }, definitions: { items: { type: 'number' } } },
      prefixItems: [{ const: 1 }],
      items: { type: 'string' },
      dependentRequired: { a: ['b'] },
      dependentSchemas: { c: { required: ['d'] } },
    });
    expect(() => toDialect2020({ properties: { a: { $ref: '#/definitions/A', type: 'string' } } })).toThrow(/beside \$ref/);
  });

  test('describes every view with the route table’s parameters, values, methods and statuses', () => {
    const formats = FORMATS.filter((f) => f !== null);
    for (const view of Object.keys(VIEWS) as View[]) {
      const route = VIEWS[view].path;
      for (const method of ['get', 'head']) {
        const parameters = (operation(route, method).parameters as unknown[]).map(resolve);
        const dataType = parameters.find((p) => p.name === 'data_type');
        expect(obj(dataType?.schema).enum).toEqual([...DATA_TYPES]);
        expect(dataType?.required).toBe(view === 'list');
        expect(obj(parameters.find((p) => p.name === 'format')?.schema).enum).toEqual(formats);
        expect(Object.keys(obj(operation(route, method).responses))).toEqual(['200', '400', '404']);
      }
      const options = response(route, 'options', 200);
      expect(obj(obj(options.content)[CONTENT_TYPES.json]).example).toEqual(JSON.parse(optionsBody(view)));
      for (const method of ['put', 'post', 'delete', 'patch', 'trace']) {
        expect(METHODS).not.toContain(method.toUpperCase());
        const body = obj(obj(response(route, method, 405).content)[CONTENT_TYPES.json]);
        expect(body.schema).toEqual({ $ref: '#/components/schemas/MethodNotAllowed' });
        expect(body.example).toEqual(JSON.parse(methodNotAllowedBody(method.toUpperCase())));
      }
      const bad = obj(obj(response(route, 'get', 400).content)[CONTENT_TYPES.json]);
      expect(examplesOf(bad).map((e) => JSON.stringify(e))).toEqual(view === 'list' ? [BODIES.required, BODIES.invalid] : [BODIES.invalid]);
      expect(JSON.stringify(obj(obj(response(route, 'get', 404).content)[CONTENT_TYPES.json]).example)).toBe(BODIES.notFound);
    }
    expect(resolve((obj(obj(DOC.paths)[VIEWS.detail.path]).parameters as unknown[])[0])).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
    });
  });

  test('every answer under the API carries the route table’s headers, with their values', () => {
    for (const view of Object.keys(VIEWS) as View[]) {
      for (const [method, op] of Object.entries(obj(obj(DOC.paths)[VIEWS[view].path]))) {
        if (typeof op !== 'object' || Array.isArray(op)) continue;
        for (const [status, r] of Object.entries(obj(obj(op).responses))) {
          const headers = obj(resolve(r).headers);
          const values = Object.fromEntries(Object.entries(headers).map(([name, h]) => [name, obj(resolve(h).schema)]));
          for (const [name, value] of Object.entries(HEADERS)) expect(values[name]?.const, `${method} ${status} ${name}`).toBe(value);
          expect(values['Content-Type']?.enum).toEqual([CONTENT_TYPES.json, CONTENT_TYPES.html]);
          for (const h of Object.values(headers)) expect(resolve(h).description, `${method} ${status}`).toBeTruthy();
          if (method !== 'head') expect(Object.keys(obj(resolve(r).content))).toEqual([CONTENT_TYPES.json, CONTENT_TYPES.html]);
        }
      }
    }
  });

  test('describes every document of the route table: its path, content type and headers', () => {
    for (const document of DOCUMENTS) {
      const ok = response(document.path, 'get', 200);
      expect(Object.keys(obj(ok.content))).toEqual([DOCUMENT_TYPES[document.type]]);
      const headers = obj(ok.headers);
      for (const [name, value] of Object.entries(documentHeaders(document))) {
        const schema = obj(resolve(headers[name]).schema);
        expect(schema.const ?? (schema.enum as unknown[] | undefined)?.[0], `${document.path} ${name}`).toBe(value);
      }
      expect(Object.keys(obj(response(document.path, 'head', 200).headers))).toEqual(Object.keys(headers));
    }
  });

  test('every example in it is valid against the schema beside it', () => {
    const ajv = documentAjv();
    for (const [route, item] of Object.entries(obj(DOC.paths))) {
      for (const [method, op] of Object.entries(obj(item))) {
        if (typeof op !== 'object' || Array.isArray(op)) continue;
        for (const [status, r] of Object.entries(obj(obj(op).responses))) {
          for (const [type, media] of Object.entries(obj(resolve(r).content ?? {}))) {
            const examples = examplesOf(obj(media));
            if (examples.length === 0) continue;
            const v = ajv.getSchema(`openapi.json${pointer('paths', route, method, 'responses', status, 'content', type, 'schema')}`);
            for (const example of examples) expect(v?.(example), `${method} ${route} ${status}: ${ajv.errorsText(v?.errors)}`).toBe(true);
          }
        }
      }
    }
  });
});

// ---- Every file a build writes, against the document -----------------------------------------------

interface Answer {
  route: string;
  method: string;
  status: number;
  type: string;
}

/** The answers a file in the output gives, by the route table's own file names. */
function answersOf(file: string): Answer[] {
  const views = Object.keys(VIEWS) as View[];
  const typeOf = (format: (typeof FORMATS)[number]) => (format === 'api' ? CONTENT_TYPES.html : CONTENT_TYPES.json);
  for (const dataType of DATA_TYPES) {
    for (const format of FORMATS) {
      if (listFile(dataType, format) === file) return [{ route: VIEWS.list.path, method: 'get', status: 200, type: typeOf(format) }];
    }
  }
  const id = /^api\/schema\/([^/]+)\//.exec(file)?.[1];
  if (id !== undefined) {
    for (const dataType of [null, ...DATA_TYPES]) {
      for (const format of FORMATS) {
        if (detailFile(id, dataType, format) === file)
          return [{ route: VIEWS.detail.path, method: 'get', status: 200, type: typeOf(format) }];
      }
    }
  }
  const json = CONTENT_TYPES.json;
  if (file === ERROR_FILES.required) return [{ route: VIEWS.list.path, method: 'get', status: 400, type: json }];
  if (file === ERROR_FILES.invalid) return views.map((v) => ({ route: VIEWS[v].path, method: 'get', status: 400, type: json }));
  if (file === ERROR_FILES.notFound) return views.map((v) => ({ route: VIEWS[v].path, method: 'get', status: 404, type: json }));
  for (const method of COMMON_METHODS) {
    if (file === methodNotAllowedFile(method)) {
      return views.map((v) => ({ route: VIEWS[v].path, method: method.toLowerCase(), status: 405, type: json }));
    }
  }
  for (const view of views)
    if (file === optionsFile(view)) return [{ route: VIEWS[view].path, method: 'options', status: 200, type: json }];
  // The browsable pages of those answers, written for hosts that serve them from files.
  for (const view of views) {
    for (const [answer, status] of Object.entries(PAGE_ANSWERS[view]) as [PageAnswer, number][]) {
      if (file !== answerPageFile(view, answer)) continue;
      const methods = answer === 'options' ? ['options'] : answer === 'method' ? COMMON_METHODS.map((m) => m.toLowerCase()) : ['get'];
      return methods.map((method) => ({ route: VIEWS[view].path, method, status, type: CONTENT_TYPES.html }));
    }
  }
  const document = DOCUMENTS.find((d) => d.file === file);
  if (document) return [{ route: document.path, method: 'get', status: 200, type: DOCUMENT_TYPES[document.type] }];
  return [];
}

async function filesBelow(dir: string, sub = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesBelow(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

describe('a build of the fixture archive', () => {
  /** Each file by its output path: what the build wrote, and the OpenAPI planner's own files. */
  const files = new Map<string, string>();

  beforeAll(async () => {
    const dir = await tempdir();
    const dist = path.join(dir, 'dist');
    const built = await cli(['build', '--metadata', FIXTURE, '--out', dist, '--no-cache'], dir);
    expect(built.code, built.stderr).toBe(0);
    for (const file of await filesBelow(dist)) files.set(file, await readFile(path.join(dist, file), 'utf8'));
    // The same files whether or not this build ran the OpenAPI planner.
    for (const plan of PLANS) if (!files.has(plan.path)) files.set(plan.path, planText(plan.path));
  });

  test('every file it writes is an answer the document describes (the front page, the 404 page and the marker apart)', () => {
    const unknown = [...files.keys()].filter(
      (f) => answersOf(f).length === 0 && f !== FRONT_PAGE && f !== NOT_FOUND_PAGE && !f.startsWith('browse/') && !f.startsWith('.'),
    );
    expect(unknown).toEqual([]);
    expect([...files.keys()].filter((f) => f.startsWith('api/schema/')).length).toBeGreaterThan(20);
  });

  test('every JSON file, and every other file with a schema, is valid against the schema the document gives its answer', () => {
    const ajv = documentAjv();
    const validated = new Set<string>();
    for (const [file, text] of files) {
      for (const answer of answersOf(file)) {
        const responses = obj(operation(answer.route, answer.method).responses);
        const content = obj(resolve(responses[String(answer.status)]).content);
        expect(Object.keys(content), `${file}: ${answer.method} ${answer.route} ${answer.status}`).toContain(answer.type);
        if (!('schema' in obj(content[answer.type]))) continue;
        const at = pointer('paths', answer.route, answer.method, 'responses', String(answer.status), 'content', answer.type, 'schema');
        const v = ajv.getSchema(`openapi.json${at}`);
        if (!v) throw new Error(`no schema at ${at}`);
        const value: unknown = answer.type === CONTENT_TYPES.json || answer.type === DOCUMENT_TYPES.json ? JSON.parse(text) : text;
        expect(v(value), `${file} as ${answer.method} ${answer.route} ${answer.status}: ${ajv.errorsText(v.errors)}`).toBe(true);
        validated.add(file);
      }
    }
    const json = [...files.keys()].filter((f) => f.endsWith('.json'));
    expect(json.filter((f) => !validated.has(f))).toEqual([]);
    for (const prefix of ['api/schema/', '_errors/', '_options/'])
      expect(
        json.some((f) => f.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(validated).toContain(fileOf(OPENAPI_PATH));
  });

  test('the validation would catch a body the schemas do not allow', () => {
    const ajv = documentAjv();
    const v = ajv.getSchema(
      `openapi.json${pointer('paths', VIEWS.list.path, 'get', 'responses', '200', 'content', CONTENT_TYPES.json, 'schema')}`,
    );
    expect(v?.([{ url: 'x' }])).toBe(false);
    const notFound = ajv.getSchema(
      `openapi.json${pointer('paths', VIEWS.detail.path, 'get', 'responses', '404', 'content', CONTENT_TYPES.json, 'schema')}`,
    );
    expect(notFound?.({ detail: 'Gone.' })).toBe(false);
  });
});

// ---- The page -----------------------------------------------------------------------------------

describe('the reference page', () => {
  test('shows every path, operation and schema of the document, each with an anchor', () => {
    expect(PAGE).toBe(apiReferencePage(openapiDocument()));
    expect(PAGE.startsWith('<!DOCTYPE html>')).toBe(true);
    for (const [route, item] of Object.entries(obj(DOC.paths))) {
      expect(PAGE).toContain(`<code>${route.replace(/&/g, '&amp;')}</code>`);
      for (const [method, op] of Object.entries(obj(item))) {
        if (typeof op === 'object' && !Array.isArray(op) && 'operationId' in obj(op)) {
          expect(PAGE).toContain(`id="op-${String(obj(op).operationId)}"`);
          expect(PAGE, `${method} ${route}`).toContain(`href="#op-${String(obj(op).operationId)}"`);
        }
      }
    }
    for (const section of ['schemas', 'parameters', 'headers']) {
      for (const name of Object.keys(obj(obj(DOC.components)[section]))) {
        expect(PAGE, `${section} ${name}`).toContain(`id="${section.slice(0, -1)}-${name}"`);
      }
    }
    for (const value of [...DATA_TYPES, ...Object.values(HEADERS), CONTENT_TYPES.html]) expect(PAGE).toContain(value);
  });

  test("loads only the site's own style sheet, icon and script, and no link or source leads to another host", () => {
    // The page is in the site's shell, at /api/docs/: what it loads is two folders up, in browse/.
    expect([...PAGE.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0])).toEqual(['<script src="../../browse/site.js" defer>']);
    expect([...PAGE.matchAll(/<link\b[^>]*\bhref="([^"]*)"/gi)].map((m) => m[1])).toEqual([
      '../../browse/icon.svg',
      '../../browse/style.css',
    ]);
    expect(PAGE).not.toMatch(/<img|<iframe|<style|@import|url\(/i);
    const targets = [...PAGE.matchAll(/\b(?:src|href|action)\s*=\s*"([^"]*)"/gi)].map((m) => m[1] ?? '');
    expect(targets.length).toBeGreaterThan(50);
    const own = (t: string) => t.startsWith('#') || t.startsWith('../') || (t.startsWith('/') && !t.startsWith('//'));
    expect(targets.filter((t) => !own(t))).toEqual([]);
  });

  test('escapes every text it shows', () => {
    const hostile = '<script>alert("x")</script><img src=https://evil.example/x.png>';
    const document = structuredClone(DOC);
    obj(document.info).title = hostile;
    obj(document.info).description = hostile;
    const paths = obj(document.paths);
    paths['//evil.example/x'] = { get: { responses: { '200': { description: 'another host' } } } };
    paths[`/evil/${hostile}`] = {
      get: { operationId: hostile, summary: hostile, description: hostile, responses: { '200': { description: hostile } } },
    };
    const schemas = obj(obj(document.components).schemas);
    schemas.Evil = { description: hostile, properties: { [hostile]: { enum: [hostile], pattern: hostile, description: hostile } } };
    const page = apiReferencePage(document);
    // The shell's own script is the one script element.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const targets = [...page.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/gi)].map((m) => m[1] ?? '');
    expect(targets.filter((t) => !(t.startsWith('#') || t.startsWith('../') || (t.startsWith('/') && !t.startsWith('//'))))).toEqual([]);
  });
});
