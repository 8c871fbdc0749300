// The OpenAPI description and its reference page, at the files the route table gives the two
// documents: both are made from the one document, so the page never says what the JSON does not.

import { DOCUMENTS } from '../../site/routes.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import { OPENAPI_PATH, REFERENCE_PATH, openapiDocument } from './document.ts';
import { apiReferencePage } from './page.ts';

/** The output file that answers a document's path (a bug when the route table has none). */
export function documentFile(path: string): string {
  const document = DOCUMENTS.find((d) => d.path === path);
  if (!document) throw new Error(`the route table has no document at ${path}`);
  return document.file;
}

/** A planner like every other, though the document does not depend on the metadata. */
export function planOpenapi(): Plan[] {
  const document = openapiDocument();
  return [
    planOf(documentFile(OPENAPI_PATH), [`${JSON.stringify(document, null, 2)}\n`]),
    planOf(documentFile(REFERENCE_PATH), [apiReferencePage(document)]),
  ];
}
