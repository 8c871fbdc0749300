// A worker thread that takes the SHA-256 of each file it is sent (sums.ts).

import { parentPort } from 'node:worker_threads';
import { sha256OfFile } from './file-sum.ts';

const buffer = Buffer.allocUnsafe(1 << 20);
parentPort?.on('message', ({ id, file }: { id: number; file: string }) => {
  try {
    parentPort?.postMessage({ id, sha256: sha256OfFile(file, buffer) });
  } catch (error) {
    parentPort?.postMessage({ id, error: (error as Error).message });
  }
});
