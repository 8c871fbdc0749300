// nginx's configuration, generated from the route table: the same answers as Netlify and `serve`
// give, from a plain nginx (Debian 12's 1.22 or later) over the built folder. The rewrite rules are
// not translated rule by rule: each request falls into a few classes (its method; its format: api,
// json, none or unknown; its data type: one of them, none or another), and what the host rules and
// the edge policy answer for each class is worked out here, from hostRules() and the edge's order
// (format first, then method, then the rules), and written out as nginx maps. What nginx cannot
// compute by itself, a small script for its JavaScript module (Debian's libnginx-mod-http-js)
// does: the last value of a parameter, decoded as a form decodes it, and the request line a
// browsable page shows (NJS below, written to nginx/archive-schema.js by `routes --write`).

import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import {
  API_PREFIX,
  BODIES,
  BROWSER_PATHS,
  COMPRESSION,
  DATA_TYPES,
  DOCUMENTS,
  VO_TABLES,
  VO_TABLES_ALIAS,
  documentPaths,
  DOCUMENT_TYPES,
  ERROR_FILES,
  HEADERS,
  METHOD_MARK,
  NOT_FOUND_PAGE,
  VIEWS,
  answerPageFile,
  apiHeaders,
  documentHeaders,
  hostRules,
  methodNotAllowedBody,
  optionsBody,
  requestTarget,
  viewPath,
} from '../site/routes.ts';
import type { DataType, Document, PageAnswer, View } from '../site/routes.ts';
import { REQUEST } from '../outputs/browsable/page.ts';
import { BROWSER_HEADERS } from './browser.ts';
import { STATIC_METHOD_NOT_ALLOWED } from './edge.ts';
import { MARKER } from '../destination/output.ts';
import { UsageError } from '../errors.ts';
import { NGINX_MODULES_DIR } from '../project.ts';

export interface NginxOptions {
  /** The built site's folder, absolute. */
  root: string;
  /** `HOST:PORT` (or `[::1]:PORT`, or a port alone) for `listen`. */
  listen: string;
  /** The script for nginx's JavaScript module, absolute. */
  script: string;
  /** The host names the server answers to (nginx's server_name); none: whatever reaches the port. */
  serverName?: string;
  /** A whole nginx.conf, with everything under the prefix given to `nginx -p`. */
  standalone?: boolean;
  /** Where nginx's dynamic modules are (standalone only loads them from there). */
  modulesDir?: string;
  /** Whether Debian's brotli modules are there to use; found in modulesDir when not said. */
  brotli?: boolean;
}

const MODULES = {
  js: 'ngx_http_js_module.so',
  brotliFilter: 'ngx_http_brotli_filter_module.so',
  brotliStatic: 'ngx_http_brotli_static_module.so',
};

/** Every variable and internal path this configuration makes starts so, to keep clear of the operator's. */
const NAME = 'archive_schema';
const INTERNAL = `/_${NAME}`;

// ---- Classes of requests, and what answers each ---------------------------------------------------------

type MethodClass = 'read' | 'options' | 'other';
type FormatClass = 'api' | 'json' | 'none' | 'unknown';
type DataTypeClass = DataType | 'none' | 'invalid';

const METHOD_CLASSES: readonly MethodClass[] = ['read', 'options', 'other'];
const FORMAT_CLASSES: readonly FormatClass[] = ['api', 'json', 'none', 'unknown'];
const DATA_TYPE_CLASSES: readonly DataTypeClass[] = [...DATA_TYPES, 'none', 'invalid'];

/** What answers a class of requests to a view. */
type Action =
  | { kind: 'file'; file: string }
  | { kind: 'json'; status: number; answer: PageAnswer }
  | { kind: 'page'; status: number; answer: PageAnswer };

/** Queries that stand for a class: a missing and an empty value fall in one class, so both are tried. */
function representatives(format: FormatClass, dataType: DataTypeClass): Record<string, string>[] {
  const formats = { api: ['api'], json: ['json'], none: [undefined, ''], unknown: ['x'] }[format];
  const types = dataType === 'none' ? [undefined, ''] : [dataType === 'invalid' ? 'x' : dataType];
  return formats.flatMap((f) =>
    types.map((t) => ({ ...(t === undefined ? {} : { data_type: t }), ...(f === undefined ? {} : { format: f }) })),
  );
}

/** The host rule that answers a query on a view's path: the first that matches, as Netlify's engine picks. */
function ruleFor(view: View, query: Record<string, string>): { to: string; status: number } {
  const from = viewPath(view, ':id');
  const rule = hostRules().find(
    (r) => r.from === from && Object.entries(r.query ?? {}).every(([k, v]) => k in query && (v.startsWith(':') || query[k] === v)),
  );
  if (!rule) throw new Error(`no host rule answers ${from} ${JSON.stringify(query)}`);
  return { to: rule.to.slice(1), status: rule.status };
}

/** The edge's order: an unknown format is 404 whatever the method; then OPTIONS and other methods; then the rules. */
export function actionFor(view: View, method: MethodClass, format: FormatClass, dataType: DataTypeClass): Action {
  const page = format === 'api';
  if (format === 'unknown') return { kind: 'json', status: 404, answer: 'notFound' };
  if (method === 'options') return { kind: page ? 'page' : 'json', status: 200, answer: 'options' };
  if (method === 'other') return { kind: page ? 'page' : 'json', status: 405, answer: 'method' };
  const rules = representatives(format, dataType).map((q) => ruleFor(view, q));
  const [rule] = rules;
  if (!rule || rules.some((r) => r.to !== rule.to || r.status !== rule.status)) {
    throw new Error(`the host rules answer one class of requests differently: ${view} ${format} ${dataType}`);
  }
  if (rule.status === 200) return { kind: 'file', file: rule.to };
  const answer: PageAnswer = rule.to === ERROR_FILES.required ? 'required' : rule.to === ERROR_FILES.invalid ? 'invalid' : 'notFound';
  return { kind: page ? 'page' : 'json', status: rule.status, answer };
}

/** An action as a map value: `file <path>`, `json <status> <answer>` or `page <status> <answer>`. */
function actionValue(view: View, action: Action): string {
  if (action.kind === 'file') return `file ${action.file.replace(':id', `$${NAME}_id`)}`;
  return `${action.kind} ${action.status} ${action.answer}`;
}

// ---- The configuration -------------------------------------------------------------------------------

/** An nginx string literal: single-quoted, `'` and `\` escaped; `$` starts a variable, as meant. */
function quote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}'`;
}

function indent(lines: readonly string[], depth: number): string[] {
  return lines.map((line) => (line === '' ? '' : `${'    '.repeat(depth)}${line}`));
}

function block(head: string, body: readonly string[]): string[] {
  return [`${head} {`, ...indent(body, 1), '}'];
}

function addHeaders(headers: Record<string, string>, always: boolean): string[] {
  const lines = Object.entries(headers)
    .filter(([name]) => name !== 'Content-Type')
    .map(([name, value]) =>
      name === 'Vary' ? `add_header Vary $${NAME}_vary_api always;` : `add_header ${name} ${quote(value)}${always ? ' always' : ''};`,
    );
  // Every answer the compression rule covers says it varies by Accept-Encoding.
  return 'Vary' in headers ? lines : [...lines, `add_header Vary $${NAME}_vary${always ? ' always' : ''};`];
}

/** The body of a JSON answer, with a 405's method as nginx's variable. */
function jsonBody(view: View, answer: PageAnswer): string {
  if (answer === 'options') return optionsBody(view);
  if (answer === 'method') return methodNotAllowedBody('$request_method');
  return BODIES[answer];
}

/** The map from a request's classes to the action for a view. */
function actionMap(view: View): string[] {
  const entries: string[] = [];
  for (const method of METHOD_CLASSES)
    for (const format of FORMAT_CLASSES)
      for (const dataType of DATA_TYPE_CLASSES)
        entries.push(`${quote(`${method} ${format} ${dataType}`)} ${quote(actionValue(view, actionFor(view, method, format, dataType)))};`);
  return block(`map "$${NAME}_method_class $${NAME}_format $${NAME}_data_type" $${NAME}_${view}`, [`default '';`, ...entries]);
}

/** The codes a location returns for a page answered with these statuses, which error_page turns back. */
const PAGE_CODES: Readonly<Record<number, number>> = { 200: 418, 400: 419 };

/** What a view's location does with its action. */
function viewLocation(view: View, pattern: string): string[] {
  const action = `$${NAME}_${view}`;
  const answers = new Set<string>();
  const lines: string[] = [
    'default_type application/json;',
    'charset off;',
    ...addHeaders(apiHeaders(''), true),
    // A page answer: its status, then its file through error_page, which keeps the status. A 200
    // and a 400 page are asked for with codes of their own, since a 400 nginx makes itself (a
    // request body it cannot read) is a bad request, not a page.
    `error_page 404 405 ${INTERNAL}/page/${view}-$${NAME}_answer.format-api.html;`,
    ...Object.entries(PAGE_CODES).map(
      ([status, code]) => `error_page ${code} =${status} ${INTERNAL}/page/${view}-$${NAME}_answer.format-api.html;`,
    ),
    `error_page 400 = ${INTERNAL}/bad-request;`,
  ];
  for (const method of METHOD_CLASSES)
    for (const format of FORMAT_CLASSES)
      for (const dataType of DATA_TYPE_CLASSES) {
        const a = actionFor(view, method, format, dataType);
        if (a.kind === 'file') continue;
        const value = actionValue(view, a);
        if (answers.has(value)) continue;
        answers.add(value);
        const body =
          a.kind === 'json'
            ? [`return ${a.status} ${quote(jsonBody(view, a.answer))};`]
            : [`set $${NAME}_answer ${a.answer};`, `return ${PAGE_CODES[a.status] ?? a.status};`];
        lines.push(...block(`if (${action} = ${quote(value)})`, body));
      }
  // A rewrite's own pattern resets the captures, so the file is kept in a variable first.
  lines.push(...block(`if (${action} ~ "^file (.*)$")`, [`set $${NAME}_file $1;`, `rewrite ^ ${INTERNAL}/file/$${NAME}_file last;`]));
  return block(`location ${pattern}`, lines);
}

/** A document at a path: its file with its headers; methods other than GET and HEAD as a static host answers them. */
function documentLocation(at: string, document: Document): string[] {
  return block(`location ${at.startsWith('~') ? at : `= ${at}`}`, [
    'types { }',
    `default_type ${quote(DOCUMENT_TYPES[document.type])};`,
    ...addHeaders(documentHeaders(document), false),
    ...block('if ($request_method !~ ^(GET|HEAD)$)', ['return 405;']),
    'charset off;',
    ...STATIC_ERRORS,
    `rewrite ^ ${quote(`/${document.file}`)} break;`,
  ]);
}

/** The paths a document answers at (routes.ts), and a folder's index.html's folder. */
function documentLocations(document: Document): string[] {
  const paths = documentPaths(document);
  if (document.file.endsWith('/index.html')) paths.push(`/${document.file.slice(0, -'index.html'.length)}`);
  return [...new Set(paths)];
}

/**
 * Static files under a location, answering GET and HEAD, with these headers on what they answer
 * (add_header without `always`: the success and redirect statuses) besides Vary.
 */
function staticLocation(at: string, headers: Readonly<Record<string, string>>): string[] {
  return block(`location ${at}`, [
    ...block('if ($request_method !~ ^(GET|HEAD)$)', ['return 405;']),
    ...block('if ($uri ~ "/\\.")', ['return 404;']),
    // A location's error_page replaces every one it would inherit, and its add_header every add_header.
    ...STATIC_ERRORS,
    `add_header Vary $${NAME}_vary;`,
    ...Object.entries(headers).map(([name, value]) => `add_header ${name} ${quote(value)};`),
    'try_files $uri $uri/index.html =404;',
  ]);
}

/**
 * The error pages of a location of static files: a method it does not serve, a file not there or
 * refused (403: a symbolic link, which disable_symlinks forbids), and a request nginx could not read
 * to its end (400: a body sent in chunks that are not chunks), each as `serve` answers it.
 */
const STATIC_ERRORS: readonly string[] = [
  `error_page 405 ${INTERNAL}/static-405;`,
  `error_page 404 ${INTERNAL}/static-404;`,
  `error_page 403 =404 ${INTERNAL}/static-404;`,
  `error_page 400 = ${INTERNAL}/bad-request;`,
];

/**
 * The site's 404 page, as Netlify and `serve` send it for a path outside the API that names no file;
 * error_page keeps the 404. Its type by its file's name: the location's own path has no ending.
 */
function notFoundPageLocation(root: string): string[] {
  return block(`location = ${INTERNAL}/static-404`, [
    'internal;',
    ...block('types', []),
    'default_type text/html;',
    // A 404 page is compressed as any page: it varies with Accept-Encoding, as `serve` says.
    `add_header Vary $${NAME}_vary always;`,
    `alias ${quote(`${root}/${NOT_FOUND_PAGE}`)};`,
  ]);
}

const STATIC_405_BODY = STATIC_METHOD_NOT_ALLOWED.body ?? '';
const STATIC_404_BODY = 'Not Found\n';

/** Compression as the rule in routes.ts says: on the fly, or from the build's precompressed copies. */
function compression(brotli: boolean): string[] {
  // nginx always compresses text/html, and warns when it is named again.
  const types = COMPRESSION.types.filter((t) => t !== 'text/html').join(' ');
  return [
    'gzip on;',
    'gzip_static on;',
    'gzip_proxied any;',
    'gzip_comp_level 5;',
    `gzip_min_length ${COMPRESSION.minLength};`,
    `gzip_types ${types};`,
    ...(brotli
      ? ['brotli on;', 'brotli_static on;', 'brotli_comp_level 5;', `brotli_min_length ${COMPRESSION.minLength};`, `brotli_types ${types};`]
      : []),
  ];
}

/** A regular expression for whole numbers of at least `n`, written in decimal without leading zeros. */
export function atLeast(n: number): string {
  const digits = String(n);
  const options = [`[1-9]\\d{${digits.length},}`, digits];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    if (d === 9) continue;
    const rest = digits.length - i - 1;
    options.push(`${digits.slice(0, i)}[${d + 1}-9]${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  return `(${options.join('|')})`;
}

/**
 * \`Vary\` as the compression rule gives it: with Accept-Encoding on every answer the rule covers,
 * compressed or not (decided from what is sent: an encoding, or the type and the length), in the
 * order the other hosts write it. nginx's own gzip_vary would put it first, and miss answers too
 * short to compress that the rule covers by type alone when their length is unknown.
 */
function varyMaps(): string[] {
  const types = COMPRESSION.types.map(escapeRegex).join('|');
  const covered = [`~^[^|]+\\|`, `~^\\|(${types})(;[^|]*)?\\|(${atLeast(COMPRESSION.minLength).slice(1, -1)})?$`];
  const key = '"$sent_http_content_encoding|$sent_http_content_type|$sent_http_content_length"';
  const vary = HEADERS.Vary ?? '';
  return [
    ...block(`map ${key} $${NAME}_vary_api`, [
      `default ${quote(vary)};`,
      ...covered.map((c) => `${quote(c)} ${quote(`${vary}, Accept-Encoding`)};`),
    ]),
    ...block(`map ${key} $${NAME}_vary`, [`default '';`, ...covered.map((c) => `${quote(c)} 'Accept-Encoding';`)]),
  ];
}

/** The content types of the site's files by name ending, as `serve` sends them. */
const FILE_TYPES: readonly [string, string][] = [
  ['text/html', 'html'],
  ['application/json', 'json'],
  ['text/csv', 'csv'],
  ['text/plain', 'txt'],
  ['application/xml', 'xml'],
  ['application/x-votable+xml', 'vot'],
  ['application/gzip', 'gz'],
  ['application/zip', 'zip'],
  ['image/svg+xml', 'svg'],
  ['text/css', 'css'],
  ['application/javascript', 'js'],
];

/** The part an operator includes inside `http { }`: the script, the maps and the server. */
export function renderNginxSite(options: NginxOptions): string {
  const root = options.root;
  const brotli = options.brotli ?? existsSync(path.join(options.modulesDir ?? NGINX_MODULES_DIR, MODULES.brotliStatic));
  const api = apiHeaders('');
  const lines: string[] = [
    `# The request classes, worked out by the script (${path.basename(options.script)}).`,
    `js_import ${NAME} from ${quote(options.script)};`,
    `js_set $${NAME}_format ${NAME}.format;`,
    `js_set $${NAME}_data_type ${NAME}.dataType;`,
    `js_set $${NAME}_request ${NAME}.request;`,
    `js_set $${NAME}_method ${NAME}.method;`,
    '',
    ...varyMaps(),
    '',
    ...block(`map $request_method $${NAME}_method_class`, ['default other;', 'GET read;', 'HEAD read;', 'OPTIONS options;']),
    '',
    '# What answers each class of request, from the host rules and the edge policy (src/site/routes.ts, edge.ts).',
    ...actionMap('list'),
    '',
    ...actionMap('detail'),
    '',
    ...block('server', [
      `listen ${options.listen};`,
      ...(options.serverName ? [`server_name ${options.serverName};`] : []),
      `root ${quote(root)};`,
      // No file is served through a symbolic link below the root (a link to /etc put in the site
      // would serve /etc/passwd), as `serve` refuses them; the root's own path may hold links (a
      // dist that is a link to the build). The root is written out, not $document_root: with a
      // variable there, Debian's brotli_static finds no precompressed copy.
      `disable_symlinks on ${quote(`from=${root}`)};`,
      // A request body nginx cannot read is found only when a location answers; the error page it
      // then needs may be a second one.
      'recursive_error_pages on;',
      'server_tokens off;',
      // Paths are answered as written: `//api/schema/` is not the list, as on the other hosts.
      'merge_slashes off;',
      'etag on;',
      'charset utf-8;',
      'charset_types text/csv text/plain application/json application/javascript text/css image/svg+xml;',
      ...block(
        'types',
        FILE_TYPES.map(([type, ending]) => `${type} ${ending};`),
      ),
      'default_type application/octet-stream;',
      ...compression(brotli),
      `error_page 404 ${INTERNAL}/static-404;`,
      // nginx refuses a path with a malformed percent escape (400) before any location sees it; the
      // other hosts find no such file (404), the API's body under the API. A request body it cannot
      // read (chunks that are not chunks) is a 400 too, plain, as `serve` answers it.
      `error_page 400 = ${INTERNAL}/bad-request;`,
      '',
      '# The API: the list and a survey, by their classes of request.',
      ...viewLocation('list', `~ ^${escapeRegex(viewPath('list'))}?$`),
      ...viewLocation(
        'detail',
        `~ ^${escapeRegex(viewPath('detail', '{id}')).replace('\\{id\\}', `(?<${NAME}_id>[^/.]+)`).replace(/\/$/, '/?')}$`,
      ),
      '',
      '# Anything else under the API is not found, whatever the method.',
      ...block(`location ${API_PREFIX}`, [
        'default_type application/json;',
        'charset off;',
        ...addHeaders(api, true),
        `return 404 ${quote(BODIES.notFound)};`,
      ]),
      ...block(`location = ${API_PREFIX.slice(0, -1)}`, [
        'default_type application/json;',
        'charset off;',
        ...addHeaders(api, true),
        `return 404 ${quote(BODIES.notFound)};`,
      ]),
      '',
      "# The files behind the API's routes, and its pages' answers (internal only).",
      ...block(`location ^~ ${INTERNAL}/file/`, [
        'internal;',
        `alias ${quote(`${root}/`)};`,
        'types { application/json json; text/html html; }',
        // text/html is always among them; nothing else here takes a charset.
        'charset_types text/plain;',
        ...addHeaders(api, true),
        `sub_filter ${quote(REQUEST)} $${NAME}_request;`,
        `error_page 404 ${INTERNAL}/not-found;`,
        `error_page 403 =404 ${INTERNAL}/not-found;`,
        `error_page 400 = ${INTERNAL}/bad-request;`,
      ]),
      ...block(`location ^~ ${INTERNAL}/page/`, [
        'internal;',
        `alias ${quote(`${root}/${path.posix.dirname(answerPageFile('list', 'options'))}/`)};`,
        'types { text/html html; }',
        ...addHeaders(api, true),
        `sub_filter ${quote(REQUEST)} $${NAME}_request;`,
        `sub_filter ${quote(METHOD_MARK)} $${NAME}_method;`,
        'gzip_static off;',
        ...(brotli ? ['brotli_static off;'] : []),
      ]),
      ...block(`location = ${INTERNAL}/not-found`, [
        'internal;',
        'default_type application/json;',
        'charset off;',
        ...addHeaders(api, true),
        ...block(`if ($${NAME}_format = api)`, [`rewrite ^ ${INTERNAL}/page/detail-notFound.format-api.html last;`]),
        `return 404 ${quote(BODIES.notFound)};`,
      ]),
      '',
      '# The documents, each with its own headers.',
      ...DOCUMENTS.flatMap((d) => documentLocations(d).flatMap((at) => documentLocation(at, d))),
      ...documentLocation(`~ ${quote(VO_TABLES_ALIAS.regex)}`, VO_TABLES),
      '',
      "# The schema browser's home page and files: static, with its pages' security policy.",
      ...BROWSER_PATHS.flatMap((at) => staticLocation(at.endsWith('/*') ? at.slice(0, -1) : `= ${at}`, BROWSER_HEADERS)),
      '',
      '# Everything else: static files, answering GET and HEAD; no hidden file is ever served.',
      ...staticLocation('/', {}),
      // Error pages by path, not by name: a named location would keep the type the file's name gave.
      ...block(`location = ${INTERNAL}/static-405`, [
        'internal;',
        `default_type ${quote(STATIC_METHOD_NOT_ALLOWED.headers['Content-Type'] ?? '')};`,
        `add_header Allow ${quote(STATIC_METHOD_NOT_ALLOWED.headers.Allow ?? '')} always;`,
        `return 405 ${quote(STATIC_405_BODY)};`,
      ]),
      ...block(`location = ${INTERNAL}/bad-request`, [
        'internal;',
        // Only the request line is known by then.
        ...block(`if ($request ~ "^\\S+ [^? ]*%([^0-9A-Fa-f]|.[^0-9A-Fa-f])")`, [`rewrite ^ ${INTERNAL}/malformed last;`]),
        `default_type 'text/plain; charset=utf-8';`,
        `return 400 'Bad Request\\n';`,
      ]),
      ...block(`location = ${INTERNAL}/malformed`, [
        'internal;',
        ...block(`if ($request ~ "^\\S+ ${escapeRegex(API_PREFIX.slice(0, -1))}(/|\\?| )")`, [`rewrite ^ ${INTERNAL}/malformed-api last;`]),
        `default_type 'text/plain; charset=utf-8';`,
        `return 404 ${quote(STATIC_404_BODY)};`,
      ]),
      ...block(`location = ${INTERNAL}/malformed-api`, [
        'internal;',
        'default_type application/json;',
        'charset off;',
        ...addHeaders(api, true),
        `return 404 ${quote(BODIES.notFound)};`,
      ]),
      ...notFoundPageLocation(root),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
}

/** The whole configuration: `renderNginxSite` inside `http { }`, with everything nginx writes under its prefix. */
export function renderNginx(options: NginxOptions): string {
  const modulesDir = options.modulesDir ?? NGINX_MODULES_DIR;
  const brotli = options.brotli ?? existsSync(path.join(modulesDir, MODULES.brotliStatic));
  const site = renderNginxSite({ ...options, brotli });
  const header = `# archive-schema's site on nginx, generated by \`archive-schema nginx\` from its route table;
# regenerate it rather than editing it. ${options.standalone ? 'Run with: nginx -p PREFIX -c THIS-FILE' : 'Include it inside http { }.'}
`;
  if (!options.standalone) return `${header}\n${site}`;
  const modules = [MODULES.js, ...(brotli ? [MODULES.brotliFilter, MODULES.brotliStatic] : [])];
  return `${header}
${modules.map((m) => `load_module ${quote(path.join(modulesDir, m))};`).join('\n')}

daemon on;
worker_processes auto;
pid nginx.pid;
error_log error.log;

events {
    worker_connections 1024;
}

http {
    access_log access.log;
    client_body_temp_path client_body_temp;
    proxy_temp_path proxy_temp;
    fastcgi_temp_path fastcgi_temp;
    uwsgi_temp_path uwsgi_temp;
    scgi_temp_path scgi_temp;
    sendfile on;
    keepalive_timeout 65;

${indent(site.trimEnd().split('\n'), 1).join('\n')}
}
`;
}

// ---- What the configuration is given --------------------------------------------------------------

/** A value as a message shows it: on one line, a long one cut short, with its length. */
function shown(value: string, longest = 60): string {
  const cut = value.length > longest ? `${value.slice(0, longest - 20)}… (${value.length} characters)` : value;
  return cut.replace(/[\n\t]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/**
 * nginx reads one value of a directive into a buffer of 4,096 bytes ("too long parameter"): a path
 * given to it stays well within that, quotes and escapes included.
 */
const LONGEST_VALUE = 4000;

/**
 * Why a path cannot be written into the configuration, or undefined when it can. Quoted, any
 * character but these reads back as itself: a control character (no folder an operator means has
 * one), and `$`, which starts a variable in the paths nginx fills in per request (root, alias and
 * disable_symlinks' from=) and has no escape there: a folder named `$http_x_root` would let a
 * request header choose the root.
 */
function pathProblem(value: string, interpolated: boolean): string | undefined {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const control = /[\x00-\x1F\x7F-\x9F]/.exec(value)?.[0];
  if (control !== undefined) {
    const code = control.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `holds a control character (U+${code}), which nginx's configuration cannot hold`;
  }
  if (interpolated && value.includes('$'))
    return 'holds "$", which nginx reads in a path as the start of a variable, with no way to escape it';
  if (Buffer.byteLength(quote(value)) > LONGEST_VALUE) return `is longer than the ${LONGEST_VALUE} bytes nginx reads as one value`;
  return undefined;
}

/** A DNS host name: labels of letters, digits and inner hyphens, at most 63 characters each and 253 in all. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * What is wrong with `--listen`, or undefined: it is a port alone, or an IPv4 address, `*`, a host
 * name or a bracketed IPv6 address, then `:` and a port from 1 to 65535 (nginx refuses 0). A name
 * made of digits and dots that is not an IPv4 address (999.1.1.1) would be looked up as a host name
 * and never found.
 */
function listenProblem(listen: string): string | undefined {
  const m = /^(?:(\[[^\]]*\]|[^:[\]]*):)?([^:]*)$/.exec(listen);
  if (!m) return 'it is not HOST:PORT, [IPv6]:PORT or a port';
  const [, host, port = ''] = m;
  if (host === undefined && !/^\d+$/.test(port)) return 'it is not HOST:PORT, [IPv6]:PORT or a port';
  if (port === '') return 'it has no port';
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    return `the port ${shown(port)} is not a whole number from 1 to 65535`;
  if (host === undefined || host === '*' || isIPv4(host)) return undefined;
  if (host.startsWith('[')) return isIPv6(host.slice(1, -1)) ? undefined : `${shown(host)} is not an IPv6 address`;
  if (host === '') return 'it has no host before the colon';
  if (/^[\d.]+$/.test(host) || !HOST_NAME.test(host)) return `${shown(host)} is neither an IP address nor a host name`;
  return undefined;
}

/**
 * Whether nginx's server_name takes a name as one: a host name, or one with the wildcard nginx
 * allows (`*.example.org`, `example.*`, or `.example.org` for the name and every name below it).
 */
function isServerName(name: string): boolean {
  const bare = name.startsWith('*.')
    ? name.slice(2)
    : name.startsWith('.')
      ? name.slice(1)
      : name.endsWith('.*')
        ? name.slice(0, -2)
        : name;
  return HOST_NAME.test(bare);
}

/** What is wrong with `--server-name`, or undefined: it is host names separated by single spaces. */
function serverNameProblem(names: string): string | undefined {
  const bad = names.split(' ').find((name) => !isServerName(name));
  if (bad === undefined) return undefined;
  if (bad === '') return 'it has an empty name (two spaces in a row?)';
  return `${bad === names ? 'it' : shown(bad)} is not a host name (at most 253 characters, in labels of at most 63 letters, digits and hyphens)`;
}

/** `archive-schema nginx`: the configuration for a built site, refused for a folder that holds no build. */
export async function nginxConfig(options: NginxOptions & { shownRoot: string }): Promise<string> {
  const modulesDir = options.modulesDir ?? NGINX_MODULES_DIR;
  // The root's own path, when it is not what was given (a relative --root under a folder with a $).
  const rootPath = options.root === options.shownRoot ? '' : ` (${shown(options.root, 200)})`;
  // Each problem as one sentence naming the option, made by a function: the values shown are the
  // user's, never a template's to fill in (a --listen of %s would have been).
  const problems: [string | undefined, (problem: string) => string][] = [
    [
      listenProblem(options.listen),
      (p) => `--listen ${shown(options.listen)}: ${p}; give HOST:PORT, [IPv6]:PORT or a port, e.g. 127.0.0.1:8080`,
    ],
    [
      options.serverName === undefined ? undefined : serverNameProblem(options.serverName),
      (p) => `--server-name ${shown(options.serverName ?? '')}: ${p}; give host names separated by spaces, e.g. "schema.example.org"`,
    ],
    [
      pathProblem(options.root, true),
      (p) => `--root ${shown(options.shownRoot, 200)}${rootPath}: the path ${p}; move the built site to a folder whose path has none`,
    ],
    [pathProblem(modulesDir, false), (p) => `--modules ${shown(modulesDir, 200)}: the path ${p}; give the folder nginx's modules are in`],
    [
      pathProblem(options.script, false),
      (p) => `nginx's script ${shown(options.script, 200)}: the path ${p}; install archive-schema in another folder`,
    ],
  ];
  for (const [problem, message] of problems) if (problem) throw new UsageError(message(problem));
  try {
    await stat(path.join(options.root, MARKER));
  } catch {
    throw new UsageError(`${options.shownRoot} holds no build; run \`npm run build\` first (or pass the built folder with --root)`);
  }
  for (const [what, file] of [
    ['the script', options.script],
    [
      "nginx's JavaScript module (Debian: apt-get install libnginx-mod-http-js)",
      path.join(options.modulesDir ?? NGINX_MODULES_DIR, MODULES.js),
    ],
  ] as const) {
    if (!existsSync(file)) throw new UsageError(`cannot find ${what} at ${file}`);
  }
  return renderNginx(options);
}

// ---- The script for nginx's JavaScript module ------------------------------------------------------

/**
 * The script nginx's JavaScript module (njs 0.7, as Debian 12 has it) runs: plain ES5 with the
 * route table's facts filled in. `format` and `dataType` put a request in its classes, from the
 * last value of each parameter, decoded as a form decodes it (as page.ts's lastQueryValue does);
 * `request` is the request line a browsable page shows, made as page.ts's requestHtml makes it
 * from the target as the other hosts see it (percent-encoded and with dot segments resolved, as
 * a URL parser leaves it); `method` is the method asked with, which nginx's error pages forget.
 */
export function renderNjs(): string {
  const [listBefore, listAfter] = requestTarget('list', { data_type: '\0', format: 'api' }).split('\0');
  const facts = {
    dataTypes: DATA_TYPES,
    listPath: viewPath('list'),
    listName: VIEWS.list.name,
    detailName: VIEWS.detail.name,
    listLinkBefore: listBefore,
    listLinkAfter: listAfter,
  };
  return `// Generated from src/hosting/nginx.ts by \`npm run routes\`; edit that file, not this one.
// nginx's JavaScript module runs it (see renderNjs there for what each function does).

var FACTS = ${JSON.stringify(facts)};
var ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; });
}

function formDecode(text) {
    var spaced = text.replace(/\\+/g, ' ');
    try {
        return decodeURIComponent(spaced);
    } catch (e) {
        return spaced;
    }
}

function nameOf(part) {
    var eq = part.indexOf('=');
    return formDecode(eq < 0 ? part : part.slice(0, eq));
}

function lastQueryValue(query, name) {
    var value = null;
    query.split('&').forEach(function (part) {
        var eq = part.indexOf('=');
        if (part !== '' && nameOf(part) === name) value = eq < 0 ? '' : formDecode(part.slice(eq + 1));
    });
    return value;
}

function withFormat(target, format) {
    var q = target.indexOf('?');
    var kept = (q < 0 ? '' : target.slice(q + 1)).split('&').filter(function (part) {
        return part !== '' && nameOf(part) !== 'format';
    });
    kept.push('format=' + format);
    return (q < 0 ? target : target.slice(0, q)) + '?' + kept.join('&');
}

var HEX = '0123456789ABCDEF';

// Bytes a URL parser percent-encodes in a path and in a query (of an http: URL).
function inPathSet(b) {
    return b < 0x21 || b > 0x7e || b === 0x22 || b === 0x23 || b === 0x3c || b === 0x3e || b === 0x3f || b === 0x60 || b === 0x7b || b === 0x7d;
}

function inQuerySet(b) {
    return b < 0x21 || b > 0x7e || b === 0x22 || b === 0x23 || b === 0x27 || b === 0x3c || b === 0x3e;
}

function encodeBytes(bytes, from, to, encoded) {
    var out = '';
    for (var i = from; i < to; i++) {
        var b = bytes[i];
        out += encoded(b) ? '%' + HEX[b >> 4] + HEX[b & 15] : String.fromCharCode(b);
    }
    return out;
}

function isDot(segment) {
    return segment === '.' || segment.toLowerCase() === '%2e';
}

function isDotDot(segment) {
    var s = segment.toLowerCase();
    return s === '..' || s === '.%2e' || s === '%2e.' || s === '%2e%2e';
}

// The path as a URL parser leaves it: backslashes as slashes, dot segments resolved.
function resolvePath(path) {
    var segments = path.replace(/\\\\/g, '/').split('/').slice(1);
    var out = [];
    segments.forEach(function (segment, i) {
        var last = i === segments.length - 1;
        if (isDotDot(segment)) {
            out.pop();
            if (last) out.push('');
        } else if (isDot(segment)) {
            if (last) out.push('');
        } else {
            out.push(segment);
        }
    });
    return '/' + out.join('/');
}

// The request line as sent: its method, and its target as the other hosts see it.
function requestOf(r) {
    var line = r.rawVariables.request;
    var first = line.indexOf(32);
    var lastSpace = line.lastIndexOf(32);
    var end = lastSpace > first ? lastSpace : line.length;
    var method = line.slice(0, first).toString();
    var hash = line.indexOf(35, first + 1);
    if (hash >= 0 && hash < end) end = hash;
    var question = line.indexOf(63, first + 1);
    var pathEnd = question >= 0 && question < end ? question : end;
    var path = resolvePath(encodeBytes(line, first + 1, pathEnd, inPathSet));
    var query = pathEnd < end ? encodeBytes(line, pathEnd + 1, end, inQuerySet) : '';
    return { method: method, path: path, query: query };
}

function format(r) {
    var value = lastQueryValue(requestOf(r).query, 'format');
    if (value === null || value === '') return 'none';
    return value === 'api' || value === 'json' ? value : 'unknown';
}

function dataType(r) {
    var value = lastQueryValue(requestOf(r).query, 'data_type');
    if (value === null || value === '') return 'none';
    return FACTS.dataTypes.indexOf(value) >= 0 ? value : 'invalid';
}

function method(r) {
    return requestOf(r).method;
}

function request(r) {
    var req = requestOf(r);
    var target = req.path + (req.query === '' ? '' : '?' + req.query);
    var list = req.path === FACTS.listPath || req.path === FACTS.listPath.slice(0, -1);
    var shown = req.method === 'HEAD' ? 'GET' : req.method;
    var asked = lastQueryValue(req.query, 'data_type');
    var type = FACTS.dataTypes.indexOf(asked) >= 0 ? asked : FACTS.dataTypes[0];
    var listName = escapeHtml(FACTS.listName);
    var name = list ? FACTS.listName : FACTS.detailName;
    var crumbs = list
        ? listName
        : '<a href="' + escapeHtml(FACTS.listLinkBefore + type + FACTS.listLinkAfter) + '">' + listName + '</a> / ' + escapeHtml(name);
    return '<nav class="crumbs" aria-label="Breadcrumbs">' + crumbs + '</nav>\\n<h1>' + escapeHtml(name) + '</h1>\\n' +
        '<div class="formats">Formats:<a href="' + escapeHtml(withFormat(target, 'json')) + '">json</a><a href="' +
        escapeHtml(withFormat(target, 'api')) + '">api</a></div>\\n' +
        '<pre class="request"><b>' + escapeHtml(shown) + '</b> ' + escapeHtml(target) + '</pre>';
}

export default { format: format, dataType: dataType, method: method, request: request };
`;
}
