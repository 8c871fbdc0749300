// A worker thread of the build's per-file stage (pool.ts): digests each file it is sent.

import { parentPort, workerData } from 'node:worker_threads';
import { noCache, openCache } from './cache.ts';
import { digestJob } from './pool.ts';
import type { Job } from './pool.ts';
import { compileValidators } from './validate.ts';

const validators = compileValidators();
const { cacheDir } = workerData as { cacheDir?: string };
const cache = cacheDir ? openCache(cacheDir) : noCache();
parentPort?.on('message', (job: Job) => {
  const result = digestJob(job, validators, cache);
  // The rendered bytes move to the main thread rather than being copied.
  const fragment = result.fragment;
  const transfer = fragment
    ? [fragment.compact, fragment.page, fragment.surveyPage, ...Object.values(fragment.texts).map((t) => t.bytes)].flatMap((b) =>
        b instanceof Uint8Array ? [b.buffer as ArrayBuffer] : [],
      )
    : [];
  parentPort?.postMessage(result, transfer);
});
