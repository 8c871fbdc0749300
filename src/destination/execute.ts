// Carrying out a decision (decide.ts) on plain file-system calls: a new folder beside the output,
// kept files hard-linked from the previous output (copied where links cannot be made), new files
// written through the page cache a few at a time, files of the same bytes linked once those are
// written, the marker, and then the folder published at the output's path (output.ts). Files are
// never written over in place: a reader of the previous output keeps reading what it opened.

import { constants, copyFileSync, linkSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { OpenFiles, PlanReader, fileChunks } from '../site/plan-bytes.ts';
import { StaleBytesError, buildIdOf } from '../site/plan.ts';
import type { Plan } from '../site/plan.ts';
import type { Decision, Step } from './decide.ts';
import { MARKER, WriteError, makeParent, markerText, newBuildFolder, publish } from './output.ts';
import type { FileRecord } from './state.ts';

/**
 * Files written at once. Their bytes are made in this thread while the thread pool writes, so a
 * few at a time keep both busy; more only hold more buffers (Eleventy writes one at a time, and says
 * why: unbounded concurrency ran machines out of file descriptors).
 */
const FILES_AT_ONCE = 4;

export interface WriteStats {
  written: number;
  /** Kept from the previous output or linked to a file of the same bytes. */
  linked: number;
  /** Of the files written. */
  bytes: number;
  /** Of every file of the output, each counted once per path: what a host serves. */
  size: number;
  /** Of every file of the output, files linked to each other counted once: what `du` counts, less the folders. */
  disk: number;
}

export interface Written {
  stats: WriteStats;
  /** What the next build needs to know of each file, by path. */
  records: Record<string, FileRecord>;
  /** The build's id, in its marker. */
  build: string;
  /** Something the user should know (an old output that could not be removed). */
  notices: string[];
}

export interface WriteOptions {
  /** The previous output's folder, which kept files are linked from. */
  previousDir?: string;
  /** The download files' SHA-256, by path, to record. */
  checksums?: ReadonlyMap<string, string>;
  /** Also a way to fail on purpose: how a file is linked (a hard link, or a copy where there can be none). */
  link?: (source: string, file: string) => void;
  onFile?: (done: number, total: number) => void;
}

/** Writes the decided output into a new folder and publishes it at `target`. */
export async function writeOutput(decision: Decision, target: string, options: WriteOptions = {}): Promise<Written> {
  makeParent(target);
  const folder = newBuildFolder(target);
  const steps = decision.steps.filter((step) => step.action !== 'remove');
  const plans = steps.map((step) => step.plan);
  let stats: WriteStats;
  try {
    mkdirSync(folder);
    makeFolders(folder, plans);
    stats = await placeFiles(steps, folder, target, options);
    writeFileSync(path.join(folder, MARKER), markerText(buildIdOf(plans)));
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    if (error instanceof StaleBytesError || error instanceof WriteError) throw error;
    throw new WriteError(`cannot write the output: ${(error as Error).message}; ${target} was left as it was`);
  }
  const { records, size, disk } = recordsOf(steps, folder, options.checksums);
  const notice = publish(folder, target);
  return { stats: { ...stats, size, disk }, records, build: buildIdOf(plans), notices: notice ? [notice] : [] };
}

/** Every folder the plans' files go in, made once each. */
function makeFolders(folder: string, plans: readonly Plan[]): void {
  const folders = new Set(plans.map((plan) => path.posix.dirname(plan.path)).filter((dir) => dir !== '.'));
  for (const dir of [...folders].sort()) mkdirSync(path.join(folder, dir), { recursive: true });
}

/**
 * Kept files and those linked from the previous output first (they wait on nothing), then the
 * writes, a few at a time, then the links to files this build wrote. The first failure stops the
 * rest and is reported with the file's path.
 */
async function placeFiles(steps: readonly Step[], folder: string, target: string, options: WriteOptions): Promise<WriteStats> {
  const link = options.link ?? linkOrCopy;
  const stats: WriteStats = { written: 0, linked: 0, bytes: 0, size: 0, disk: 0 };
  let done = 0;
  const count = () => options.onFile?.(++done, steps.length);
  const attempt = (step: Step, work: () => void) => {
    try {
      work();
    } catch (error) {
      throw failure(step.path, error, target);
    }
  };
  for (const step of steps) {
    if (step.action !== 'keep' && !(step.action === 'link' && step.fromPrevious)) continue;
    const from = step.action === 'keep' ? step.path : step.from;
    attempt(step, () => link(path.join(options.previousDir ?? '', from), path.join(folder, step.path)));
    stats.linked++;
    count();
  }
  const writes = steps.filter((step) => step.action === 'write');
  const files = new OpenFiles();
  try {
    let next = 0;
    const lane = async () => {
      const reader = new PlanReader(files);
      for (let step = writes[next++]; step; step = writes[next++]) {
        const { plan, path: file } = step;
        const bytes = await writeFile(plan, path.join(folder, file), reader).catch((error: unknown) => {
          next = writes.length; // the other lanes stop after their file
          throw failure(file, error, target);
        });
        stats.bytes += bytes;
        stats.written++;
        count();
      }
    };
    const lanes = Array.from({ length: Math.min(FILES_AT_ONCE, writes.length) }, lane);
    const settled = await Promise.allSettled(lanes);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    files.close();
  }
  for (const step of steps) {
    if (step.action !== 'link' || step.fromPrevious) continue;
    attempt(step, () => link(path.join(folder, step.from), path.join(folder, step.path)));
    stats.linked++;
    count();
  }
  return stats;
}

/** Writes a plan's bytes into a new file; returns how many. */
async function writeFile(plan: Plan, file: string, reader: PlanReader): Promise<number> {
  const handle = await open(file, 'wx');
  let bytes = 0;
  try {
    for await (const chunk of fileChunks(plan, reader)) {
      await writeAll(handle, chunk);
      bytes += chunk.length;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let at = 0; at < chunk.length;) at += (await handle.write(chunk, at, chunk.length - at)).bytesWritten;
}

/** A hard link, or a copy where the file system has none (or refuses one). */
export function linkOrCopy(source: string, file: string): void {
  try {
    linkSync(source, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EEXIST') throw error;
    copyFileSync(source, file, constants.COPYFILE_EXCL);
  }
}

/** A file that could not be placed, named, with what to do about a full disk. */
function failure(file: string, error: unknown, target: string): Error {
  if (error instanceof StaleBytesError || error instanceof WriteError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const full = ['ENOSPC', 'EDQUOT'].includes(code) ? '; free some space and build again' : '';
  return new WriteError(`cannot write ${file} of the output: ${(error as Error).message}; ${target} was left as it was${full}`);
}

/**
 * What the next build needs of each file: its key, its size and time as written, its checksum and
 * members. With the output's size, each file counted once per path, and on disk, where the files
 * linked to each other share their bytes.
 */
function recordsOf(
  steps: readonly Step[],
  folder: string,
  checksums: ReadonlyMap<string, string> | undefined,
): { records: Record<string, FileRecord>; size: number; disk: number } {
  const records: Record<string, FileRecord> = {};
  const inodes = new Set<number>();
  let total = 0;
  let disk = 0;
  for (const step of steps) {
    if (step.action === 'remove') continue;
    const { size, mtimeMs, ino } = lstatSync(path.join(folder, step.path));
    total += size;
    if (!inodes.has(ino)) disk += size;
    inodes.add(ino);
    const sha256 = checksums?.get(step.path);
    records[step.path] = {
      key: step.plan.key,
      size,
      mtimeMs,
      ...(sha256 === undefined ? {} : { sha256 }),
      ...(step.plan.members ? { members: step.plan.members } : {}),
    };
  }
  return { records, size: total, disk };
}
