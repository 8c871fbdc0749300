// The browsable pages (format=api) of every listing and survey route, with each group's and
// facility's page text spliced in at its column. The request line is left for the edge to fill in.

import { responses } from '../api/responses.ts';
import { pagePiece } from '../../site/fragment.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import type { PlanInput } from '../output.ts';
import { Placeholders } from '../splice.ts';
import { browsableFrame, linkedJson, pageJson } from './page.ts';

export function planBrowsable({ archive, fragments, baseUrl }: PlanInput): Plan[] {
  const placeholders = new Placeholders(fragments);
  const plans: Plan[] = [];
  for (const response of responses(archive, (_kind, entry) => placeholders.for(entry.file.relative), baseUrl)) {
    if (response.format !== 'api') continue;
    const [head, tail] = browsableFrame({ view: response.view, status: 200, survey: response.survey });
    // The same escaping and linking the reference applies to the whole text, applied to the parts
    // between placeholders: neither ever reaches across a string's quotes.
    const parts = placeholders.split(linkedJson(pageJson(response.value)), placeholders.count(response.value));
    const body = parts.map((part) => (typeof part === 'string' ? part : pagePiece(part.fragment, part.column)));
    plans.push(planOf(response.path, [head, ...body, tail]));
  }
  return plans;
}
