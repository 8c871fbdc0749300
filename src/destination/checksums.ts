// SHA-256 checksums of planned files, read through their pieces as the writer would write them.
// A file's plan key names its bytes, so a checksum is computed once per key and kept in the build
// cache: a rebuild hashes only the files whose bytes changed.

import { createHash } from 'node:crypto';
import type { Plan } from '../outputs/plan.ts';
import { fileChunks } from './compress.ts';
import { PieceReader, newSlot } from './pieces.ts';

/** Each plan's SHA-256 (hex), by path; `known` maps plan keys to checksums computed before, and is added to. */
export async function checksumsOf(plans: readonly Plan[], known: Map<string, string>): Promise<Map<string, string>> {
  const slot = newSlot();
  // Each chunk is hashed before the next is asked for, so one slot serves every read.
  const reader = new PieceReader(() => Promise.resolve(slot));
  const sums = new Map<string, string>();
  for (const plan of plans) {
    let sum = known.get(plan.key);
    if (sum === undefined) {
      const hash = createHash('sha256');
      for await (const chunk of fileChunks(plan, reader)) hash.update(chunk);
      sum = hash.digest('hex');
      known.set(plan.key, sum);
    }
    sums.set(plan.path, sum);
  }
  return sums;
}
