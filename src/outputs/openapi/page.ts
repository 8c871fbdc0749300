// The API reference page (/api/docs/): the OpenAPI document rendered for people, every path,
// operation, parameter, response, header and schema with an anchor of its own. It is made from the
// document alone, so it cannot say anything the JSON does not. It is in the site's shell (header,
// search, footer) and loads only the site's own style sheet and script; every text in it is escaped.

import { STATUS_TEXT } from '../browsable/page.ts';
import { html, joinHtml } from '../html.ts';
import { shell } from '../browser/pages/shell.ts';
import type { Html } from '../html.ts';
import { OPENAPI_PATH } from './document.ts';

type Json = Record<string, unknown>;

/** Where the page is asked for (/api/docs/), as the shell's path: its links go up from there to the site's root. */
const API_DOCS_PATH = ['api', 'docs'];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asObject = (value: unknown): Json => (isObject(value) ? value : {});
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The operations a path item can hold, in OpenAPI's order. */
const OPERATIONS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Which anchor prefix each component section's entries get. */
const COMPONENT_PREFIX: Readonly<Record<string, string>> = {
  schemas: 'schema',
  responses: 'response',
  parameters: 'parameter',
  headers: 'header',
  requestBodies: 'request-body',
  examples: 'example',
};

/** Schema keywords shown as constraints, in this order. */
const CONSTRAINTS = [
  'format',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contentMediaType',
  'contentEncoding',
  'default',
] as const;

const TEXTUAL = new Set<string>(['format', 'pattern', 'contentMediaType', 'contentEncoding']);

/** Paragraphs of a description (its text is shown as written, never read as markup). */
function prose(text: unknown): Html {
  const value = asString(text);
  return joinHtml(value === '' ? [] : value.split(/\n{2,}/).map((p) => html`<p>${p}</p>`), '\n');
}

const code = (text: string): Html => html`<code>${text}</code>`;

/** Blocks one a line, leaving out those that are empty. */
const lines = (blocks: readonly Html[]): Html =>
  joinHtml(
    blocks.filter((b) => b.text !== ''),
    '\n',
  );

/** Anchors of paths and operations: a slug of the path, kept unique. */
class Anchors {
  private readonly used = new Set<string>();

  take(prefix: string, text: string): string {
    const slug = text.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'root';
    let id = `${prefix}-${slug}`;
    for (let n = 2; this.used.has(id); n++) id = `${prefix}-${slug}-${n}`;
    this.used.add(id);
    return id;
  }
}

function componentAnchor(section: string, name: string): string {
  return `${COMPONENT_PREFIX[section] ?? section}-${name}`;
}

/** `#/components/schemas/Survey` → its section and name, when it points at a component. */
function componentOf(ref: string): { section: string; name: string } | undefined {
  const m = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
  return m ? { section: m[1] ?? '', name: m[2] ?? '' } : undefined;
}

class Renderer {
  constructor(private readonly document: Json) {}

  /** What a local $ref points at (JSON Pointer), or undefined. */
  resolve(value: unknown): Json {
    let current = asObject(value);
    for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/')) return current;
      let target: unknown = this.document;
      for (const token of ref.slice(2).split('/')) target = asObject(target)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
      current = asObject(target);
    }
    return current;
  }

  /** A link to the component a ref names, labelled with its name unless said. */
  refLink(ref: string, label?: string): Html {
    const component = componentOf(ref);
    if (!component) return code(ref);
    return html`<a href="#${componentAnchor(component.section, component.name)}">${label ?? component.name}</a>`;
  }

  /** A schema's type in a few words: links to named schemas, constants and choices as JSON. */
  typeText(value: unknown): Html {
    const schema = asObject(value);
    if (typeof schema.$ref === 'string') return this.refLink(schema.$ref);
    if ('const' in schema) return code(JSON.stringify(schema.const));
    if (Array.isArray(schema.enum))
      return html`one of ${joinHtml(
        schema.enum.map((v) => code(JSON.stringify(v))),
        ', ',
      )}`;
    for (const [key, joiner] of [
      ['anyOf', ' or '],
      ['oneOf', ' or '],
      ['allOf', ' and '],
    ] as const) {
      const members = schema[key];
      if (Array.isArray(members))
        return joinHtml(
          members.map((m) => this.typeText(m)),
          joiner,
        );
    }
    const types = Array.isArray(schema.type) ? schema.type.map(asString) : schema.type === undefined ? [] : [asString(schema.type)];
    const words = types.map((type) => this.typeWord(schema, type));
    if (words.length > 0) return joinHtml(words, ' or ');
    return schema.contentMediaType === undefined ? html`any` : html`bytes (${asString(schema.contentMediaType)})`;
  }

  /** One of a schema's types in words: an object of values, an array or tuple of items, or the type's name. */
  typeWord(schema: Json, type: string): Html {
    if (type === 'object' && !isObject(schema.properties) && isObject(schema.additionalProperties)) {
      return html`object, each key's value ${this.typeText(schema.additionalProperties)}`;
    }
    if (type !== 'array') return html`${type}`;
    if (Array.isArray(schema.prefixItems)) {
      const members = schema.prefixItems.map((m) => this.typeText(m));
      const tuple = html`[${joinHtml(members, ', ')}]`;
      return schema.items === false ? tuple : html`${tuple}, then ${schema.items === undefined ? 'anything' : this.typeText(schema.items)}`;
    }
    return schema.items === undefined ? html`array` : html`array of ${this.typeText(schema.items)}`;
  }

  constraints(value: unknown): Html {
    const schema = asObject(value);
    // Patterns, formats and media types are read as written; numbers and defaults as JSON.
    const shown = (value: unknown, key: string) => code(typeof value === 'string' && TEXTUAL.has(key) ? value : JSON.stringify(value));
    const items = CONSTRAINTS.filter((k) => k in schema).map((k) => html`${k}: ${shown(schema[k], k)}`);
    if (schema.additionalProperties === false) items.push(html`no other keys`);
    return items.length > 0 ? html`<span class="muted">${joinHtml(items, '; ')}</span>` : html``;
  }

  /** Inline schemas inside this one that have properties of their own, to be shown as tables too. */
  nested(value: unknown): Json[] {
    const schema = asObject(value);
    if (typeof schema.$ref === 'string') return [];
    if (isObject(schema.properties)) return [schema];
    const out: Json[] = [];
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
      const members = schema[key];
      if (Array.isArray(members)) for (const m of members) out.push(...this.nested(m));
    }
    if (isObject(schema.items)) out.push(...this.nested(schema.items));
    return out;
  }

  /** A schema for reading: its type, description, constraints and, for objects, a table of keys. */
  schema(value: unknown): Html {
    const schema = asObject(value);
    const parts = [html`<p>Type: ${this.typeText(schema)}${schema.deprecated === true && ' (deprecated)'}</p>`];
    if (typeof schema.$ref !== 'string') parts.push(prose(schema.description), this.constraints(schema));
    const objects = isObject(schema.properties) ? [schema] : this.nested(schema);
    for (const object of objects) parts.push(this.properties(object));
    return lines(parts);
  }

  properties(object: Json): Html {
    const required = new Set(Array.isArray(object.required) ? object.required.map(asString) : []);
    const rows = Object.entries(asObject(object.properties)).map(([name, value]) => {
      const nested = lines(this.nested(value).map((n) => this.properties(n)));
      const about = lines([prose(asObject(value).description), this.constraints(value), nested]);
      return html`<tr><td>${code(name)}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${this.typeText(value)}</td><td>${about}</td></tr>`;
    });
    const others =
      object.additionalProperties !== false && isObject(object.additionalProperties) ? this.typeText(object.additionalProperties) : html``;
    const otherRow = others.text !== '' && html`\n<tr><td><em>any other</em></td><td>no</td><td>${others}</td><td></td></tr>`;
    return html`<table><thead><tr><th>key, in order</th><th>required</th><th>type</th><th>description</th></tr></thead><tbody>
${joinHtml(rows, '\n')}${otherRow}
</tbody></table>`;
  }

  parameterRows(parameters: unknown): Html {
    if (!Array.isArray(parameters) || parameters.length === 0) return html``;
    const rows = parameters.map((p) => {
      const parameter = this.resolve(p);
      const ref = asString(asObject(p).$ref);
      const name = code(asString(parameter.name));
      const schema = asObject(parameter.schema);
      const cells = [
        html`<td>${name}${ref && html` (${this.refLink(ref)})`}</td>`,
        html`<td>${asString(parameter.in)}</td>`,
        html`<td>${parameter.required === true ? 'yes' : 'no'}</td>`,
        html`<td>${this.typeText(schema)} ${this.constraints(schema)}</td>`,
        html`<td>${prose(parameter.description)}</td>`,
      ];
      return html`<tr>${cells}</tr>`;
    });
    return html`<table><thead><tr><th>parameter</th><th>in</th><th>required</th><th>values</th><th>description</th></tr></thead><tbody>
${joinHtml(rows, '\n')}
</tbody></table>`;
  }

  /** Headers one a line: a component's name links to its meaning, another header says its own. */
  headerRows(headers: unknown): Html {
    const entries = Object.entries(asObject(headers));
    if (entries.length === 0) return html``;
    const rows = entries.map(([name, h]) => {
      const header = this.resolve(h);
      const ref = asString(asObject(h).$ref);
      const about = ref ? '' : asString(header.description);
      return html`<li>${ref ? this.refLink(ref, name) : code(name)}: ${this.typeText(header.schema)}${about && html` <span class="muted">(${about})</span>`}</li>`;
    });
    return html`<p>Headers:</p>
<ul class="headers">
${joinHtml(rows, '\n')}
</ul>`;
  }

  /** A header component in full: its value and what it means. */
  headerComponent(value: unknown): Html {
    const header = this.resolve(value);
    return html`<p>Value: ${this.typeText(header.schema)}</p>\n${prose(header.description)}`;
  }

  examples(media: Json): Html {
    const out: Html[] = [];
    if ('example' in media) out.push(html`<p>Example:</p>\n<pre>${JSON.stringify(media.example)}</pre>`);
    for (const [name, e] of Object.entries(asObject(media.examples))) {
      const example = this.resolve(e);
      out.push(html`<p>Example ${code(name)}:</p>\n<pre>${JSON.stringify(example.value)}</pre>`);
    }
    return joinHtml(out, '\n');
  }

  response(anchor: string, status: string, value: unknown): Html {
    const response = this.resolve(value);
    const ref = asString(asObject(value).$ref);
    const reason = STATUS_TEXT[Number(status)] ?? '';
    const content = Object.entries(asObject(response.content)).map(([type, m]) => {
      const media = asObject(m);
      const body = 'schema' in media ? this.schema(media.schema) : html`<p>Bytes, as the file holds them.</p>`;
      return html`<p class="body">Body, ${code(type)}:</p>\n${body}\n${this.examples(media)}`;
    });
    const heading = html`<a href="#${anchor}"><span class="status">${status}</span> ${reason}</a>${ref && html` (${this.refLink(ref)})`}`;
    return html`<div class="response" id="${anchor}"><h5>${heading}</h5>
${prose(response.description)}
${this.headerRows(response.headers)}
${content.length > 0 ? joinHtml(content, '\n') : html`<p>No body.</p>`}
</div>`;
  }

  operation(anchor: string, method: string, path: string, value: unknown): Html {
    const operation = asObject(value);
    const responses = Object.entries(asObject(operation.responses)).map(([status, r]) => this.response(`${anchor}-${status}`, status, r));
    const tags =
      Array.isArray(operation.tags) &&
      operation.tags.length > 0 &&
      joinHtml(
        operation.tags.map((t) => code(asString(t))),
        ', ',
      );
    const id = asString(operation.operationId);
    const notes = [id && html` <span class="muted">operationId ${code(id)}</span>`, tags && html` <span class="muted">tags ${tags}</span>`];
    return html`<article class="op" id="${anchor}">
<h4><a href="#${anchor}"><span class="method ${method}">${method.toUpperCase()}</span> ${code(path)}</a></h4>
<p><strong>${asString(operation.summary)}</strong>${notes}</p>
${prose(operation.description)}
${this.parameterRows(operation.parameters)}
${joinHtml(responses, '\n')}
</article>`;
  }
}

/** The path as a link when it can be opened as it is: no template, and a GET that needs no parameter. */
function pathTitle(render: Renderer, path: string, item: Json): Html {
  const get = asObject(item.get);
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);
  const parameters = [...list(item.parameters), ...list(get.parameters)];
  // A path that starts with // would be read as another host's address.
  const opens =
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('{') &&
    isObject(asObject(get.responses)['200']) &&
    !parameters.some((p) => render.resolve(p).required === true);
  return opens ? html`<a href="${path}">${code(path)}</a>` : code(path);
}

/** The whole page for an OpenAPI 3.x document. */
export function apiReferencePage(document: Record<string, unknown>): string {
  const render = new Renderer(document);
  const info = asObject(document.info);
  const title = asString(info.title) || 'API';
  const paths = pathSections(render, document);
  const components = componentSections(render, asObject(document.components));
  const servers = Array.isArray(document.servers)
    ? document.servers.map((s) => html`<li>${code(asString(asObject(s).url))} ${asString(asObject(s).description)}</li>`)
    : [];
  const license = asObject(info.license);
  const source = isObject(asObject(document.paths)[OPENAPI_PATH])
    ? html`<a href="${OPENAPI_PATH}">${code(OPENAPI_PATH)}</a>`
    : 'the OpenAPI document';
  const licensed = license.name ? html`; license ${asString(license.identifier) || asString(license.name)}` : '';

  const body = html`<div class="api-ref">
<p class="muted">${title} ${asString(info.version)}: the reference of ${source} (OpenAPI ${asString(document.openapi)})${licensed}. Paths are relative to the site.</p>
${prose(info.description)}
${servers.length > 0 && html`<p>Servers:</p>\n<ul>\n${joinHtml(servers, '\n')}\n</ul>`}
<nav aria-labelledby="contents">
<h2 id="contents">Contents</h2>
<ul>
<li><a href="#paths">Paths</a></li>
${joinHtml(paths.toc, '\n')}
${joinHtml(components.toc, '\n')}
</ul>
</nav>
<section id="paths">
<h2>Paths</h2>
${joinHtml(paths.sections, '\n')}
</section>
${joinHtml(components.sections, '\n')}
</div>
`;
  return shell({ path: API_DOCS_PATH, title: 'API reference', body, description: `The reference of ${title}, its paths and schemas.` });
}

/** Each path's section, with its operations, and its line in the contents. */
function pathSections(render: Renderer, document: Json): { toc: Html[]; sections: Html[] } {
  const anchors = new Anchors();
  const toc: Html[] = [];
  const sections = Object.entries(asObject(document.paths)).map(([path, value]) => {
    const item = asObject(value);
    const pathAnchor = anchors.take('path', path);
    const operations = OPERATIONS.filter((m) => isObject(item[m])).map((method) => {
      const operation = asObject(item[method]);
      const anchor = anchors.take('op', asString(operation.operationId) || `${method}-${path}`);
      return { method, anchor, html: render.operation(anchor, method, path, operation) };
    });
    const links = operations.map((o) => html`<a href="#${o.anchor}">${o.method.toUpperCase()}</a>`);
    toc.push(html`<li><a href="#${pathAnchor}">${code(path)}</a>: ${joinHtml(links, ' ')}</li>`);
    const summary = item.summary ? html`<p><strong>${asString(item.summary)}</strong></p>` : '';
    const parameters = render.parameterRows(item.parameters);
    const shared = parameters.text !== '' && html`<p>Parameters of every operation on this path:</p>\n${parameters}`;
    const bodies = operations.map((o) => o.html);
    return html`<section class="path" id="${pathAnchor}">
<h3>${pathTitle(render, path, item)}</h3>
${summary}
${prose(item.description)}
${shared}
${joinHtml(bodies, '\n')}
</section>`;
  });
  return { toc, sections };
}

/** The sections of the schemas, parameters, headers and responses, and their lines in the contents. */
function componentSections(render: Renderer, components: Json): { toc: Html[]; sections: Html[] } {
  const toc: Html[] = [];
  const sections: Html[] = [];
  for (const [section, heading] of [
    ['schemas', 'Schemas'],
    ['parameters', 'Parameters'],
    ['headers', 'Headers'],
    ['responses', 'Responses'],
  ] as const) {
    const entries = Object.entries(asObject(components[section]));
    if (entries.length === 0) continue;
    const id = `components-${section}`;
    const links = entries.map(([name]) => html`<a href="#${componentAnchor(section, name)}">${name}</a>`);
    toc.push(html`<li><a href="#${id}">${heading}</a>: ${joinHtml(links, ', ')}</li>`);
    const blocks = entries.map(([name, value]) => componentBlock(render, section, name, value));
    sections.push(html`<section id="${id}">\n<h2>${heading}</h2>\n${joinHtml(blocks, '\n')}\n</section>`);
  }
  return { toc, sections };
}

function componentBlock(render: Renderer, section: string, name: string, value: unknown): Html {
  const anchor = componentAnchor(section, name);
  let body: Html;
  if (section === 'schemas') body = render.schema(value);
  else if (section === 'parameters') body = render.parameterRows([value]);
  else if (section === 'headers') body = render.headerComponent(value);
  else body = render.response(`${anchor}-body`, '', value);
  return html`<section id="${anchor}">
<h3><a href="#${anchor}">${name}</a></h3>
${body}
<details><summary>As JSON</summary><pre>${JSON.stringify(value, null, 2)}</pre></details>
</section>`;
}
