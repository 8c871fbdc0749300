// Where a file's bytes go as they are read: into one large buffer (read there in place, or copied),
// written each time it fills, straight to the disk (O_DIRECT), past the system's page cache, where
// the file system allows it and the file is not a small one (DIRECT_FROM).
//
// Why past the cache: a build of the L archive writes 1.77 GB of output, which nothing reads again
// until it is served or deployed. Through the page cache, each new file's pages must be found
// memory first, and on a virtual machine that hands freed memory back to its host (free page
// reporting, as CI runners and cloud workstations do), memory taken back costs the host's time to
// give again: on this project's machine, writing 1 GB of new files took 1.5 to 2.6 s of the
// system's time through the cache, and 0.3 to 0.4 s straight to the disk (which took 2.5 to 3 GB/s,
// one stream or four). The writer threads of a cold L build spent 3.4 s of its 16.4 s of processor
// time copying the output into fresh cache pages. The build cache's files are still written
// through the page cache: the writers read them back at once, and rebuilds read them again.
//
// Direct writes must start, end and sit in memory at multiples of the disk's block size: the
// buffers are WebAssembly memory, which starts on a page boundary (a Node Buffer promises no
// alignment), every write but a file's last is a whole buffer, and the last is padded with zeros
// to a whole block and the file cut back to its length. A file system that refuses direct writes
// (tmpfs before Linux 6.6, some FUSE file systems; macOS has no O_DIRECT) is written through the
// cache as before, by the same code with exact lengths.

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';

/** Offsets, lengths and addresses of direct writes are multiples of this: the largest block size disks have. */
export const ALIGN = 4096;
/** The buffer, and so each write but a file's last. */
export const SINK_BUFFER = 1 << 20;
/**
 * Files smaller than this are written through the page cache: each direct write waits for the
 * disk, and a new file is cut back to its length after it. The schema browser's pages are most of
 * the L output's files (2,000 of its 2,650 under 128 KB, 54 MB in all): written direct, they took
 * the writer threads 0.77-0.81 s of a cold build, through the cache 0.23-0.27 s.
 */
export const DIRECT_FROM = 128 * 1024;

/** The flag that opens a file for direct writes, where the system has one (not macOS). */
export const DIRECT: number = (constants as { O_DIRECT?: number }).O_DIRECT ?? 0;

/** A write the file system refused as unaligned or unsupported: the file is written again through the cache. */
export class DirectRefused extends Error {
  override name = 'DirectRefused';
}

/** Whether an error is the system refusing a direct write or open (EINVAL), not a fault of the disk. */
export function refusesDirect(error: unknown): boolean {
  return error instanceof DirectRefused || (error as NodeJS.ErrnoException).code === 'EINVAL';
}

/**
 * A buffer that starts on a page boundary, reused by one writer from file to file: WebAssembly
 * memory, which V8 maps page-aligned.
 */
export function alignedBuffer(size = SINK_BUFFER): Buffer {
  const pages = Math.ceil(size / 65536);
  return Buffer.from(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer, 0, size);
}

/**
 * One open file being written from its start: `push` its bytes in order, then `end` (or, after a
 * failure elsewhere, `abandon`). The bytes are written a buffer at a time. Writing a buffer while
 * the next filled, on the thread pool, gained nothing measurable and cost more processor time.
 */
export class FileSink {
  private held = 0;
  /** Where the buffer starts in the file. */
  private from = 0;
  private closed = false;

  constructor(
    private readonly fd: number,
    /** Whether the file was opened for direct writes (aligned, padded, then cut back). */
    readonly direct: boolean,
    private readonly buffer: Buffer,
    /**
     * Takes the file's bytes a buffer at a time as they are written (a download file's SHA-256): a
     * listing's pieces are mostly a few hundred bytes, and hashing each alone cost half as much again.
     */
    private readonly hash?: { update(bytes: Uint8Array): unknown },
    /**
     * Whether `end` cuts the file to its length: after direct writes (their padding), or over
     * another file (its longer tail). A new file written through the cache ends where its bytes do.
     */
    private readonly cut = true,
    /**
     * Where writing starts, a multiple of ALIGN: over a previous version of the file whose bytes
     * before it are these (Plan.marks), they are taken in (and hashed) but not written again.
     */
    private readonly skip = 0,
  ) {}

  /**
   * Where the next bytes may be read to in place: the buffer past what it holds (never empty). A
   * chunk pushed from there is taken without a copy: a stored text read straight into the buffer.
   */
  room(): Buffer {
    return this.buffer.subarray(this.held);
  }

  /** Takes the chunk, writing the buffer each time it fills. */
  push(chunk: Uint8Array): void {
    const { buffer } = this;
    if (chunk.buffer === buffer.buffer && chunk.byteOffset === buffer.byteOffset + this.held) {
      // Read into the room: already where it goes.
      this.held += chunk.length;
      if (this.held === buffer.length) this.flush(buffer.length);
      return;
    }
    for (let done = 0; done < chunk.length;) {
      const n = Math.min(chunk.length - done, buffer.length - this.held);
      buffer.set(done === 0 && n === chunk.length ? chunk : chunk.subarray(done, done + n), this.held);
      this.held += n;
      done += n;
      if (this.held === buffer.length) this.flush(buffer.length);
    }
  }

  /** Writes what is left, cuts the file to its length and closes it; the file's size. */
  end(): number {
    try {
      const size = this.from + this.held;
      if (this.held > 0) {
        // A direct write is of whole blocks: the padding goes again with the cut below.
        const length = this.direct ? Math.ceil(this.held / ALIGN) * ALIGN : this.held;
        this.buffer.fill(0, this.held, length);
        this.flush(length);
      }
      // Padding past the end, or (over another file) that file's longer tail.
      if (this.cut) ftruncateSync(this.fd, size);
      return size;
    } finally {
      this.abandon();
    }
  }

  /** Closes the file, after a failure. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Writes the buffer's first `length` bytes where it starts in the file, but those before `skip`. */
  private flush(length: number): void {
    this.hash?.update(this.buffer.subarray(0, this.held));
    for (let done = Math.min(length, Math.max(0, this.skip - this.from)); done < length;) {
      const written = writeSync(this.fd, this.buffer, done, length - done, this.from + done);
      // A short direct write leaves the rest unaligned, which cannot go direct: written again.
      if (this.direct && written !== length - done && written % ALIGN !== 0) throw new DirectRefused('a short direct write');
      done += written;
    }
    this.from += this.held;
    this.held = 0;
  }
}

/** A file's bytes, a chunk at a time, each good until the next is asked for; `room`, where a chunk may be read to in place. */
export type Chunks = (room: () => Buffer) => Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

export interface Written {
  bytes: number;
  /** Whether the file at its path was written over (else it was made new). */
  reused: boolean;
  /** The SHA-256 of the bytes written (hex), when it was asked for. */
  sha256?: string;
}

/**
 * Writes files through sinks, straight to the disk until the file system refuses it once (then
 * through the cache, that file again and every file after it), one file at a time through a
 * buffer of its own.
 */
export class SinkWriter {
  private direct: boolean;
  private readonly buffer: Buffer;

  constructor(
    options: {
      /** False: every file through the page cache. */
      direct?: boolean;
      /** The buffer (tests give one that direct writes refuse). */
      buffer?: Buffer;
    } = {},
  ) {
    this.direct = (options.direct ?? true) && DIRECT !== 0;
    this.buffer = options.buffer ?? alignedBuffer();
  }

  /**
   * Writes the bytes `chunks` gives into a new file, or over the file at its path when `there` is
   * one the staging folder held (spare.ts) and nothing else links it; with `hash`, takes their
   * SHA-256 as they pass. `chunks` is given the sink's room to read into in place (FileSink.room),
   * and is asked again should the file have to be written again. `size`, the file's length where
   * known: under DIRECT_FROM, it is written through the page cache. `same`, how many of its first
   * bytes the file there holds already (Plan.marks): written over, they are not written again.
   */
  async write(file: string, there: boolean, hash: boolean, chunks: Chunks, size?: number, same = 0): Promise<Written> {
    if (this.direct && (size === undefined || size >= DIRECT_FROM)) {
      try {
        return await this.writeOnce(file, there, hash, chunks, true, same);
      } catch (error) {
        if (!refusesDirect(error)) throw error;
        // Written again through the cache, over what the refused attempt left at the path (which
        // wrote nothing before `same`).
        this.direct = false;
        const again = await this.writeOnce(file, true, hash, chunks, false, there ? same : 0);
        return { ...again, reused: there && again.reused };
      }
    }
    return this.writeOnce(file, there, hash, chunks, false, same);
  }

  private async writeOnce(file: string, there: boolean, hash: boolean, chunks: Chunks, direct: boolean, same: number): Promise<Written> {
    const { fd, reused } = openOver(file, there, direct ? DIRECT : 0);
    const sha256 = hash ? createHash('sha256') : undefined;
    // Only the file that was there holds those bytes.
    const skip = reused ? Math.floor(same / ALIGN) * ALIGN : 0;
    const sink = new FileSink(fd, direct, this.buffer, sha256, direct || reused, skip);
    try {
      for await (const chunk of chunks(() => sink.room())) sink.push(chunk);
    } catch (error) {
      sink.abandon();
      throw error;
    }
    const bytes = sink.end();
    return { bytes, reused, ...(sha256 ? { sha256: sha256.digest('hex') } : {}) };
  }
}

/**
 * Opens `file` for writing, with `flags` besides (DIRECT): the file at its path written over, when
 * `there` is one and nothing else links it; else a new file. Never one that is there (opening it
 * to write would change every folder that links it): if it cannot be removed, this fails.
 */
export function openOver(file: string, there: boolean, flags = 0): { fd: number; reused: boolean } {
  if (there) {
    try {
      const fd = openSync(file, constants.O_RDWR | flags);
      if (fstatSync(fd).nlink === 1) return { fd, reused: true };
      closeSync(fd);
    } catch (error) {
      // A file system refusing direct writes says so here, before anything is removed.
      if (flags !== 0 && refusesDirect(error)) throw error;
      // Gone, or not a file this user can write over.
    }
    try {
      unlinkSync(file);
    } catch {
      // Gone already; or it stays, and opening a new file there fails below.
    }
  }
  return { fd: openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | flags, 0o666), reused: false };
}
