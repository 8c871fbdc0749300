// The API's JSON files: every listing and survey route without format=api, with each group's and
// facility's compact JSON spliced in, and the fixed bodies.

import { encodeJson } from './encode.ts';
import { fixedFiles } from './fixed.ts';
import { responses } from './responses.ts';
import { compactPiece } from '../fragment.ts';
import { planOf, plansOf } from '../plan.ts';
import type { Plan } from '../plan.ts';
import type { PlanInput } from '../planner.ts';
import { Placeholders } from '../splice.ts';

export function planApi({ archive, fragments, baseUrl }: PlanInput): Plan[] {
  const placeholders = new Placeholders(fragments);
  const plans: Plan[] = [];
  for (const response of responses(archive, (_kind, entry) => placeholders.for(entry.file.relative), baseUrl)) {
    if (response.format === 'api') continue;
    const parts = placeholders.split(encodeJson(response.value), placeholders.count(response.value));
    plans.push(
      planOf(
        response.path,
        parts.map((part) => (typeof part === 'string' ? part : compactPiece(part.fragment))),
      ),
    );
  }
  return [...plans, ...plansOf(fixedFiles())];
}
