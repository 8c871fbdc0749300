// The one place that loads ajv and ajv-formats, CommonJS both: required when validators are first
// compiled, so that a build with nothing to validate (every file unchanged), or one using the
// validators compiled ahead of time (validate.ts), never loads them.
// (ajv-formats' default export resolves differently under NodeNext; see ajv issue 2132.)

import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, Name, Options } from 'ajv';

type FormatsPlugin = (ajv: Ajv, formats: string[]) => Ajv;

const require = createRequire(import.meta.url);

/** A new Ajv instance with the string formats the metadata schemas use. */
export function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = require('ajv') as typeof AjvModule;
  const formats = require('ajv-formats') as { default?: FormatsPlugin } & FormatsPlugin;
  const ajv = new AjvClass(options);
  (formats.default ?? formats)(ajv, ['email', 'uri']);
  return ajv;
}

/** ajv's code template tag and the name of a validator's instance path, for a keyword's code. */
export function codegen(): { _: typeof AjvModule._; instancePath: Name } {
  const { _ } = require('ajv') as typeof AjvModule;
  const names = require('ajv/dist/compile/names') as { default: { instancePath: Name } };
  return { _, instancePath: names.default.instancePath };
}

/** The source of a CommonJS module exporting a compiled validator for each ref (ajv's standalone code). */
export function standaloneSource(ajv: Ajv, refs: Record<string, string>): string {
  const standalone = require('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string };
  return standalone.default(ajv, refs);
}

/** ajv's version: validators compiled ahead of time are good only for the version that made them. */
export function ajvVersion(): string {
  return (require('ajv/package.json') as { version: string }).version;
}
