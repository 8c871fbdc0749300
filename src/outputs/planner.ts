// What every planner is given: the checked archive, each group's and facility's rendered text (by
// metadata-relative path), and the base URL of the site's links. A planner returns the plans of
// its output's files and touches nothing.

import type { Archive } from '../pipeline/assemble.ts';
import type { Fragment } from './fragment.ts';
import type { Plan } from './plan.ts';

export interface PlanInput {
  archive: Archive;
  fragments: ReadonlyMap<string, Fragment>;
  /** Absolute, without a trailing slash, e.g. https://schema.example.org. */
  baseUrl: string;
}

export type Planner = (input: PlanInput) => Plan[];
