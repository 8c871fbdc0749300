// Worker threads that write the output's files (file-writer.ts), each a file at a time, while this
// thread decides what goes where: reading the cache's texts, shifting and filling them and writing
// them took one thread 3 s of a cold build of the L archive, with the other core idle. A file goes
// to whichever thread is free first. Only files whose texts are mostly in the cache's files are
// sent (texts in memory would be copied to the thread); the writer (write.ts) writes the others.

import { Worker } from 'node:worker_threads';
import type { Piece } from '../outputs/plan.ts';
import { codeFile } from '../project.ts';
import { errorOf } from './file-writer.ts';
import type { Failure, Written } from './file-writer.ts';

const WORKER_SCRIPT = codeFile('destination/write-worker.js');
/** Files sent to each thread at once: one to write, one waiting, so that no thread waits on this one. */
const EACH = 2;

interface Job {
  id: number;
  file: string;
  pieces: readonly Piece[];
  there: boolean;
  resolve: (written: Written) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
  /** Called once the thread has closed its files and may be ended. */
  stopped?: () => void;
  /** Settles when the thread has ended, whatever ended it. */
  exited: Promise<unknown>;
}

export class WriterThreads {
  private readonly threads: Thread[];
  private readonly queue: Job[] = [];
  private next = 0;
  private broken?: Error;

  constructor(count: number) {
    this.threads = Array.from({ length: count }, () => this.start());
  }

  /** Writes the pieces into `file` in a thread (FileWriter.write). */
  write(file: string, pieces: readonly Piece[], there: boolean): Promise<Written> {
    return new Promise((resolve, reject) => {
      if (this.broken) {
        reject(this.broken);
        return;
      }
      this.queue.push({ id: this.next++, file, pieces, there, resolve, reject });
      this.deal();
    });
  }

  /** Ends the threads, once each has closed the files it kept open; files not written yet fail. */
  async close(): Promise<void> {
    this.fail(new Error('the writer threads were stopped'));
    await Promise.all(
      this.threads.map(async (thread) => {
        const stopped = new Promise<void>((resolve) => (thread.stopped = resolve));
        thread.worker.postMessage({ stop: true });
        // A thread that broke has nothing to close.
        await Promise.race([stopped, thread.exited]);
        await thread.worker.terminate();
      }),
    );
  }

  private start(): Thread {
    const worker = new Worker(WORKER_SCRIPT);
    const thread: Thread = { worker, jobs: new Map(), exited: new Promise((resolve) => worker.once('exit', resolve)) };
    thread.worker.on('message', (message: { id: number; written?: Written; failure?: Failure } | { stopped: true }) => {
      if ('stopped' in message) {
        thread.stopped?.();
        return;
      }
      const job = thread.jobs.get(message.id);
      thread.jobs.delete(message.id);
      if (message.written) job?.resolve(message.written);
      else job?.reject(errorOf(message.failure ?? { message: 'no reply from the writer thread' }));
      this.deal();
    });
    thread.worker.on('error', (error) => {
      for (const job of thread.jobs.values()) job.reject(error);
      thread.jobs.clear();
      this.fail(error);
    });
    return thread;
  }

  /** Sends waiting files to threads with room for them. */
  private deal(): void {
    for (const thread of this.threads) {
      while (thread.jobs.size < EACH) {
        const job = this.queue.shift();
        if (!job) return;
        thread.jobs.set(job.id, job);
        thread.worker.postMessage({ id: job.id, file: job.file, pieces: job.pieces, there: job.there });
      }
    }
  }

  /** Fails the files not sent to a thread yet (a file failed: the rest are not written). */
  cancel(error: Error): void {
    this.fail(error);
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const job of this.queue.splice(0)) job.reject(error);
  }
}
