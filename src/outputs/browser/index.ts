// The schema browser: a page for every survey, release, group, table, facility and band, search
// over every column, deep links, the sky map and the band chart. Each group's and facility's pages
// are rendered once per file (its texts), and spliced into the site here.

import { SECTIONS } from '../../kinds/registry.ts';
import { wholeText } from '../../site/plan.ts';
import type { Output } from '../output.ts';
import { BROWSER, planBrowser } from './plan.ts';
import { browserTexts } from './texts.ts';

export const browser: Output = {
  name: BROWSER,
  // Each file's pages (a group's and its tables', a facility's and its bands'), each with a NUL where
  // the way to its survey's and release's pages goes, and the file's line on its release's page.
  texts: [{ name: BROWSER, kinds: SECTIONS.map((s) => s.kind), filled: true, renderMany: browserTexts }],
  plan: planBrowser,
  // The same planner over texts rendered from whole objects, held in memory, filled in place.
  reference: (input) => new Map(planBrowser(input).map((plan) => [plan.path, wholeText(plan.path, plan.pieces)])),
};
