// What writing plans into an output folder would change, found without writing anything: each
// file that would be added, changed or removed, with its sizes. A file is unchanged when the
// output's manifest says it was written from the same plan, or else when its bytes are the plan's.

import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest, Plan } from '../outputs/plan.ts';
import { MARKER, assertReplaceable, outputBuildId } from './folder.ts';
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
  const changes: Change[] = [];
  let unchanged = 0;
  for (const plan of plans) {
    const before = current.get(plan.path);
    current.delete(plan.path);
    if (before === undefined) changes.push({ path: plan.path, change: 'add', after: plan.size });
    else if (known?.files[plan.path] === plan.key || (before === plan.size && (await sameBytes(plan, path.join(outDir, plan.path)))))
      unchanged++;
    else changes.push({ path: plan.path, change: 'change', before, after: plan.size });
  }
  for (const [file, before] of current) changes.push({ path: file, change: 'remove', before });
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sizeBefore = changes.reduce((n, c) => n + (c.before ?? 0), 0);
  const sizeAfter = plans.reduce((n, p) => n + p.size, 0);
  // Unchanged files count on both sides.
  const kept = sizeAfter - changes.reduce((n, c) => n + (c.after ?? 0), 0);
  return { changes, unchanged, sizeBefore: sizeBefore + kept, sizeAfter };
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
    for await (const [, chunk] of reader.chunks(plan.pieces)) {
      for (let at = 0; at < chunk.length;) {
        const want = Math.min(held.length, chunk.length - at);
        const n = readSync(fd, held, 0, want, null);
        if (n === 0 || !held.subarray(0, n).equals(chunk.subarray(at, at + n))) return false;
        at += n;
      }
    }
    return readSync(fd, held, 0, 1, null) === 0;
  } finally {
    closeSync(fd);
  }
}
