// download/browser.zip: every file of the schema browser (its home page, index.html, and everything
// under browse/) in one zip, to unpack and open from disk: the pages link to each other, to their
// style sheet and scripts by relative paths. The members are the files the build planned, taken
// from its plans by path, so whatever the browser gains (scripts, search data) is in the zip too.
//
// Each member is deflated once per content: by the key of its file's plan, its deflated bytes,
// CRC-32 and sizes are kept in the build cache, and a rebuild after an edit deflates only the
// files whose plans changed. A large member (the search data) is deflated in blocks, each kept by
// the key of its bytes (zip.ts, deflateBlocks), so that an edit deflates again only the blocks it
// changed. The zip is then planned like any other file, from the members' headers (made here,
// small) and their deflated bytes (copied from the cache as it is written).
// The reference path zips the same files whole (zip.ts, zipWhole) and must give the same bytes.

import { createHash } from 'node:crypto';
import { DOWNLOAD_DIR, isBrowserFile } from '../../hosting/routes.ts';
import { StaleBytesError, planOf } from '../plan.ts';
import type { Bytes, Piece, Plan } from '../plan.ts';
import { BLOCKS_FROM, ZIP_LEVEL, byName, LAST_BLOCK, isBlockKey, localHeader, zipTail } from './zip.ts';
import type { Deflated, DeflatedBlocks, ZipMember } from './zip.ts';

export const BROWSER_ZIP = `${DOWNLOAD_DIR}/browser.zip`;

/** A member deflated before, as the cache keeps it: its CRC-32, its sizes, and where its deflated bytes are. */
export interface StoredMember {
  crc: number;
  size: number;
  compressedSize: number;
  bytes: Bytes;
}

/** Where deflated members are kept between builds, by member key (pipeline/cache.ts). */
export interface DeflatedStore {
  get(key: string): StoredMember | undefined;
  put(key: string, member: Deflated): void;
  /** The keys of what it keeps. */
  keys(): string[];
  /**
   * Keeps these members only, so the store does not grow without bound. It may move the members
   * it keeps: where one is is asked again afterwards.
   */
  keep(used: ReadonlySet<string>): void;
}

/** Members asked for at once. */
const IN_FLIGHT = 4;

/**
 * A member's key: its file's content, the level, the container's version and zlib's (another
 * version may deflate the same bytes differently, and the reference path deflates afresh).
 */
function memberKey(plan: Plan): string {
  return createHash('sha256').update(`browser.zip\0v1\0${ZIP_LEVEL}\0${process.versions.zlib}\0${plan.key}`).digest('hex');
}

/** The browser's files among the plans (not precompressed copies), listed by name. */
export function browserPlans(plans: readonly Plan[]): Plan[] {
  return byName(
    plans.filter((p) => isBrowserFile(p.path) && !p.compression),
    (plan) => plan.path,
  );
}

/** What deflates the members, wherever it runs (in the writer threads, or on the thread pool). */
export interface Deflate {
  /** A member made of a plan's bytes: their CRC-32 and size, and the bytes deflated at ZIP_LEVEL (zip.ts, deflateMember). */
  member(plan: Plan): Promise<Deflated>;
  /** A large member made of a plan's bytes, in blocks, those whose keys are `known` not deflated again (zip.ts, deflateBlocks). */
  blocks(plan: Plan, known: readonly string[]): Promise<DeflatedBlocks>;
}

/**
 * The zip's plan, from the build's plans (the browser's files among them): each browser file's
 * member taken from `store` when its key is there, else made by `deflate`, and stored. The first
 * members to deflate, the largest, are asked for before this returns, so the caller may do other
 * work while they are deflated.
 */
export async function planBrowserZip(plans: readonly Plan[], store: DeflatedStore, deflate: Deflate): Promise<Plan> {
  const files = browserPlans(plans);
  const large = files.map((plan) => plan.size >= BLOCKS_FROM);
  const keys = files.map((plan, i) => (large[i] ? '' : memberKey(plan)));
  const found: (StoredMember | undefined)[] = keys.map((key) => (key === '' ? undefined : store.get(key)));
  // A large member goes to a thread of its own, which deflates only the blocks not kept.
  const known = large.includes(true) ? store.keys().filter(isBlockKey) : [];
  const blocked = new Map<number, DeflatedBlocks>();
  const fresh = new Map<string, Uint8Array>();
  const inBlocks = files
    .flatMap((plan, i) => (large[i] ? [i] : []))
    .map(async (i) => {
      const made = await deflate.blocks(files[i] as Plan, known);
      for (const block of made.blocks) {
        if (!block.deflated) continue;
        store.put(block.key, block.deflated);
        fresh.set(block.key, block.deflated.deflated);
      }
      blocked.set(i, made);
    });
  const missing = files
    .flatMap((plan, i) => (found[i] || large[i] ? [] : [i]))
    .sort((a, b) => (files[b]?.size ?? 0) - (files[a]?.size ?? 0));
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let at = next++; at < missing.length; at = next++) {
      const i = missing[at] as number;
      const plan = files[i] as Plan;
      const key = keys[i] as string;
      const member = await deflate.member(plan);
      store.put(key, member);
      found[i] = { crc: member.crc, size: member.size, compressedSize: member.deflated.length, bytes: member.deflated };
    }
  };
  await Promise.all([...inBlocks, ...Array.from({ length: Math.min(IN_FLIGHT, missing.length) }, lane)]);
  const blockKeys = [...blocked.values()].flatMap((made) => made.blocks.map((block) => block.key));
  store.keep(new Set([...keys.filter((key) => key !== ''), ...blockKeys]));
  // Keeping may have moved members deflated before (into this build's pack): ask where they are now.
  files.forEach((_plan, i) => {
    if (large[i] || found[i]?.bytes instanceof Uint8Array) return;
    found[i] = store.get(keys[i] as string);
  });
  const members: ZipMember[] = [];
  const pieces: Piece[] = [];
  files.forEach((plan, i) => {
    const made = blocked.get(i);
    const framed = made ? fromBlocks(plan, made, store, fresh) : fromMember(plan, found[i], keys[i] as string);
    members.push(framed.member);
    const header = localHeader(framed.member);
    pieces.push({ bytes: header, key: `zip-header:${hex(header)}`, shift: 0, breaks: 0 }, ...framed.pieces);
  });
  const tail = zipTail(members);
  pieces.push({ bytes: tail, key: `zip-tail:${createHash('sha256').update(tail).digest('hex')}`, shift: 0, breaks: 0 });
  return planOf(BROWSER_ZIP, pieces);
}

/** A member as the zip holds it: its entry, and the pieces of its deflated bytes. */
interface Framed {
  member: ZipMember;
  pieces: Piece[];
}

/** A member deflated whole, as it was kept or deflated now. */
function fromMember(plan: Plan, stored: StoredMember | undefined, key: string): Framed {
  if (!stored) throw new Error(`${plan.path}: its deflated member was not kept`);
  assertSize(plan, stored, plan.size, 'file');
  return {
    member: { name: plan.path, crc: stored.crc, size: stored.size, compressedSize: stored.compressedSize },
    pieces: [{ bytes: stored.bytes, key: `zip-member:${key}`, shift: 0, breaks: 0 }],
  };
}

/** A member deflated in blocks: its blocks' deflated bytes in order (those deflated now, else those kept), then the last block. */
function fromBlocks(plan: Plan, made: DeflatedBlocks, store: DeflatedStore, fresh: ReadonlyMap<string, Uint8Array>): Framed {
  const pieces: Piece[] = [];
  let compressedSize = 0;
  for (const block of made.blocks) {
    const now = fresh.get(block.key);
    if (now) {
      compressedSize += now.length;
      pieces.push({ bytes: now, key: `zip-block:${block.key}`, shift: 0, breaks: 0 });
      continue;
    }
    const kept = store.get(block.key);
    if (!kept) throw new Error(`${plan.path}: a deflated block of it was not kept`);
    assertSize(plan, kept, block.size, 'block');
    compressedSize += kept.compressedSize;
    pieces.push({ bytes: kept.bytes, key: `zip-block:${block.key}`, shift: 0, breaks: 0 });
  }
  pieces.push({ bytes: LAST_BLOCK, key: `zip-last-block:${hex(LAST_BLOCK)}`, shift: 0, breaks: 0 });
  return {
    member: { name: plan.path, crc: made.crc, size: made.size, compressedSize: compressedSize + LAST_BLOCK.length },
    pieces,
  };
}

/** Equal keys mean equal bytes: what is kept for a `what` of another size was damaged in the cache. */
function assertSize(plan: Plan, kept: StoredMember, size: number, what: 'file' | 'block'): void {
  if (kept.size === size) return;
  const file = kept.bytes instanceof Uint8Array ? plan.path : kept.bytes.file;
  throw new StaleBytesError(file, kept.size, size, `is kept for a ${what} of ${kept.size} bytes, not ${size}`);
}

/** Small bytes as their own key. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
