// The response bodies' JSON Schemas (schemas/api/responses.schema.json, draft-07) as OpenAPI 3.1's
// components.schemas, in the JSON Schema 2020-12 dialect: read from the one file at build time, so
// the OpenAPI description can never disagree with the schemas the contract tests check.

import { readFileSync } from 'node:fs';
import { SCHEMA_DIR } from '../../project.ts';

const RESPONSES = new URL('api/responses.schema.json', SCHEMA_DIR);

/** Where draft-07's definitions live in an OpenAPI document. */
export const COMPONENT_SCHEMAS = '#/components/schemas/';

type Schema = Record<string, unknown>;

/** Keywords that only annotate: draft-07 ignores them beside `$ref`, and so may 2020-12. */
const ANNOTATIONS = new Set(['$ref', '$comment', 'title', 'description', 'examples', 'default', 'readOnly', 'writeOnly', 'deprecated']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One draft-07 schema in 2020-12 terms: refs to definitions point at components, a tuple's `items`
 * becomes `prefixItems` (and `additionalItems` its `items`), `definitions` become `$defs` and
 * `dependencies` split into `dependentRequired` and `dependentSchemas`. Key order is kept, so the
 * output follows the file byte for byte.
 */
export function toDialect2020(schema: unknown, where = '#'): unknown {
  if (Array.isArray(schema)) return schema.map((item, i) => toDialect2020(item, `${where}/${i}`));
  if (!isSchema(schema)) return schema;
  if (typeof schema.$ref === 'string') {
    // Draft-07 ignores every keyword beside a $ref; 2020-12 applies them. Only annotations keep
    // their meaning across that change, so anything else must be rewritten in the file (allOf).
    const applied = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
    if (applied.length > 0) throw new Error(`${where}: ${applied.join(', ')} beside $ref would apply in 2020-12; wrap the $ref in allOf`);
  }
  const tuple = Array.isArray(schema.items);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${where}/${key}`;
    if (key === '$schema') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.startsWith('#/definitions/') ? COMPONENT_SCHEMAS + value.slice('#/definitions/'.length) : value;
    } else if (key === 'items' && tuple) {
      out.prefixItems = toDialect2020(value, at);
    } else if (key === 'additionalItems') {
      // Without a tuple, draft-07 ignores additionalItems.
      if (tuple) out.items = toDialect2020(value, at);
    } else if (key === 'definitions' && isSchema(value)) {
      out.$defs = mapValues(value, at);
    } else if (key === 'dependencies' && isSchema(value)) {
      const entries = Object.entries(value);
      const required = entries.filter(([, v]) => Array.isArray(v));
      const schemas = entries.filter(([, v]) => !Array.isArray(v));
      if (required.length > 0) out.dependentRequired = Object.fromEntries(required);
      if (schemas.length > 0) out.dependentSchemas = mapValues(Object.fromEntries(schemas), at);
    } else if (['properties', 'patternProperties'].includes(key) && isSchema(value)) {
      // Property names are names, not keywords.
      out[key] = mapValues(value, at);
    } else if (['enum', 'const', 'examples', 'default', 'required'].includes(key)) {
      // Values, not schemas.
      out[key] = value;
    } else {
      out[key] = toDialect2020(value, at);
    }
  }
  return out;
}

function mapValues(schemas: Schema, where: string): Schema {
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, toDialect2020(s, `${where}/${name}`)]));
}

/** The response bodies' schemas, by definition name, in the file's order. */
export function responseSchemas(): Record<string, Schema> {
  const file = JSON.parse(readFileSync(RESPONSES, 'utf8')) as { definitions?: Record<string, unknown> };
  const converted = mapValues(file.definitions ?? {}, '#/definitions');
  return converted as Record<string, Schema>;
}
