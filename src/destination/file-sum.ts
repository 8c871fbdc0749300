// The SHA-256 of a file as it is on disk, read a megabyte at a time: for the download's files once
// they are written (sums.ts), in a worker thread of their own where one can be started.

import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 1 << 20;

/** The file's SHA-256, in hex. */
export function sha256OfFile(file: string, buffer: Buffer = Buffer.allocUnsafe(CHUNK)): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null)) {
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
