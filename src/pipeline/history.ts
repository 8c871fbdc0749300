// The metadata as it was at a git revision (the pull request's base), and the promise made to
// clients about it: an id once published keeps its meaning. An id may go only through
// metadata/retired.yaml; it may not move to another parent; a rename is flagged for review.

import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import type * as Diff from 'diff';
import type { Diagnostic } from '../diagnostics.ts';
import { ArchiveSchemaError, EXIT } from '../errors.ts';
import { parseMetadata } from './parse.ts';
import { decodeName } from './scan.ts';
import type { MetadataFile, PathSegment } from './parse.ts';
import { KINDS } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { assemble, walkNodes } from './assemble.ts';
import type { Archive, NodeVisit } from './assemble.ts';

const run = promisify(execFile);

// The line differ is loaded only when lines are compared (check --base): every other run skips it.
let diffModule: typeof Diff | undefined;
const diff = (): typeof Diff => (diffModule ??= createRequire(import.meta.url)('diff') as typeof Diff);

/** git could not give the revision asked for. */
export class HistoryError extends ArchiveSchemaError {
  override name = 'HistoryError';

  constructor(detail: string) {
    super(detail, EXIT.trouble);
  }
}

/** Runs git in a folder; what it printed, or a HistoryError with the first line it complained with. */
export async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 1 << 30, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const detail = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n')[0];
    throw new HistoryError(`git ${args[0]} failed: ${detail}`);
  }
}

/** A git command's output as bytes: file names in it need not be UTF-8. */
async function gitBytes(cwd: string, args: string[]): Promise<Buffer> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 1 << 30, encoding: 'buffer' });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8');
    const detail = (stderr ?? (error as Error).message).trim().split('\n')[0];
    throw new HistoryError(`git ${args[0]} failed: ${detail}`);
  }
}

function splitNul(bytes: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const end = bytes.indexOf(0, at);
    parts.push(bytes.subarray(at, end < 0 ? bytes.length : end));
    at = end < 0 ? bytes.length : end + 1;
  }
  return parts;
}

/** Reads many blobs (`rev:path`, or blob ids) in one `git cat-file --batch`, in order. */
export function readBlobs(cwd: string, specs: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (e) => reject(new HistoryError(`git cat-file failed: ${e.message}`)));
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new HistoryError(`git cat-file exited with ${code}`));
        return;
      }
      const out = Buffer.concat(chunks);
      const texts: string[] = [];
      let at = 0;
      for (const spec of specs) {
        const headerEnd = out.indexOf(0x0a, at);
        const header = out.subarray(at, headerEnd).toString();
        const size = Number(header.split(' ')[2]);
        if (!Number.isFinite(size)) {
          reject(new HistoryError(`git could not read ${spec}: ${header}`));
          return;
        }
        texts.push(out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
        at = headerEnd + 1 + size + 1;
      }
      resolve(texts);
    });
    child.stdin.end(specs.map((s) => `${s}\n`).join(''));
  });
}

export interface Revision {
  archive: Archive;
  /** Metadata-relative path → the file's text at the revision. */
  texts: Map<string, string>;
}

/** The metadata folder's YAML files as they are at `rev`, parsed and assembled (not validated). */
export async function archiveAt(rev: string, metadataDir: string): Promise<Revision> {
  const dir = path.resolve(metadataDir);
  const top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  await git(top, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).catch(() => {
    throw new HistoryError(
      `${rev} is not a revision of this repository; pass a branch, tag or commit with --base (in CI, fetch the base branch first)`,
    );
  });
  const prefix = path.relative(top, dir).split(path.sep).join('/');
  const listing = await gitBytes(top, ['ls-tree', '-r', '-z', rev, '--', prefix === '' ? '.' : prefix]);
  // "<mode> <type> <object>\t<path>": regular files only, as the scan takes them (a link's blob is its target's name).
  // A path that is not UTF-8 was never read by a build, so none of its ids was ever published.
  const paths = splitNul(listing)
    .map(decodeName)
    .flatMap(({ text, decodes }) => (decodes ? [/^100(?:644|755) blob \w+\t(.*)$/s.exec(text)?.[1]] : []))
    .filter((p): p is string => p !== undefined && /\.ya?ml$/i.test(p))
    .sort();
  const texts = await readBlobs(
    top,
    paths.map((p) => `${rev}:${p}`),
  );
  const strip = prefix === '' ? 0 : prefix.length + 1;
  const entries = paths.map((p, i) => ({ relative: p.slice(strip), text: texts[i] ?? '' }));
  const loaded = parseMetadata(entries, (relative) => `${rev}:${prefix === '' ? '' : `${prefix}/`}${relative}`);
  return { archive: assemble(loaded.files).archive, texts: new Map(entries.map((e) => [e.relative, e.text])) };
}

/**
 * The lines of each file that are new since the base (1-based), so a pull request is shown the
 * warnings it brings, not the archive's whole backlog. A file new since the base is all new.
 */
export function changedLines(
  files: readonly { relative: string; display: string; text: string }[],
  base: ReadonlyMap<string, string>,
): Map<string, Set<number> | 'all'> {
  const changed = new Map<string, Set<number> | 'all'>();
  for (const file of files) {
    const before = base.get(file.relative);
    if (before === undefined) {
      changed.set(file.display, 'all');
      continue;
    }
    if (before === file.text) continue;
    const lines = new Set<number>();
    let line = 1;
    for (const part of diff().diffLines(before, file.text)) {
      const count = part.count;
      if (part.added) for (let i = 0; i < count; i++) lines.add(line + i);
      if (!part.removed) line += count;
    }
    changed.set(file.display, lines);
  }
  return changed;
}

interface Published {
  kind: KindType;
  id: number;
  name: string;
  /** What the id belongs to, e.g. the table of a column, as a stable key. */
  parent: string;
  /** A readable path, e.g. gama/dr2/SpecCat/SpecObj/CATAID. */
  path: string;
  file: MetadataFile;
  pointer: PathSegment[];
}

function parentKey(n: NodeVisit): string {
  return n.parent ? `${n.parent.kind}:${n.parent.node.id}` : `Survey:${n.survey.data.id}/release:${n.release.data.name}`;
}

function readablePath(n: NodeVisit): string {
  const names: string[] = [];
  for (let v: NodeVisit | undefined = n; v; v = v.parent) names.unshift(v.node.name);
  return [n.survey.data.name, n.release.data.name, ...names].join('/');
}

function publishedIds(archive: Archive): Map<string, Published> {
  const ids = new Map<string, Published>();
  for (const s of archive.surveys) {
    ids.set(`Survey:${s.data.id}`, {
      kind: 'Survey',
      id: s.data.id,
      name: s.data.name,
      parent: '',
      path: s.data.name,
      file: s.file,
      pointer: [],
    });
  }
  for (const n of walkNodes(archive)) {
    ids.set(`${n.kind}:${n.node.id}`, {
      kind: n.kind,
      id: n.node.id,
      name: n.node.name,
      parent: parentKey(n),
      path: readablePath(n),
      file: n.file,
      pointer: n.pointer,
    });
  }
  return ids;
}

/** Compares the ids published at the base with the current archive. */
export function comparePublishedIds(base: Archive, current: Archive): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const before = publishedIds(base);
  const now = publishedIds(current);
  const retired = new Set((current.retired?.entries ?? []).map((e) => `${e.kind}:${e.id}`));
  const push = (at: Published, severity: Diagnostic['severity'], rule: string, message: string, key: PathSegment = 'id') => {
    const { line, col } = at.file.locate([...at.pointer, key]);
    diagnostics.push({ file: at.file.display, line, col, severity, rule, message });
  };
  for (const [key, old] of before) {
    const word = KINDS[old.kind].word;
    const found = now.get(key);
    if (!found) {
      if (retired.has(key)) continue;
      // Point at what is left of it: its parent in the current tree, or else the file it was in.
      const parent = now.get(old.parent.split('/')[0] ?? '');
      const message = `${word} ${old.id} (${old.path}) is published on the base branch and is gone; clients may still ask for it. Put it back, or record its retirement in metadata/retired.yaml`;
      if (parent) push(parent, 'error', 'ids/published', message);
      else
        diagnostics.push({
          file: old.file.display.replace(/^[^:]*:/, ''),
          line: 0,
          col: 0,
          severity: 'error',
          rule: 'ids/published',
          message,
        });
      continue;
    }
    if (old.kind === 'Survey' && found.name !== old.name) {
      push(
        found,
        'error',
        'ids/published',
        `survey id ${old.id} was published as "${old.name}" and now names "${found.name}"; an id keeps its meaning: give this survey a new id`,
      );
    } else if (found.parent !== old.parent) {
      push(
        found,
        'error',
        'ids/published',
        `${word} ${old.id} was published at ${old.path} and now sits at ${found.path}; an id keeps its meaning: give the moved item a new id and retire ${old.id}`,
      );
    } else if (found.name !== old.name) {
      push(
        found,
        'warning',
        'ids/renamed',
        `${word} ${old.id} was published as "${old.name}" and is renamed "${found.name}"; clients that look it up by name will miss it`,
        'name',
      );
    }
  }
  return diagnostics;
}
