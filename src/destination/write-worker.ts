// A writer thread (write-threads.ts): writes each file it is sent, and closes the cache's files it
// kept open when it is told to stop.

import { parentPort } from 'node:worker_threads';
import type { Piece } from '../outputs/plan.ts';
import { FileWriter, failureOf } from './file-writer.ts';

const writer = new FileWriter();
parentPort?.on('message', (job: { id: number; file: string; pieces: Piece[]; there: boolean } | { stop: true }) => {
  if ('stop' in job) {
    writer.close();
    parentPort?.postMessage({ stopped: true });
    return;
  }
  try {
    parentPort?.postMessage({ id: job.id, written: writer.write(job.file, job.pieces, job.there) });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, failure: failureOf(error) });
  }
});
