// Worker threads that write the output's files (file-writer.ts), each a file at a time, while this
// thread decides what goes where: reading the cache's texts, shifting and filling them and writing
// them took one thread 3 s of a cold build of the L archive, with the other core idle. A file goes
// to whichever thread is free first. Only files whose texts are mostly in the cache's files are
// sent (texts in memory would be copied to the thread); the writer (write.ts) writes the others.
// They also deflate the download zip's members, before any file waiting to be written: on the
// thread pool, each member cost this thread as much again in handing its bytes to and from zlib.

import { Worker } from 'node:worker_threads';
import type { Piece } from '../outputs/plan.ts';
import { codeFile } from '../project.ts';
import { errorOf } from './file-writer.ts';
import type { Failure, WriterTask as Task } from './file-writer.ts';
import type { Written } from './file-sink.ts';
import type { Deflated, DeflatedBlocks } from '../outputs/download/zip.ts';

const WORKER_SCRIPT = codeFile('destination/write-worker.js');
/** Files sent to each thread at once: one to write, one waiting, so that no thread waits on this one. */
const EACH = 2;
/**
 * More small files may wait, up to this many bytes and files a thread: a page of the schema browser
 * takes a thread a fifth of a millisecond, about as long as its message takes to come and go, and
 * with two at a time the threads of a cold L build sat idle for half of the 0.5 s they spent on the
 * browser's 2,325 pages and zip members.
 */
const SMALL_BYTES = 1 << 20;
const SMALL_JOBS = 32;

/** A task's bytes, as far as waiting goes (a file of unknown size counts as large). */
function sizeOf(task: Task): number {
  if ('deflate' in task) return task.deflate.size;
  if ('blocks' in task) return task.blocks.size;
  return task.size ?? SMALL_BYTES;
}

interface Job {
  id: number;
  task: Task;
  resolve: (done: Written | Deflated | DeflatedBlocks) => void;
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

/** The bytes of what a thread has been sent and not finished. */
function waiting(thread: Thread): number {
  let bytes = 0;
  for (const job of thread.jobs.values()) bytes += sizeOf(job.task);
  return bytes;
}

export class WriterThreads {
  private readonly threads: Thread[];
  private readonly queue: Job[] = [];
  /** Members to deflate, sent before the files in `queue`: the zip waits on them. */
  private readonly urgent: Job[] = [];
  private next = 0;
  private broken?: Error;

  constructor(count: number) {
    this.threads = Array.from({ length: count }, () => this.start());
  }

  /**
   * Writes the pieces into `file` in a thread, and takes its SHA-256 if `hash` says; `size`, the
   * file's length where known, and `same`, how many of its first bytes the file there holds
   * already (FileWriter.write).
   */
  write(file: string, pieces: readonly Piece[], there: boolean, hash = false, size?: number, same = 0): Promise<Written> {
    return this.ask({ file, pieces, there, hash, size, same }, this.queue) as Promise<Written>;
  }

  /** A zip member of the pieces' `size` bytes, deflated in a thread (zip.ts, deflateMember). */
  deflate(pieces: readonly Piece[], size: number): Promise<Deflated> {
    return this.ask({ deflate: { pieces, size } }, this.urgent) as Promise<Deflated>;
  }

  /** A large member's blocks, those not `known` deflated, in a thread (zip.ts, deflateBlocks). */
  blocks(pieces: readonly Piece[], size: number, known: readonly string[]): Promise<DeflatedBlocks> {
    return this.ask({ blocks: { pieces, size, known } }, this.urgent) as Promise<DeflatedBlocks>;
  }

  private ask(task: Task, queue: Job[]): Promise<Written | Deflated | DeflatedBlocks> {
    return new Promise((resolve, reject) => {
      if (this.broken) {
        reject(this.broken);
        return;
      }
      queue.push({ id: this.next++, task, resolve, reject });
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
    thread.worker.on(
      'message',
      (message: { id: number; done?: Written | Deflated | DeflatedBlocks; failure?: Failure } | { stopped: true }) => {
        if ('stopped' in message) {
          thread.stopped?.();
          return;
        }
        const job = thread.jobs.get(message.id);
        thread.jobs.delete(message.id);
        if (message.done) job?.resolve(message.done);
        else job?.reject(errorOf(message.failure ?? { message: 'no reply from the writer thread' }));
        this.deal();
      },
    );
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
      for (;;) {
        const next = this.urgent[0] ?? this.queue[0];
        if (!next) return;
        const room = thread.jobs.size < EACH || (thread.jobs.size < SMALL_JOBS && waiting(thread) + sizeOf(next.task) <= SMALL_BYTES);
        if (!room) break;
        const job = (this.urgent.shift() ?? this.queue.shift()) as Job;
        thread.jobs.set(job.id, job);
        thread.worker.postMessage({ id: job.id, ...job.task });
      }
    }
  }

  /** Fails the files not sent to a thread yet (a file failed: the rest are not written). */
  cancel(error: Error): void {
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0)]) job.reject(error);
  }

  /** Fails what is waiting, and whatever is asked from now on. */
  private fail(error: Error): void {
    this.broken ??= error;
    this.cancel(error);
  }
}
