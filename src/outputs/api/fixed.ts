// The API's files that do not depend on the metadata: the error bodies the host's rules point at,
// and the bodies the edge computes, written as files too for hosts that answer from files.

import {
  BODIES,
  COMMON_METHODS,
  ERROR_FILES,
  methodNotAllowedBody,
  methodNotAllowedFile,
  optionsBody,
  optionsFile,
} from '../../hosting/routes.ts';

/** dist/-relative path → file content. */
export function fixedFiles(): Map<string, string> {
  const out = new Map<string, string>();
  out.set(ERROR_FILES.required, BODIES.required);
  out.set(ERROR_FILES.invalid, BODIES.invalid);
  out.set(ERROR_FILES.notFound, BODIES.notFound);
  for (const method of COMMON_METHODS) out.set(methodNotAllowedFile(method), methodNotAllowedBody(method));
  out.set(optionsFile('list'), optionsBody('list'));
  out.set(optionsFile('detail'), optionsBody('detail'));
  return out;
}
