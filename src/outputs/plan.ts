// A plan of an output file: its path and the pieces its bytes are made of, planned without touching
// the disk. Planners (outputs/*) make plans from the checked archive; destinations (destination/)
// put plans into a folder, or compare them with one. Each plan carries a content key, so equal
// files are written once and unchanged ones not at all, and its size.

import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Encoding } from '../hosting/routes.ts';

/**
 * Bytes a piece is copied from: in memory, or a file (of the build cache) that is copied from as
 * the output is written, so that a rebuild never holds unchanged texts in memory: `size` bytes at
 * `offset` in a file that packs several texts. The file's own size is recorded with them, so a file
 * damaged since is noticed as it is read.
 */
export type Bytes = Uint8Array | StoredBytes;

export interface StoredBytes {
  file: string;
  offset: number;
  size: number;
  /** The whole file's size when it was stored. */
  fileSize: number;
}

/** The indentation character of shifted text: each level of a browsable page's JSON is one (pageJson). */
export const INDENT = '\t';

/** Text rendered once and copied into every file that shows it: a group's or facility's JSON or page text. */
export interface BytesPiece {
  bytes: Bytes;
  /** Equal keys mean equal bytes. */
  key: string;
  /** Indentation characters added to (or, when negative, removed from) every line after the first. */
  shift: number;
  /** How many line breaks the bytes hold: with the shift, the piece's size is known without reading it. */
  breaks: number;
  /** Text written in place of each NUL character in the bytes (never with a shift). */
  fill?: string;
  /** How many NUL characters the bytes hold, when there is a fill. */
  marks?: number;
}

export type Piece = string | BytesPiece;

/** How a precompressed copy's bytes are compressed (outputs/precompress.ts). */
export interface Compression {
  encoding: Encoding;
  /** gzip's level, or brotli's quality. */
  level: number;
}

export interface Plan {
  /** Relative to the output folder, with `/` separators. */
  path: string;
  pieces: Piece[];
  /** Equal keys mean equal bytes. */
  key: string;
  /** Of the pieces' bytes, in bytes: the file's size, but for a compressed copy's (see `compression`). */
  size: number;
  /**
   * Present on a precompressed copy of another file: the pieces are that file's, compressed this
   * way as they are written, so `size` is the other file's and the copy's own is known only once
   * it is made.
   */
  compression?: Compression;
  /**
   * On a large file: where its bytes stand at piece boundaries about every MARK_EVERY bytes, each
   * with a hash of the pieces before it. Two plans with the same mark have the same bytes up to
   * it: a file written over its previous version need not write them again (commonStart).
   */
  marks?: Mark[];
}

/** An offset into a file's bytes, and a hash of the pieces before it. */
export type Mark = [offset: number, hash: string];

/** Files at least this large are marked (Plan.marks). */
export const MARKED_FROM = 4 << 20;
/** About how far apart the marks are. */
export const MARK_EVERY = 1 << 20;

function sizeOf(piece: Piece): number {
  if (typeof piece === 'string') return Buffer.byteLength(piece);
  const length = piece.bytes instanceof Uint8Array ? piece.bytes.length : piece.bytes.size;
  const filled = piece.fill === undefined ? 0 : (piece.marks ?? 0) * (Buffer.byteLength(piece.fill) - 1);
  return length + piece.shift * piece.breaks + filled;
}

/** What a piece is, for its plan's key: equal for equal bytes. */
function pieceText(piece: Piece): string {
  if (typeof piece === 'string') return `s${piece.length}:${piece}`;
  return `b${piece.key}:${piece.shift}${piece.fill === undefined ? '' : `:f${piece.fill.length}:${piece.fill}`}`;
}

export function planOf(file: string, pieces: Piece[]): Plan {
  const kept = pieces.filter((p) => p !== '');
  const size = kept.reduce((n, p) => n + sizeOf(p), 0);
  const marked = size >= MARKED_FROM;
  // The key's text: hashed at once (a call into the hash per piece costs more than the hashing),
  // or, for a marked file, a stretch at a time, the hash so far taken at each mark.
  const hash = createHash('sha256');
  const marks: Mark[] = [];
  let text = '';
  let offset = 0;
  for (const piece of kept) {
    if (marked && offset >= (marks.length + 1) * MARK_EVERY) {
      hash.update(text);
      text = '';
      marks.push([offset, hash.copy().digest('hex').slice(0, 32)]);
    }
    text += pieceText(piece);
    if (marked) offset += sizeOf(piece);
  }
  const key = hash.update(text).digest('hex');
  return marked ? { path: file, pieces: kept, key, size, marks } : { path: file, pieces: kept, key, size };
}

/**
 * How many bytes at the start of two versions of a file are the same, as far as their marks
 * show: the offset of the last mark they share, or 0.
 */
export function commonStart(one: readonly Mark[] | undefined, other: readonly Mark[] | undefined): number {
  if (!one || !other) return 0;
  let common = 0;
  for (let i = 0; i < one.length && i < other.length; i++) {
    const [offset, hash] = one[i] ?? [0, ''];
    const [otherOffset, otherHash] = other[i] ?? [0, ''];
    if (offset !== otherOffset || hash !== otherHash) break;
    common = offset;
  }
  return common;
}

/** Plans for files given whole, as text or bytes. */
export function plansOf(files: ReadonlyMap<string, string | Uint8Array>): Plan[] {
  return [...files].map(([file, content]) =>
    planOf(
      file,
      typeof content === 'string'
        ? [content]
        : [{ bytes: content, key: createHash('sha256').update(content).digest('hex'), shift: 0, breaks: 0 }],
    ),
  );
}

/** What a written output was: the plans' id, each file's content key, and the large files' marks. */
export interface Manifest {
  build: string;
  files: Record<string, string>;
  marks?: Record<string, Mark[]>;
}

/** Named by its content, so building the same input twice gives the same manifest. */
export function manifestOf(plans: readonly Plan[]): Manifest {
  const build = createHash('sha256')
    .update(plans.map((p) => `${p.path}\0${p.key}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const marked = plans.filter((p) => p.marks !== undefined);
  return {
    build,
    files: Object.fromEntries(plans.map((p) => [p.path, p.key])),
    ...(marked.length > 0 ? { marks: Object.fromEntries(marked.map((p) => [p.path, p.marks ?? []])) } : {}),
  };
}

/**
 * A file that bytes are copied from is gone, or has another size than recorded: whatever planned
 * from it must plan again (the build starts again without its cache).
 */
export class StaleBytesError extends Error {
  override name = 'StaleBytesError';

  constructor(
    readonly file: string,
    /** Its size as read, when it could be read. */
    readonly found: number | undefined,
    readonly expected: number,
    readonly reason: string,
  ) {
    super(`${path.basename(file)}: ${reason}`);
  }
}
