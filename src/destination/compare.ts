// What writing plans into an output folder would change, found without writing anything: each
// file that would be added, changed or removed, with its sizes. A file is unchanged when the
// output's manifest says it was written from the same plan, or else when its bytes are the plan's
// (a precompressed copy's are made to be compared, and counted).

import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest, Plan } from '../outputs/plan.ts';
import { MARKER, assertReplaceable, outputBuildId } from './folder.ts';
import { fileChunks } from './compress.ts';
import { PieceReader, newSlot } from './pieces.ts';

export interface Change {
  path: string;
  change: 'add' | 'change' | 'remove';
  /** In bytes: what the output holds now (changed and removed files), what it would hold (added and changed ones). */
  before?: number;
  after?: number;
}

export interface Comparison {
  /** By path. */
  changes: Change[];
  unchanged: number;
  /** The output's size now, and after the build, in bytes. */
  sizeBefore: number;
  sizeAfter: number;
}

export async function compareWithOutput(plans: readonly Plan[], outDir: string, previous?: Manifest): Promise<Comparison> {
  await assertReplaceable(outDir);
  const current = await filesIn(outDir);
  const known = previous && (await outputBuildId(outDir)) === previous.build ? previous : undefined;
  // A precompressed copy's size is known once it is made: those not known to be unchanged are
  // compressed, and compared with the output's as they are made.
  const unknown = plans.filter((p) => p.compression && !(current.has(p.path) && known?.files[p.path] === p.key));
  const copies = await madeCopies(unknown, (p) => (current.has(p.path) ? path.join(outDir, p.path) : undefined));
  const changes: Change[] = [];
  let unchanged = 0;
  let sizeAfter = 0;
  for (const plan of plans) {
    const before = current.get(plan.path);
    current.delete(plan.path);
    const made = copies.get(plan.path);
    // An unchanged copy is the size of the file in the output, which holds its bytes.
    const after = made ? made.size : plan.compression ? (before ?? 0) : plan.size;
    sizeAfter += after;
    if (before === undefined) changes.push({ path: plan.path, change: 'add', after });
    else if (
      known?.files[plan.path] === plan.key ||
      (made ? made.same : before === plan.size && (await sameBytes(plan, path.join(outDir, plan.path))))
    )
      unchanged++;
    else changes.push({ path: plan.path, change: 'change', before, after });
  }
  for (const [file, before] of current) changes.push({ path: file, change: 'remove', before });
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sizeBefore = changes.reduce((n, c) => n + (c.before ?? 0), 0);
  // Unchanged files count on both sides.
  const kept = sizeAfter - changes.reduce((n, c) => n + (c.after ?? 0), 0);
  return { changes, unchanged, sizeBefore: sizeBefore + kept, sizeAfter };
}

/** Copies compressed at once: zlib works on the thread pool, so on as many cores. */
const COPIES_AT_ONCE = 4;

/**
 * Each copy's size, and whether its file in the output (`inOutput`) holds its bytes, by path.
 * Copies of equal keys (of files with equal bytes) are compressed once, those with a file first:
 * another's file is the same as that one's when it holds the same bytes (it is usually a link).
 */
async function madeCopies(
  copies: readonly Plan[],
  inOutput: (plan: Plan) => string | undefined,
): Promise<Map<string, { size: number; same: boolean }>> {
  const byKey = new Map<string, Plan[]>();
  for (const plan of copies) byKey.set(plan.key, [...(byKey.get(plan.key) ?? []), plan]);
  const groups = [...byKey.values()].map((group) => [...group].sort((a, b) => Number(!inOutput(a)) - Number(!inOutput(b))));
  const made = new Map<string, { size: number; same: boolean }>();
  const one = async ([first, ...others]: Plan[]) => {
    if (!first) return;
    const compared = inOutput(first);
    const measured = await measure(first, compared);
    made.set(first.path, measured);
    for (const plan of others) {
      const file = inOutput(plan);
      if (file === undefined) made.set(plan.path, { size: measured.size, same: false });
      else if (compared !== undefined && sameFile(file, compared)) made.set(plan.path, measured);
      else made.set(plan.path, await measure(plan, file));
    }
  };
  let next = 0;
  const work = async () => {
    for (let group = groups[next++]; group; group = groups[next++]) await one(group);
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, work));
  return made;
}

/** Whether two files hold the same bytes: one file linked twice, or read and compared. */
function sameFile(a: string, b: string): boolean {
  const one = statSync(a);
  const two = statSync(b);
  if (one.dev === two.dev && one.ino === two.ino) return true;
  if (one.size !== two.size) return false;
  const [fa, fb] = [openSync(a, 'r'), openSync(b, 'r')];
  const [ba, bb] = [Buffer.allocUnsafe(1 << 20), Buffer.allocUnsafe(1 << 20)];
  try {
    for (;;) {
      const n = readSync(fa, ba, 0, ba.length, null);
      if (n === 0) return true;
      if (readSync(fb, bb, 0, n, null) !== n || !ba.subarray(0, n).equals(bb.subarray(0, n))) return false;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

/** Every file in an output folder but its marker, with its size; none if there is no folder. */
async function filesIn(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  const walk = async (sub: string) => {
    let entries;
    try {
      entries = await readdir(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(relative);
      else if (relative !== MARKER) files.set(relative, (await stat(path.join(dir, relative))).size);
    }
  };
  await walk('');
  return files;
}

/** Whether a file holds exactly a plan's bytes, read a chunk at a time. */
async function sameBytes(plan: Plan, file: string): Promise<boolean> {
  const slot = newSlot();
  const reader = new PieceReader(() => Promise.resolve(slot));
  const fd = openSync(file, 'r');
  const held = Buffer.allocUnsafe(1 << 20);
  try {
    for await (const chunk of fileChunks(plan, reader)) if (!readsAs(fd, chunk, held)) return false;
    return readSync(fd, held, 0, 1, null) === 0;
  } finally {
    closeSync(fd);
  }
}

/** How many bytes a plan makes, and whether `file` (if any) holds exactly them: every byte is made, to count them. */
async function measure(plan: Plan, file: string | undefined): Promise<{ size: number; same: boolean }> {
  const slot = newSlot();
  const reader = new PieceReader(() => Promise.resolve(slot));
  const fd = file === undefined ? undefined : openSync(file, 'r');
  const held = Buffer.allocUnsafe(1 << 20);
  let size = 0;
  let same = fd !== undefined;
  try {
    for await (const chunk of fileChunks(plan, reader)) {
      size += chunk.length;
      if (same && fd !== undefined) same = readsAs(fd, chunk, held);
    }
    return { size, same: same && fd !== undefined && readSync(fd, held, 0, 1, null) === 0 };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether the file's next bytes are the chunk's, read through `held`. */
function readsAs(fd: number, chunk: Uint8Array, held: Buffer): boolean {
  for (let at = 0; at < chunk.length;) {
    const want = Math.min(held.length, chunk.length - at);
    const n = readSync(fd, held, 0, want, null);
    if (n === 0 || !held.subarray(0, n).equals(chunk.subarray(at, at + n))) return false;
    at += n;
  }
  return true;
}
