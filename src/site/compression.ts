// The site's bytes compressed the same way on every machine: gzip members with no file name, no
// time and "unknown" for the operating system, and the settings of the precompressed copies
// (outputs/precompress.ts), made at once or a chunk at a time as a copy is written. A file of
// several gzip members is one gzip file (RFC 1952, 2.2), so each group's or facility's text is
// compressed once, cached with it, and a rebuild after one edit compresses only that file's text.

import { brotliCompressSync, constants, crc32, createBrotliCompress, createDeflateRaw, deflateRawSync } from 'node:zlib';
import type { BrotliCompress, BrotliOptions, DeflateRaw, ZlibOptions } from 'node:zlib';
import type { Compression } from './plan.ts';

export const GZIP_HEADER = Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The end of a gzip member: the CRC-32 of the bytes it holds, and their length modulo 2³². */
export function gzipTrailer(crc: number, length: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, length % 2 ** 32, true);
  return out;
}

/** One gzip member holding `bytes`, compressed at `level`. */
export function gzipMember(bytes: Uint8Array, level = 6): Uint8Array {
  const body = deflateRawSync(bytes, { level });
  const out = new Uint8Array(GZIP_HEADER.length + body.length + 8);
  out.set(GZIP_HEADER, 0);
  out.set(body, GZIP_HEADER.length);
  out.set(gzipTrailer(crc32(bytes), bytes.length), GZIP_HEADER.length + body.length);
  return out;
}

/** The compressor's options for `size` bytes: for brotli the size is a hint, which changes the bytes made. */
export function compressorOptions(compression: Compression, size: number): ZlibOptions | BrotliOptions {
  if (compression.encoding === 'gzip') return { level: compression.level };
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: compression.level,
      [constants.BROTLI_PARAM_SIZE_HINT]: Math.min(size, 2 ** 30),
    },
  };
}

/** A copy made at once from the whole file, the straightforward way: the streamed copies must be these bytes. */
export function compressWhole(bytes: Uint8Array, compression: Compression): Uint8Array {
  if (compression.encoding === 'gzip') return gzipMember(bytes, compression.level);
  return brotliCompressSync(bytes, compressorOptions(compression, bytes.length));
}

/** The compressor's output buffers: a few writes for most copies. */
const OUT_CHUNK = 1 << 18;

/**
 * `size` bytes, given a chunk at a time, compressed: the same bytes as compressWhole makes of them
 * at once, however they are cut. A chunk may be reused once the next is asked for, so a copy of a
 * 130 MB file needs its chunk and the compressor's window, never the file whole.
 */
export async function* compressedChunks(chunks: Iterable<Uint8Array>, compression: Compression, size: number): AsyncGenerator<Uint8Array> {
  const gzip = compression.encoding === 'gzip';
  const options = { ...compressorOptions(compression, size), chunkSize: OUT_CHUNK };
  const stream: DeflateRaw | BrotliCompress = gzip ? createDeflateRaw(options) : createBrotliCompress(options);
  // Buffers the compressor made and that have not been given yet: zlib never writes into one again.
  const made: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => made.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('error', reject);
  });
  // Taken up below; a failure before then is also the copy's.
  ended.catch(() => undefined);
  const take = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
  let crc = 0;
  let length = 0;
  try {
    if (gzip) yield GZIP_HEADER;
    for (const chunk of chunks) {
      if (chunk.length === 0) continue;
      if (gzip) crc = crc32(chunk, crc);
      length += chunk.length;
      // Once written, the chunk has been taken in whole: the next may reuse its memory.
      await take(chunk);
      yield* made.splice(0);
    }
    stream.end();
    await ended;
    yield* made.splice(0);
    if (gzip) yield gzipTrailer(crc, length);
  } finally {
    // Also when the chunks failed, or whoever reads stopped early.
    stream.destroy();
  }
}
