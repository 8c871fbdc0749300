// Zip archives made the same way on every machine (PKWARE's APPNOTE 6.3): members deflated (method
// 8) or stored, names in UTF-8 (flag 11), every time 1980-01-01 00:00, every mode rw-r--r--, no
// extra fields, no comments, no data descriptors. A member's local header depends only on its name,
// CRC-32 and sizes, so a member deflated once can be copied from one zip and framed again in the
// next; the central directory is made afresh each time from the members' offsets. ZIP64
// records are written only when the counts or offsets need them (more than 65,534 members, or past
// 4 GiB), so an ordinary archive stays readable by every unzip.
//
// The container is written here, with Node's zlib for the compression, rather than by a zip
// library: fflate and yazl compress what they are given, and neither takes a member already
// deflated with its CRC, which is what lets a rebuild recompress only the pages that changed.

import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';

/**
 * The level members are deflated at: zlib's default. Measured on the synthetic L archive's browser
 * (2,326 files, 152 MB): level 1 deflates them to 16.7 MB in 0.7–0.8 s of one thread, level 6 to
 * 13.0 MB in 1.4 s, and with members deflated four at a time on the thread pool of this 2-core
 * machine both take about 0.9 s. A member is deflated once per content, so 22% less to download
 * costs a cold build about half a second of CPU per core, and a rebuild almost nothing.
 */
export const ZIP_LEVEL = 6;

/** A member: its name in the archive, and its bytes as deflated. */
export interface ZipMember {
  name: string;
  /** CRC-32 of the member's own bytes. */
  crc: number;
  /** The member's own size, and its deflated size. */
  size: number;
  compressedSize: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
/** Bit 11: the name is UTF-8. */
const UTF8 = 0x0800;
const DEFLATED = 8;
/** 2.0: deflate; 4.5: ZIP64. */
const VERSION = 20;
const VERSION64 = 45;
/** Made by Unix (3), so that the external attributes carry a mode. */
const MADE_BY = (3 << 8) | VERSION64;
/** 1980-01-01 00:00:00, the first instant a zip's DOS time can hold. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
/** A regular file, rw-r--r--. */
const MODE = (0o100644 << 16) >>> 0;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

/** A member's bytes deflated, with the CRC-32 and size of what went in. */
export interface Deflated {
  crc: number;
  size: number;
  deflated: Uint8Array;
}

/** A member's bytes deflated at `level`, with the CRC-32 and size of what went in. */
export function deflateMember(bytes: Uint8Array, level = ZIP_LEVEL): Deflated {
  return { crc: crc32(bytes) >>> 0, size: bytes.length, deflated: deflateRawSync(bytes, { level }) };
}

/**
 * deflateMember on the thread pool: several members compress at once, on as many cores, while
 * this thread plans the other outputs. The same bytes as deflateMember's.
 */
export async function deflateMemberAsync(bytes: Uint8Array, level = ZIP_LEVEL): Promise<Deflated> {
  const deflated = await new Promise<Uint8Array>((resolve, reject) => {
    deflateRaw(bytes, { level }, (error, made) => (error ? reject(error) : resolve(made)));
  });
  return { crc: crc32(bytes) >>> 0, size: bytes.length, deflated };
}

/** Items in the order members are listed in: by name, byte for byte as UTF-8, each name made UTF-8 once. */
export function byName<T>(items: readonly T[], name: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, bytes: Buffer.from(name(item), 'utf8') }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map(({ item }) => item);
}

function assertFits(member: ZipMember): void {
  // A member of 4 GiB or more would need ZIP64 sizes in its local header; no file of a build comes near.
  if (member.size >= MAX32 || member.compressedSize >= MAX32) throw new Error(`${member.name} is too large for a zip member (4 GiB)`);
}

/** The local header written before a member's deflated bytes. */
export function localHeader(member: ZipMember): Uint8Array {
  assertFits(member);
  const name = Buffer.from(member.name, 'utf8');
  const out = Buffer.alloc(30 + name.length);
  out.writeUInt32LE(LOCAL, 0);
  writeFields(out, 4, member, VERSION, name.length, 0);
  name.copy(out, 30);
  return out;
}

/**
 * The fields a member's local header and its central directory entry both hold, in the same order,
 * from `at`: the version needed to extract, flags, method, time, date, CRC-32, sizes and the
 * lengths of its name and extra field.
 */
function writeFields(out: Buffer, at: number, member: ZipMember, version: number, nameLength: number, extraLength: number): void {
  out.writeUInt16LE(version, at);
  out.writeUInt16LE(UTF8, at + 2);
  out.writeUInt16LE(DEFLATED, at + 4);
  out.writeUInt16LE(DOS_TIME, at + 6);
  out.writeUInt16LE(DOS_DATE, at + 8);
  out.writeUInt32LE(member.crc >>> 0, at + 10);
  out.writeUInt32LE(member.compressedSize, at + 14);
  out.writeUInt32LE(member.size, at + 18);
  out.writeUInt16LE(nameLength, at + 22);
  out.writeUInt16LE(extraLength, at + 24);
}

/** The size of a member's local header and deflated bytes together. */
export function memberSpan(member: ZipMember): number {
  return 30 + Buffer.byteLength(member.name, 'utf8') + member.compressedSize;
}

/**
 * What follows the members: the central directory (each member's entry, with the offset of its
 * local header) and the end records, given where the first member starts (0: the archive's start).
 */
export function zipTail(members: readonly ZipMember[]): Uint8Array {
  const entries: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const far = offset >= MAX32;
    // A header past 4 GiB is found through a ZIP64 extra field with its offset.
    const extra = far ? Buffer.alloc(12) : Buffer.alloc(0);
    if (far) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(offset), 4);
    }
    const entry = Buffer.alloc(46 + name.length + extra.length);
    entry.writeUInt32LE(CENTRAL, 0);
    entry.writeUInt16LE(MADE_BY, 4);
    writeFields(entry, 6, member, far ? VERSION64 : VERSION, name.length, extra.length);
    // Comment length, disk, internal attributes: none.
    entry.writeUInt32LE(MODE, 38);
    entry.writeUInt32LE(far ? MAX32 : offset, 42);
    name.copy(entry, 46);
    extra.copy(entry, 46 + name.length);
    entries.push(entry);
    offset += memberSpan(member);
  }
  const directory = Buffer.concat(entries);
  const count = members.length;
  const zip64 = count >= MAX16 || offset >= MAX32 || directory.length >= MAX32 || offset + directory.length >= MAX32;
  const records: Buffer[] = [directory];
  if (zip64) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(END64, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeUInt16LE(MADE_BY, 12);
    end64.writeUInt16LE(VERSION64, 14);
    // This disk and the directory's: 0.
    end64.writeBigUInt64LE(BigInt(count), 24);
    end64.writeBigUInt64LE(BigInt(count), 32);
    end64.writeBigUInt64LE(BigInt(directory.length), 40);
    end64.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(LOCATOR64, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    records.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(directory.length, MAX32), 12);
  end.writeUInt32LE(Math.min(offset, MAX32), 16);
  records.push(end);
  return Buffer.concat(records);
}

/** A whole zip of these files (name → bytes), listed by name: the straightforward way, for the reference path and tests. */
export function zipWhole(files: ReadonlyMap<string, Uint8Array>, level = ZIP_LEVEL): Uint8Array {
  const parts: Uint8Array[] = [];
  const members: ZipMember[] = [];
  for (const name of byName([...files.keys()], (file) => file)) {
    const { crc, size, deflated } = deflateMember(files.get(name) ?? new Uint8Array(), level);
    const member = { name, crc, size, compressedSize: deflated.length };
    members.push(member);
    parts.push(localHeader(member), deflated);
  }
  parts.push(zipTail(members));
  return Buffer.concat(parts);
}
