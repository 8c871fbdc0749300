// The build cache: each metadata file's digest, stored under a key made of the file's text, its
// place in the tree and a fingerprint of the code and schemas that made it, so an entry is reused
// only when it would be made again identically. Kept between builds (and between Netlify builds,
// which keep node_modules/.cache), and alongside it the manifest of the last output written.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Digest } from './digest.ts';
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

export function digestKey(fingerprint: string, relative: string, text: string): string {
  return createHash('sha256').update(fingerprint).update('\0').update(relative).update('\0').update(text).digest('hex');
}

export interface Cache {
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
  const save = (file: string, bytes: Buffer | string) => {
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
      try {
        const digest = deserialize(readFileSync(path.join(digests, `${key}.v8`))) as Digest;
        cache.hits++;
        return digest;
      } catch {
        cache.misses++;
        return undefined;
      }
    },
    put(digest) {
      save(path.join(digests, `${digest.key}.v8`), serialize(digest));
    },
    prune(used) {
      let names: string[];
      try {
        names = readdirSync(digests);
      } catch {
        return;
      }
      for (const name of names) {
        if (!used.has(name.replace(/\.v8$/, ''))) rmSync(path.join(digests, name), { force: true });
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
