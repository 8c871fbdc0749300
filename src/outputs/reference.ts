// The reference transform: every response built as whole objects and serialised at once, the
// straightforward way. The build's fast path (outputs/plan.ts) must give the same bytes; tests and
// `build --reference` hold it to that.

import type { Archive } from '../pipeline/assemble.ts';
import { fixedFiles } from './api/fixed.ts';
import { encodeJson } from './api/encode.ts';
import { nodeObject } from './api/objects.ts';
import { responses } from './api/responses.ts';
import { pageJson, renderBrowsable } from './browsable/page.ts';
import { FRONT_PAGE, frontPage } from './site.ts';

/** dist/-relative path → file content. Insertion order is the order files are listed in. */
export type OutputFiles = Map<string, string>;

export function referenceFiles(archive: Archive, baseUrl: string): OutputFiles {
  const out: OutputFiles = new Map();
  const items = responses(
    archive,
    (kind, entry, survey, release) => nodeObject(kind, entry.data, [survey.data.name, release.data.name]),
    baseUrl,
  );
  for (const spec of items) {
    out.set(
      spec.path,
      spec.format === 'api' ? renderBrowsable({ view: spec.view, status: 200, pretty: pageJson(spec.value) }) : encodeJson(spec.value),
    );
  }
  for (const [path, text] of fixedFiles()) out.set(path, text);
  out.set(FRONT_PAGE, frontPage(archive));
  return out;
}
