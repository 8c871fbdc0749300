// A plan of an output file: its path and the pieces its bytes are made of, planned without touching
// the disk. Planners (outputs/*) make plans from the checked archive; the destination decides what
// to do with each (destination/decide.ts) and does it. Each plan carries a content key, so equal
// files are written once and unchanged ones not at all, and its size.

import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Encoding } from './routes.ts';

/**
 * Bytes a piece is copied from: in memory, or a file (the digest cache's) that is copied from as
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
  /**
   * The metadata file (relative to the metadata folder) the text was rendered from, where it was:
   * what a changed file names as the reason it was written again (destination/decide.ts).
   */
  source?: string;
}

export type Piece = string | BytesPiece;

/** How a precompressed copy's bytes are compressed (outputs/precompress.ts). */
export interface Compression {
  encoding: Encoding;
  /** gzip's level, or brotli's quality. */
  level: number;
}

/** Where a zip member's deflated bytes are in its archive, for a later build to take them from there. */
export interface MemberPlace {
  crc: number;
  size: number;
  compressedSize: number;
  /** Of its deflated bytes, from the archive's start. */
  offset: number;
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
  /** On a zip: its members' places, by member key (outputs/browser-zip/plan.ts). */
  members?: Record<string, MemberPlace>;
}

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
  // The key's text hashed at once: a call into the hash per piece costs more than the hashing.
  const key = createHash('sha256').update(kept.map(pieceText).join('')).digest('hex');
  return { path: file, pieces: kept, key, size };
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

/**
 * A file's bytes as one text, when all its pieces are in memory and unshifted (the reference
 * versions' and a document's plans): NUL marks filled.
 */
export function wholeText(path: string, pieces: readonly Piece[]): string {
  return pieces
    .map((piece) => {
      if (typeof piece === 'string') return piece;
      if (!(piece.bytes instanceof Uint8Array) || piece.shift !== 0) throw new Error(`${path}: a piece not made in memory`);
      const text = Buffer.from(piece.bytes).toString('utf8');
      return piece.fill === undefined ? text : text.replaceAll('\0', piece.fill);
    })
    .join('');
}

/** The metadata files a plan's pieces were rendered from, each once, in the order they come. */
export function sourcesOf(plan: Plan): string[] {
  const sources = new Set<string>();
  for (const piece of plan.pieces) if (typeof piece !== 'string' && piece.source !== undefined) sources.add(piece.source);
  return [...sources];
}

/** Named by its plans' paths and keys, so building the same input twice gives the same id. */
export function buildIdOf(plans: readonly Plan[]): string {
  return createHash('sha256')
    .update(plans.map((p) => `${p.path}\0${p.key}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
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
