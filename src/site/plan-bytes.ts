// A plan's bytes, a chunk at a time: text in memory as it is, text in files (the digest cache's)
// read a chunk at a time and never held whole, page text shifted to its column and NUL marks filled
// (with a survey's URL) as it passes, compressed for a precompressed copy. The writer, the
// checksums and the zip's members all read plans through here.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { compressedChunks } from './compression.ts';
import { INDENT, StaleBytesError } from './plan.ts';
import type { Bytes, Piece, Plan, StoredBytes } from './plan.ts';

/** Texts are read, shifted and filled this much at a time. */
export const CHUNK = 1 << 20;

/**
 * The digest cache's files that readers have opened, each kept open until `close`, its size checked
 * once: a listing takes a piece from each of hundreds of files, and each of the API's listings and
 * pages goes through the same files again. At most `most` are kept open; any more are opened for
 * each read.
 */
export class OpenFiles {
  private readonly open = new Map<string, { fd: number; size: number }>();

  constructor(private readonly most = 1024) {}

  /** A descriptor of the file the bytes are in, and whether the caller closes it. */
  take(bytes: StoredBytes): { fd: number; shared: boolean } {
    const open = this.open.get(bytes.file);
    if (open !== undefined) {
      if (open.size !== bytes.fileSize) throw sizeMismatch(bytes, open.size);
      return { fd: open.fd, shared: true };
    }
    const fd = openStored(bytes);
    if (this.open.size >= this.most) return { fd, shared: false };
    this.open.set(bytes.file, { fd, size: bytes.fileSize });
    return { fd, shared: true };
  }

  close(): void {
    for (const { fd } of this.open.values()) closeSync(fd);
    this.open.clear();
  }
}

/**
 * Reads plans' pieces through buffers of its own: each chunk it gives is good until the next is
 * asked for. One reader serves one file at a time; files written at once each need their own.
 */
export class PlanReader {
  private readonly input = Buffer.allocUnsafe(CHUNK);
  /** Shifted or filled text; grown when a chunk needs more. */
  private readonly into = { output: Buffer.allocUnsafe(0) };
  private readonly shifter = new LineShifter(INDENT.charCodeAt(0));

  constructor(private readonly files: OpenFiles) {}

  /** The pieces' bytes in order. */
  *chunks(pieces: readonly Piece[]): Generator<Uint8Array> {
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        yield Buffer.from(piece, 'utf8');
        continue;
      }
      const { shift, fill } = piece;
      if (fill !== undefined) {
        const filler = Buffer.from(fill, 'utf8');
        for (const chunk of this.source(piece.bytes)) yield filled(chunk, filler, this.into);
        continue;
      }
      this.shifter.reset(shift);
      for (const chunk of this.source(piece.bytes)) yield shift === 0 ? chunk : this.shifter.push(chunk, this.into);
    }
  }

  /** The bytes a chunk at a time: views of text in memory, or a stored text read into the reader's buffer. */
  private *source(bytes: Bytes): Generator<Uint8Array> {
    if (bytes instanceof Uint8Array) {
      for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
      return;
    }
    const { fd, shared } = this.files.take(bytes);
    try {
      for (let read = 0; read < bytes.size;) {
        const n = readSync(fd, this.input, 0, Math.min(CHUNK, bytes.size - read), bytes.offset + read);
        if (n === 0) throw cutShort(bytes, read);
        read += n;
        yield this.input.subarray(0, n);
      }
    } finally {
      if (!shared) closeSync(fd);
    }
  }
}

/** A plan's bytes as its file holds them: its pieces', compressed when it is a precompressed copy. */
export function fileChunks(plan: Plan, reader: PlanReader): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
  const bytes = reader.chunks(plan.pieces);
  return plan.compression ? compressedChunks(bytes, plan.compression, plan.size) : bytes;
}

/** A plan's bytes whole, in memory (never a compressed copy's): for files small enough to hold, such as the zip's members. */
export function wholeBytes(plan: Plan, reader: PlanReader): Buffer {
  const out = Buffer.allocUnsafe(plan.size);
  let at = 0;
  for (const chunk of reader.chunks(plan.pieces)) {
    if (at + chunk.length > plan.size) throw new Error(`${plan.path}: pieces longer than the ${plan.size} bytes planned`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== plan.size) throw new Error(`${plan.path}: pieces of ${at} bytes, not the ${plan.size} planned`);
  return out;
}

/**
 * Opens the file stored bytes are in, which must still have the size it was stored with: any other
 * means it was damaged since (cut short or grown), whichever of its texts is asked for.
 */
function openStored(bytes: StoredBytes): number {
  let fd: number;
  try {
    fd = openSync(bytes.file, 'r');
  } catch (error) {
    throw new StaleBytesError(bytes.file, undefined, bytes.fileSize, (error as Error).message);
  }
  const size = fstatSync(fd).size;
  if (size !== bytes.fileSize) {
    closeSync(fd);
    throw sizeMismatch(bytes, size);
  }
  return fd;
}

function sizeMismatch(bytes: StoredBytes, size: number): StaleBytesError {
  return new StaleBytesError(bytes.file, size, bytes.fileSize, `has ${size} bytes, not the ${bytes.fileSize} recorded`);
}

/** A stored file that ended `read` bytes into a text, cut short since it was opened. */
function cutShort(bytes: StoredBytes, read: number): StaleBytesError {
  const size = bytes.offset + read;
  return new StaleBytesError(bytes.file, size, bytes.fileSize, `has ${size} bytes, not the ${bytes.fileSize} recorded`);
}

/** Stored bytes read whole (a small text: a facility's sky). */
export function readStored(bytes: StoredBytes): Buffer {
  const fd = openStored(bytes);
  try {
    const out = Buffer.allocUnsafe(bytes.size);
    for (let read = 0; read < bytes.size;) {
      const n = readSync(fd, out, read, bytes.size - read, bytes.offset + read);
      if (n === 0) throw cutShort(bytes, read);
      read += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** The chunk with each NUL byte replaced by `filler`, in `into.output` (grown if it is too small). */
export function filled(chunk: Uint8Array, filler: Buffer, into: { output: Buffer }): Uint8Array {
  const source = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let at = source.indexOf(0);
  if (at < 0) return chunk;
  let out = into.output;
  let from = 0;
  let to = 0;
  for (; at >= 0; at = source.indexOf(0, from)) {
    const need = to + (at - from) + filler.length + (source.length - at - 1);
    if (need > out.length) {
      const grown = Buffer.allocUnsafe(Math.max(need + (need >> 3), 2 * out.length));
      grown.set(out.subarray(0, to));
      out = into.output = grown;
    }
    out.set(source.subarray(from, at), to);
    to += at - from;
    out.set(filler, to);
    to += filler.length;
    from = at + 1;
  }
  out.set(source.subarray(from), to);
  to += source.length - from;
  return out.subarray(0, to);
}

/**
 * Moves every line after the first `by` columns further in (or, for a negative `by`, out) as
 * chunks of UTF-8 pass through: only line breaks and the indentation after them change, so
 * nothing is decoded, and a line break at the end of one chunk is remembered for the next.
 */
export class LineShifter {
  private by = 0;
  /** Indentation still to drop at the start of the next chunk (moving out). */
  private skip = 0;

  constructor(private readonly fill = 32) {}

  reset(by: number): void {
    this.by = by;
    this.skip = 0;
  }

  /** The chunk shifted, in `into.output` (grown if it is too small). */
  push(chunk: Uint8Array, into: { output: Buffer }): Uint8Array {
    const source = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const { by, fill } = this;
    let from = 0;
    // Moving out: the indentation a previous chunk's last line break left to drop.
    while (this.skip > 0 && from < source.length && source[from] === fill) {
      from++;
      this.skip--;
    }
    if (from < source.length) this.skip = 0;
    let breaks = 0;
    for (let at = source.indexOf(10, from); at >= 0; at = source.indexOf(10, at + 1)) breaks++;
    const size = source.length - from + Math.max(0, by) * breaks;
    if (into.output.length < size) into.output = Buffer.allocUnsafe(Math.max(size, 2 * into.output.length));
    const out = into.output;
    let to = 0;
    for (let at = source.indexOf(10, from); at >= 0; at = source.indexOf(10, from)) {
      // Up to and including the line break, then the line's indentation changed by `by`.
      to += source.copy(out, to, from, at + 1);
      from = at + 1;
      if (by > 0) {
        out.fill(fill, to, to + by);
        to += by;
      } else {
        let n = 0;
        while (n < -by && from < source.length && source[from] === fill) {
          from++;
          n++;
        }
        if (from === source.length) this.skip = -by - n;
      }
    }
    to += source.copy(out, to, from);
    return out.subarray(0, to);
  }
}
