// A precompressed copy's bytes (outputs/precompress.ts), made as the copy is written or compared:
// its file's bytes go through a streaming compressor a chunk at a time, each taken in before the
// next is read, so a copy of a 130 MB file needs its chunk, the compressor's window and what it
// has made since the last chunk, never the file whole. zlib works on the thread pool, so the
// copies being written at once compress on as many cores.

import { createBrotliCompress, createDeflateRaw, crc32 } from 'node:zlib';
import type { BrotliCompress, DeflateRaw } from 'node:zlib';
import { GZIP_HEADER, gzipTrailer } from '../outputs/download/gzip.ts';
import { compressorOptions } from '../outputs/precompress.ts';
import type { Compression, Plan } from '../outputs/plan.ts';
import type { PieceReader } from './pieces.ts';

/** The compressor's output buffers: a few writes for most copies. */
const OUT_CHUNK = 1 << 18;

/**
 * A plan's bytes as its file holds them, a chunk at a time: its pieces' bytes, compressed when it
 * is a copy. Each chunk is valid until the next is asked for (the reader's slots are reused).
 */
export function fileChunks(plan: Plan, reader: PieceReader): AsyncIterable<Uint8Array> {
  const bytes = piecesOnly(reader.chunks(plan.pieces));
  return plan.compression ? compressedChunks(bytes, plan.compression, plan.size) : bytes;
}

async function* piecesOnly(chunks: AsyncIterable<[unknown, Uint8Array]>): AsyncGenerator<Uint8Array> {
  for await (const [, chunk] of chunks) yield chunk;
}

/**
 * `size` bytes, given a chunk at a time, compressed: the same bytes as compressWhole makes of
 * them at once, however they are cut. A chunk may be reused once the next is asked for.
 */
export async function* compressedChunks(
  chunks: AsyncIterable<Uint8Array>,
  compression: Compression,
  size: number,
): AsyncGenerator<Uint8Array> {
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
  // Taken up below; a failure before then is also a write's.
  ended.catch(() => undefined);
  const take = (chunk: Uint8Array) =>
    new Promise<void>((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
  let crc = 0;
  let length = 0;
  try {
    if (gzip) yield GZIP_HEADER;
    for await (const chunk of chunks) {
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
