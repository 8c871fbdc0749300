// download/browser.zip: every file of the schema browser (its home page, index.html, and everything
// under browse/) in one zip, to unpack and open from disk: the pages link to each other, to their
// style sheet and scripts by relative paths. The members are the files the build planned, taken
// from its plans by path, so whatever the browser gains (scripts, search data) is in the zip too.
//
// A member whose file is unchanged since the last build is copied from the last build's zip (its
// place there recorded by the member's key: Plan.members); the others are deflated, on the thread
// pool while the rest is planned. The zip is then planned like any other file, from the members'
// headers (made here, small) and their deflated bytes. The reference path zips the same files whole
// (zip.ts, zipWhole) and must give the same bytes.

import { createHash } from 'node:crypto';
import { DOWNLOAD_DIR, isBrowserFile } from '../../site/routes.ts';
import { OpenFiles, PlanReader, wholeBytes } from '../../site/plan-bytes.ts';
import { StaleBytesError, planOf, sourcesOf } from '../../site/plan.ts';
import type { MemberPlace, Piece, Plan } from '../../site/plan.ts';
import type { KeptMember } from '../output.ts';
import { ZIP_LEVEL, byName, deflateMemberAsync, localHeader, memberSpan, zipTail } from './zip.ts';
import type { ZipMember } from './zip.ts';

export const BROWSER_ZIP = `${DOWNLOAD_DIR}/browser.zip`;

/** Members deflated at once on the thread pool. */
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

/**
 * The zip's plan, from the build's plans (the browser's files among them): each member copied from
 * `kept` (the last build's zip) where its key is there, deflated otherwise. The members to deflate
 * are read here and handed to the thread pool before this returns its promise, so the caller plans
 * the other outputs while they are deflated.
 */
export function planBrowserZip(plans: readonly Plan[], kept: ReadonlyMap<string, KeptMember>): Promise<Plan> {
  const files = browserPlans(plans);
  const keys = files.map(memberKey);
  const members: (KeptMember | undefined)[] = keys.map((key) => kept.get(key));
  // Largest first, so the search data does not start last.
  const missing = files.flatMap((_, i) => (members[i] ? [] : [i])).sort((a, b) => (files[b]?.size ?? 0) - (files[a]?.size ?? 0));
  const cacheFiles = new OpenFiles();
  const reader = new PlanReader(cacheFiles);
  let next = 0;
  // Each lane reads its member's bytes here (at once: the reader's buffers are reused) and waits
  // for the thread pool to deflate them.
  const lane = async () => {
    for (let at = next++; at < missing.length; at = next++) {
      const i = missing[at] as number;
      const { crc, size, deflated } = await deflateMemberAsync(wholeBytes(files[i] as Plan, reader));
      members[i] = { crc, size, compressedSize: deflated.length, bytes: deflated };
    }
  };
  const lanes = Array.from({ length: Math.min(IN_FLIGHT, missing.length) }, lane);
  return Promise.all(lanes)
    .then(() => zipPlan(files, keys, members))
    .finally(() => cacheFiles.close());
}

/** The zip of these members: each one's header and deflated bytes, then the central directory; and where each member is. */
function zipPlan(files: readonly Plan[], keys: readonly string[], members: readonly (KeptMember | undefined)[]): Plan {
  const entries: ZipMember[] = [];
  const pieces: Piece[] = [];
  const places: Record<string, MemberPlace> = {};
  let offset = 0;
  files.forEach((plan, i) => {
    const member = members[i];
    if (!member) throw new Error(`${plan.path}: its member was neither kept nor deflated`);
    const { crc, size, compressedSize, bytes } = member;
    // Equal keys mean equal bytes: a member kept for a file of another size was damaged.
    if (size !== plan.size) throw new StaleBytesError(plan.path, size, plan.size, `is kept for a file of ${size} bytes, not ${plan.size}`);
    const entry = { name: plan.path, crc, size, compressedSize };
    const header = localHeader(entry);
    const key = keys[i] as string;
    entries.push(entry);
    pieces.push({ bytes: header, key: `zip-header:${hex(header)}`, shift: 0, breaks: 0 });
    // Named by what the file was rendered from, so the zip's reason to change names it too.
    const [source] = sourcesOf(plan);
    pieces.push({ bytes, key: `zip-member:${key}`, shift: 0, breaks: 0, ...(source === undefined ? {} : { source }) });
    places[key] = { crc, size, compressedSize, offset: offset + header.length };
    offset += memberSpan(entry);
  });
  const tail = zipTail(entries);
  pieces.push({ bytes: tail, key: `zip-tail:${createHash('sha256').update(tail).digest('hex')}`, shift: 0, breaks: 0 });
  return { ...planOf(BROWSER_ZIP, pieces), members: places };
}

/** Small bytes as their own key. */
function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
