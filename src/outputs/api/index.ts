// The JSON API: every listing and survey route without format=api, each group's and facility's
// compact JSON spliced in, and the fixed bodies (errors, OPTIONS) the host's rules answer with.

import type { Output, OutputFiles } from '../output.ts';
import { nodeObject } from './objects.ts';
import { encodeJson } from './encode.ts';
import { fixedFiles } from './fixed.ts';
import { planApi } from './plan.ts';
import { responses } from './responses.ts';

export const api: Output = {
  name: 'api',
  plan: planApi,
  reference({ archive, baseUrl }) {
    const files: OutputFiles = new Map();
    const objects = responses(
      archive,
      (kind, entry, survey, release) => nodeObject(kind, entry.data, [survey.data.name, release.data.name]),
      baseUrl,
    );
    for (const response of objects) if (response.format !== 'api') files.set(response.path, encodeJson(response.value));
    for (const [file, text] of fixedFiles()) files.set(file, text);
    return files;
  },
};
