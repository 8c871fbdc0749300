// SHA-256 checksums of files the writer has written (the download's, which its list and page are
// made of), taken in a worker thread while the writer's thread goes on writing the other files: at
// L they are 190 MB after an edit, a tenth of a second of hashing. A small file's is taken in this
// thread, where it costs less than starting the worker; so is every file's where no worker can run
// (the code run from its TypeScript sources, by the tests).

import { Worker } from 'node:worker_threads';
import { RUNS_COMPILED, codeFile } from '../project.ts';
import { sha256OfFile } from './file-sum.ts';

const WORKER_SCRIPT = codeFile('destination/sum-worker.js');
/** Files at least this long are hashed in the worker. */
const LARGE = 4 << 20;

export class FileSums {
  private worker?: Worker;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (sum: string) => void; reject: (error: Error) => void }>();

  /** The SHA-256 (hex) of a file of `size` bytes that is written and will not change. */
  sum(file: string, size: number): Promise<string> {
    // A failure to read it rejects the promise.
    if (!RUNS_COMPILED || size < LARGE) return new Promise((resolve) => resolve(sha256OfFile(file)));
    const worker = (this.worker ??= this.start());
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, file });
    });
  }

  /** Stops the worker, once nothing is waiting for it. */
  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SCRIPT);
    worker.on('message', ({ id, sha256, error }: { id: number; sha256?: string; error?: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (sha256 !== undefined) waiting?.resolve(sha256);
      else waiting?.reject(new Error(error ?? 'no checksum'));
    });
    worker.on('error', (error) => {
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
      this.worker = undefined;
    });
    return worker;
  }
}
