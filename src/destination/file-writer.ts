// Writes one plan's bytes into one file, at once, in whichever thread asks: the work of a writer
// thread (write-threads.ts). Its pieces are read from the build cache's files (kept open for the
// next plans), shifted and filled as they pass (pieces.ts), gathered into large writes, and written.

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { StaleBytesError } from '../outputs/plan.ts';
import type { Piece } from '../outputs/plan.ts';
import { deflateMember } from '../outputs/download/zip.ts';
import type { Deflated } from '../outputs/download/zip.ts';
import { OpenFiles, PieceReader, newSlot, wholeBytes } from './pieces.ts';

/** Chunks at least this long are written as they are; shorter ones are gathered into one write. */
const GATHERED = 256 * 1024;
const GATHER = 1 << 20;

export interface Written {
  bytes: number;
  /** Whether the file at its path was written over (else it was made new). */
  reused: boolean;
  /** The SHA-256 of the bytes written (hex), when it was asked for. */
  sha256?: string;
}

export class FileWriter {
  private readonly files = new OpenFiles();
  private readonly slot = newSlot();
  private readonly reader = new PieceReader(() => Promise.resolve(this.slot), this.files);
  private readonly gather = Buffer.allocUnsafe(GATHER);

  /**
   * Writes the pieces' bytes into a new file, or over the file at its path when `there` is one
   * the staging folder held (spare.ts) and nothing else links it; with `hash`, takes their SHA-256
   * as they pass (a download file's, which its checksum list needs), where reading the file again
   * once written cost a thread of its own as long as the rest of a rebuild's writing.
   */
  write(file: string, pieces: readonly Piece[], there: boolean, hash = false): Written {
    const { fd, reused } = openOver(file, there);
    const sha256 = hash ? createHash('sha256') : undefined;
    try {
      let at = 0;
      // How much the gathering buffer holds, and the file offset it starts at.
      let held = 0;
      let from = 0;
      const flush = () => {
        if (held > 0) writeFully(fd, this.gather.subarray(0, held), from);
        held = 0;
      };
      for (const chunk of this.reader.chunksIn(pieces, () => this.slot)) {
        sha256?.update(chunk);
        if (chunk.length >= GATHERED) {
          flush();
          writeFully(fd, chunk, at);
        } else {
          if (held + chunk.length > GATHER) flush();
          if (held === 0) from = at;
          this.gather.set(chunk, held);
          held += chunk.length;
        }
        at += chunk.length;
      }
      flush();
      // A file longer than the new text loses its tail.
      if (reused) ftruncateSync(fd, at);
      return { bytes: at, reused, ...(sha256 ? { sha256: sha256.digest('hex') } : {}) };
    } finally {
      closeSync(fd);
    }
  }

  /** The pieces' bytes, `size` of them, deflated as a zip member. */
  deflate(pieces: readonly Piece[], size: number): Deflated {
    return deflateMember(wholeBytes(this.reader, this.slot, pieces, size));
  }

  /** Closes the cache's files it kept open. */
  close(): void {
    this.files.close();
  }
}

function writeFully(fd: number, bytes: Uint8Array, offset: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, offset + done);
}

/**
 * Opens `file` for writing: the file at its path written over, when `there` is one and nothing
 * else links it; else a new file. Never one that is there (opening it to write would change every
 * folder that links it): if it cannot be removed, this fails.
 */
export function openOver(file: string, there: boolean): { fd: number; reused: boolean } {
  if (there) {
    try {
      const fd = openSync(file, 'r+');
      if (fstatSync(fd).nlink === 1) return { fd, reused: true };
      closeSync(fd);
    } catch {
      // Gone, or not a file this user can write over.
    }
    try {
      unlinkSync(file);
    } catch {
      // Gone already; or it stays, and opening a new file there fails below.
    }
  }
  return { fd: openSync(file, 'wx'), reused: false };
}

/** A failure to write, as it crosses from a writer thread: what the writer needs to report it. */
export interface Failure {
  message: string;
  /** The system's error code (ENOSPC, EACCES ...), where there is one. */
  code?: string;
  /** A cache file that changed since it was recorded: the build starts again cold. */
  stale?: { file: string; found: number | undefined; expected: number; reason: string };
}

export function failureOf(error: unknown): Failure {
  if (error instanceof StaleBytesError) {
    const { file, found, expected, reason } = error;
    return { message: error.message, stale: { file, found, expected, reason } };
  }
  const code = (error as NodeJS.ErrnoException).code;
  return { message: error instanceof Error ? error.message : String(error), ...(code === undefined ? {} : { code }) };
}

/** The error a failure was, again. */
export function errorOf(failure: Failure): Error {
  if (failure.stale) {
    const { file, found, expected, reason } = failure.stale;
    return new StaleBytesError(file, found, expected, reason);
  }
  return Object.assign(new Error(failure.message), failure.code === undefined ? {} : { code: failure.code });
}
