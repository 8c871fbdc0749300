// gzip members made the same way on every machine: no file name, no time, "unknown" for the
// operating system. A file of several members is one gzip file (RFC 1952, 2.2), so each group's
// or facility's text is compressed once, cached with it, and a rebuild after one edit compresses
// only that file's text and the small parts between texts.

import { crc32, deflateRawSync } from 'node:zlib';

const HEADER = Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** One gzip member holding `bytes`. */
export function gzipMember(bytes: Uint8Array): Uint8Array {
  const body = deflateRawSync(bytes, { level: 6 });
  const out = new Uint8Array(HEADER.length + body.length + 8);
  out.set(HEADER, 0);
  out.set(body, HEADER.length);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(HEADER.length + body.length, crc32(bytes), true);
  view.setUint32(HEADER.length + body.length + 4, bytes.length >>> 0, true);
  return out;
}
