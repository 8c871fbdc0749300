// The state of an output folder: the record its build kept beside it (each file's content key,
// size and modification time, what the build was made from, the download files' checksums and the
// zip's member places), and the folder as it is now. The next build decides from both which files
// it may keep (decide.ts).

import { readFileSync, readdirSync, lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MemberPlace, StoredBytes } from '../site/plan.ts';
import { MARKER, liveFolder, outputBuildId } from './output.ts';

/** What a build recorded of one file it put in its output. */
export interface FileRecord {
  /** The plan's content key: equal keys, equal bytes. */
  key: string;
  /** As written: with the size, what shows the file is still the one written for the key. */
  size: number;
  mtimeMs: number;
  /** The SHA-256 of its bytes, where it was taken (the download's files). */
  sha256?: string;
  /** A zip's members' places, by member key. */
  members?: Record<string, MemberPlace>;
}

/** What a build recorded of its output. */
export interface Manifest {
  /** The id its marker holds: the record is of the folder whose marker names it. */
  build: string;
  fingerprint: string;
  baseUrl: string;
  /** Each metadata file's digest key, by path. */
  inputs: Record<string, string>;
  files: Record<string, FileRecord>;
}

/** A file of an output folder as it is now. */
export interface FileStat {
  size: number;
  mtimeMs: number;
}

/** The output a build replaces, as found on disk. */
export interface PreviousOutput {
  /** Its folder, which kept files are linked from. */
  dir: string;
  /** Every file in it now (its marker aside), by path. */
  present: ReadonlyMap<string, FileStat>;
  /** What the build that wrote it recorded, when that record is of this folder. */
  manifest?: Manifest;
  /** Why there is no record, when there is none. */
  unrecorded?: string;
}

/**
 * Whether a file found in the previous output is still the one its record describes: the same size
 * and modification time. Files are never written over in place, so one that kept both holds the
 * bytes written for the record's key.
 */
export function proves(record: FileRecord, found: FileStat | undefined): boolean {
  return found?.size === record.size && found.mtimeMs === record.mtimeMs;
}

/** The record kept beside an output folder, as the lock is (`.dist.manifest.json` beside `dist`). */
export function manifestFile(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.manifest.json`);
}

/** The output a build replaces: none when the folder is not there. */
export async function readPreviousOutput(target: string): Promise<PreviousOutput | undefined> {
  const build = await outputBuildId(target);
  if (build === undefined) return undefined;
  const dir = liveFolder(target);
  const present = filesIn(dir);
  const manifest = readManifest(manifestFile(target));
  if (!manifest) return { dir, present, unrecorded: 'no record of the previous output' };
  if (manifest.build !== build) return { dir, present, unrecorded: 'the record beside the previous output is of another build' };
  return { dir, present, manifest };
}

/** Keeps the record of an output just put in place (replacing the last one at once, never half-written). */
export function saveManifest(target: string, manifest: Manifest): void {
  const file = manifestFile(target);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(manifest));
    renameSync(temp, file);
  } catch {
    // Without a record, the next build writes every file again: slower, never wrong.
    rmSync(temp, { force: true });
  }
}

/** The checksums the previous output's record holds, by content key (equal keys, equal bytes). */
export function recordedChecksums(previous: PreviousOutput | undefined): Map<string, string> {
  const sums = new Map<string, string>();
  for (const record of Object.values(previous?.manifest?.files ?? {})) if (record.sha256) sums.set(record.key, record.sha256);
  return sums;
}

/** A zip member deflated by an earlier build: its CRC-32, sizes and deflated bytes. */
export interface StoredMember {
  crc: number;
  size: number;
  compressedSize: number;
  bytes: StoredBytes;
}

/**
 * The members of the previous output's zip at `file`, by member key, to be copied from it: only
 * when the zip is still the file its record describes.
 */
export function previousMembers(previous: PreviousOutput | undefined, file: string): Map<string, StoredMember> {
  const members = new Map<string, StoredMember>();
  const record = previous?.manifest?.files[file];
  if (!previous || !record?.members || !proves(record, previous.present.get(file))) return members;
  const zip = path.join(previous.dir, file);
  for (const [key, { crc, size, compressedSize, offset }] of Object.entries(record.members)) {
    members.set(key, { crc, size, compressedSize, bytes: { file: zip, offset, size: compressedSize, fileSize: record.size } });
  }
  return members;
}

function readManifest(file: string): Manifest | undefined {
  try {
    const read = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
    const complete = typeof read.build === 'string' && read.files && typeof read.files === 'object' && read.inputs;
    return complete ? (read as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** Every regular file in a folder but its marker, with its size and modification time, by path with `/`. */
function filesIn(dir: string): Map<string, FileStat> {
  const files = new Map<string, FileStat>();
  const walk = (sub: string) => {
    let entries;
    try {
      entries = readdirSync(path.join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relative = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.isFile() && relative !== MARKER) {
        const { size, mtimeMs } = lstatSync(path.join(dir, relative));
        files.set(relative, { size, mtimeMs });
      }
    }
  };
  walk('');
  return files;
}
