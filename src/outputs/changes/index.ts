// What changed, and when, published: the changelog in the schema browser (the archive's, each
// survey's and release's), an Atom feed (/changes.atom) and the records as JSON (/changes.json),
// made from the change records (changes/) the build reads; and on the browser's pages of the
// archive's nodes, when each was added and last changed, linked to the records (notes.ts).

import { wholeText } from '../../site/plan.ts';
import type { Output } from '../output.ts';
import { changesPageNotes } from './notes.ts';
import { planChanges } from './plan.ts';

export const changes: Output = {
  name: 'changes',
  plan: planChanges,
  // The same planner: its files are made whole, as text.
  reference: (input) => new Map(planChanges(input).map((plan) => [plan.path, wholeText(plan.path, plan.pieces)])),
  pageNotes: changesPageNotes,
};
