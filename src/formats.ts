// The one place that bridges ajv-formats' CommonJS default export into our ES modules
// (the default import resolves differently under NodeNext; see ajv issue 2132).

import type { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv, formats: string[]) => Ajv;

const plugin = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin));

/** Adds the string formats the metadata schemas use. */
export function addFormats(ajv: Ajv): void {
  plugin(ajv, ['email', 'uri']);
}
