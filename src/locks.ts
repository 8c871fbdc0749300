// Locks that let builds share a cache or an output folder: one build at a time uses each, the
// others wait, saying whom they wait for. A lock is a file created only if it does not exist,
// holding the process id, host and start time of its holder; a lock whose holder has ended (a
// build killed with -9) is broken by the next build, one breaker at a time.

import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArchiveSchemaError, EXIT } from './errors.ts';
import { processRunning } from './processes.ts';

/** How often a waiting build looks again. */
const POLL_MS = 100;
/** A breaker that has held its guard this long was stopped while breaking (which takes a moment). */
const GUARD_STALE_MS = 10_000;

/** A lock could not be taken for a reason other than another build holding it. */
export class LockError extends ArchiveSchemaError {
  override name = 'LockError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

export interface Holder {
  pid: number;
  host: string;
  /** When the holder took the lock, as an ISO time. */
  since: string;
  token: string;
}

export interface Lock {
  readonly file: string;
  /** Lets the next build in; only this lock's own file is removed. */
  release(): void;
}

export interface LockOptions {
  /** What the lock guards, for messages: "the build cache node_modules/.cache/archive-schema". */
  what: string;
  /** Called once when the lock is held by another build, before waiting for it. */
  onWait?: (message: string) => void;
}

/** Takes the lock in `file`, waiting while another running build holds it. */
export async function acquire(file: string, options: LockOptions): Promise<Lock> {
  const holder: Holder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  let told = false;
  for (;;) {
    if (tryCreate(file, holder, options.what)) return held(file, holder.token);
    const other = readHolder(file);
    if (other === undefined) continue; // released (or being written) in between: try again
    if (isStale(other)) {
      breakStale(file, other);
      continue;
    }
    if (!told) {
      told = true;
      options.onWait?.(
        `waiting for the build ${other.pid === process.pid ? 'already running in this process' : `with process id ${other.pid}`} (since ${other.since}) to finish with ${options.what}; if no build is running, remove ${file}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Creates the lock file with this holder in it; false if it exists. */
function tryCreate(file: string, holder: Holder, what: string): boolean {
  let fd: number;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new LockError(`cannot lock ${what} (${(error as Error).message}); check that ${path.dirname(file)} can be written`);
  }
  try {
    writeSync(fd, `${JSON.stringify(holder)}\n`);
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw new LockError(`cannot lock ${what} (${(error as Error).message}); free some space and try again`);
  }
  closeSync(fd);
  return true;
}

function readHolder(file: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LockError(`cannot read the lock ${file} (${(error as Error).message}); if no build is running, remove it`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid === 'number' && typeof parsed.token === 'string') {
      return { pid: parsed.pid, host: String(parsed.host), since: String(parsed.since), token: parsed.token };
    }
  } catch {
    // A lock file being written, or cut short by a full disk or a crash: see how old it is.
  }
  const age = Date.now() - (statSafe(file)?.mtimeMs ?? Date.now());
  return { pid: 0, host: os.hostname(), since: age > GUARD_STALE_MS ? 'long ago' : 'just now', token: text };
}

/** A lock of this host whose process has ended; one from another host is never taken as stale. */
function isStale(holder: Holder): boolean {
  if (holder.host !== os.hostname()) return false;
  if (holder.pid === 0) return holder.since === 'long ago';
  return !processRunning(holder.pid);
}

/**
 * Removes a stale lock, unless another build broke it and took the lock first: a guard folder lets
 * one breaker at a time look again and remove it.
 */
function breakStale(file: string, seen: Holder): void {
  const guard = `${file}.breaking`;
  try {
    mkdirSync(guard);
  } catch {
    // Another build is breaking it; a guard left by a breaker that was stopped goes after a while.
    const age = Date.now() - (statSafe(guard)?.mtimeMs ?? Date.now());
    if (age > GUARD_STALE_MS) rmSync(guard, { recursive: true, force: true });
    return;
  }
  try {
    if (readHolder(file)?.token === seen.token) unlinkSync(file);
  } catch {
    // Gone already.
  } finally {
    rmdirSync(guard);
  }
}

function held(file: string, token: string): Lock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      // Only its own: a lock broken as stale (this process was paused for long, say) is another's now.
      if (readHolder(file)?.token === token) rmSync(file, { force: true });
    },
  };
}

function statSafe(file: string): { mtimeMs: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Runs `work` holding the lock, and lets it go however the work ends. */
export async function withLock<T>(file: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const lock = await acquire(file, options);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
