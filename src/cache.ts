// The build cache: each metadata file's digest, stored under a key made of the file's text, its
// place in the tree and a fingerprint of the code and schemas that made it, so an entry is reused
// only when it would be made again identically. Kept between builds (and between Netlify builds,
// which keep node_modules/.cache), and alongside it the manifest of the last output written.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Digest, Fragment } from './digest.ts';
import type { Manifest } from './write.ts';

/** Every file of the code (this module's folder) and of the schemas, and the runtime's version. */
export function pipelineFingerprint(): string {
  const hash = createHash('sha256').update(process.versions.v8);
  const code = new URL('.', import.meta.url);
  const schemas = new URL('../schemas/', import.meta.url);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('.map')) hash.update(entry.name).update(readFileSync(full));
    }
  };
  walk(code.pathname);
  walk(schemas.pathname);
  return hash.digest('hex');
}

export class CacheError extends Error {
  override name = 'CacheError';
}

/** A fragment whose bytes are read from the cache when first asked for. */
function lazyFragment(stub: { key: string; indents: number[] }, base: string): Fragment {
  const read = (suffix: string) => {
    try {
      return readFileSync(`${base}.${suffix}`);
    } catch (error) {
      throw new CacheError(`the build cache lost ${path.basename(base)}.${suffix} (${(error as Error).message}); build again with --no-cache`);
    }
  };
  let compact: Uint8Array | undefined;
  const pages: Record<number, Uint8Array> = {};
  for (const indent of stub.indents) {
    let page: Uint8Array | undefined;
    Object.defineProperty(pages, indent, { enumerable: true, get: () => (page ??= read(`p${indent}`)) });
  }
  return {
    key: stub.key,
    get compact() {
      return (compact ??= read('c'));
    },
    pages,
  };
}

export function digestKey(fingerprint: string, relative: string, text: string | Buffer): string {
  return createHash('sha256').update(fingerprint).update('\0').update(relative).update('\0').update(text).digest('hex');
}

export interface Cache {
  /** The digest without its fragment's text, which is read only when something asks for it. */
  get(key: string): Digest | undefined;
  put(digest: Digest): void;
  /** Removes entries this build did not use, so the cache does not grow without bound. */
  prune(used: ReadonlySet<string>): void;
  manifest(outDir: string): Manifest | undefined;
  saveManifest(outDir: string, manifest: Manifest): void;
  hits: number;
  misses: number;
}

/** A cache that remembers nothing: `--no-cache`. */
export function noCache(): Cache {
  return { get: () => undefined, put: () => undefined, prune: () => undefined, manifest: () => undefined, saveManifest: () => undefined, hits: 0, misses: 0 };
}

export function openCache(dir: string): Cache {
  const digests = path.join(dir, 'digests');
  const manifests = path.join(dir, 'manifests');
  const manifestFile = (outDir: string) => path.join(manifests, `${createHash('sha256').update(path.resolve(outDir)).digest('hex').slice(0, 16)}.json`);
  // Written to a temporary name first, so a build killed mid-write leaves no half entry behind.
  const save = (file: string, bytes: Uint8Array | string) => {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, bytes);
      renameSync(temp, file);
    } catch {
      // A cache that cannot be written only makes the next build slower.
    }
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
      // A rebuild after a small edit rewrites few responses; the large texts of the rest are
      // never needed, so they are read on first use. A missing text stops the build then, and it
      // starts again cold (build.ts).
      const stub = (digest as unknown as { fragmentStub?: { key: string; indents: number[] } }).fragmentStub;
      if (stub) digest.fragment = lazyFragment(stub, path.join(digests, key));
      cache.hits++;
      return digest;
    },
    put(digest) {
      const { fragment, ...rest } = digest;
      if (!fragment) {
        save(path.join(digests, `${digest.key}.v8`), serialize(rest));
        return;
      }
      // The texts as plain files of bytes, read back without decoding.
      const base = path.join(digests, digest.key);
      save(`${base}.c`, fragment.compact);
      const indents = Object.keys(fragment.pages).map(Number);
      for (const indent of indents) save(`${base}.p${indent}`, fragment.pages[indent] as Uint8Array);
      save(`${base}.v8`, serialize({ ...rest, fragmentStub: { key: fragment.key, indents } }));
    },
    prune(used) {
      let names: string[];
      try {
        names = readdirSync(digests);
      } catch {
        return;
      }
      for (const name of names) {
        if (!used.has(name.split('.')[0] ?? '')) rmSync(path.join(digests, name), { force: true });
      }
    },
    manifest(outDir) {
      try {
        return JSON.parse(readFileSync(manifestFile(outDir), 'utf8')) as Manifest;
      } catch {
        return undefined;
      }
    },
    saveManifest(outDir, manifest) {
      save(manifestFile(outDir), JSON.stringify(manifest));
    },
  };
  return cache;
}
