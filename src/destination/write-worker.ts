// A writer thread (write-threads.ts): writes each file it is sent, deflates each zip member, and
// closes the cache's files it kept open when it is told to stop.

import { parentPort } from 'node:worker_threads';
import { FileWriter, failureOf } from './file-writer.ts';
import type { WriterTask } from './file-writer.ts';

const writer = new FileWriter();
type Job = { id: number } & WriterTask;

// One job at a time, in the order sent: the writer's buffers are its own until a file is written.
let turn = Promise.resolve();

parentPort?.on('message', (job: Job | { stop: true }) => {
  turn = turn.then(() => run(job));
});

async function run(job: Job | { stop: true }): Promise<void> {
  if ('stop' in job) {
    writer.close();
    parentPort?.postMessage({ stopped: true });
    return;
  }
  try {
    const done =
      'deflate' in job
        ? writer.deflate(job.deflate.pieces, job.deflate.size)
        : 'blocks' in job
          ? writer.blocks(job.blocks.pieces, job.blocks.size, job.blocks.known)
          : await writer.write(job.file, job.pieces, job.there, job.hash, job.size, job.same);
    parentPort?.postMessage({ id: job.id, done });
  } catch (error) {
    parentPort?.postMessage({ id: job.id, failure: failureOf(error) });
  }
}
