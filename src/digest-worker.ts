// A worker thread of the build's per-file stage (pipeline/pool.ts): digests each file it is sent,
// rendering groups' and facilities' texts as the outputs declare them. It sits beside the
// orchestrator because it wires two stages, as build.ts does: the digest and the outputs' renderer.

import { parentPort, workerData } from 'node:worker_threads';
import { renderFragment } from './outputs/fragment.ts';
import { noCache, openCache } from './pipeline/cache.ts';
import { digestJob } from './pipeline/pool.ts';
import type { Job } from './pipeline/pool.ts';
import { compileValidators } from './pipeline/validate.ts';

const validators = compileValidators();
const { cacheDir } = workerData as { cacheDir?: string };
const cache = cacheDir ? openCache(cacheDir) : noCache();
parentPort?.on('message', (job: Job) => {
  const result = digestJob(job, validators, cache, renderFragment);
  // The rendered bytes move to the main thread rather than being copied.
  const fragment = result.fragment;
  const transfer = fragment
    ? [fragment.compact, fragment.page, fragment.surveyPage, ...Object.values(fragment.texts).map((t) => t.bytes)].flatMap((b) =>
        b instanceof Uint8Array ? [b.buffer as ArrayBuffer] : [],
      )
    : [];
  parentPort?.postMessage(result, transfer);
});
