// Finds the metadata files: every .yaml and .yml file under the metadata folder, in a stable order,
// with a hash of its bytes, reading a file only when its stamp says it may have changed since the
// last build recorded it. What cannot be a metadata file is reported, never skipped: a symbolic
// link (whatever it points to would be read from outside the reviewed tree, or not at all), a folder
// named like a YAML file, a pipe or device anywhere, a name that is not UTF-8, a file too large to be metadata.

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { ArchiveSchemaError, EXIT } from '../errors.ts';
import { decodeMetadata } from './encoding.ts';

/**
 * The largest metadata file read: one catalogue group or imaging facility. 32 MB is over thirty
 * times the largest in a 100,000-column archive, and the position-keeping parser needs about 0.9 GB
 * and 4.5 s for a file this size, so that a build stays within a CI machine's memory.
 */
export const MAX_FILE_BYTES = 32_000_000;

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
  /** What could not be read as metadata, each a diagnostic of its file. */
  problems: Diagnostic[];
}

/** Every .yaml and .yml file under the metadata folder, in a stable order, with its text. */
export async function readMetadataTexts(metadataDir: string, options: ScanOptions = {}): Promise<MetadataTexts> {
  const { root, names, display, problems } = await listMetadata(metadataDir, options);
  const entries: MetadataTexts['entries'] = [];
  for (const relative of names) {
    const decoded = decodeMetadata(readMetadataFile(root, relative), display(relative));
    if ('text' in decoded) entries.push({ relative, text: decoded.text });
    else problems.push(decoded.problem);
  }
  return { entries, display, problems };
}

export interface Listing {
  root: string;
  /** The regular files named *.yaml or *.yml, relative to the root, sorted. */
  names: string[];
  /** How a metadata-relative path is shown. */
  display: (relative: string) => string;
  /** Entries that cannot be metadata files. */
  problems: Diagnostic[];
}

const YAML_NAME = /\.ya?ml$/i;

/** One entry of the metadata folder, found by walking it. */
interface Found {
  /** Relative to the metadata folder, with `/` separators; for a name that is not UTF-8, its bytes shown as `\xFF`. */
  relative: string;
  kind: 'file' | 'folder' | 'link' | 'other';
  /** Whether every name on its path decodes as UTF-8, so that the path can be opened by its text. */
  decodes: boolean;
}

/** The metadata files' relative paths, sorted, how each is shown, and what cannot be a metadata file. */
export async function listMetadata(metadataDir: string, options: ScanOptions): Promise<Listing> {
  const root = path.resolve(metadataDir);
  const displayRoot = path.resolve(options.displayRoot ?? path.dirname(root));
  const shown = toDisplay(path.relative(displayRoot, root) || '.');
  const display = (relative: string) => toDisplay(path.relative(displayRoot, path.join(root, relative)));
  let found: Found[];
  try {
    const info = await stat(root);
    if (!info.isDirectory()) throw new LoadError(`${shown} is not a folder; pass the metadata folder with --metadata`);
    found = await walk(root);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new LoadError(`metadata folder ${shown} does not exist; pass the right folder with --metadata`);
    throw new LoadError(`cannot read metadata folder ${shown}: ${(error as Error).message}`);
  }
  const names: string[] = [];
  const problems: Diagnostic[] = [];
  const problem = (relative: string, message: string) =>
    problems.push({ file: display(relative), line: 0, col: 0, severity: 'error', rule: 'layout/not-a-file', message });
  for (const { relative, kind, decodes } of found) {
    if (!decodes) {
      // Read by a name decoded with replacement characters, such a file was not found and its
      // folder's every file was dropped: the build published an archive without them.
      problem(
        relative,
        `has a name that is not UTF-8 (the bytes that are not are shown as \\xFF); metadata files and folders are named in UTF-8 text: rename it`,
      );
    } else if (kind === 'link') {
      problem(
        relative,
        'is a symbolic link; the metadata folder holds real files and folders only, which a pull request shows whole: replace the link with what it points to',
      );
    } else if (kind === 'folder') {
      if (YAML_NAME.test(relative))
        problem(relative, 'is a folder named like a metadata file; rename it, or move what it holds into the layout');
    } else if (kind === 'other') {
      // Wherever it is and whatever its name: opening a pipe would hang, and a pull request cannot show one.
      problem(relative, 'is not a regular file (a pipe, socket or device); the metadata folder holds files and folders only: remove it');
    } else if (YAML_NAME.test(relative)) {
      names.push(relative);
    }
    // Other files (notes, editor backups) are not metadata.
  }
  const sizes = await Promise.all(names.map((relative) => lstat(path.join(root, relative)).then((s) => s.size)));
  const kept = names.filter((relative, i) => {
    const size = sizes[i] ?? 0;
    if (size <= MAX_FILE_BYTES) return true;
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    problem(
      relative,
      `is ${mb(size)}, over the ${mb(MAX_FILE_BYTES)} a metadata file may be; split it (a catalogue group into several groups, a facility's bands into several facilities)`,
    );
    return false;
  });
  // Sorted so that reports and outputs never depend on the order the file system lists files in.
  kept.sort();
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { root, names: kept, display, problems };
}

/**
 * Every entry under the folder, links and hidden ones included, without following links. Names
 * are read as bytes: a name that is not UTF-8 is found as what it is, where reading names as
 * text would turn it into one that does not exist. A folder whose name is not UTF-8 is not
 * entered (it is reported, which fails the check whatever it holds).
 */
async function walk(root: string): Promise<Found[]> {
  const found: Found[] = [];
  const folders: { bytes: Buffer; relative: string }[] = [{ bytes: Buffer.from(root), relative: '' }];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const entries = await readdir(folder.bytes, { withFileTypes: true, encoding: 'buffer' });
    for (const entry of entries) {
      const name = decodeName(entry.name);
      const relative = folder.relative === '' ? name.text : `${folder.relative}/${name.text}`;
      const kind = entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
      found.push({ relative, kind, decodes: name.decodes });
      if (kind === 'folder' && name.decodes) folders.push({ bytes: Buffer.concat([folder.bytes, SLASH, entry.name]), relative });
    }
  }
  return found;
}

const SLASH = Buffer.from('/');
const UTF8_NAME = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A file name's text, or, when it is not UTF-8, the text with each byte that is not shown as `\xFF`. */
export function decodeName(bytes: Uint8Array): { text: string; decodes: boolean } {
  try {
    return { text: UTF8_NAME.decode(bytes), decodes: true };
  } catch {
    let text = '';
    for (let at = 0; at < bytes.length;) {
      const length = sequenceLength(bytes, at);
      if (length > 0) {
        text += UTF8_NAME.decode(bytes.subarray(at, at + length));
        at += length;
      } else {
        text += `\\x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
        at++;
      }
    }
    return { text, decodes: false };
  }
}

/** The length of the UTF-8 character at `at`, or 0 if the bytes there are not one. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] ?? 0;
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
  if (length <= 1) return length;
  try {
    UTF8_NAME.decode(bytes.subarray(at, at + length));
    return at + length <= bytes.length ? length : 0;
  } catch {
    return 0;
  }
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
): Promise<{ files: ScannedFile[]; index: ScanIndex; display: (relative: string) => string; problems: Diagnostic[] }> {
  const { root, names, display, problems } = await listMetadata(metadataDir, options);
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
  return { files, index, display, problems };
}

function toDisplay(relativePath: string): string {
  return relativePath.split(path.sep).join('/');
}
