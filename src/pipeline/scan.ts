// Finds the metadata files: every .yaml and .yml file under the metadata folder, in a stable order,
// with a hash of its bytes, reading a file only when its stamp says it may have changed since the
// last build recorded it.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { ArchiveSchemaError, EXIT } from '../errors.ts';

export interface ScanOptions {
  /** Folder that displayed paths are relative to; defaults to the metadata folder's parent. */
  displayRoot?: string;
}

/** Thrown for trouble that is not the metadata's fault: the folder is missing or unreadable. */
export class LoadError extends ArchiveSchemaError {
  override name = 'LoadError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

export interface MetadataTexts {
  entries: { relative: string; text: string }[];
  /** How a metadata-relative path is shown. */
  display: (relative: string) => string;
}

/** Every .yaml and .yml file under the metadata folder, in a stable order, with its text. */
export async function readMetadataTexts(metadataDir: string, options: ScanOptions = {}): Promise<MetadataTexts> {
  const { root, names, display } = await listMetadata(metadataDir, options);
  return { entries: names.map((relative) => ({ relative, text: readMetadataFile(root, relative).toString('utf8') })), display };
}

/** The metadata files' relative paths, sorted, and how each is shown. */
export async function listMetadata(
  metadataDir: string,
  options: ScanOptions,
): Promise<{ root: string; names: string[]; display: (relative: string) => string }> {
  const root = path.resolve(metadataDir);
  const displayRoot = path.resolve(options.displayRoot ?? path.dirname(root));
  const shown = toDisplay(path.relative(displayRoot, root) || '.');
  let names: string[];
  try {
    const info = await stat(root);
    if (!info.isDirectory()) throw new LoadError(`${shown} is not a folder; pass the metadata folder with --metadata`);
    names = await fg(['**/*.yaml', '**/*.yml'], { cwd: root, onlyFiles: true, followSymbolicLinks: false });
  } catch (error) {
    if (error instanceof LoadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError(`metadata folder ${shown} does not exist; pass the right folder with --metadata`);
    throw new LoadError(`cannot read metadata folder ${shown}: ${(error as Error).message}`);
  }
  // Sorted so that reports and outputs never depend on the order the file system lists files in.
  names.sort();
  return { root, names, display: (relative) => toDisplay(path.relative(displayRoot, path.join(root, relative))) };
}

function readMetadataFile(root: string, relative: string): Buffer {
  try {
    return readFileSync(path.join(root, relative));
  } catch (error) {
    throw new LoadError(`cannot read ${relative}: ${(error as Error).message}`);
  }
}

/** A file's version as the file system tells it without reading the file: size, inode, modification and change times. */
export type Stamp = string;

/** What a scan found of a file: a hash of its bytes, and the bytes if they had to be read. */
export interface ScannedFile {
  relative: string;
  hash: string;
  /** The bytes, read now or when first asked for. */
  bytes: () => Buffer;
}

/** Hashes recorded by an earlier scan, by relative path. */
export type ScanIndex = Record<string, { stamp: Stamp; hash: string }>;

/** How long after its last change a file's stamp is trusted: changes within one tick of the clock share a stamp. */
const SETTLED_NS = 2_000_000_000n;

/**
 * Every metadata file with a SHA-256 of its bytes. A file whose stamp is the one `known` recorded
 * is not read: its recorded hash stands. A change always moves the change time (ctime), which no
 * tool can set back, so an edit is never missed; a file changed in the last two seconds is not
 * recorded, as a second change within the same clock tick could keep its stamp.
 */
export async function scanMetadata(
  metadataDir: string,
  options: ScanOptions & { known?: ScanIndex; /** The time to count from, in nanoseconds since 1970 (for tests). */ now?: bigint } = {},
): Promise<{ files: ScannedFile[]; index: ScanIndex; display: (relative: string) => string }> {
  const { root, names, display } = await listMetadata(metadataDir, options);
  const known = options.known ?? {};
  const index: ScanIndex = {};
  const now = options.now ?? BigInt(Date.now()) * 1_000_000n;
  const files = names.map((relative): ScannedFile => {
    let info;
    try {
      info = statSync(path.join(root, relative), { bigint: true });
    } catch (error) {
      throw new LoadError(`cannot read ${relative}: ${(error as Error).message}`);
    }
    const stamp = `${info.size}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
    const recorded = known[relative];
    let bytes: Buffer | undefined;
    const read = () => (bytes ??= readMetadataFile(root, relative));
    const hash = recorded?.stamp === stamp ? recorded.hash : createHash('sha256').update(read()).digest('hex');
    if (now - info.ctimeNs > SETTLED_NS && now - info.mtimeNs > SETTLED_NS) index[relative] = { stamp, hash };
    return { relative, hash, bytes: read };
  });
  return { files, index, display };
}

function toDisplay(relativePath: string): string {
  return relativePath.split(path.sep).join('/');
}
