// The one place that loads ajv and ajv-formats, CommonJS both: required when validators are first
// compiled, so that a build with nothing to validate (every file unchanged) never loads them.
// (ajv-formats' default export resolves differently under NodeNext; see ajv issue 2132.)

import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv } from 'ajv';

type FormatsPlugin = (ajv: Ajv, formats: string[]) => Ajv;

/** A new Ajv instance with the string formats the metadata schemas use. */
export function newAjv(options: AjvModule.Options): Ajv {
  const require = createRequire(import.meta.url);
  const { Ajv: AjvClass } = require('ajv') as typeof AjvModule;
  const formats = require('ajv-formats') as { default?: FormatsPlugin } & FormatsPlugin;
  const ajv = new AjvClass(options);
  (formats.default ?? formats)(ajv, ['email', 'uri']);
  return ajv;
}
