// Writes the API's files into the output folder atomically: everything goes into a fresh sibling
// folder first, which then replaces the old output in two renames. A build that fails at any point
// leaves the previous output exactly as it was. Files whose content key is unchanged since the
// previous build are hard-linked from it instead of written again; output files are never
// modified in place, so sharing them between the old and new folder is safe. Files the new output
// replaced can be kept as spares and written over by the next build (see Spares), once no output
// folder holds them any more.

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, linkSync, lstatSync, mkdirSync, openSync, readSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { ArchiveSchemaError, EXIT } from '../errors.ts';
import path from 'node:path';
import { CacheError, damagedInCache, lostFromCache, processRunning } from '../pipeline/cache.ts';
import { FRAGMENT_INDENT } from '../pipeline/digest.ts';
import type { Bytes } from '../pipeline/digest.ts';
import type { Plan } from '../outputs/plan.ts';

/** Marks a folder as one this tool wrote, so it never replaces a folder it did not create. */
export const MARKER = '.archive-schema-output';

/** The output could not be written; the previous output was left as it was. */
export class WriteError extends ArchiveSchemaError {
  override name = 'WriteError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

/** What a written output was: its build's id and each file's content key. */
export interface Manifest {
  build: string;
  files: Record<string, string>;
}

export interface WriteStats {
  written: number;
  linked: number;
  /** Of the files written, how many were written over a spare. */
  recycled: number;
  bytes: number;
  /** Milliseconds spent putting the new folder in place and removing the old one. */
  swapMs: number;
}

/** Whether a path exists (a file or a folder). */
export async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * A folder a build keeps beside its output: its staging folder ('new'), or the previous output
 * moved aside during the swap ('old'). `id` starts with the building process's id, so that a later
 * build can tell the folders of a build that was stopped (clearLeftovers).
 */
function besideOutput(target: string, kind: 'new' | 'old', id: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}-${kind}-${id}`);
}

/**
 * Clears what stopped builds of this output left beside it (a build stopped by Ctrl-C or a crash
 * ends at once): their staging folders, and a previous output they had moved aside, which goes
 * back in place if the output is missing (a build stopped between the two renames of its swap).
 * Those of builds still running are theirs.
 */
export async function clearLeftovers(outDir: string): Promise<void> {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  const base = path.basename(target);
  const pattern = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(new|old)-(\\d+)-`);
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return; // no parent folder yet
  }
  for (const name of names.sort()) {
    const match = pattern.exec(name);
    if (!match || processRunning(Number(match[2]))) continue;
    const left = path.join(parent, name);
    if (match[1] === 'old' && !(await exists(target)) && (await outputBuildId(left)) !== undefined) {
      await rename(left, target).catch(() => undefined);
      continue;
    }
    // One that cannot be removed now is left for a later build to try again.
    await rm(left, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Refuses an output folder that holds something other than a previous build. */
export async function assertReplaceable(outDir: string): Promise<void> {
  const dir = path.resolve(outDir);
  let info;
  try {
    info = await stat(dir);
  } catch {
    return; // nothing there yet
  }
  if (!info.isDirectory()) throw new WriteError(`${outDir} exists and is not a folder; choose another --out`);
  const entries = await readdir(dir);
  if (entries.length > 0 && !entries.includes(MARKER)) {
    throw new WriteError(
      `${outDir} is not empty and was not written by archive-schema (it has no ${MARKER}); ` +
        'choose an empty or new folder with --out, or empty this one yourself',
    );
  }
}

/** The build id recorded in an output folder's marker, if it is one of ours. */
export async function outputBuildId(outDir: string): Promise<string | undefined> {
  const text = await readFile(path.join(outDir, MARKER), 'utf8').catch(() => undefined);
  return /^build (\w+)$/m.exec(text ?? '')?.[1];
}

export interface WriteOptions {
  /** The previous build's manifest, when its output is still in place: unchanged files are linked. */
  previous?: Manifest;
  /**
   * Where spares are kept: the files this build replaces go there (when no other folder holds
   * them), and the next build writes its new files over them. On the output's file system.
   */
  spares?: { dir: string; minBytes?: number };
  onFile?: (done: number, total: number) => void;
}

export async function writePlans(plans: readonly Plan[], outDir: string, options: WriteOptions = {}): Promise<{ manifest: Manifest; stats: WriteStats }> {
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
  try {
    await mkdir(staging);
  } catch (error) {
    throw new WriteError(`cannot create a staging folder in ${parent}: ${(error as Error).message}`);
  }
  // Named by its content, so building the same input twice gives the same folder, marker included.
  const build = createHash('sha256').update(plans.map((p) => `${p.path}\0${p.key}`).join('\n')).digest('hex').slice(0, 16);
  const manifest: Manifest = { build, files: {} };
  const stats: WriteStats = { written: 0, linked: 0, recycled: 0, bytes: 0, swapMs: 0 };
  const previous = options.previous && (await outputBuildId(target)) === options.previous.build ? options.previous : undefined;
  const spares = options.spares ? Spares.open(options.spares.dir, options.spares.minBytes) : undefined;
  try {
    await writeFile(
      path.join(staging, MARKER),
      `This folder is generated by \`archive-schema build\` and replaced on every build; do not edit it.\nbuild ${build}\n`,
    );
    const writers = new WriterPool();
    const made = new Set<string>();
    // The same bytes already written in this build (the ifs listing is the catalogues one until
    // IFS data exists), or left unchanged by the previous build: linked instead of written.
    const firstWith = new Map<string, string>();
    const twins = plans.map((plan) => {
      const twin = firstWith.get(plan.key);
      if (!twin) firstWith.set(plan.key, plan.path);
      return twin;
    });
    const sources = plans.map((plan, i) => {
      const twin = twins[i];
      return twin ? path.join(staging, twin) : previous?.files[plan.path] === plan.key ? path.join(target, plan.path) : undefined;
    });
    const spareFor = spares?.deal(plans.filter((_, i) => !sources[i]).map((p) => ({ path: p.path, size: sizeOf(path.join(target, p.path)) })));
    let index = 0;
    // Several files are written at once: writes into one file take turns, writes into different
    // files do not. A twin is linked once the file it shares is complete.
    const done = new Map<string, Promise<void>>();
    let failure: { error: unknown; path: string } | undefined;
    const jobs = plans.map((plan, i) => {
      const file = path.join(staging, plan.path);
      const dir = path.dirname(file);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      manifest.files[plan.path] = plan.key;
      const twin = twins[i];
      const job = (async () => {
        if (twin) await done.get(twin);
        const source = sources[i];
        if (source && link(source, file)) {
          stats.linked++;
        } else {
          // Once a file has failed the rest are not started: the staging folder goes anyway.
          const result = await writers.run(async (writer) => (failure ? undefined : writer.write(file, plan, spareFor?.get(plan.path))));
          if (!result) return;
          stats.bytes += result.bytes;
          stats.written++;
          if (result.reused) stats.recycled++;
        }
        options.onFile?.(++index, plans.length);
      })().catch((error: unknown) => {
        failure ??= { error, path: plan.path };
      });
      done.set(plan.path, job);
      return job;
    });
    // Every job ends before the staging folder may go; the first failure is reported.
    await Promise.all(jobs);
    if (failure) {
      const { error, path: failed } = failure;
      if (error instanceof CacheError) throw error;
      const full = ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '') ? '; free some space and build again' : '';
      throw new WriteError(`cannot write ${failed} of the output: ${(error as Error).message}; ${outDir} was left as it was${full}`);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (error instanceof CacheError || error instanceof WriteError) throw error;
    throw new WriteError(`cannot write the output: ${(error as Error).message}; ${outDir} was left as it was`);
  }
  const swapping = performance.now();
  await swap(staging, target, besideOutput(target, 'old', id), spares && ((old) => spares.refill(old, new Set(plans.map((p) => p.path)))));
  stats.swapMs = Math.round(performance.now() - swapping);
  return { manifest, stats };
}

// Texts in memory are written in large chunks; what passes through a slot, in smaller ones.
const DIRECT_CHUNK = 4 << 20;
const CHUNK = 1 << 20;
/** Writes in flight into one file: one fills while others are written. */
const IN_FLIGHT = 3;
/** Files written at once. */
const FILES_IN_FLIGHT = 4;

/** A few writers, each lent to one file at a time, in the order files ask. */
class WriterPool {
  private readonly idle = Array.from({ length: FILES_IN_FLIGHT }, () => new PieceWriter());
  private readonly waiting: ((writer: PieceWriter) => void)[] = [];

  async run<T>(work: (writer: PieceWriter) => Promise<T>): Promise<T> {
    const writer = this.idle.pop() ?? (await new Promise<PieceWriter>((lend) => this.waiting.push(lend)));
    try {
      return await work(writer);
    } finally {
      const next = this.waiting.shift();
      if (next) next(writer);
      else this.idle.push(writer);
    }
  }
}

/** Room for one write in flight: reused once that write is done. */
interface Slot {
  input: Buffer;
  /** Shifted text; grown when a chunk needs more. */
  output: Buffer;
  busy: Promise<void>;
}

/**
 * Writes plans' pieces into files, several chunks in flight at explicit offsets on the thread
 * pool, through buffers allocated once: fresh memory for a copy of each large text costs more
 * here than the copying itself. Texts in memory (a cold build's) are written as they are; the
 * texts of a rebuild's unchanged groups and facilities are copied from the build cache's files a
 * chunk at a time, never held whole.
 */
class PieceWriter {
  private readonly slots: Slot[] = Array.from({ length: IN_FLIGHT }, () => ({
    input: Buffer.allocUnsafe(CHUNK),
    output: Buffer.allocUnsafe(0),
    busy: Promise.resolve(),
  }));
  private turn = 0;
  private readonly shifter = new LineShifter();

  /**
   * Writes one plan's pieces into a new file, or over a spare moved into its place; returns how
   * many bytes it wrote and whether it reused the spare.
   */
  async write(file: string, plan: Plan, spare?: string): Promise<{ bytes: number; reused: boolean }> {
    const { handle, reused } = await openOver(file, spare);
    let at = 0;
    let complete = false;
    const emit = (slot: Slot, bytes: Uint8Array) => {
      const offset = at;
      at += bytes.length;
      slot.busy = writeAll(handle, bytes, offset);
      // Its failure is taken up when the slot is next awaited, maybe after other events: marked
      // as handled now, so that Node does not end the process over it first.
      slot.busy.catch(() => undefined);
    };
    try {
      for (const piece of plan.pieces) {
        if (typeof piece === 'string') {
          emit(await this.slot(), Buffer.from(piece, 'utf8'));
          continue;
        }
        const source = piece.html ? piece.fragment.page : piece.fragment.compact;
        const by = piece.html ? piece.indent - FRAGMENT_INDENT : 0;
        this.shifter.reset(by);
        // Text in memory that needs no shift goes out as it is, in large chunks.
        const size = by === 0 ? DIRECT_CHUNK : CHUNK;
        for await (const [slot, chunk] of this.chunks(source, size)) emit(slot, by === 0 ? chunk : this.shifter.push(chunk, slot));
      }
      complete = true;
    } finally {
      // Every write ends before the file closes, failed or not; the first failure is reported.
      const ended = await Promise.allSettled(this.slots.map((s) => s.busy));
      for (const slot of this.slots) slot.busy = Promise.resolve();
      let failure: unknown = ended.find((r) => r.status === 'rejected')?.reason;
      // A spare longer than the new text loses its tail.
      if (complete && failure === undefined && reused) await handle.truncate(at).catch((error: unknown) => (failure = error));
      await handle.close();
      if (failure !== undefined) throw failure;
    }
    return { bytes: at, reused };
  }

  /** The next slot, once its write has ended. */
  private async slot(): Promise<Slot> {
    const slot = this.slots[this.turn] as Slot;
    this.turn = (this.turn + 1) % IN_FLIGHT;
    await slot.busy;
    return slot;
  }

  /**
   * The source's bytes a chunk at a time, each with the slot whose write will carry it: views of
   * text in memory `size` bytes long, or a cached file read into the slot's buffer, which must hold
   * as many bytes as its entry says.
   */
  private async *chunks(source: Bytes, size: number): AsyncGenerator<[Slot, Uint8Array]> {
    if (source instanceof Uint8Array) {
      for (let at = 0; at < source.length; at += size) yield [await this.slot(), source.subarray(at, at + size)];
      return;
    }
    let fd: number;
    try {
      fd = openSync(source.file, 'r');
    } catch (error) {
      throw lostFromCache(source.file, error);
    }
    try {
      let read = 0;
      for (;;) {
        const slot = await this.slot();
        const n = readSync(fd, slot.input, 0, CHUNK, null);
        if (n === 0) break;
        read += n;
        yield [slot, slot.input.subarray(0, n)];
      }
      if (read !== source.size) throw damagedInCache(source.file, read, source.size);
    } finally {
      closeSync(fd);
    }
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, offset: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, offset + done);
    done += bytesWritten;
  }
}

/**
 * Moves every line after the first `by` columns further in (or, for a negative `by`, out) as
 * chunks of UTF-8 pass through: only line breaks and the spaces after them change, so nothing is
 * decoded, and a line break at the end of one chunk is remembered for the next.
 */
export class LineShifter {
  private by = 0;
  /** Spaces still to drop at the start of the next chunk (moving out). */
  private skip = 0;

  reset(by: number): void {
    this.by = by;
    this.skip = 0;
  }

  /** The chunk shifted, in `into.output` (grown if it is too small). */
  push(chunk: Uint8Array, into: { output: Buffer }): Uint8Array {
    const source = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const by = this.by;
    let from = 0;
    // Moving out: the spaces a previous chunk's last line break left to drop.
    while (this.skip > 0 && from < source.length && source[from] === 32) {
      from++;
      this.skip--;
    }
    if (from < source.length) this.skip = 0;
    let breaks = 0;
    for (let at = source.indexOf(10, from); at >= 0; at = source.indexOf(10, at + 1)) breaks++;
    const size = source.length - from + Math.max(0, by) * breaks;
    if (into.output.length < size) into.output = Buffer.allocUnsafe(Math.max(size, 2 * into.output.length));
    const out = into.output;
    let to = 0;
    for (let at = source.indexOf(10, from); at >= 0; at = source.indexOf(10, from)) {
      // Up to and including the line break, then the line's indentation changed by `by`.
      to += source.copy(out, to, from, at + 1);
      from = at + 1;
      if (by > 0) {
        out.fill(32, to, to + by);
        to += by;
      } else {
        let n = 0;
        while (n < -by && from < source.length && source[from] === 32) {
          from++;
          n++;
        }
        if (from === source.length) this.skip = -by - n;
      }
    }
    to += source.copy(out, to, from);
    return out.subarray(0, to);
  }
}

/** A hard link, or a copy where links are not possible; false if the source is gone. */
function link(source: string, file: string): boolean {
  try {
    linkSync(source, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    copyFileSync(source, file);
    return true;
  }
}

/**
 * Opens `file` for writing: a spare renamed into its place and written over, or, when there is
 * none (or it turns out to be linked elsewhere after all, and so not ours to change), a new file.
 */
async function openOver(file: string, spare: string | undefined): Promise<{ handle: FileHandle; reused: boolean }> {
  if (spare) {
    try {
      renameSync(spare, file);
      const handle = await open(file, 'r+');
      if ((await handle.stat()).nlink === 1) return { handle, reused: true };
      await handle.close();
      unlinkSync(file);
    } catch {
      // Gone, or not a file we can write over: a new file instead.
    }
  }
  return { handle: await open(file, 'w'), reused: false };
}

/** A file's size, or 0 if it is not there. */
function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Files smaller than this are not worth keeping as spares. */
const SPARE_MIN_BYTES = 1 << 20;

/**
 * Files a build replaced, kept to write the next build's new files over instead of being
 * deleted. Writing over a file reuses the memory and disk blocks the system already holds for it;
 * a new file needs fresh ones, and on virtual machines that hand free memory back to their host
 * (as CI runners and cloud workstations do) fresh memory can cost far more than the copying
 * itself: at the hours when it did, 260 MB of outputs took 0.7 s as new files and 0.02 s written
 * over spares. (PostgreSQL recycles its write-ahead log's segments for the same reason.) Each
 * spare is named after the output path it last had, and only paths the output still has keep one:
 * the spares never take more room than the output itself. Only a reader that opened a file two
 * builds ago and is still reading it (a slow download from `serve` across two rebuilds) could see
 * its bytes change.
 */
class Spares {
  private constructor(
    readonly dir: string,
    private readonly files: { file: string; path: string; size: number }[],
    private readonly minBytes: number,
  ) {}

  static open(dir: string, minBytes = SPARE_MIN_BYTES): Spares {
    const files: { file: string; path: string; size: number }[] = [];
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // No spares yet.
    }
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const info = lstatSync(file);
        if (info.isFile()) files.push({ file, path: decodeURIComponent(name), size: info.size });
      } catch {
        // Gone meanwhile.
      }
    }
    return new Spares(dir, files, minBytes);
  }

  /**
   * Which spare each file to write goes over: the one that had its path, else the largest left
   * for the largest file (sizes as the previous output had them).
   */
  deal(writes: readonly { path: string; size: number }[]): Map<string, string> {
    const dealt = new Map<string, string>();
    const left = new Map(this.files.map((f) => [f.path, f]));
    for (const write of writes) {
      const same = left.get(write.path);
      if (same) {
        dealt.set(write.path, same.file);
        left.delete(write.path);
      }
    }
    const spares = [...left.values()].sort((a, b) => b.size - a.size);
    const rest = writes.filter((w) => !dealt.has(w.path)).sort((a, b) => b.size - a.size);
    rest.forEach((write, i) => {
      const spare = spares[i];
      if (spare) dealt.set(write.path, spare.file);
    });
    return dealt;
  }

  /**
   * Adds the files of a replaced output folder to the spares, each in place of any spare of its
   * path, and drops the spares of paths the new output does not have. A file still linked from
   * elsewhere (the new output shares every unchanged file) is only unlinked; a small one is left
   * to go with its folder.
   */
  refill(replaced: string, paths: ReadonlySet<string>): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      for (const name of readdirSync(this.dir)) if (!paths.has(decodeURIComponent(name))) rmSync(path.join(this.dir, name), { force: true, recursive: true });
      const walk = (dir: string, prefix: string) => {
        // In order, so that of twins (one file at several paths) the same path names the spare.
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
          const full = path.join(dir, entry.name);
          const relative = prefix + entry.name;
          if (entry.isDirectory()) walk(full, `${relative}/`);
          if (!entry.isFile()) continue;
          const info = lstatSync(full);
          // Its other links (a twin here, or the new output) keep it; the last twin may be a spare.
          if (info.nlink > 1) unlinkSync(full);
          else if (info.size >= this.minBytes && paths.has(relative)) renameSync(full, path.join(this.dir, encodeURIComponent(relative)));
        }
      };
      walk(replaced, '');
    } catch {
      // Spares are only an optimisation (and another file system cannot hold them): whatever is
      // left goes with the folder.
    }
  }
}

/**
 * Puts the new folder in place of the old one, which is moved `aside` first; `retire` may take
 * files from the old one before it goes.
 */
async function swap(staging: string, target: string, aside: string, retire?: (old: string) => void): Promise<void> {
  const previous = (await exists(target)) ? aside : undefined;
  try {
    if (previous) await rename(target, previous);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new WriteError(`cannot move the previous output aside: ${(error as Error).message}; it was left as it was`);
  }
  try {
    await rename(staging, target);
  } catch (error) {
    if (previous) await rename(previous, target).catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    throw new WriteError(`cannot put the new output in place: ${(error as Error).message}; the previous output was restored`);
  }
  if (previous) {
    retire?.(previous);
    await rm(previous, { recursive: true, force: true });
  }
}
