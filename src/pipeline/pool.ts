// Digests files, from the cache where it has them and in worker threads where there are cores to
// spare: parsing and rendering are the build's heaviest work and each file's is independent.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Cache } from './cache.ts';
import { digest } from './digest.ts';
import type { Digest, Render } from './digest.ts';
import { TextScratch } from '../site/fragment.ts';
import type { Fragment } from '../site/fragment.ts';
import { RUNS_COMPILED } from '../project.ts';
import { compileValidators } from './validate.ts';
import type { Validators } from './validate.ts';

export interface Job {
  relative: string;
  /** The file's UTF-8 bytes; decoded by whichever thread parses them. */
  bytes: Uint8Array;
  key: string;
  /** Whether to render the texts the outputs splice in (a check without a cache needs none). */
  render: boolean;
}

/** A file to digest: its bytes are read only if the cache does not have its digest. */
export interface Request {
  relative: string;
  bytes: () => Uint8Array;
  key: string;
}

/**
 * Digests one file and stores the digest in the cache: the same in this thread and in a worker.
 * Once its texts are stored, the digest handed on points at them in the cache, as a warm build's
 * do: the build does not hold them in memory, and the writer copies them from there.
 */
export function digestJob(job: Job, validators: Validators, cache: Cache, render: Render): Digest {
  // Texts the cache stores go there at once: they are encoded into this thread's scratch buffer.
  scratch.reset();
  const encode = cache.storesTexts ? scratch.encode : undefined;
  const result = digest(job.relative, job.bytes, job.key, validators, job.render ? render : undefined, encode);
  const stored = cache.put(result);
  if (stored) return { ...result, fragment: stored };
  // Not stored (a full disk): the texts are copied out of the scratch buffer, which the next file reuses.
  return result.fragment && encode ? { ...result, fragment: ownBytes(result.fragment) } : result;
}

const scratch = new TextScratch();

/** The fragment with bytes of its own for each of its texts. */
function ownBytes(fragment: Fragment): Fragment {
  const own = <T extends Fragment['compact']>(bytes: T): T => (bytes instanceof Uint8Array ? (bytes.slice() as T) : bytes);
  const texts = Object.fromEntries(Object.entries(fragment.texts).map(([name, text]) => [name, { ...text, bytes: own(text.bytes) }]));
  return { ...fragment, compact: own(fragment.compact), page: own(fragment.page), surveyPage: own(fragment.surveyPage), texts };
}

const WORK_PER_WORKER = 4_000_000;

/** How many workers a build uses by default: one per core, at most four. */
export function defaultWorkers(): number {
  return RUNS_COMPILED ? Math.min(4, Math.max(0, availableParallelism())) : 0;
}

export async function digestAll(
  requests: readonly Request[],
  cache: Cache,
  options: {
    workers: number;
    /** Renders the texts of groups and facilities, here; the worker script does in its threads. */
    render: Render;
    /** A worker thread's script (compiled JavaScript: under a TypeScript test runner the work stays here). */
    workerScript: URL;
    /** Whether to render the texts at all (a check without a cache needs none). */
    rendering?: boolean;
    cacheDir?: string;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<Digest[]> {
  const results: (Digest | undefined)[] = requests.map((r) => cache.get(r.key));
  const todo = requests.flatMap((r, index) =>
    results[index] ? [] : [{ job: { relative: r.relative, key: r.key, bytes: r.bytes(), render: options.rendering ?? true }, index }],
  );
  let done = requests.length - todo.length;
  const tick = () => options.onProgress?.(++done, requests.length);
  // A worker costs its start-up (loading the code, compiling the schemas): worth it only for
  // several megabytes of YAML each.
  const bytes = todo.reduce((n, { job }) => n + job.bytes.length, 0);
  const workers = RUNS_COMPILED ? Math.min(options.workers, Math.floor(bytes / WORK_PER_WORKER)) : 0;
  if (workers > 1) {
    // Workers store what they make in the cache themselves, in parallel.
    await runWorkers(options.workerScript, workers, todo, options.cacheDir, (index, result) => {
      results[index] = result;
      tick();
    });
  } else if (todo.length > 0) {
    // The schemas are compiled only when there is something to validate.
    const validators = compileValidators();
    for (const { job, index } of todo) {
      results[index] = digestJob(job, validators, cache, options.render);
      tick();
    }
  }
  return results.map((r, i) => {
    if (!r) throw new Error(`no digest for ${requests[i]?.relative}`);
    return r;
  });
}

/** Deals the largest files out first, each to whichever worker is free, so no worker idles long. */
function runWorkers(
  script: URL,
  count: number,
  todo: { job: Job; index: number }[],
  cacheDir: string | undefined,
  deliver: (index: number, digest: Digest) => void,
): Promise<void> {
  const queue = [...todo].sort((a, b) => b.job.bytes.length - a.job.bytes.length);
  return new Promise((resolve, reject) => {
    let running = count;
    let failed = false;
    for (let n = 0; n < count; n++) {
      const worker = new Worker(script, { workerData: { cacheDir } });
      let current: { job: Job; index: number } | undefined;
      const next = () => {
        current = queue.shift();
        if (current) worker.postMessage(current.job);
        else void worker.terminate();
      };
      worker.on('message', (result: Digest) => {
        if (current) deliver(current.index, result);
        next();
      });
      worker.on('error', (error) => {
        failed = true;
        reject(error);
      });
      worker.on('exit', () => {
        if (--running === 0 && !failed) resolve();
      });
      next();
    }
  });
}
