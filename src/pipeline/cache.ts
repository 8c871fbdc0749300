// The build cache: each metadata file's digest, stored under a key made of the file's text, its
// place in the tree and a fingerprint of the code and schemas that made it, so an entry is reused
// only when it would be made again identically. Kept between builds (and between Netlify builds,
// which keep node_modules/.cache), and alongside it: the manifest of the last output written, the
// hashes of the metadata files with the stamps they had (so an unchanged file is not read), the
// key of the last inputs the cross-file rules passed on, output files that builds replaced,
// kept to be written over (write.ts), and the schema browser's files deflated for the download's
// zip (outputs/download/browser-zip.ts).

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { CODE_DIR, SCHEMA_DIR } from '../project.ts';
import { childrenOf } from '../kinds/registry.ts';
import type { Digest } from './digest.ts';
import type { ScanIndex } from './scan.ts';
import { processRunning } from '../destination/folder.ts';
import type { Manifest } from '../outputs/plan.ts';
import type { Fragment } from '../outputs/fragment.ts';
import type { DeflatedStore, StoredMember } from '../outputs/download/browser-zip.ts';

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

export class CacheError extends Error {
  override name = 'CacheError';
}

/** A file of the cache that could not be read when it was needed: the build starts again cold. */
export function lostFromCache(file: string, error: unknown): CacheError {
  return new CacheError(`the build cache lost ${path.basename(file)} (${(error as Error).message})`);
}

/** Gives `head` its nodes (a group's tables, a facility's bands) as a property read from `file` when first asked for. */
function lazyNodes(head: Record<string, unknown>, key: string, file: string): void {
  let nodes: unknown;
  Object.defineProperty(head, key, {
    enumerable: true,
    get() {
      if (nodes === undefined) {
        try {
          nodes = deserialize(readFileSync(file));
        } catch (error) {
          throw lostFromCache(file, error);
        }
      }
      return nodes;
    },
  });
}

/** Where an entry's texts are kept, its compact JSON and its page text, and their sizes in bytes. */
function textFiles(
  base: string,
  [compact, page]: readonly [number, number],
): { compact: { file: string; size: number }; page: { file: string; size: number } } {
  return { compact: { file: `${base}.json`, size: compact }, page: { file: `${base}.html`, size: page } };
}

/**
 * Where an entry keeps one of its unit texts (outputs/units.ts). A text named after a node (a
 * band's page) may hold any character a name may; percent-encoded, it is one file name, and the
 * fixed names (`columns.csv`) stay as they were.
 */
function unitTextFile(base: string, name: string): string {
  return `${base}.text.${encodeURIComponent(name)}`;
}

/** A digest's key: the pipeline, the file's place and a hash of its bytes. */
export function digestKey(fingerprint: string, relative: string, contentHash: string): string {
  return createHash('sha256').update(fingerprint).update('\0').update(relative).update('\0').update(contentHash).digest('hex');
}

export interface Cache {
  /** The digest without its fragment's text, which is read only when something asks for it. */
  get(key: string): Digest | undefined;
  put(digest: Digest): void;
  /** Removes entries this build did not use, so the cache does not grow without bound. */
  prune(used: ReadonlySet<string>): void;
  manifest(outDir: string): Manifest | undefined;
  saveManifest(outDir: string, manifest: Manifest): void;
  /**
   * Where the files an output's builds replace are kept as spares (write.ts). Only the output
   * built last keeps any, so the cache holds at most one output's worth: asking drops the others'.
   */
  spares(outDir: string): string | undefined;
  /** The hashes the last scan of a metadata folder recorded. */
  scanIndex(metadataDir: string): ScanIndex | undefined;
  saveScanIndex(metadataDir: string, index: ScanIndex): void;
  /** SHA-256 checksums of output files by plan key (destination/checksums.ts). */
  checksums(): Map<string, string>;
  /** Keeps the checksums of this build's files only. */
  saveChecksums(sums: ReadonlyMap<string, string>): void;
  /** Whether the cross-file rules passed on inputs with this key. */
  rulesPassed(key: string): boolean;
  saveRulesPassed(key: string): void;
  /** The browser's files deflated for the download's zip, by member key: those of the last build only. */
  deflated: DeflatedStore;
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
    manifest: nothing,
    saveManifest: nothing,
    spares: nothing,
    scanIndex: nothing,
    saveScanIndex: nothing,
    checksums: () => new Map(),
    saveChecksums: nothing,
    rulesPassed: () => false,
    saveRulesPassed: nothing,
    deflated: { get: nothing, put: nothing, keep: nothing },
    hits: 0,
    misses: 0,
  };
}

export function openCache(dir: string): Cache {
  const digests = path.join(dir, 'digests');
  const manifests = path.join(dir, 'manifests');
  // Files about a folder (an output, a metadata folder) are named by a hash of its full path.
  const named = (folder: string) => createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 16);
  const about = (folder: string) => `${named(folder)}.json`;
  const manifestFile = (outDir: string) => path.join(manifests, about(outDir));
  const scanFile = (metadataDir: string) => path.join(dir, 'scans', about(metadataDir));
  const rulesFile = path.join(dir, 'rules-passed');
  const checksumsFile = path.join(dir, 'checksums.json');
  const readJson = (file: string): unknown => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
  // Written to a temporary name first, so a build killed mid-write leaves no half entry behind.
  // Says whether the file was kept.
  const save = (file: string, bytes: Uint8Array | string): boolean => {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(temp, bytes);
      renameSync(temp, file);
      return true;
    } catch {
      // A cache that cannot be written (a full disk) only makes the next build slower.
      rmSync(temp, { force: true });
      return false;
    }
  };
  // Deflated members: each one's bytes in a file named by its key, and their CRC-32s and sizes in
  // one index, which lists only members whose file was written whole.
  const deflatedDir = path.join(dir, 'deflated');
  const deflatedIndex = path.join(deflatedDir, 'index.json');
  let deflated: Map<string, [number, number, number]> | undefined;
  const members = (): Map<string, [number, number, number]> => {
    if (deflated) return deflated;
    const stored = readJson(deflatedIndex);
    const valid = (v: unknown): v is [number, number, number] =>
      Array.isArray(v) && v.length === 3 && v.every((n) => Number.isSafeInteger(n) && (n as number) >= 0);
    deflated = new Map(
      stored && typeof stored === 'object'
        ? Object.entries(stored as Record<string, unknown>).filter((e): e is [string, [number, number, number]] => valid(e[1]))
        : [],
    );
    return deflated;
  };
  const cache: Cache = {
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
      const stored = digest as Digest & { fragmentKey?: string; fragmentSizes?: [number, number, number]; nodesKey?: string } & Partial<
          Record<'fragmentTexts', Record<string, [number, number, string?]>>
        > &
        Partial<Pick<Fragment, 'counts' | 'latest'>>;
      if (stored.fragmentKey && stored.fragmentSizes && stored.fragmentTexts && stored.counts && stored.latest !== undefined) {
        const [compact, page, pageBreaks] = stored.fragmentSizes;
        const base = path.join(digests, key);
        const texts = Object.fromEntries(
          Object.entries(stored.fragmentTexts).map(([name, [size, marks, hash]]) => [
            name,
            { bytes: { file: unitTextFile(base, name), size }, marks, ...(hash === undefined ? {} : { hash }) },
          ]),
        );
        digest.fragment = {
          key: stored.fragmentKey,
          ...textFiles(base, [compact, page]),
          pageBreaks,
          texts,
          counts: stored.counts,
          latest: stored.latest,
        };
      }
      if (stored.nodesKey) lazyNodes(digest.data as Record<string, unknown>, stored.nodesKey, path.join(digests, `${key}.nodes.v8`));
      cache.hits++;
      return digest;
    },
    put(digest) {
      const { fragment, ...rest } = digest;
      const entry: Record<string, unknown> = rest;
      // The texts as plain files of bytes, copied into outputs without decoding, and the nodes
      // apart from the rest; the entry itself last, so an entry is only ever found whole.
      if (fragment) {
        if (!(fragment.compact instanceof Uint8Array && fragment.page instanceof Uint8Array))
          throw new Error(`${digest.relative}: only a new digest is stored`);
        const sizes = [fragment.compact.length, fragment.page.length, fragment.pageBreaks] as const;
        const files = textFiles(path.join(digests, digest.key), [sizes[0], sizes[1]]);
        save(files.compact.file, fragment.compact);
        save(files.page.file, fragment.page);
        const texts: Record<string, [number, number, string?]> = {};
        for (const [name, text] of Object.entries(fragment.texts)) {
          if (!(text.bytes instanceof Uint8Array)) throw new Error(`${digest.relative}: only a new digest is stored`);
          save(unitTextFile(path.join(digests, digest.key), name), text.bytes);
          texts[name] = text.hash === undefined ? [text.bytes.length, text.marks] : [text.bytes.length, text.marks, text.hash];
        }
        entry.fragmentKey = fragment.key;
        entry.fragmentSizes = sizes;
        entry.fragmentTexts = texts;
        entry.counts = fragment.counts;
        entry.latest = fragment.latest;
      }
      // A group's or facility's nodes (its tables, its bands): the lists its kind keeps children in.
      const nodesKey = digest.kind === 'Retired' ? undefined : childrenOf(digest.kind)[0]?.key;
      if (nodesKey && digest.data && typeof digest.data === 'object' && nodesKey in digest.data) {
        const { [nodesKey]: nodes, ...head } = digest.data as Record<string, unknown>;
        save(path.join(digests, `${digest.key}.nodes.v8`), serialize(nodes));
        Object.assign(entry, { data: head, nodesKey });
      }
      save(path.join(digests, `${digest.key}.v8`), serialize(entry));
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
    manifest: (outDir) => readJson(manifestFile(outDir)) as Manifest | undefined,
    spares(outDir) {
      const all = path.join(dir, 'spares');
      const mine = named(outDir);
      let names: string[] = [];
      try {
        names = readdirSync(all);
      } catch {
        // None yet.
      }
      for (const name of names) if (name !== mine) rmSync(path.join(all, name), { recursive: true, force: true });
      return path.join(all, mine);
    },
    saveManifest(outDir, manifest) {
      save(manifestFile(outDir), JSON.stringify(manifest));
    },
    scanIndex: (metadataDir) => readJson(scanFile(metadataDir)) as ScanIndex | undefined,
    saveScanIndex(metadataDir, index) {
      save(scanFile(metadataDir), JSON.stringify(index));
    },
    checksums() {
      const stored = readJson(checksumsFile);
      return new Map(stored && typeof stored === 'object' ? Object.entries(stored as Record<string, string>) : []);
    },
    saveChecksums(sums) {
      save(checksumsFile, JSON.stringify(Object.fromEntries(sums)));
    },
    rulesPassed: (key) => (readJson(rulesFile) as { key?: string } | undefined)?.key === key,
    saveRulesPassed(key) {
      save(rulesFile, JSON.stringify({ key }));
    },
    deflated: {
      get(key): StoredMember | undefined {
        const known = members().get(key);
        if (!known) return undefined;
        const [crc, size, compressedSize] = known;
        // A file gone or cut short since is noticed as the zip is written: the build starts again cold.
        return { crc, size, compressedSize, bytes: { file: path.join(deflatedDir, key), size: compressedSize } };
      },
      put(key, member) {
        if (save(path.join(deflatedDir, key), member.deflated)) members().set(key, [member.crc, member.size, member.deflated.length]);
      },
      keep(used) {
        const kept = new Map([...members()].filter(([key]) => used.has(key)));
        deflated = kept;
        save(deflatedIndex, JSON.stringify(Object.fromEntries(kept)));
        let names: string[];
        try {
          names = readdirSync(deflatedDir);
        } catch {
          return;
        }
        // Members no longer used, and half-written files of a build that was stopped (this build holds the cache).
        for (const name of names)
          if (name !== path.basename(deflatedIndex) && !kept.has(name)) rmSync(path.join(deflatedDir, name), { force: true });
      },
    },
  };
  return cache;
}
