// The site's front page: where the API is, for people who open the site's address.

import { DATA_TYPES, DOCUMENTS, requestTarget } from '../hosting/routes.ts';
import type { Archive } from '../pipeline/assemble.ts';
import { planOf } from './plan.ts';
import type { Plan } from './plan.ts';
import type { PlanInput } from './planner.ts';
import { escapeHtml } from './browsable/page.ts';

export const FRONT_PAGE = 'index.html';

export function planSite({ archive }: PlanInput): Plan[] {
  return [planOf(FRONT_PAGE, [frontPage(archive)])];
}

export function frontPage(archive: Archive): string {
  const lists = DATA_TYPES.map((t) => {
    const target = requestTarget('list', { data_type: t });
    return `<li><a href="${target}">${target}</a> (<a href="${escapeHtml(requestTarget('list', { data_type: t, format: 'api' }))}">browse</a>)</li>`;
  }).join('\n');
  const surveys = archive.surveys
    .map(
      (s) =>
        `<li><a href="${requestTarget('detail', { id: s.data.id, format: 'api' })}">${escapeHtml(s.data.pretty_name)}</a>: ${escapeHtml(s.data.title)}</li>`,
    )
    .join('\n');
  const documents = DOCUMENTS.filter((d) => d.nav)
    .map((d) => `<li><a href="${escapeHtml(d.path)}">${escapeHtml(d.title)}</a></li>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>archive-schema</title></head>
<body>
<h1>Archive schema API</h1>
<p>The archive's schema as a read-only JSON API. Listings by data type:</p>
<ul>
${lists}
</ul>
<p>Surveys:</p>
<ul>
${surveys}
</ul>
<p>To work offline and with other tools:</p>
<ul>
${documents}
</ul>
</body>
</html>
`;
}
