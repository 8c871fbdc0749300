// The browsable pages (format=api): DRF's HTML rendering of every listing and survey route, each
// group's and facility's page text spliced in at its column.

import { nodeObject } from '../api/objects.ts';
import { responses } from '../api/responses.ts';
import type { Output, OutputFiles } from '../output.ts';
import { pageJson, renderBrowsable } from './page.ts';
import { planBrowsable } from './plan.ts';

export const browsable: Output = {
  name: 'browsable',
  plan: planBrowsable,
  reference({ archive, baseUrl }) {
    const files: OutputFiles = new Map();
    const objects = responses(
      archive,
      (kind, entry, survey, release) => nodeObject(kind, entry.data, [survey.data.name, release.data.name]),
      baseUrl,
    );
    for (const response of objects) {
      if (response.format !== 'api') continue;
      files.set(
        response.path,
        renderBrowsable({ view: response.view, status: 200, pretty: pageJson(response.value), survey: response.survey }),
      );
    }
    return files;
  },
};
