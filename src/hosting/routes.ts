// The one table of routes: which requests the API answers, which file in dist/ answers each, the
// host's rewrite rules derived from it, and the fixed bodies the contract prescribes.
// No imports: the Netlify edge function loads this file as it is (see edge.ts).

export const DATA_TYPES = ['catalogues', 'imaging', 'ifs', 'spectra'] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** `format` query values DRF knows: `api` (browsable HTML) and `json`. `null`: no format given. */
export type Format = 'api' | 'json' | null;
export const FORMATS: readonly Format[] = ['api', 'json', null];

export const API_PREFIX = '/api/';
export const LIST_PATH = '/api/schema/';
/**
 * Error bodies live outside /api/: the engine never rewrites a path to itself, so a body under
 * /api/ would answer its own address with 200 instead of falling under the /api/* not-found rule.
 */
export const ERROR_DIR = '_errors';

/** The file name ending that distinguishes each format's rendering of the same data. */
export function formatSuffix(format: Format): string {
  if (format === 'api') return '.format-api.html';
  if (format === 'json') return '.format-json.json';
  return '.json';
}

/** dist/-relative path of the listing for a data type. */
export function listFile(dataType: DataType, format: Format): string {
  return `api/schema/data_type/${dataType}${formatSuffix(format)}`;
}

/** dist/-relative path of a survey's detail, whole (dataType null) or filtered. */
export function detailFile(surveyId: number | string, dataType: DataType | null, format: Format): string {
  return `api/schema/${surveyId}/${dataType ?? 'index'}${formatSuffix(format)}`;
}

export const ERROR_FILES = {
  required: `${ERROR_DIR}/400-data_type-required.json`,
  invalid: `${ERROR_DIR}/400-data_type-invalid.json`,
  notFound: `${ERROR_DIR}/404.json`,
} as const;

/**
 * Bodies that Netlify's edge function computes are also written as files, for hosts that
 * answer methods from files (a 405 for each common method, OPTIONS for each view).
 */
export const COMMON_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export function methodNotAllowedFile(method: string): string {
  return `${ERROR_DIR}/405-${method}.json`;
}

export function optionsFile(view: View): string {
  return `_options/${view}.json`;
}

/** The survey's absolute address, carrying the request's format as DRF's hyperlinks do. */
export function surveyUrl(baseUrl: string, surveyId: number, format: Format): string {
  return `${baseUrl}/api/schema/${surveyId}/${format ? `?format=${format}` : ''}`;
}

// ---- Fixed bodies (byte-exact per the contract) ---------------------------------------------------

export const BODIES = {
  required: '{"data_type":["This field is required."]}',
  invalid: '{"data_type":["Select a valid choice. That choice is not one of the available choices."]}',
  notFound: '{"detail":"Not found."}',
} as const;

export function methodNotAllowedBody(method: string): string {
  return JSON.stringify({ detail: `Method "${method}" not allowed.` });
}

/** DRF names views after their class: the list and the instance of the schema viewset. */
export type View = 'list' | 'detail';
export const VIEW_NAMES: Record<View, string> = { list: 'Schema List', detail: 'Schema Instance' };

export function optionsBody(view: View): string {
  return JSON.stringify({
    name: VIEW_NAMES[view],
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  });
}

// ---- Which requests are API routes --------------------------------------------------------------

/**
 * The DRF router's patterns: `schema/` for the list and `schema/<pk>/` with pk `[^/.]+` for the
 * detail. A missing trailing slash answers as the slashed path does.
 */
export function viewOf(pathname: string): { view: View; id?: string } | undefined {
  if (pathname === '/api/schema/' || pathname === '/api/schema') return { view: 'list' };
  const m = /^\/api\/schema\/([^/.]+)\/?$/.exec(pathname);
  return m?.[1] !== undefined ? { view: 'detail', id: m[1] } : undefined;
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
  const listRules = (query: Record<string, string>, format: Format): void => {
    for (const dataType of DATA_TYPES) rule(LIST_PATH, { data_type: dataType, ...query }, listFile(dataType, format));
    rule(LIST_PATH, { data_type: '', ...query }, ERROR_FILES.required, 400);
    rule(LIST_PATH, { data_type: ':data_type', ...query }, ERROR_FILES.invalid, 400);
    rule(LIST_PATH, query, ERROR_FILES.required, 400);
  };
  const detail = '/api/schema/:id/';
  const detailRules = (query: Record<string, string>, format: Format): void => {
    for (const dataType of DATA_TYPES) rule(detail, { data_type: dataType, ...query }, detailFile(':id', dataType, format));
    // An empty data_type filters nothing on the detail route.
    rule(detail, { data_type: '', ...query }, detailFile(':id', null, format));
    rule(detail, { data_type: ':data_type', ...query }, ERROR_FILES.invalid, 400);
    rule(detail, query, detailFile(':id', null, format));
  };
  for (const group of formatGroups) listRules(group.query, group.format);
  rule(LIST_PATH, { format: ':format' }, ERROR_FILES.notFound, 404);
  listRules({}, null);
  for (const group of formatGroups) detailRules(group.query, group.format);
  rule(detail, { format: ':format' }, ERROR_FILES.notFound, 404);
  detailRules({}, null);
  // Everything else under /api/, including the files above at their own paths, is not found.
  rule('/api/*', {}, ERROR_FILES.notFound, 404);
  return rules;
}
