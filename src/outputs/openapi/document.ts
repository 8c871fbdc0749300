// The OpenAPI 3.1 description of the site: every route of the one route table (site/routes.ts)
// with its parameters, methods, statuses, headers and bodies, and every document the site serves,
// with the response bodies' schemas converted from schemas/api/. Nothing in it is kept by hand: a
// route, header, body or schema changed there changes here.

import { readFileSync } from 'node:fs';
import {
  API_PREFIX,
  BODIES,
  CONTENT_TYPES,
  DATA_TYPES,
  DOCUMENTS,
  DOCUMENT_TYPES,
  FORMATS,
  HEADERS,
  METHODS,
  VIEWS,
  apiHeaders,
  documentHeaders,
  methodNotAllowedBody,
  optionsBody,
} from '../../site/routes.ts';
import type { Document, View } from '../../site/routes.ts';
import { PACKAGE_JSON } from '../../project.ts';
import { COMPONENT_SCHEMAS, responseSchemas } from './schemas.ts';

/** Where the route table serves this document and its reference page. */
export const OPENAPI_PATH = `${API_PREFIX}openapi.json`;
export const REFERENCE_PATH = `${API_PREFIX}docs/`;

/** The version of the OpenAPI Specification the document follows. */
export const OPENAPI_VERSION = '3.1.1';

type Json = Record<string, unknown>;

/** The operations OpenAPI can name, in its order; those the views do not answer are 405. */
const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** What each header every API answer carries means (the values are the route table's). */
const HEADER_MEANINGS: Readonly<Record<string, string>> = {
  Allow: 'The methods the route answers; every other method is 405.',
  Vary: 'The answer depends on the Accept header, as DRF declares (the format is chosen by the format parameter).',
  'Access-Control-Allow-Origin': 'Any web page may read the answer.',
  'X-Content-Type-Options': 'Browsers must not guess another content type than the one sent.',
};

const TAGS = {
  schema: 'schema',
  documents: 'documents',
} as const;

const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });
const schemaRef = (name: string): Json => ({ $ref: COMPONENT_SCHEMAS + name });

/** A document's header: the API's component of that name when the value is the same, else its own. */
function headerObject(name: string, value: string): Json {
  if (HEADERS[name] === value) return ref('headers', name);
  return { description: HEADER_MEANINGS[name] ?? `Always ${value}.`, schema: { type: 'string', const: value } };
}

function contentTypeHeader(types: readonly string[]): Json {
  return {
    description:
      types.length === 1
        ? `Always ${types[0] ?? ''}.`
        : `${types.join(' or ')}: HTML when the request has format=api (the browsable page), JSON otherwise.`,
    schema: types.length === 1 ? { type: 'string', const: types[0] } : { type: 'string', enum: [...types] },
  };
}

/** The headers of an answer under the API, in the order the browsable pages show them. */
function apiResponseHeaders(): Json {
  const headers: Json = {};
  for (const name of Object.keys(apiHeaders(CONTENT_TYPES.json))) {
    headers[name] = name === 'Content-Type' ? contentTypeHeader([CONTENT_TYPES.json, CONTENT_TYPES.html]) : ref('headers', name);
  }
  return headers;
}

const html = (what: string): Json => ({
  schema: { type: 'string', description: `The browsable HTML page (format=api) showing ${what}.` },
});

interface Body {
  schema: string;
  description: string;
  /** Example bodies as the API writes them (JSON text), by name. */
  examples?: Record<string, string>;
}

/** An answer under the API: JSON, or the browsable page of the same JSON with format=api. */
function apiResponse(description: string, body: Body): Json {
  const json: Json = { schema: schemaRef(body.schema) };
  const examples = Object.entries(body.examples ?? {});
  if (examples.length === 1) json.example = JSON.parse(examples[0]?.[1] ?? 'null') as unknown;
  else if (examples.length > 1)
    json.examples = Object.fromEntries(examples.map(([name, text]) => [name, { value: JSON.parse(text) as unknown }]));
  return {
    description,
    headers: apiResponseHeaders(),
    content: { [CONTENT_TYPES.json]: json, [CONTENT_TYPES.html]: html(body.description) },
  };
}

/** HEAD answers as GET does, without a body. */
function headResponse(description: string): Json {
  return { description: `${description} Headers only, as GET gives them (Content-Length included).`, headers: apiResponseHeaders() };
}

const NOT_FOUND = 'Not found: the format parameter is neither api nor json';

function notFound(reasons: string): Json {
  return apiResponse(`${NOT_FOUND}${reasons}. Any other path under ${API_PREFIX} answers the same.`, {
    schema: 'NotFound',
    description: 'the not-found body',
    examples: { notFound: BODIES.notFound },
  });
}

function dataTypeError(view: View): Json {
  const missing = view === 'list' ? 'data_type is missing or empty, or ' : '';
  return apiResponse(`Bad request: ${missing}data_type is not one of ${DATA_TYPES.join(', ')} (exact, lower case).`, {
    schema: 'DataTypeError',
    description: 'the data_type error',
    examples: view === 'list' ? { required: BODIES.required, invalid: BODIES.invalid } : { invalid: BODIES.invalid },
  });
}

// ---- Parameters -----------------------------------------------------------------------------------

const PARAMETERS = {
  ListDataType: {
    name: 'data_type',
    in: 'query',
    required: true,
    description:
      'The kind of data: the surveys that have a release with it, each with only those releases. ' +
      'Missing or empty, the answer is 400 "This field is required."; any other value is 400 "Select a valid choice." ' +
      'Exact and lower case. A repeated parameter takes its last value.',
    schema: { type: 'string', enum: [...DATA_TYPES] },
  },
  DetailDataType: {
    name: 'data_type',
    in: 'query',
    required: false,
    description:
      "Keeps only the survey's releases with this kind of data; 404 when none has it. " +
      'Missing or empty, the survey is whole; any other value is 400 "Select a valid choice." A repeated parameter takes its last value.',
    schema: { type: 'string', enum: [...DATA_TYPES] },
  },
  Format: {
    name: 'format',
    in: 'query',
    required: false,
    description:
      'api: the browsable HTML page of the same answer, whose links keep format=api. json: the JSON, whose survey links carry ' +
      'format=json. Missing or empty: the JSON. Any other value is 404, whatever the method.',
    schema: { type: 'string', enum: FORMATS.filter((f) => f !== null) },
  },
  SurveyId: {
    name: 'id',
    in: 'path',
    required: true,
    description: "The survey's id, as in its url. An unknown id, or one that is not a whole number, is 404.",
    schema: { type: 'integer', minimum: 1 },
  },
} as const;

type ParameterName = keyof typeof PARAMETERS;

// ---- The views ------------------------------------------------------------------------------------

interface ViewSpec {
  /** For operationIds: SchemaList, SchemaInstance. */
  id: string;
  what: string;
  ok: Body;
  dataType: ParameterName;
  /** Path-level parameters. */
  path: ParameterName[];
  notFoundReasons: string;
}

const VIEW_SPECS: Record<View, ViewSpec> = {
  list: {
    id: 'SchemaList',
    what: 'The surveys that have a release with the data type, by id, each with only those releases.',
    ok: { schema: 'SurveyList', description: 'the surveys' },
    dataType: 'ListDataType',
    path: [],
    notFoundReasons: '',
  },
  detail: {
    id: 'SchemaInstance',
    what: 'A survey with every kind of data it has, or, with data_type, with only the releases that have it.',
    ok: { schema: 'Survey', description: 'the survey' },
    dataType: 'DetailDataType',
    path: ['SurveyId'],
    notFoundReasons: ', no survey has this id, or none of its releases has the data type',
  },
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

function viewPathItem(view: View): Json {
  const spec = VIEW_SPECS[view];
  const name = VIEWS[view].name;
  const params = (...names: ParameterName[]) => names.map((n) => ref('parameters', n));
  const answered = new Set<string>(METHODS.map((m) => m.toLowerCase()));
  const item: Json = {
    summary: name,
    description: `${spec.what} The path also answers without its trailing slash.`,
  };
  if (spec.path.length > 0) item.parameters = params(...spec.path);
  for (const method of OPENAPI_METHODS) {
    const operation: Json = { tags: [TAGS.schema], operationId: `${method}${spec.id}` };
    if (method === 'get' || method === 'head') {
      const head = method === 'head';
      operation.summary = head ? `${name}: headers only` : name;
      operation.description = head ? 'Answers as GET does, without a body.' : spec.what;
      operation.parameters = params(spec.dataType, 'Format');
      operation.responses = head
        ? {
            '200': headResponse('OK.'),
            '400': headResponse('Bad request (see GET).'),
            '404': headResponse('Not found (see GET).'),
          }
        : { '200': apiResponse(`OK: ${spec.what}`, spec.ok), '400': dataTypeError(view), '404': notFound(spec.notFoundReasons) };
    } else if (method === 'options') {
      operation.summary = `${name}: what the view renders and parses`;
      operation.description = "DRF's metadata of the view.";
      operation.parameters = params('Format');
      operation.responses = {
        '200': apiResponse("OK: DRF's metadata of the view.", {
          schema: 'Options',
          description: "the view's metadata",
          examples: { [view]: optionsBody(view) },
        }),
        '404': notFound(''),
      };
    } else if (!answered.has(method)) {
      const upper = method.toUpperCase();
      operation.summary = `${name}: ${upper} is not allowed`;
      operation.description = `The API is read-only: ${upper}, like every method other than ${METHODS.join(', ')}, is 405.`;
      operation.parameters = params('Format');
      operation.responses = {
        '405': apiResponse(`Method not allowed; Allow names the methods that are.`, {
          schema: 'MethodNotAllowed',
          description: 'the method-not-allowed body',
          examples: { [method]: methodNotAllowedBody(upper) },
        }),
        '404': notFound(''),
      };
    } else {
      continue;
    }
    item[method] = operation;
  }
  return item;
}

// ---- Documents ------------------------------------------------------------------------------------

/** `/download/archive.json.gz` → `DownloadArchiveJsonGz`, for operationIds. */
function pascal(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map(capital)
    .join('');
}

function documentBody(document: Document): Json {
  if (document.type === 'json') return { schema: { type: 'object', description: document.title } };
  // Bytes that are not text have no schema to give (OpenAPI 3.1 leaves the schema out for them).
  if (document.type === 'gzip' || document.type === 'zip') return {};
  return { schema: { type: 'string', description: document.title } };
}

function documentPathItem(document: Document): Json {
  const headers = documentHeaders(document);
  const responseHeaders = (): Json => {
    const out: Json = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = name === 'Content-Type' ? contentTypeHeader([value]) : headerObject(name, value);
    }
    return out;
  };
  const type = DOCUMENT_TYPES[document.type];
  const id = pascal(document.path) || 'Root';
  return {
    summary: document.title,
    get: {
      tags: [TAGS.documents],
      operationId: `get${id}`,
      summary: document.title,
      description: `A file, served as it is (${type}).`,
      responses: {
        '200': { description: `OK: ${document.title}.`, headers: responseHeaders(), content: { [type]: documentBody(document) } },
      },
    },
    head: {
      tags: [TAGS.documents],
      operationId: `head${id}`,
      summary: `${document.title}: headers only`,
      description: 'Answers as GET does, without a body.',
      responses: { '200': { description: 'OK: headers only, as GET gives them.', headers: responseHeaders() } },
    },
  };
}

// ---- The document ---------------------------------------------------------------------------------

function packageInfo(): { version: string; license?: string } {
  return JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string; license?: string };
}

const DESCRIPTION = [
  "A read-only JSON API of an astronomical archive's schema: its surveys, data releases, catalogue groups with their " +
    'tables and columns, and imaging facilities with their bands and regions. It answers with the routes, bodies, field ' +
    'order, headers and status codes of the Django REST Framework service it replaces.',
  'Query parameters may come in any order; extra ones are ignored, and a repeated one takes its last value. ' +
    `Every path under ${API_PREFIX} that is not described here answers 404 with {"detail":"Not found."}. ` +
    "JSON is compact UTF-8, with objects' keys in the order of their schemas' properties; timestamps are " +
    'YYYY-MM-DDTHH:MM:SS.ffffffZ.',
  'The site can be served from any address: every path here is relative to it.',
].join('\n\n');

/** The OpenAPI 3.1 document of the site. The same inputs give the same document, key for key. */
export function openapiDocument(): Record<string, unknown> {
  const pkg = packageInfo();
  const paths: Json = {};
  for (const view of Object.keys(VIEWS) as View[]) paths[VIEWS[view].path] = viewPathItem(view);
  for (const document of DOCUMENTS) paths[document.path] = documentPathItem(document);
  const headers: Json = {};
  for (const [name, value] of Object.entries(HEADERS)) {
    headers[name] = { description: HEADER_MEANINGS[name] ?? `Always ${value}.`, schema: { type: 'string', const: value } };
  }
  const docs = DOCUMENTS.find((d) => d.path === REFERENCE_PATH);
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Archive schema API',
      version: pkg.version,
      description: DESCRIPTION,
      ...(pkg.license ? { license: { name: pkg.license, identifier: pkg.license } } : {}),
    },
    servers: [{ url: '/', description: 'The site this document is served from.' }],
    tags: [
      { name: TAGS.schema, description: "The archive's schema, by data type and by survey." },
      {
        name: TAGS.documents,
        description: 'Files served as they are: this description, its reference page, VO tables and the offline download.',
      },
    ],
    ...(docs ? { externalDocs: { description: docs.title, url: docs.path } } : {}),
    paths,
    components: {
      schemas: responseSchemas(),
      parameters: PARAMETERS,
      headers,
    },
  };
}
