// The OpenAPI description of the API and its reference page: made from the route table, not the
// metadata, so the same on both paths.

import { wholeText } from '../../site/plan.ts';
import type { Output } from '../output.ts';
import { planOpenapi } from './plan.ts';

export const openapi: Output = {
  name: 'openapi',
  plan: planOpenapi,
  reference: () => new Map(planOpenapi().map((plan) => [plan.path, wholeText(plan.path, plan.pieces)])),
};
