// The bytes of a plan's pieces, a chunk at a time: text in memory as it is, text in files (the
// build cache's) read a chunk at a time and never held whole, page text shifted to its column and
// NUL marks filled (with a survey's URL) as it passes. The writer and the comparer both read plans through here.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { INDENT, StaleBytesError } from '../outputs/plan.ts';
import type { Bytes, Piece, StoredBytes } from '../outputs/plan.ts';

// Texts in memory are passed in large chunks; what is read or shifted, in smaller ones.
const DIRECT_CHUNK = 4 << 20;
export const CHUNK = 1 << 20;

/** Room for one chunk: reused once whatever was done with its last chunk is done. */
export interface Slot {
  /** Where a file's chunk is read to: CHUNK bytes. */
  input: Buffer;
  /** Shifted text; grown when a chunk needs more. */
  output: Buffer;
  /** The work on the slot's last chunk (a write), which must end before the slot is filled again. */
  busy: Promise<void>;
}

export function newSlot(): Slot {
  return { input: Buffer.allocUnsafe(CHUNK), output: Buffer.allocUnsafe(0), busy: Promise.resolve() };
}

/**
 * A slot whose input is, each time it is given, the room `room` gives (a sink's buffer past what it
 * holds, file-sink.ts): stored text is read straight to where it is written from, not copied there.
 * Shifted and filled text still goes through its own output.
 */
export function roomSlot(): (room: () => Buffer) => Slot {
  const slot: Slot = { input: Buffer.alloc(0), output: Buffer.allocUnsafe(0), busy: Promise.resolve() };
  return (room) => {
    slot.input = room();
    return slot;
  };
}

/**
 * The build cache's files that readers have opened, each kept open until `close`, its size checked
 * once: a listing takes a piece from each of hundreds of files, and each of the API's listings and
 * pages goes through the same files again, so opening a file for each piece cost a rebuild of a large
 * archive some thousands of opens, checks and closes. At most `most` are kept (Node raises the
 * limit of open files to the system's hard limit); any more are opened for each read, as before.
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

export class PieceReader {
  private readonly shifter = new LineShifter(INDENT.charCodeAt(0));

  /**
   * `nextSlot` gives the slot the next chunk goes into, once it is free; `files`, when given, keeps
   * the files read open for other pieces (its owner closes them).
   */
  constructor(
    private readonly nextSlot: () => Promise<Slot>,
    private readonly files?: OpenFiles,
  ) {}

  /** The pieces' bytes in order, each chunk with the slot it lives in until that slot is next given. */
  async *chunks(pieces: readonly Piece[]): AsyncGenerator<[Slot, Uint8Array]> {
    let slot = await this.nextSlot();
    for (const chunk of this.chunksIn(pieces, () => slot)) {
      yield [slot, chunk];
      slot = await this.nextSlot();
    }
  }

  /**
   * The pieces' bytes in order, at once: each chunk read or changed into the slot `slot` gives when
   * the chunk is made, and good until the next is asked for.
   */
  *chunksIn(pieces: readonly Piece[], slot: () => Slot): Generator<Uint8Array> {
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        yield Buffer.from(piece, 'utf8');
        continue;
      }
      const { shift, fill } = piece;
      if (fill !== undefined) {
        const filler = Buffer.from(fill, 'utf8');
        for (const chunk of this.source(piece.bytes, CHUNK, slot)) yield filled(chunk, filler, slot());
        continue;
      }
      this.shifter.reset(shift);
      // Text in memory that needs no shift goes out as it is, in large chunks.
      for (const chunk of this.source(piece.bytes, shift === 0 ? DIRECT_CHUNK : CHUNK, slot)) {
        yield shift === 0 ? chunk : this.shifter.push(chunk, slot());
      }
    }
  }

  /**
   * The bytes a chunk at a time: views of text in memory `size` bytes long, or a stored text read
   * into the slot's buffer from a file that must have the size recorded.
   */
  private *source(bytes: Bytes, size: number, slot: () => Slot): Generator<Uint8Array> {
    if (bytes instanceof Uint8Array) {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
      return;
    }
    const { fd, shared } = this.files?.take(bytes) ?? { fd: openStored(bytes), shared: false };
    try {
      for (let read = 0; read < bytes.size;) {
        const { input } = slot();
        const n = readSync(fd, input, 0, Math.min(CHUNK, input.length, bytes.size - read), bytes.offset + read);
        if (n === 0) throw cutShort(bytes, read);
        read += n;
        yield input.subarray(0, n);
      }
    } finally {
      if (!shared) closeSync(fd);
    }
  }
}

/**
 * Opens the file stored bytes are in, which must still have the size it was stored with: any other
 * means it was damaged since (cut short or grown), whichever of its texts is asked for.
 */
export function openStored(bytes: StoredBytes): number {
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
  // One pass, the output grown when a mark would not fit (rarely: it is kept from chunk to chunk).
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
    // Typed arrays' own copy: Buffer's costs as much again in checks for the short runs between
    // marks (a row of the column list each).
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

/**
 * A plan's bytes whole, in memory, read through `reader` into `slot`: for files small enough to
 * hold, such as the pages zipped for the download. At once, so that whoever asks can hand them on
 * (to be deflated on the thread pool) before doing anything else.
 */
export function wholeBytes(reader: PieceReader, slot: Slot, pieces: readonly Piece[], size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const chunk of reader.chunksIn(pieces, () => slot)) {
    if (at + chunk.length > size) throw new Error(`pieces longer than the ${size} bytes planned`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== size) throw new Error(`pieces of ${at} bytes, not the ${size} planned`);
  return out;
}
