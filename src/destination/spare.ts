// The output a build replaced, kept in the cache as a spare to become the next build's staging
// folder. The next build renames it beside the output and changes only the files that differ from
// what it holds, where a fresh staging folder needs every folder made and every unchanged file
// linked, and the replaced output removed file by file. A file that changed is written over where
// nothing else links it, which reuses the memory and disk blocks the system already holds for it.

import { accessSync, constants, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../outputs/plan.ts';
import { outputBuildId } from './folder.ts';

/** Every folder that holds a file of the manifest, the output's own ('') included. */
export function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>(['']);
  for (const file of files) {
    for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) {
      const folder = file.slice(0, end);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

/**
 * The spare output of one output folder: a folder in the cache, and its manifest beside it.
 * Only a reader that opened a file two builds ago and is still reading it (a slow download from
 * `serve` across two rebuilds) could see its bytes change.
 */
export class SpareOutput {
  /** `dir` must be on the output's file system, or nothing is kept (a rename cannot cross them). */
  constructor(readonly dir: string) {}

  private get manifestFile(): string {
    return `${this.dir}.json`;
  }

  /**
   * Moves the spare output to `staging` and returns what it holds; undefined when there is none,
   * or it cannot be used (then it is removed).
   */
  async adopt(staging: string): Promise<Manifest | undefined> {
    let manifest: Manifest | undefined;
    try {
      manifest = JSON.parse(readFileSync(this.manifestFile, 'utf8')) as Manifest;
      rmSync(this.manifestFile, { force: true });
    } catch {
      manifest = undefined;
    }
    if (manifest && typeof manifest.files === 'object' && (await outputBuildId(this.dir)) === manifest.build) {
      try {
        renameSync(this.dir, staging);
        return manifest;
      } catch {
        // Gone meanwhile, or on another file system.
      }
    }
    discard(this.dir);
    return undefined;
  }

  /**
   * Keeps `old`, the output just replaced, whose files are `manifest`'s, for the next build; false
   * when it cannot be kept (a folder in it that this user may not change, a cache on another file
   * system or with no room): the caller removes it then.
   */
  keep(old: string, manifest: Manifest): boolean {
    try {
      discard(this.dir);
      // The next build changes files in every folder: one it may not write into stays as it is.
      for (const folder of foldersOf(Object.keys(manifest.files))) accessSync(path.join(old, folder), constants.W_OK);
      mkdirSync(path.dirname(this.dir), { recursive: true });
      writeFileSync(this.manifestFile, JSON.stringify(manifest));
      renameSync(old, this.dir);
      return true;
    } catch {
      rmSync(this.manifestFile, { force: true });
      return false;
    }
  }
}

/**
 * Where the files a build put aside to write over and did not (write.ts, RecyclePool) wait for the
 * next build, beside the spare output it takes its staging folder from.
 */
export function recycledBeside(spare: string): string {
  return `${spare}.recycled`;
}

/**
 * Removes a spare output: renamed first, so that a build of another output sharing the cache,
 * which may be adopting it at this moment, either has it whole or does not have it.
 */
export function discard(dir: string): void {
  const doomed = `${dir}.removing-${process.pid}`;
  try {
    renameSync(dir, doomed);
  } catch {
    return; // none there
  }
  rmSync(doomed, { recursive: true, force: true });
}
