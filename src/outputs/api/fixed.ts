// The API's files that do not depend on the metadata: the error bodies the host's rules point at,
// and the bodies and browsable pages the edge computes, written as files too for hosts that answer
// from files.

import { pageJson, renderBrowsable } from '../browsable/page.ts';
import {
  BODIES,
  COMMON_METHODS,
  ERROR_FILES,
  METHOD_MARK,
  PAGE_ANSWERS,
  answerPageFile,
  methodNotAllowedBody,
  methodNotAllowedFile,
  optionsBody,
  optionsFile,
} from '../../site/routes.ts';
import type { PageAnswer, View } from '../../site/routes.ts';

/** dist/-relative path → file content. */
export function fixedFiles(): Map<string, string> {
  const out = new Map<string, string>();
  out.set(ERROR_FILES.required, BODIES.required);
  out.set(ERROR_FILES.invalid, BODIES.invalid);
  out.set(ERROR_FILES.notFound, BODIES.notFound);
  for (const method of COMMON_METHODS) out.set(methodNotAllowedFile(method), methodNotAllowedBody(method));
  out.set(optionsFile('list'), optionsBody('list'));
  out.set(optionsFile('detail'), optionsBody('detail'));
  for (const view of ['list', 'detail'] as const) {
    for (const [answer, status] of Object.entries(PAGE_ANSWERS[view]) as [PageAnswer, number][]) {
      const json = pageBody(view, answer);
      out.set(answerPageFile(view, answer), renderBrowsable({ view, status, pretty: pageJson(JSON.parse(json)) }));
    }
  }
  return out;
}

function pageBody(view: View, answer: PageAnswer): string {
  if (answer === 'options') return optionsBody(view);
  if (answer === 'method') return methodNotAllowedBody(METHOD_MARK);
  return BODIES[answer];
}
