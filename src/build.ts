// The orchestrator: load → validate → assemble → rules → transform → write, reading like the
// pipeline. Problems in the metadata come back as diagnostics; trouble that is not the
// metadata's fault (a missing folder, an unwritable disk, a bad option) is thrown.

import path from 'node:path';
import type { Diagnostic } from './diagnostics.ts';
import { archiveAt, changedLines, comparePublishedIds } from './history.ts';
import { loadMetadata } from './load.ts';
import type { MetadataFile } from './load.ts';
import { checkRules } from './rules.ts';
import { transform } from './transform.ts';
import type { OutputFiles } from './transform.ts';
import { assemble } from './tree.ts';
import type { Archive } from './tree.ts';
import { compileValidators, validateFiles } from './validate.ts';
import { assertReplaceable, writeOutputs } from './write.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';

/**
 * The base URL for the API's links: the flag, else Netlify's production URL for production
 * builds and the deploy's own URL for previews and branch deploys, else localhost.
 */
export function resolveBaseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  let chosen = flag;
  if (chosen === undefined && env.NETLIFY === 'true') {
    chosen = env.CONTEXT === 'production' ? env.URL : (env.DEPLOY_PRIME_URL ?? env.DEPLOY_URL ?? env.URL);
  }
  return normaliseBaseUrl(chosen ?? DEFAULT_BASE_URL);
}

export function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL "${text}" is not an absolute URL; pass one like https://schema.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`base URL "${text}" must start with http:// or https://`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UsageError(`base URL "${text}" must not carry a query, fragment or credentials`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export interface CheckOptions {
  metadataDir: string;
  /** Folder that reported paths are relative to. */
  displayRoot?: string;
  /**
   * A git revision (the pull request's base): its published ids must keep their meaning, and
   * warnings are reported only on lines changed since it.
   */
  base?: string;
}

export interface CheckResult {
  diagnostics: Diagnostic[];
  files: MetadataFile[];
  /** Present when no error was found. */
  archive?: Archive;
}

/** Everything but the output: every problem in every file, in one run. */
export async function check(options: CheckOptions): Promise<CheckResult> {
  const loaded = await loadMetadata(options.metadataDir, { displayRoot: options.displayRoot });
  const validated = validateFiles(loaded.files, compileValidators());
  const present = new Set([...loaded.files.map((f) => f.relative), ...loaded.unparsed]);
  const assembled = assemble(validated.valid, present);
  const ruled = checkRules(assembled.archive, validated.valid);
  let diagnostics = [...loaded.diagnostics, ...validated.diagnostics, ...assembled.diagnostics, ...ruled];
  if (options.base) {
    const base = await archiveAt(options.base, options.metadataDir);
    const changed = changedLines(loaded.files, base.texts);
    const isNew = (d: Diagnostic) => {
      const lines = changed.get(d.file);
      return lines === 'all' || (lines !== undefined && (d.line === 0 || lines.has(d.line)));
    };
    diagnostics = diagnostics.filter((d) => d.severity === 'error' || isNew(d));
    // Every parsed file counts as present, valid or not: a broken file has its own errors and
    // its ids have not gone anywhere.
    diagnostics.push(...comparePublishedIds(base.archive, assemble(loaded.files, present).archive));
  }
  const failed = diagnostics.some((d) => d.severity === 'error');
  return { diagnostics, files: loaded.files, ...(failed ? {} : { archive: assembled.archive }) };
}

export interface BuildOptions extends CheckOptions {
  outDir: string;
  baseUrl: string;
}

export interface BuildResult extends CheckResult {
  /** The files written, when the build succeeded. */
  outputs?: OutputFiles;
}

/** Refuses an output folder that would swallow the sources. */
export function assertSafeOutDir(outDir: string, metadataDir: string): void {
  const out = path.resolve(outDir);
  const meta = path.resolve(metadataDir);
  if (out === path.parse(out).root) throw new UsageError(`--out ${outDir} is the root of the file system; choose a folder such as dist`);
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);
  if (inside(meta, out)) throw new UsageError(`--out ${outDir} would replace the metadata folder ${metadataDir}; choose a folder such as dist`);
  if (inside(out, meta)) throw new UsageError(`--out ${outDir} is inside the metadata folder; choose a folder outside it such as dist`);
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  assertSafeOutDir(options.outDir, options.metadataDir);
  await assertReplaceable(options.outDir);
  const checked = await check(options);
  if (!checked.archive) return checked;
  const outputs = transform(checked.archive, { baseUrl: normaliseBaseUrl(options.baseUrl) });
  await writeOutputs(outputs, options.outDir);
  return { ...checked, outputs };
}
