// SHA-256 checksums of planned files, read through their pieces as the writer would write them,
// for the download's checksum list. A file's plan key names its bytes, so a checksum the previous
// build recorded for a key is taken as it is: a rebuild hashes only the files whose bytes changed.

import { createHash } from 'node:crypto';
import { OpenFiles, PlanReader } from '../site/plan-bytes.ts';
import type { Plan } from '../site/plan.ts';

/** Each plan's SHA-256 (hex), by path; `known` maps plan keys to checksums taken before. */
export function checksumsOf(plans: readonly Plan[], known: ReadonlyMap<string, string>): Map<string, string> {
  const files = new OpenFiles();
  const reader = new PlanReader(files);
  const taken = new Map(known);
  const sums = new Map<string, string>();
  try {
    for (const plan of plans) {
      let sum = taken.get(plan.key);
      if (sum === undefined) {
        const hash = createHash('sha256');
        for (const chunk of reader.chunks(plan.pieces)) hash.update(chunk);
        sum = hash.digest('hex');
        taken.set(plan.key, sum);
      }
      sums.set(plan.path, sum);
    }
  } finally {
    files.close();
  }
  return sums;
}
