// The one table of routes, as data: the API's views and their paths, the query parameters and
// their values, the methods, the headers every answer carries, the fixed bodies, and which file in
// the output answers each request. Netlify's rules (netlify.ts), the edge policy (edge.ts), the
// preview server and the browsable pages all derive from it; no path or header is written out
// anywhere else. No imports: the Netlify edge function loads this file as it is.

export const DATA_TYPES = ['catalogues', 'imaging', 'ifs', 'spectra'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** `format` query values DRF knows: `api` (browsable HTML) and `json`. `null`: no format given. */
export type Format = 'api' | 'json' | null;
export const FORMATS: readonly Format[] = ['api', 'json', null];

/** Everything under this path is the API: answered by the table below, or not found. */
export const API_PREFIX = '/api/';

/** DRF names views after their class: the list and the instance of the schema viewset. */
export type View = 'list' | 'detail';

/**
 * The views, as DRF's router places them: `schema/` for the list and `schema/<pk>/` for the
 * detail, with pk `[^/.]+`. `{id}` stands for the survey's id.
 */
export const VIEWS: Readonly<Record<View, { name: string; path: string }>> = {
  list: { name: 'Schema List', path: `${API_PREFIX}schema/` },
  detail: { name: 'Schema Instance', path: `${API_PREFIX}schema/{id}/` },
};

/** The methods every view answers; anything else is 405. */
export const METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;

export const CONTENT_TYPES = { json: 'application/json', html: 'text/html; charset=utf-8' } as const;

/** The headers every answer under the API carries, besides its Content-Type. */
export const HEADERS: Readonly<Record<string, string>> = {
  Allow: METHODS.join(', '),
  Vary: 'Accept',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
};

/** The headers of an answer of this content type, in the order the browsable pages show them. */
export function apiHeaders(contentType: string): Record<string, string> {
  const { Allow = '', Vary = '', ...rest } = HEADERS;
  return { Allow, 'Content-Type': contentType, Vary, ...rest };
}

/** A view's path; the detail's with a survey's id (or a host rule's `:id`). */
export function viewPath(view: View, id: number | string = ''): string {
  return VIEWS[view].path.replace('{id}', String(id));
}

/** A request's target: the view's path and its query, parameters in this order. */
export function requestTarget(view: View, params: { id?: number | string; data_type?: string | null; format?: Format }): string {
  const query = [...(params.data_type ? [`data_type=${params.data_type}`] : []), ...(params.format ? [`format=${params.format}`] : [])];
  return `${viewPath(view, params.id)}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** The survey's absolute address, carrying the request's format as DRF's hyperlinks do. */
export function surveyUrl(baseUrl: string, surveyId: number, format: Format): string {
  return `${baseUrl}${requestTarget('detail', { id: surveyId, format })}`;
}

/**
 * Which view a path is, if any: a missing trailing slash answers as the slashed path does. Any
 * other path under the API is not found.
 */
export function viewOf(pathname: string): { view: View; id?: string } | undefined {
  const list = VIEWS.list.path;
  if (pathname === list || pathname === list.slice(0, -1)) return { view: 'list' };
  const [before = '', after = ''] = VIEWS.detail.path.split('{id}');
  if (!pathname.startsWith(before)) return undefined;
  const rest = pathname.slice(before.length);
  const id = rest.endsWith(after) ? rest.slice(0, rest.length - after.length) : rest;
  return /^[^/.]+$/.test(id) ? { view: 'detail', id } : undefined;
}

/** The value a query parameter has for DRF: the last one given, `''` for a bare key. */
export function lastParam(search: URLSearchParams, name: string): string | null {
  const all = search.getAll(name);
  return all.length > 0 ? (all[all.length - 1] ?? '') : null;
}

/** The request's format; an empty `format=` counts as none, as DRF treats it. */
export function requestFormat(search: URLSearchParams): Format | 'unknown' {
  const value = lastParam(search, 'format');
  if (value === null || value === '') return null;
  if (value === 'api' || value === 'json') return value;
  return 'unknown';
}

/** The request's data type, if it names one. */
export function requestDataType(search: URLSearchParams): DataType | undefined {
  const value = lastParam(search, 'data_type');
  return DATA_TYPES.find((t) => t === value);
}

// ---- Fixed bodies (byte-exact, as DRF writes them) ------------------------------------------------

export const BODIES = {
  required: '{"data_type":["This field is required."]}',
  invalid: '{"data_type":["Select a valid choice. That choice is not one of the available choices."]}',
  notFound: '{"detail":"Not found."}',
} as const;

export function methodNotAllowedBody(method: string): string {
  return JSON.stringify({ detail: `Method "${method}" not allowed.` });
}

export function optionsBody(view: View): string {
  return JSON.stringify({
    name: VIEWS[view].name,
    description: '',
    renders: [CONTENT_TYPES.json, 'text/html'],
    parses: [CONTENT_TYPES.json, 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
}

// ---- Files in the output ------------------------------------------------------------------------------

/** The file name ending that distinguishes each format's rendering of the same data. */
function formatSuffix(format: Format): string {
  if (format === 'api') return '.format-api.html';
  if (format === 'json') return '.format-json.json';
  return '.json';
}

/** Output-relative path of the listing for a data type. */
export function listFile(dataType: DataType, format: Format): string {
  return `${viewPath('list').slice(1)}data_type/${dataType}${formatSuffix(format)}`;
}

/** Output-relative path of a survey's detail, whole (dataType null) or filtered. */
export function detailFile(surveyId: number | string, dataType: DataType | null, format: Format): string {
  return `${viewPath('detail', surveyId).slice(1)}${dataType ?? 'index'}${formatSuffix(format)}`;
}

/**
 * Error bodies live outside the API's path: the engine never rewrites a path to itself, so a body
 * under /api/ would answer its own address with 200 instead of falling under the not-found rule.
 */
const ERROR_DIR = '_errors';

export const ERROR_FILES = {
  required: `${ERROR_DIR}/400-data_type-required.json`,
  invalid: `${ERROR_DIR}/400-data_type-invalid.json`,
  notFound: `${ERROR_DIR}/404.json`,
} as const;

/**
 * Bodies that Netlify's edge function computes are also written as files, for hosts that answer
 * methods from files (a 405 for each common method, OPTIONS for each view).
 */
export const COMMON_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function methodNotAllowedFile(method: string): string {
  return `${ERROR_DIR}/405-${method}.json`;
}

export function optionsFile(view: View): string {
  return `_options/${view}.json`;
}

/**
 * The browsable pages of answers the edge renders (a 400, 404, 405 or OPTIONS asked for with
 * format=api), also written as files for hosts that serve them from files (nginx), each with the
 * status it is sent with. Their request line is left as REQUEST, and the 405 page names the
 * method as METHOD_MARK, for the host to fill in.
 */
export const PAGE_ANSWERS = {
  list: { required: 400, invalid: 400, options: 200, method: 405 },
  detail: { invalid: 400, notFound: 404, options: 200, method: 405 },
} as const satisfies Record<View, Partial<Record<'required' | 'invalid' | 'notFound' | 'options' | 'method', number>>>;

export type PageAnswer = 'required' | 'invalid' | 'notFound' | 'options' | 'method';

export const METHOD_MARK = '%METHOD%';

export function answerPageFile(view: View, answer: PageAnswer): string {
  return `${ERROR_DIR}/${view}-${answer}.format-api.html`;
}

// ---- Documents: files served as they are, outside the API's query routes -------------------------

/** The content types of the documents, as every host must send them. */
export const DOCUMENT_TYPES = {
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  votable: 'application/x-votable+xml',
  xml: 'text/xml',
  gzip: 'application/gzip',
  zip: 'application/zip',
  text: 'text/plain; charset=utf-8',
  atom: 'application/atom+xml',
} as const;

export type DocumentType = keyof typeof DOCUMENT_TYPES;

export interface Document {
  /** Where it is asked for. */
  path: string;
  /** Output-relative path of the file that answers it (a rewrite when it differs from `path`). */
  file: string;
  type: DocumentType;
  /** What it is, in a few words, for the pages that list it. */
  title: string;
  /** Its name in every page's navigation, for the documents a person opens. */
  nav?: string;
}

/** The folder of the offline download, and the VO folder. */
export const DOWNLOAD_DIR = 'download';
export const VO_DIR = 'vo';

const download = (name: string, type: DocumentType, title: string): Document => ({
  path: `/${DOWNLOAD_DIR}/${name}`,
  file: `${DOWNLOAD_DIR}/${name}`,
  type,
  title,
});

/**
 * Every document, in the order pages list them. Those under /api/ are kept outside it (the rule
 * that answers everything else under /api/ with 404 would shadow them) and rewritten to.
 */
export const DOCUMENTS: readonly Document[] = [
  {
    path: `${API_PREFIX}openapi.json`,
    file: '_documents/openapi.json',
    type: 'json',
    title: 'OpenAPI 3.1 description of the API',
    nav: 'OpenAPI',
  },
  { path: `${API_PREFIX}docs/`, file: '_documents/api-docs.html', type: 'html', title: 'API reference', nav: 'API reference' },
  {
    path: `/${VO_DIR}/tables`,
    file: `${VO_DIR}/tables.xml`,
    type: 'xml',
    title: 'VOSI tables (VODataService 1.2 tableset)',
    nav: 'VO tables',
  },
  { path: `/${DOWNLOAD_DIR}/`, file: `${DOWNLOAD_DIR}/index.html`, type: 'html', title: 'Offline download', nav: 'Download' },
  download('archive.json', 'json', 'The whole archive in one JSON document'),
  download('archive.json.gz', 'gzip', 'archive.json, compressed with gzip'),
  download('columns.csv', 'csv', 'Every catalogue column, as CSV'),
  download('columns.vot', 'votable', 'Every catalogue column, as a VOTable 1.4'),
  download('regions.csv', 'csv', 'Every imaging region, as CSV'),
  download('regions.vot', 'votable', 'Every imaging region, as a VOTable 1.4'),
  download('products.csv', 'csv', 'Every IFS and spectra data product, as CSV'),
  download('products.vot', 'votable', 'Every IFS and spectra data product, as a VOTable 1.4'),
  download('tap_schema.vot', 'votable', 'The catalogue tables as TAP_SCHEMA (schemas, tables, columns)'),
  download('tables.xml', 'xml', 'VOSI tables (the same document as /vo/tables)'),
  download('browser.zip', 'zip', 'The schema browser, to unpack and open offline'),
  download('SHA256SUMS', 'text', 'SHA-256 checksums of every file here'),
  // What changed in the archive's schema, from its change records (docs/changes.md), outside the API.
  { path: '/changes.atom', file: 'changes.atom', type: 'atom', title: "The archive's change records, as an Atom feed" },
  { path: '/changes.json', file: 'changes.json', type: 'json', title: "The archive's change records, as JSON" },
];

/** The headers a document is answered with: its type, CORS, and no type sniffing. */
export function documentHeaders(document: Document): Record<string, string> {
  return {
    'Content-Type': DOCUMENT_TYPES[document.type],
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** The paths a document answers at: its own, a folder's also without its trailing slash, and its file's (Netlify's header rules name each). */
export function documentPaths(document: Document): string[] {
  return [...new Set([document.path, ...(document.path.endsWith('/') ? [document.path.slice(0, -1)] : []), `/${document.file}`])];
}

/**
 * The VOSI tables document also answers below /vo/ at any path ending in `/tables` (or its file's
 * `/tables.xml`): a VO client
 * adds `/tables` to the service's address as it was given, and `TAPService('https://host/vo/')`
 * (pyvo's, with the trailing slash many people write) asks for `/vo//tables`. Netlify's engine
 * matches no rule naming an empty folder, so the rule is its glob (`*` in the middle of a path:
 * any folders, none or empty ones included), and the other hosts match the same paths.
 */
export const VO_TABLES_ALIAS = {
  globs: [`/${VO_DIR}/*/tables`, `/${VO_DIR}/*/tables.xml`],
  regex: `^/${VO_DIR}/.*/tables(?:\\.xml)?/?$`,
} as const;

/** The document that answers at `VO_TABLES_ALIAS`: the VOSI tables. */
export const VO_TABLES: Document = DOCUMENTS.find((d) => d.path === `/${VO_DIR}/tables`) as Document;

/** The document asked for at this path, if any: at any of its paths (`documentPaths`), or the VOSI tables at their alias. */
export function documentAt(pathname: string): Document | undefined {
  const found = DOCUMENTS.find((d) => documentPaths(d).includes(pathname));
  return found ?? (new RegExp(VO_TABLES_ALIAS.regex).test(pathname) ? VO_TABLES : undefined);
}

// ---- The schema browser: static pages with a security policy of their own -----------------------

/** The folder of the schema browser's files; its home page is the site's root. */
export const BROWSER_DIR = 'browse';

/** The browser's home page, the site's root. */
export const BROWSER_HOME = 'index.html';

/**
 * The page every host sends, with status 404, for a path outside the API that names no file: at
 * the site's root, where Netlify looks for it. Under the API a 404 keeps the API's JSON body.
 */
export const NOT_FOUND_PAGE = '404.html';

/**
 * Where the schema browser is asked for: its home page, as `/` and as `/index.html`, and
 * everything under /browse/ (`*`: any path below, as Netlify's header rules and nginx's prefix
 * locations read it). Nothing under /api/ nor any document is among them.
 */
export const BROWSER_PATHS = ['/', `/${BROWSER_HOME}`, `/${BROWSER_DIR}/*`] as const;

/** A survey's page in the schema browser, from the site's root (browser/pages/places.ts, surveyPath). */
export function browserSurveyPath(name: string): string {
  return `/${BROWSER_DIR}/${encodeURIComponent(name)}/`;
}

/** Whether an output file (relative path) is one of the browser's: its home page or anything under browse/. */
export function isBrowserFile(file: string): boolean {
  return file === BROWSER_HOME || file.startsWith(`${BROWSER_DIR}/`);
}

/**
 * The headers every host adds to the browser's answers: the security policy its pages also
 * declare in a `<meta>` (browser/pages/shell.ts holds it; hosting/browser.ts passes it here, as
 * this file imports nothing). Sent as a header, it holds from a page's first byte, whatever the
 * page's markup says before or instead of its `<meta>`.
 */
export function browserHeaders(policy: string): Record<string, string> {
  return { 'Content-Security-Policy': policy };
}

// ---- The host's rewrite rules -------------------------------------------------------------------

export interface HostRule {
  from: string;
  query?: Record<string, string>;
  to: string;
  status: number;
  force: boolean;
}

/**
 * Rewrite rules for a host that matches query parameters (Netlify's engine: first match wins,
 * extra parameters are ignored, a literal value matches exactly, `:name` matches any value).
 * Hence the order: rules naming a format come before the rule that turns an unknown format into
 * a 404, which comes before the rules that name no format at all.
 */
export function hostRules(): HostRule[] {
  const rules: HostRule[] = [];
  const rule = (from: string, query: Record<string, string>, to: string, status = 200): void => {
    rules.push({ from, ...(Object.keys(query).length > 0 ? { query } : {}), to: `/${to}`, status, force: true });
  };
  // `format=` with an empty value is no format for DRF; it needs rules of its own only because the
  // engine would otherwise send it to the unknown-format rule.
  const formatGroups: { query: Record<string, string>; format: Format }[] = [
    { query: { format: 'api' }, format: 'api' },
    { query: { format: 'json' }, format: 'json' },
    { query: { format: '' }, format: null },
  ];
  const list = viewPath('list');
  const listRules = (query: Record<string, string>, format: Format): void => {
    for (const dataType of DATA_TYPES) rule(list, { data_type: dataType, ...query }, listFile(dataType, format));
    rule(list, { data_type: '', ...query }, ERROR_FILES.required, 400);
    rule(list, { data_type: ':data_type', ...query }, ERROR_FILES.invalid, 400);
    rule(list, query, ERROR_FILES.required, 400);
  };
  const detail = viewPath('detail', ':id');
  const detailRules = (query: Record<string, string>, format: Format): void => {
    for (const dataType of DATA_TYPES) rule(detail, { data_type: dataType, ...query }, detailFile(':id', dataType, format));
    // An empty data_type filters nothing on the detail route.
    rule(detail, { data_type: '', ...query }, detailFile(':id', null, format));
    rule(detail, { data_type: ':data_type', ...query }, ERROR_FILES.invalid, 400);
    rule(detail, query, detailFile(':id', null, format));
  };
  for (const group of formatGroups) listRules(group.query, group.format);
  rule(list, { format: ':format' }, ERROR_FILES.notFound, 404);
  listRules({}, null);
  for (const group of formatGroups) detailRules(group.query, group.format);
  rule(detail, { format: ':format' }, ERROR_FILES.notFound, 404);
  detailRules({}, null);
  // Documents kept under another name than the path they are asked at.
  for (const document of DOCUMENTS) {
    if (document.path === `/${document.file}` || document.path === `/${document.file.replace(/index\.html$/, '')}`) continue;
    rule(document.path, {}, document.file);
    if (document.path.endsWith('/')) rule(document.path.slice(0, -1), {}, document.file);
  }
  for (const glob of VO_TABLES_ALIAS.globs) rule(glob, {}, VO_TABLES.file);
  // Everything else under the API, including the files above at their own paths, is not found.
  rule(`${API_PREFIX}*`, {}, ERROR_FILES.notFound, 404);
  return rules;
}

// ---- Compression: the same rule on every host -------------------------------------------------------

/**
 * Which answers a host compresses: those of these types (the part before any `;`) that are at
 * least `minLength` bytes long, or whose length is not known in advance (a browsable page, whose
 * request line is filled in as it is sent). Hosts offer the encodings in this order of
 * preference and add `Vary: Accept-Encoding` to every answer the rule covers, compressed or
 * not, so a cache keeps the variants apart. Netlify compresses at its edge by itself; `serve`
 * and nginx follow this rule (nginx.ts writes it into their configuration).
 */
export const COMPRESSION = {
  minLength: 1024,
  encodings: ['br', 'gzip'] as const,
  types: [
    'application/json',
    'text/html',
    'text/csv',
    'text/plain',
    'text/xml',
    'application/x-votable+xml',
    'application/xml',
    'image/svg+xml',
    'text/css',
    'text/javascript',
    'application/javascript',
    'application/atom+xml',
  ],
} as const;

export type Encoding = (typeof COMPRESSION.encodings)[number];

/** The file name ending of each encoding's precompressed copy. */
export const ENCODING_SUFFIX: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };

/** Whether the compression rule covers an answer of this type and length (null: not known). */
export function compressible(contentType: string | null, length: number | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(COMPRESSION.types as readonly string[]).includes(type)) return false;
  return length === null || length >= COMPRESSION.minLength;
}

/** File name endings of the output's files whose types the rule covers. */
const COMPRESSIBLE_ENDINGS = ['.json', '.html', '.csv', '.txt', '.xml', '.vot', '.svg', '.css', '.js', '.atom'];

/**
 * Whether `build --precompress` writes `.br` and `.gz` copies beside an output file (path
 * relative to the output). Not the browsable pages (hosts fill in their request line as they
 * send them, so they compress them as they go), not the download (its folder holds exactly the
 * files SHA256SUMS lists, archive.json.gz among them; hosts compress its files on the fly), and
 * not files shorter than the rule's minimum.
 */
export function precompressible(file: string, size: number): boolean {
  if (size < COMPRESSION.minLength) return false;
  if (file.startsWith(`${DOWNLOAD_DIR}/`) || file.endsWith('.format-api.html')) return false;
  return COMPRESSIBLE_ENDINGS.some((ending) => file.endsWith(ending));
}
