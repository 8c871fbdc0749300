// The build cache: each metadata file's digest, stored under a key made of the file's text, its
// place in the tree and a fingerprint of the code and schemas that made it, so an entry is reused
// only when it would be made again identically. Kept between builds (and between Netlify builds,
// which keep node_modules/.cache), and alongside it: the hashes of the metadata files with the
// stamps they had (so an unchanged file is not read), the key of the last inputs the cross-file
// rules passed on, and texts recalled by the key of what they are made from. It holds no copy of
// any output: what a build needs of the output it replaces is recorded beside that output
// (destination/state.ts).

import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, writevSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { CODE_DIR, SCHEMA_DIR } from '../project.ts';
import { nodesKeyOf } from '../kinds/registry.ts';
import type { Digest } from './digest.ts';
import type { ScanIndex } from './scan.ts';
import { processRunning } from '../processes.ts';
import { readStored } from '../site/plan-bytes.ts';
import { StaleBytesError } from '../site/plan.ts';
import type { StoredBytes } from '../site/plan.ts';
import type { Fragment } from '../site/fragment.ts';

/** Every file of the code and of the schemas, and the runtime's version. */
export function pipelineFingerprint(): string {
  const hash = createHash('sha256').update(process.versions.v8);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.map')) hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(CODE_DIR);
  walk(fileURLToPath(SCHEMA_DIR));
  return hash.digest('hex');
}

/**
 * The text `make` gives, recalled from the last build that made the `name`d text from inputs of the
 * same `key` where there is one, made now otherwise: the same either way (outputs/output.ts).
 */
export type Recall = (name: string, key: string, make: () => string) => string;

export class CacheError extends Error {
  override name = 'CacheError';
}

/** A file of the cache that could not be read when it was needed: the build starts again cold. */
export function lostFromCache(file: string, error: unknown): CacheError {
  return new CacheError(`the build cache lost ${path.basename(file)} (${(error as Error).message})`);
}

/**
 * Gives `head` its nodes (a group's tables, a facility's bands) as a property read when first asked
 * for: from `file`, or from the bytes `at` gives in it.
 */
function lazyNodes(head: Record<string, unknown>, key: string, file: string, at?: StoredBytes): void {
  let nodes: unknown;
  Object.defineProperty(head, key, {
    enumerable: true,
    get() {
      if (nodes === undefined) {
        try {
          nodes = deserialize(at ? readStored(at) : readFileSync(file));
        } catch (error) {
          // Stored bytes that changed size are told as such (build.ts, cacheDamage).
          if (error instanceof StaleBytesError) throw error;
          throw lostFromCache(file, error);
        }
      }
      return nodes;
    },
  });
}

/**
 * Where an entry keeps its texts: one file that packs them all (its compact JSON, its page text and
 * its unit texts, outputs/output.ts) one after another, written at once. A file per text made a cold
 * build create tens of thousands of files, which cost more than writing their bytes.
 */
function packFile(base: string): string {
  return `${base}.texts`;
}

/**
 * What an entry records of its fragment (as `packed`): its texts' sizes and places in the pack
 * file, and the rest as it is.
 */
interface StoredTexts extends Pick<Fragment, 'key' | 'source' | 'counts' | 'latest' | 'children'> {
  /**
   * The compact JSON's and the page texts' sizes (one after the other at the file's start: the
   * listings' page text, then the survey pages'), and the page's line breaks.
   */
  sizes: [compact: number, page: number, pageBreaks: number, surveyPage: number];
  /** Each unit text's size, offset and NUL marks, and its hash where it has one. */
  texts: Record<string, [size: number, offset: number, marks: number, hash?: string]>;
  /** The size of the nodes packed after the texts (serialised), if they are. */
  nodes?: number;
}

/** The pack file's size: its texts, and the nodes after them. */
function packSize(stored: StoredTexts): number {
  let size = stored.sizes[0] + stored.sizes[1] + stored.sizes[3] + (stored.nodes ?? 0);
  for (const [text] of Object.values(stored.texts)) size += text;
  return size;
}

/** Where the nodes packed after the texts are in the pack file `file`, if they are. */
function packedNodes(file: string, stored: StoredTexts): StoredBytes | undefined {
  if (stored.nodes === undefined) return undefined;
  const fileSize = packSize(stored);
  return { file, size: stored.nodes, offset: fileSize - stored.nodes, fileSize };
}

/** A fragment whose texts are in the pack file `file`, where the entry says. */
function storedFragment(file: string, stored: StoredTexts): Fragment {
  const [compact, page, pageBreaks, surveyPage] = stored.sizes;
  const fileSize = packSize(stored);
  const texts = Object.fromEntries(
    Object.entries(stored.texts).map(([name, [size, offset, marks, hash]]) => [
      name,
      { bytes: { file, size, offset, fileSize }, marks, ...(hash === undefined ? {} : { hash }) },
    ]),
  );
  return {
    key: stored.key,
    compact: { file, size: compact, offset: 0, fileSize },
    page: { file, size: page, offset: compact, fileSize },
    pageBreaks,
    surveyPage: { file, size: surveyPage, offset: compact + page, fileSize },
    texts,
    source: stored.source,
    counts: stored.counts,
    latest: stored.latest,
    children: stored.children,
  };
}

/** Writes these buffers one after another into a new file, with as few calls as they allow. */
function writeAll(file: string, buffers: readonly Uint8Array[]): void {
  const fd = openSync(file, 'w');
  try {
    let left = buffers.filter((b) => b.length > 0);
    while (left.length > 0) {
      let n = writevSync(fd, left.slice(0, 1024));
      // What a short write left: the rest of the buffer it stopped in, and those after it.
      const rest: Uint8Array[] = [];
      for (const b of left) {
        if (n >= b.length) n -= b.length;
        else {
          rest.push(n > 0 ? b.subarray(n) : b);
          n = 0;
        }
      }
      left = rest;
    }
  } finally {
    closeSync(fd);
  }
}

/** A digest's key: the pipeline, the file's place and a hash of its bytes. */
export function digestKey(fingerprint: string, relative: string, contentHash: string): string {
  return createHash('sha256').update(fingerprint).update('\0').update(relative).update('\0').update(contentHash).digest('hex');
}

export interface Cache {
  /**
   * Whether `put` stores a fragment's texts, so that they need outlive it only until it returns
   * (they may be encoded into a buffer reused for the next file: fragment.ts, TextScratch).
   */
  readonly storesTexts: boolean;
  /** The digest without its fragment's text, which is read only when something asks for it. */
  get(key: string): Digest | undefined;
  /**
   * Stores a new digest. Returns its fragment as stored, its texts in the cache's file (as `get`
   * gives them), or undefined when there is none or it could not be stored.
   */
  put(digest: Digest): Fragment | undefined;
  /** Removes entries this build did not use, so the cache does not grow without bound. */
  prune(used: ReadonlySet<string>): void;
  /** The hashes the last scan of a metadata folder recorded. */
  scanIndex(metadataDir: string): ScanIndex | undefined;
  saveScanIndex(metadataDir: string, index: ScanIndex): void;
  /** Whether the cross-file rules passed on inputs with this key. */
  rulesPassed(key: string): boolean;
  saveRulesPassed(key: string): void;
  /** A text made from inputs named by a key, kept for the next build: one of each name (outputs/output.ts). */
  recall: Recall;
  hits: number;
  misses: number;
}

/** A cache that remembers nothing: `--no-cache`. */
export function noCache(): Cache {
  const nothing = () => undefined;
  return {
    get: nothing,
    put: nothing,
    prune: nothing,
    scanIndex: nothing,
    saveScanIndex: nothing,
    rulesPassed: () => false,
    saveRulesPassed: nothing,
    recall: (_name, _key, make) => make(),
    storesTexts: false,
    hits: 0,
    misses: 0,
  };
}

/**
 * What caches of earlier versions kept and this one does not: a copy of the last output replaced
 * (as large as the output), its zip's members, its record and its checksums. Removed on sight.
 */
const NO_LONGER_KEPT = ['spares', 'deflated', 'manifests', 'checksums.json'];

export function openCache(dir: string): Cache {
  const digests = path.join(dir, 'digests');
  for (const name of NO_LONGER_KEPT) rmSync(path.join(dir, name), { recursive: true, force: true });
  // Files about a folder (an output, a metadata folder) are named by a hash of its full path.
  const named = (folder: string) => createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 16);
  const about = (folder: string) => `${named(folder)}.json`;
  const scanFile = (metadataDir: string) => path.join(dir, 'scans', about(metadataDir));
  const rulesFile = path.join(dir, 'rules-passed');
  const recalled = (name: string) => path.join(dir, 'recalled', `${name}.txt`);
  const readJson = (file: string): unknown => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const made = new Set<string>();
  const folderOf = (file: string): void => {
    const folder = path.dirname(file);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true });
    made.add(folder);
  };
  // Written where it goes, at once; says whether it was.
  const saveDirect = (file: string, buffers: readonly Uint8Array[]): boolean => {
    try {
      folderOf(file);
      writeAll(file, buffers);
      return true;
    } catch {
      rmSync(file, { force: true });
      return false;
    }
  };
  // Written to a temporary name first, so a build killed mid-write leaves no half entry behind.
  // Says whether the file was kept.
  const save = (file: string, bytes: Uint8Array | string | readonly Uint8Array[]): boolean => {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      folderOf(file);
      if (typeof bytes === 'string' || bytes instanceof Uint8Array) writeFileSync(temp, bytes);
      else writeAll(temp, bytes);
      renameSync(temp, file);
      return true;
    } catch {
      // A cache that cannot be written (a full disk) only makes the next build slower.
      rmSync(temp, { force: true });
      return false;
    }
  };
  const cache: Cache = {
    storesTexts: true,
    hits: 0,
    misses: 0,
    get(key) {
      let digest: Digest;
      try {
        digest = deserialize(readFileSync(path.join(digests, `${key}.v8`))) as Digest;
      } catch {
        cache.misses++;
        return undefined;
      }
      // The texts stay in their files: the writer copies from them only for the responses it
      // writes. A group's or facility's nodes are read only if something asks for them (the
      // rules, when the shapes changed). Something missing by then stops the build, which starts
      // again cold (build.ts).
      const { nodesKey, packed } = digest as Digest & { nodesKey?: string; packed?: StoredTexts };
      const pack = packFile(path.join(digests, key));
      if (packed) digest.fragment = storedFragment(pack, packed);
      if (nodesKey) {
        // After the texts in their pack, or in a file of their own.
        const at = packed && packedNodes(pack, packed);
        lazyNodes(digest.data as Record<string, unknown>, nodesKey, at ? pack : path.join(digests, `${key}.nodes.v8`), at);
      }
      cache.hits++;
      return digest;
    },
    put(digest) {
      const { fragment, ...rest } = digest;
      const entry: Record<string, unknown> = rest;
      // A group's or facility's nodes (its tables, its bands): the lists its kind keeps children
      // in, kept apart from the rest of the entry.
      const nodesKey = digest.kind === 'Retired' ? undefined : nodesKeyOf(digest.kind);
      let nodes: Uint8Array | undefined;
      if (nodesKey && digest.data && typeof digest.data === 'object' && nodesKey in digest.data) {
        const { [nodesKey]: list, ...head } = digest.data as Record<string, unknown>;
        nodes = serialize(list);
        Object.assign(entry, { data: head, nodesKey });
      }
      // The texts as plain files of bytes, copied into outputs without decoding, and the nodes
      // after them; the entry itself last, so an entry is only ever found whole. The pack is
      // written as it is, not under a temporary name first (a pack without its entry is never
      // read): a cold build of the L archive spent more time making files than writing them.
      let stored: StoredTexts | undefined;
      if (fragment) {
        const { compact, page, surveyPage } = fragment;
        if (!(compact instanceof Uint8Array && page instanceof Uint8Array && surveyPage instanceof Uint8Array))
          throw new Error(`${digest.relative}: only a new digest is stored`);
        const sizes: StoredTexts['sizes'] = [compact.length, page.length, fragment.pageBreaks, surveyPage.length];
        const packed: Uint8Array[] = [compact, page, surveyPage];
        let offset = compact.length + page.length + surveyPage.length;
        const texts: StoredTexts['texts'] = {};
        for (const [name, text] of Object.entries(fragment.texts)) {
          if (!(text.bytes instanceof Uint8Array)) throw new Error(`${digest.relative}: only a new digest is stored`);
          packed.push(text.bytes);
          const size = text.bytes.length;
          texts[name] = text.hash === undefined ? [size, offset, text.marks] : [size, offset, text.marks, text.hash];
          offset += size;
        }
        if (nodes) packed.push(nodes);
        // Without its pack, the entry is not written: it would be found without its texts.
        if (!saveDirect(packFile(path.join(digests, digest.key)), packed)) return undefined;
        stored = {
          key: fragment.key,
          sizes,
          texts,
          source: fragment.source,
          counts: fragment.counts,
          latest: fragment.latest,
          children: fragment.children,
          ...(nodes ? { nodes: nodes.length } : {}),
        };
        entry.packed = stored;
      } else if (nodes) save(path.join(digests, `${digest.key}.nodes.v8`), nodes);
      if (!save(path.join(digests, `${digest.key}.v8`), serialize(entry)) || !stored) return undefined;
      return storedFragment(packFile(path.join(digests, digest.key)), stored);
    },
    prune(used) {
      let names: string[];
      try {
        names = readdirSync(digests);
      } catch {
        return;
      }
      for (const name of names) {
        // Entries this build did not use, and half-written ones of a build that was stopped.
        const writer = /\.(\d+)\.tmp$/.exec(name)?.[1];
        const left = writer !== undefined && !processRunning(Number(writer));
        if (left || !used.has(name.split('.')[0] ?? '')) rmSync(path.join(digests, name), { force: true });
      }
    },
    scanIndex: (metadataDir) => readJson(scanFile(metadataDir)) as ScanIndex | undefined,
    saveScanIndex(metadataDir, index) {
      save(scanFile(metadataDir), JSON.stringify(index));
    },
    recall(name, key, make) {
      // The key on the first line, the text after it: no JSON to parse or escape (the home page's
      // pictures are a megabyte at L).
      const head = `${key}\n`;
      let kept: string | undefined;
      try {
        kept = readFileSync(recalled(name), 'utf8');
      } catch {
        kept = undefined;
      }
      if (kept?.startsWith(head)) return kept.slice(head.length);
      const text = make();
      save(recalled(name), head + text);
      return text;
    },
    rulesPassed: (key) => (readJson(rulesFile) as { key?: string } | undefined)?.key === key,
    saveRulesPassed(key) {
      save(rulesFile, JSON.stringify({ key }));
    },
  };
  return cache;
}
