// gzip members made the same way on every machine: no file name, no time, "unknown" for the
// operating system. A file of several members is one gzip file (RFC 1952, 2.2), so each group's
// or facility's text is compressed once, cached with it, and a rebuild after one edit compresses
// only that file's text and the small parts between texts. `build --precompress` frames its
// streamed copies with the same header and trailer (destination/compress.ts).

import { crc32, deflateRawSync } from 'node:zlib';

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
