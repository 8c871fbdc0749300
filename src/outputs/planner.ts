// What every planner is given: the checked archive, each group's and facility's rendered text (by
// metadata-relative path), the base URL of the site's links, and where the text it made from the
// same inputs last time may be recalled. A planner returns the plans of its output's files and
// touches nothing.

import type { Archive } from '../pipeline/assemble.ts';
import type { Recall } from '../pipeline/cache.ts';
import type { Fragment } from '../site/fragment.ts';
import type { Plan } from '../site/plan.ts';

export interface PlanInput {
  archive: Archive;
  fragments: ReadonlyMap<string, Fragment>;
  /** Absolute, without a trailing slash, e.g. https://schema.example.org. */
  baseUrl: string;
  /**
   * The text `make` gives, recalled from the last build that made the `name`d text from inputs of
   * the same `key` where there is one (the build cache's), made now otherwise: the same either way.
   */
  recall?: Recall;
}

export type Planner = (input: PlanInput) => Plan[];
