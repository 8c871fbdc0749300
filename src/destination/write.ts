// Writes plans into the output folder atomically: everything goes into a staging folder beside
// it first, which then replaces the old output in two renames (folder.ts), so a build that fails
// at any point leaves the previous output exactly as it was. The staging folder is the output the
// previous build replaced, kept in the cache as a spare (spare.ts), where there is one: only the files that
// differ from what it holds are changed. Files whose content key is unchanged since the previous
// build are hard-linked from it instead of written again; a file linked from anywhere else is
// never written over, so sharing files between the old and new folder is safe.

import { randomBytes } from 'node:crypto';
import { constants, copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StaleBytesError, commonStart, manifestOf } from '../outputs/plan.ts';
import type { Manifest, Plan } from '../outputs/plan.ts';
import { MARKER, WriteError, assertReplaceable, besideOutput, markerText, outputBuildId, swap } from './folder.ts';
import { fileChunks } from './compress.ts';
import { OpenFiles, PieceReader, newSlot, roomSlot } from './pieces.ts';
import type { Slot } from './pieces.ts';
import { SinkWriter } from './file-sink.ts';
import type { Written } from './file-sink.ts';
import type { WriterThreads } from './write-threads.ts';
import { SpareOutput, foldersOf, recycledBeside } from './spare.ts';

export interface WriteStats {
  written: number;
  /** Files linked from the previous output or a twin, or already in the staging folder as they are. */
  linked: number;
  /** Of the files written, how many were written over the spare output's file at their path. */
  recycled: number;
  /** Of the files written, how many in writer threads. */
  threaded: number;
  bytes: number;
}

export interface WriteOptions {
  /** The previous build's manifest, when its output is still in place: unchanged files are linked. */
  previous?: Manifest;
  /**
   * Where the output this build replaces is kept, to be the next build's staging folder, and where
   * this build takes its own from (spare.ts). On the output's file system, or nothing is kept.
   */
  spare?: string;
  onFile?: (done: number, total: number) => void;
  /**
   * Files still being planned when the others are (the download's zip, whose members are deflated
   * meanwhile, in the writer threads or on the thread pool): written once they come, after the
   * others and before the late ones. Their paths are known already. Should planning them fail,
   * that failure is thrown as it is.
   */
  coming?: { paths: readonly string[]; plans: Promise<Plan[]> };
  /**
   * The rest of the output's plans, planned batch by batch as they are asked for, after `plans`:
   * with writer threads, the files of each batch that this build writes are sent to them before
   * the next is planned, so the disk is busy while the rest is planned. Their files come after
   * those of `plans` in the output's manifest.
   */
  more?: Iterable<readonly Plan[]>;
  /**
   * Worker threads to write files in (write-threads.ts), which the caller ends: for a large output,
   * whose files this thread alone would write one after another. None by default.
   */
  threads?: WriterThreads;
  /**
   * Files planned from the checksums of others (the download's list and page): the SHA-256 of each
   * plan `measured` picks is taken as it is written, by whichever thread writes it, or found in
   * `known`, by plan key, for a file linked rather than written; `plans` makes the late files from
   * them, written last. The measured files are written first.
   */
  late?: {
    measured: (plan: Plan) => boolean;
    known: Map<string, string>;
    /** The late files, from the checksums and every plan written before them. */
    plans: (sums: ReadonlyMap<string, string>, written: readonly Plan[]) => Plan[];
    /** How many late files there will be, for the progress count, given every plan. */
    count: (plans: readonly Plan[]) => number;
  };
}

/** Files written at once. */
const FILES_IN_FLIGHT = 4;
/** Files left or linked between looks at the writers' messages. */
const LINKED_AT_ONCE = 64;

export async function writePlans(
  plans: readonly Plan[],
  outDir: string,
  options: WriteOptions = {},
): Promise<{ manifest: Manifest; stats: WriteStats; notices: string[]; plans: Plan[]; late: Plan[]; coming: Plan[] }> {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  await assertReplaceable(target);
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    throw new WriteError(`cannot create ${parent}: ${(error as Error).message}`);
  }
  // A sibling of the output, so the final renames stay on one file system. Made with the
  // permissions any new folder gets (not mkdtemp's owner-only ones): it becomes the output, which
  // a web server running as another user must be able to read.
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const staging = besideOutput(target, 'new', id);
  const threads = options.threads;
  const spare = options.spare === undefined ? undefined : new SpareOutput(options.spare);
  // What the staging folder holds, by path (the spare output's files, or nothing), and the
  // folders it holds that this output keeps.
  let held = new Map<string, string>();
  let folders = new Set<string>();
  const adopted = await spare?.adopt(staging);
  const makeStaging = async () => {
    try {
      await mkdir(staging);
    } catch (error) {
      throw new WriteError(`cannot create a staging folder in ${parent}: ${(error as Error).message}`);
    }
  };
  if (adopted) held = new Map(Object.entries(adopted.files));
  else await makeStaging();
  /**
   * How many of a plan's first bytes the staging folder's file at its path holds already, when it
   * is the spare output's (Plan.marks): written over, they are not written again.
   */
  const same = (plan: Plan) =>
    held.get(plan.path) === adopted?.files[plan.path] ? commonStart(adopted?.marks?.[plan.path], plan.marks) : 0;
  const stats: WriteStats = { written: 0, linked: 0, recycled: 0, threaded: 0, bytes: 0 };
  const late = options.late;
  const sums = new Map<string, string>();
  let latePlans: Plan[] = [];
  let manifest: Manifest | undefined;
  let comingPlans: Plan[] = [];
  // Planning's failure, thrown as it is once the staging folder is gone.
  let unplanned: { error: unknown } | undefined;
  const previous = options.previous && (await outputBuildId(target)) === options.previous.build ? options.previous : undefined;
  // The build cache's files the pieces are read from, open until everything is written.
  const files = new OpenFiles();
  const measured = (plan: Plan) => late?.measured(plan) ?? false;
  // Every plan, those of `more` once they are planned.
  const all = [...plans];
  // Each file's placing, settled when it is in the staging folder or has failed.
  const jobs: Promise<void>[] = [];
  try {
    // Folders known to be there.
    const made = new Set<string>();
    const madeFor = (file: string) => {
      const dir = path.dirname(file);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
    };
    // The same bytes already written in this build (the ifs listing is the catalogues one until
    // IFS data exists), or left unchanged by the previous build: linked instead of written.
    const firstWith = new Map<string, string>();
    // Several files are written at once: writes into one file take turns, writes into different
    // files do not. A twin is linked once the file it shares is complete.
    const done = new Map<string, Promise<void>>();
    let failure: { error: unknown; path: string } | undefined;
    const failed = (plan: Plan) => (error: unknown) => {
      failure ??= { error, path: plan.path };
      threads?.cancel(new Error(`not written: ${failure.path} failed`));
    };
    const kept = (plan: Plan) => held.get(plan.path) === plan.key || previous?.files[plan.path] === plan.key;
    // Files sent to the writer threads while the rest was planned, by path: each one's writing.
    const early = new Map<string, Promise<Written | undefined>>();
    const send = (batch: readonly Plan[]) => {
      if (!threads) return;
      for (const plan of batch) {
        if (failure || kept(plan) || !sendable(plan) || firstWith.has(plan.key) || early.has(plan.path)) continue;
        const file = path.join(staging, plan.path);
        madeFor(file);
        // Over the spare output's file at its path, if nothing else links it (openOver).
        const over = held.has(plan.path);
        const start = over ? same(plan) : 0;
        // What the staging folder will hold there, which pruning it keeps.
        held.set(plan.path, plan.key);
        firstWith.set(plan.key, plan.path);
        const writing = threads.write(file, plan.pieces, over, measured(plan), plan.size, start).catch((error: unknown) => {
          failed(plan)(error);
          return undefined;
        });
        early.set(plan.path, writing);
        const settled = writing.then(() => undefined);
        done.set(plan.path, settled);
        jobs.push(settled);
      }
    };
    if (options.more) {
      send(plans);
      try {
        for (const batch of options.more) {
          all.push(...batch);
          send(batch);
          // The writers' messages, so that those done with what they were sent get more.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        unplanned = { error };
        throw error;
      }
    }
    if (adopted) {
      try {
        folders = prune(staging, held, [...all.map((plan) => plan.path), ...(options.coming?.paths ?? [])]);
      } catch {
        // Something in it this user may not remove after all: a fresh folder instead, and what
        // was written into it already is written again.
        await Promise.allSettled(early.values());
        rmSync(staging, { recursive: true, force: true });
        for (const map of [held, early, firstWith, done]) map.clear();
        made.clear();
        folders = new Set();
        failure = undefined;
        await makeStaging();
      }
    }
    for (const folder of folders) made.add(path.join(staging, folder));
    const order = [...all.filter(measured), ...all.filter((plan) => !measured(plan))];
    const writers = new WriterPool(files);
    // A measured file is linked only when its checksum is known.
    const pool = recyclePool(
      staging,
      held,
      order,
      previous,
      (plan) => !measured(plan) || late?.known.has(plan.key) === true,
      spare && adopted ? recycledBeside(spare.dir) : undefined,
    );
    let index = 0;
    const total = all.length + (options.coming?.paths.length ?? 0) + (late?.count(all) ?? 0);
    /** Counts a file written, and keeps its checksum if it was taken. */
    const account = (plan: Plan, result: Written, threaded: boolean) => {
      if (threaded) stats.threaded++;
      stats.bytes += result.bytes;
      stats.written++;
      if (result.reused) stats.recycled++;
      if (result.sha256 !== undefined) {
        sums.set(plan.path, result.sha256);
        late?.known.set(plan.key, result.sha256);
      }
    };
    /**
     * One file into the staging folder: left as it is when the staging folder holds it already, or
     * linked from `source` when there is one (either, for a `measured` file, when its checksum is
     * known); written otherwise, and its checksum taken as it is. A file sent to a writer thread
     * while the rest was planned is counted once it is written.
     */
    const place = async (plan: Plan, source: string | undefined, measured: boolean): Promise<void> => {
      const file = path.join(staging, plan.path);
      const writing = early.get(plan.path);
      if (writing) {
        const result = await writing;
        if (!result) return;
        account(plan, result, true);
        options.onFile?.(++index, total);
        return;
      }
      madeFor(file);
      const known = measured ? late?.known.get(plan.key) : undefined;
      const usable = !measured || known !== undefined;
      const there = held.has(plan.path);
      const kept = usable && held.get(plan.path) === plan.key && holds(file, plan);
      if (kept || (source && usable && (!there || unlinked(file)) && link(source, file))) {
        stats.linked++;
        if (known !== undefined) sums.set(plan.path, known);
      } else {
        const recycled = pool.size > 0 && (!there || shared(file));
        const over = recycled ? pool.into(file, plan.size) : there;
        // Once a file has failed the rest are not started: the staging folder goes anyway.
        const threaded = threads !== undefined && sendable(plan);
        const result: Written | undefined = threaded
          ? failure
            ? undefined
            : await threads.write(file, plan.pieces, over, measured, plan.size, there && !recycled ? same(plan) : 0)
          : await writers.run(async (writer) => (failure ? undefined : writer.write(file, plan, over, measured)));
        if (!result) return;
        account(plan, result, threaded);
      }
      options.onFile?.(++index, total);
    };
    const start = (plan: Plan): Promise<void> => {
      if (early.has(plan.path)) {
        const job = place(plan, undefined, measured(plan)).catch(failed(plan));
        done.set(plan.path, job);
        return job;
      }
      const twin = firstWith.get(plan.key);
      if (!twin) firstWith.set(plan.key, plan.path);
      const source = twin ? path.join(staging, twin) : previous?.files[plan.path] === plan.key ? path.join(target, plan.path) : undefined;
      const job = (async () => {
        if (twin) await done.get(twin);
        await place(plan, source, measured(plan));
      })().catch(failed(plan));
      done.set(plan.path, job);
      return job;
    };
    // The files to write go to the writers first; those to leave or link follow, a batch at a time
    // between the writers' messages: linking a first rebuild's 2,600 files and making its 600
    // folders in one go held this thread 0.23 s, while the writers, done with what they had been
    // sent, waited for more.
    jobs.push(...order.filter((plan) => !kept(plan)).map(start));
    let linked = 0;
    for (const plan of order.filter(kept)) {
      jobs.push(start(plan));
      if (++linked % LINKED_AT_ONCE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (options.coming) {
      const coming = await options.coming.plans.catch((error: unknown) => {
        // A write failed first, and what was waiting for the threads (the zip's members among it)
        // failed with it: the failure reported is that write's.
        if (failure) return [];
        unplanned = { error };
        throw error;
      });
      comingPlans = coming;
      jobs.push(...coming.map(start));
    }
    // Every job ends before the staging folder may go; the first failure is reported.
    await Promise.all(jobs);
    // The late files, made of the others' checksums, one after another.
    if (!failure && late) {
      latePlans = late.plans(sums, [...all, ...comingPlans]);
      for (const plan of latePlans) {
        const unchanged = previous?.files[plan.path] === plan.key ? path.join(target, plan.path) : undefined;
        await place(plan, unchanged, false).catch(failed(plan));
      }
    }
    if (failure) {
      const { error, path: failed } = failure;
      if (error instanceof StaleBytesError) throw error;
      const full = ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '') ? '; free some space and build again' : '';
      throw new WriteError(`cannot write ${failed} of the output: ${(error as Error).message}; ${outDir} was left as it was${full}`);
    }
    // What was put aside to write over and was not needed leaves the folder before it is published.
    pool.end(Math.floor(all.reduce((n, plan) => n + plan.size, 0) / 2));
    // The marker names the build by every file it holds, the late ones included.
    manifest = manifestOf([...all, ...comingPlans, ...latePlans]);
    await writeFile(path.join(staging, MARKER), markerText(manifest.build));
  } catch (error) {
    // Files already sent out are written before their folder goes.
    await Promise.allSettled(jobs);
    await rm(staging, { recursive: true, force: true });
    if (unplanned || error instanceof StaleBytesError || error instanceof WriteError) throw error;
    throw new WriteError(`cannot write the output: ${(error as Error).message}; ${outDir} was left as it was`);
  } finally {
    files.close();
  }
  // The output replaced is kept for the next build when what it holds is known.
  const notice = await swap(staging, target, besideOutput(target, 'old', id), (old) => (previous && spare?.keep(old, previous)) ?? false);
  return { manifest, stats, notices: notice ? [notice] : [], plans: all, late: latePlans, coming: comingPlans };
}

/** A few writers, each lent to one file at a time, in the order files ask. */
class WriterPool {
  private readonly idle: PlanWriter[];
  private readonly waiting: ((writer: PlanWriter) => void)[] = [];

  constructor(files: OpenFiles) {
    this.idle = Array.from({ length: FILES_IN_FLIGHT }, () => new PlanWriter(files));
  }

  async run<T>(work: (writer: PlanWriter) => Promise<T>): Promise<T> {
    const writer = this.idle.pop() ?? (await new Promise<PlanWriter>((lend) => this.waiting.push(lend)));
    try {
      return await work(writer);
    } finally {
      const next = this.waiting.shift();
      if (next) next(writer);
      else this.idle.push(writer);
    }
  }
}

/**
 * Writes plans into files through a sink of its own (file-sink.ts): straight to the disk where the
 * file system allows, a buffer at a time, through buffers allocated once: fresh memory for a copy
 * of each large text costs more here than the copying itself. Several files are written at once,
 * each by a writer of the pool, as their pieces are read.
 */
class PlanWriter {
  private readonly reader: PieceReader;
  private readonly sinks = new SinkWriter();
  /** Where stored text is read: into the sink's buffer itself, where the file being written has one. */
  private readonly room = roomSlot();
  /** The room of the file being written (FileSink.room), which the reader reads into. */
  private roomOf?: () => Buffer;
  /** Reads the file a precompressed copy is made of, through one slot of its own: the compressor takes each chunk in before the next. */
  private copied?: PieceReader;

  constructor(private readonly files: OpenFiles) {
    this.reader = new PieceReader(() => Promise.resolve(this.nextSlot()), files);
  }

  /**
   * Writes one plan's bytes into a new file, or over the file at its path when `there` is one of
   * the spare output's; returns how many bytes it wrote and whether it wrote over that file, and
   * with `hash` their SHA-256, taken as they pass.
   */
  write(file: string, plan: Plan, there: boolean, hash = false): Promise<Written> {
    return this.sinks.write(file, there, hash, (room) => this.chunks(plan, room), plan.size);
  }

  private nextSlot(): Slot {
    if (!this.roomOf) throw new Error('pieces read with no file being written');
    return this.room(this.roomOf);
  }

  /** A plan's bytes, each chunk good until the next is asked for: compressed as they are read for a copy. */
  private chunks(plan: Plan, room: () => Buffer): AsyncIterable<Uint8Array> {
    if (!plan.compression) return this.pieceChunks(plan, room);
    if (!this.copied) {
      const own = newSlot();
      this.copied = new PieceReader(() => Promise.resolve(own), this.files);
    }
    return fileChunks(plan, this.copied);
  }

  private async *pieceChunks(plan: Plan, room: () => Buffer): AsyncGenerator<Uint8Array> {
    this.roomOf = room;
    try {
      for await (const [, chunk] of this.reader.chunks(plan.pieces)) yield chunk;
    } finally {
      this.roomOf = undefined;
    }
  }
}

/** In-memory texts at most this long in all are copied to a writer thread with their plan. */
const COPIED = 16 << 20;

/** Whether a plan is written in a writer thread: not a compressed copy, and its texts mostly in the cache's files. */
function sendable(plan: Plan): boolean {
  if (plan.compression) return false;
  let copied = 0;
  for (const piece of plan.pieces) {
    copied += typeof piece === 'string' ? piece.length : piece.bytes instanceof Uint8Array ? piece.bytes.length : 0;
    if (copied > COPIED) return false;
  }
  return true;
}

/**
 * A hard link, or a copy where links are not possible; false if the source is gone. Never over a
 * file that is there: a copy would write into a file that may be linked from the output.
 */
function link(source: string, file: string): boolean {
  try {
    linkSync(source, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'EEXIST') throw error;
    copyFileSync(source, file, constants.COPYFILE_EXCL);
    return true;
  }
}

/** Where files put aside to be written over wait, in the staging folder, when there is no spare output to keep them beside. */
const RECYCLED = '.recycled';

/**
 * Files put aside to be written over where a file is written that has none of its own to write
 * over (nothing at its path, or a file linked from elsewhere): the staging folder's files at paths
 * this build links from the output in place, which would otherwise be removed there. An edit
 * undone and another made (the spare output then holds the first edit's files, each replaced by a
 * link) writes its files over those. Writing over a file needs no new disk blocks, and removing one
 * frees its blocks (this machine's disk is told of every freed block): 0.17 ms a MB, where a
 * rebuild after an imaging edit of the L archive put 10 files aside that it did not write over,
 * and removed them in 87 ms of its 0.8 s. So what a build does not write over is kept beside the
 * spare output in the cache for the next, as long as the pool holds at most half the output's
 * bytes; without a spare output, the pool is in the staging folder and goes with the build.
 */
class RecyclePool {
  private readonly aside: { file: string; size: number }[] = [];
  /** Names given so far: each file is named by a number. */
  private count = 0;
  private made = false;

  constructor(
    private readonly dir: string,
    /** Whether what is not written over is kept for the next build. */
    private readonly kept: boolean,
  ) {
    if (!kept) return;
    try {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        const info = lstatSync(file);
        if (!entry.isFile() || info.nlink !== 1 || !/^\d+$/.test(entry.name)) rmSync(file, { recursive: true, force: true });
        else {
          this.aside.push({ file, size: info.size });
          this.count = Math.max(this.count, Number(entry.name) + 1);
        }
      }
      this.made = true;
    } catch {
      // None yet.
    }
  }

  get size(): number {
    return this.aside.length;
  }

  /** Puts the file at `file` aside, if nothing else links it; whether it did. */
  add(file: string): boolean {
    try {
      const info = lstatSync(file);
      if (!info.isFile() || info.nlink !== 1) return false;
      if (!this.made) mkdirSync(this.dir, { recursive: true });
      this.made = true;
      const aside = path.join(this.dir, String(this.count++));
      renameSync(file, aside);
      this.aside.push({ file: aside, size: info.size });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Moves a file put aside to `file`, replacing whatever is there: the shortest at least `size`
   * long, else the longest. Whether there was one.
   */
  into(file: string, size: number): boolean {
    // Better: long enough where the other is not, or nearer `size` on the same side of it.
    const better = (a: number, b: number) => (a >= size ? b < size || a < b : b < size && a > b);
    let best: { file: string; size: number } | undefined;
    for (const candidate of this.aside) if (!best || better(candidate.size, best.size)) best = candidate;
    if (!best) return false;
    this.aside.splice(this.aside.indexOf(best), 1);
    try {
      renameSync(best.file, file);
      return true;
    } catch {
      // Gone meanwhile, or the pool on another file system after all: a new file instead.
      return false;
    }
  }

  /**
   * Ends the pool: kept for the next build, the largest files first while they hold at most
   * `most` bytes, the others removed; or, when nothing is kept, the folder removed.
   */
  end(most: number): void {
    if (!this.kept) {
      if (this.made) rmSync(this.dir, { recursive: true, force: true });
      this.aside.length = 0;
      return;
    }
    let held = 0;
    for (const { file, size } of [...this.aside].sort((a, b) => b.size - a.size)) {
      if (held + size <= most) held += size;
      else rmSync(file, { force: true });
    }
    this.aside.length = 0;
  }
}

/**
 * The pool of files to write over (RecyclePool): kept in `kept` between builds when it is given,
 * and filled with those of the staging folder at paths that this build links from the previous
 * output (unchanged since it). They leave `held`: nothing is at their paths any more.
 */
function recyclePool(
  staging: string,
  held: Map<string, string>,
  plans: readonly Plan[],
  previous: Manifest | undefined,
  linkable: (plan: Plan) => boolean,
  kept: string | undefined,
): RecyclePool {
  const pool = new RecyclePool(kept ?? path.join(staging, RECYCLED), kept !== undefined);
  for (const plan of plans) {
    const there = held.get(plan.path);
    if (there === undefined || there === plan.key || previous?.files[plan.path] !== plan.key || !linkable(plan)) continue;
    if (pool.add(path.join(staging, plan.path))) held.delete(plan.path);
  }
  return pool;
}

/** Whether a file is linked from anywhere else too (and so is never written over). */
function shared(file: string): boolean {
  try {
    return lstatSync(file).nlink > 1;
  } catch {
    return false;
  }
}

/** Removes a file of the staging folder, if it is there; false if it cannot be removed. */
function unlinked(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Whether the staging folder's file holds a plan's bytes as far as its size shows (a copy's size is known only once made). */
function holds(file: string, plan: Plan): boolean {
  try {
    const info = lstatSync(file);
    return info.isFile() && (plan.compression !== undefined || info.size === plan.size);
  } catch {
    return false;
  }
}

/**
 * Removes from the staging folder everything the new output does not have at its path (from
 * `held` too): what the spare output held and this one does not, and anything else found there.
 * Returns the folders left, those the new output keeps.
 */
function prune(staging: string, held: Map<string, string>, paths: readonly string[]): Set<string> {
  const wanted = new Set(paths);
  const needed = foldersOf(wanted);
  const kept = new Set<string>(['']);
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(staging, folder), { withFileTypes: true })) {
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory() && needed.has(relative)) {
        kept.add(relative);
        walk(relative);
      } else if (entry.isDirectory() || !wanted.has(relative) || !held.has(relative)) {
        rmSync(path.join(staging, relative), { recursive: true, force: true });
        held.delete(relative);
      }
    }
  };
  walk('');
  return kept;
}
