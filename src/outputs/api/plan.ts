// The API's JSON files: every listing and survey route without format=api, with each group's and
// facility's compact JSON spliced in, and the fixed bodies.

import { encodeJson } from './encode.ts';
import { fixedFiles } from './fixed.ts';
import { responses } from './responses.ts';
import { compactPiece } from '../../site/fragment.ts';
import type { Fragment } from '../../site/fragment.ts';
import { planOf, plansOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import type { PlanInput } from '../output.ts';
import { Placeholders } from '../splice.ts';

export function planApi(input: PlanInput): Plan[] {
  const plans = [...jsonParts(input)].map(([path, parts]) =>
    planOf(
      path,
      parts.map((part) => (typeof part === 'string' ? part : compactPiece(part))),
    ),
  );
  return [...plans, ...plansOf(fixedFiles())];
}

/** A JSON answer's text: serialised strings, and the fragments spliced between them. */
export type JsonPart = string | Fragment;

const made = new WeakMap<PlanInput['archive'], { input: PlanInput; answers: Map<string, JsonPart[]> }>();

/**
 * Every JSON answer's parts (listings and survey routes without format=api), by output path, in
 * order; made once per build's input, for the API and for the download, which holds the survey
 * routes again (download/archive.ts).
 */
export function jsonParts(input: PlanInput): ReadonlyMap<string, JsonPart[]> {
  const { archive, fragments, baseUrl } = input;
  const known = made.get(archive);
  if (known?.input.fragments === fragments && known.input.baseUrl === baseUrl) return known.answers;
  const placeholders = new Placeholders(fragments);
  const answers = new Map<string, JsonPart[]>();
  for (const response of responses(archive, (_kind, entry) => placeholders.for(entry.file.relative), baseUrl)) {
    if (response.format === 'api') continue;
    const parts = placeholders.split(encodeJson(response.value), placeholders.count(response.value));
    answers.set(
      response.path,
      parts.map((part) => (typeof part === 'string' ? part : part.fragment)),
    );
  }
  made.set(archive, { input, answers });
  return answers;
}
