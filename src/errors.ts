// The errors a command ends with when it cannot go on and the cause is not a bug: bad usage, a
// file the user must fix, a disk that refuses a write. Each carries its exit code and, where it
// concerns a place in a file, that place as data; the command line prints it and exits with the
// code. Anything else thrown is a bug, and is reported as one.

import type { Diagnostic } from './diagnostics.ts';

/** Exit codes: 0 done, 1 the metadata is invalid (or a file was refused), 2 usage, configuration or I/O trouble. */
export const EXIT = { ok: 0, invalid: 1, trouble: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A place in a file, as diagnostics give it. */
export type Place = Pick<Diagnostic, 'file' | 'line' | 'col'>;

export class ArchiveSchemaError extends Error {
  override name = 'ArchiveSchemaError';

  constructor(
    /** What happened and what to do, without the place. */
    readonly detail: string,
    readonly exitCode: ExitCode,
    /** The place in a file it concerns, if any: printed before the detail. */
    readonly place?: Place,
  ) {
    super(!place ? detail : place.line > 0 ? `${place.file}:${place.line}:${place.col} ${detail}` : `${place.file} ${detail}`);
  }
}

/** A bad option or argument, or a folder that cannot be used as asked. */
export class UsageError extends ArchiveSchemaError {
  override name = 'UsageError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

/** What to do about a system error: the things a machine runs out of, or does not allow. */
const REMEDIES: Record<string, string> = {
  ENOSPC: 'free some space and try again',
  EDQUOT: 'free some space (the disk quota is used up) and try again',
  EACCES: 'check the permissions of the file and its folder',
  EPERM: 'check the permissions of the file and its folder (and that nothing is marked immutable)',
  EROFS: 'the file system is read-only; use a writable folder',
  EMFILE: 'too many files are open; raise the limit (ulimit -n) and try again',
  ENFILE: 'too many files are open on this machine; try again later',
  ENOMEM: 'the machine is out of memory; close other programs and try again',
  EIO: 'the disk reported an I/O error; check the disk',
  ENAMETOOLONG: 'a name in the path is longer than the file system allows (255 bytes on most); choose a shorter name',
};

export function remedyFor(code: string | undefined): string | undefined {
  return code === undefined ? undefined : REMEDIES[code];
}
