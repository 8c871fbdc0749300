// Writes one plan's bytes into one file in whichever thread asks: the work of a writer thread
// (write-threads.ts). Its pieces are read from the build cache's files (kept open for the next
// plans), shifted and filled as they pass (pieces.ts), and written through a sink (file-sink.ts):
// straight to the disk where the file system allows.

import { StaleBytesError } from '../outputs/plan.ts';
import type { Piece } from '../outputs/plan.ts';
import { deflateBlocks, deflateMember } from '../outputs/download/zip.ts';
import type { Deflated, DeflatedBlocks } from '../outputs/download/zip.ts';
import { SinkWriter } from './file-sink.ts';
import type { Written } from './file-sink.ts';
import { OpenFiles, PieceReader, newSlot, roomSlot, wholeBytes } from './pieces.ts';

/**
 * What a writer thread is asked to do (write-threads.ts, write-worker.ts): write a file, deflate a
 * zip member, or deflate a large member's blocks.
 */
export type WriterTask =
  | { file: string; pieces: readonly Piece[]; there: boolean; hash: boolean; size?: number; same?: number }
  | { deflate: { pieces: readonly Piece[]; size: number } }
  | { blocks: { pieces: readonly Piece[]; size: number; known: readonly string[] } };

export class FileWriter {
  private readonly files = new OpenFiles();
  private readonly slot = newSlot();
  private readonly reader = new PieceReader(() => Promise.resolve(this.slot), this.files);
  private readonly sinks: SinkWriter;
  /** Where stored text is read: into the sink's buffer itself. */
  private readonly room = roomSlot();

  constructor(options: ConstructorParameters<typeof SinkWriter>[0] = {}) {
    this.sinks = new SinkWriter(options);
  }

  /**
   * Writes the pieces' bytes into a new file, or over the file at its path when `there` is one
   * the staging folder held (spare.ts) and nothing else links it; with `hash`, takes their SHA-256
   * as they pass (a download file's, which its checksum list needs), where reading the file again
   * once written cost a thread of its own as long as the rest of a rebuild's writing. `size`, the
   * file's length where known: a small file goes through the page cache (file-sink.ts, DIRECT_FROM).
   * `same`, how many of its first bytes the file there holds already (SinkWriter.write).
   */
  write(file: string, pieces: readonly Piece[], there: boolean, hash = false, size?: number, same = 0): Promise<Written> {
    return this.sinks.write(file, there, hash, (room) => this.reader.chunksIn(pieces, () => this.room(room)), size, same);
  }

  /** The pieces' bytes, `size` of them, deflated as a zip member. */
  deflate(pieces: readonly Piece[], size: number): Deflated {
    return deflateMember(wholeBytes(this.reader, this.slot, pieces, size));
  }

  /** A large member's blocks, of the pieces' `size` bytes, those whose keys are not `known` deflated (zip.ts, deflateBlocks). */
  blocks(pieces: readonly Piece[], size: number, known: readonly string[]): DeflatedBlocks {
    return deflateBlocks(wholeBytes(this.reader, this.slot, pieces, size), new Set(known));
  }

  /** Closes the cache's files it kept open. */
  close(): void {
    this.files.close();
  }
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
