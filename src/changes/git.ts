// What the change commands ask of git: the revision to compare with (by default where the branch
// left the default branch), the files of a revision with their blob ids, and the commits since one,
// each with its date. A shallow clone that lacks what is asked for is told exactly what to fetch.

import { HistoryError, git } from '../pipeline/history.ts';

/** The top of the git repository a folder is in. */
export async function topOf(dir: string): Promise<string> {
  try {
    return (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new HistoryError(`${dir} is not in a git repository; compare two folders with --from DIR --to DIR instead`);
  }
}

/** Whether this clone holds only part of its history (`git clone --depth N`). */
export async function isShallow(top: string): Promise<boolean> {
  return (await git(top, ['rev-parse', '--is-shallow-repository'])).trim() === 'true';
}

/** The full id of a revision's commit, or undefined when there is no such commit here. */
async function commitOrNothing(top: string, rev: string): Promise<string | undefined> {
  try {
    return (await git(top, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The full id of a revision's commit. */
export async function commitOf(top: string, rev: string): Promise<string> {
  const commit = await commitOrNothing(top, rev);
  if (commit) return commit;
  const shallow = (await isShallow(top))
    ? ' This clone is shallow: fetch the revision first (`git fetch --deepen=100 origin`, or `git fetch --unshallow`).'
    : '';
  throw new HistoryError(
    `${rev} is not a revision of this repository; pass a branch, tag or commit (in CI, fetch the base branch first).${shallow}`,
  );
}

/** Hashes of blobs as this repository makes them: git's object ids are SHA-1 unless it was made with SHA-256. */
export async function objectFormat(top: string): Promise<'sha1' | 'sha256'> {
  try {
    return (await git(top, ['rev-parse', '--show-object-format'])).trim() === 'sha256' ? 'sha256' : 'sha1';
  } catch {
    return 'sha1';
  }
}

/** The regular files below `prefix` at a commit, by path relative to the prefix, with their blob ids. */
export async function filesAt(top: string, commit: string, prefix: string): Promise<Map<string, string>> {
  const listing = await git(top, ['ls-tree', '-r', '-z', commit, '--', prefix === '' ? '.' : prefix]);
  const files = new Map<string, string>();
  const strip = prefix === '' ? 0 : prefix.length + 1;
  for (const line of listing.split('\0')) {
    // "<mode> <type> <object>\t<path>": regular files only (a link's blob is its target's name).
    const m = /^100(?:644|755) blob (\w+)\t(.*)$/s.exec(line);
    if (m?.[1] && m[2] !== undefined) files.set(m[2].slice(strip), m[1]);
  }
  return files;
}

/** Where a branch compared with by default is looked for: the pull request's base in GitHub Actions, then the default branch. */
function candidates(env: Record<string, string | undefined>): string[] {
  const pr = env.GITHUB_BASE_REF ? [`origin/${env.GITHUB_BASE_REF}`] : [];
  return [...pr, 'origin/HEAD', 'origin/main', 'origin/master', 'main', 'master'];
}

export interface Base {
  commit: string;
  /** How reports name it: `main (1a2b3c4)`, `the merge base with origin/main (1a2b3c4)`. */
  label: string;
}

/** A revision given by name, as reports name it. */
export async function namedBase(top: string, rev: string): Promise<Base> {
  const commit = await commitOf(top, rev);
  return { commit, label: `${rev} (${commit.slice(0, 7)})` };
}

/**
 * Where HEAD left the default branch: `git merge-base HEAD <branch>` with the first branch that
 * exists of the pull request's base (GITHUB_BASE_REF), origin/HEAD, origin/main, origin/master,
 * main and master. A shallow clone may hold neither the branch nor the merge base: the message says
 * what to fetch, as a command to copy.
 */
export async function defaultBase(top: string, env: Record<string, string | undefined>): Promise<Base> {
  const tried = candidates(env);
  let branch: string | undefined;
  for (const name of tried) {
    if (await commitOrNothing(top, name)) {
      branch = name;
      break;
    }
  }
  const shallow = await isShallow(top);
  // One fetch brings the branch and deepens this clone's own history until the two meet
  // (`--depth` would leave a branch already here as shallow as it was).
  const fetch = (name: string) => `\`git fetch --deepen=100 origin ${name}:refs/remotes/origin/${name}\``;
  if (!branch) {
    const name = env.GITHUB_BASE_REF ?? 'main';
    const hint = shallow
      ? ` This clone is shallow: ${fetch(name)} fetches ${env.GITHUB_BASE_REF ? 'it' : 'the default branch (if it is called main)'}.`
      : '';
    throw new HistoryError(
      `cannot tell what to compare with: none of ${tried.join(', ')} is a branch here; pass --base REV (such as origin/main), or fetch the default branch.${hint}`,
    );
  }
  let commit: string;
  try {
    commit = (await git(top, ['merge-base', 'HEAD', branch])).trim();
  } catch {
    const name =
      branch.startsWith('origin/') && branch !== 'origin/HEAD' ? branch.slice('origin/'.length) : (env.GITHUB_BASE_REF ?? 'main');
    const hint = shallow
      ? ` This clone is shallow and does not reach back to where they meet: run ${fetch(name)} (again if need be), or pass --base REV.`
      : ' Pass --base REV to say what to compare with.';
    throw new HistoryError(`HEAD and ${branch} have no commit in common here.${hint}`);
  }
  return { commit, label: `the merge base with ${branch} (${commit.slice(0, 7)})` };
}

/** The date of a commit (its committer's), in UTC to the second: what a record of it is dated. */
export async function commitDate(top: string, commit: string): Promise<string> {
  return utcSeconds((await git(top, ['show', '-s', '--format=%cI', commit])).trim());
}

/** An ISO 8601 instant with an offset, as git gives it, in UTC: 2024-03-01T10:15:00Z. */
export function utcSeconds(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new HistoryError(`git gave the date ${iso}, which does not read as a date`);
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export interface Commit {
  commit: string;
  /** Its first parent; undefined for a root commit. */
  parent?: string;
  /** UTC, to the second. */
  date: string;
  subject: string;
  body: string;
}

/**
 * The commits after `since` up to HEAD that touched any of `paths`, oldest first, along the first
 * parent: a merged pull request is one commit, compared with the branch it was merged into.
 */
export async function commitsSince(top: string, since: string, paths: readonly string[]): Promise<Commit[]> {
  if ((await isShallow(top)) && !(await isAncestor(top, since, 'HEAD'))) {
    throw new HistoryError(
      `this clone is shallow and does not reach back to ${since}; run \`git fetch --unshallow origin\` (or \`git fetch --shallow-since=DATE origin\`) and try again`,
    );
  }
  const format = '%H%x1f%P%x1f%cI%x1f%s%x1f%b%x1e';
  const out = await git(top, [
    'log',
    '--first-parent',
    '--reverse',
    `--format=${format}`,
    `${since}..HEAD`,
    '--',
    ...paths.map((p) => (p === '' ? '.' : p)),
  ]);
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [commit = '', parents = '', date = '', subject = '', body = ''] = record.split('\x1f');
      const parent = parents.split(' ')[0];
      return { commit, ...(parent ? { parent } : {}), date: utcSeconds(date), subject, body: body.trim() };
    });
}

async function isAncestor(top: string, ancestor: string, of: string): Promise<boolean> {
  try {
    await git(top, ['merge-base', '--is-ancestor', ancestor, of]);
    return true;
  } catch {
    return false;
  }
}

/** The date of the newest commit after `since` up to HEAD that touched `path`, if there is one. */
export async function lastCommitDate(top: string, since: string, path: string): Promise<string | undefined> {
  const out = (await git(top, ['log', '-1', '--format=%cI', `${since}..HEAD`, '--', path === '' ? '.' : path])).trim();
  return out === '' ? undefined : utcSeconds(out);
}

/** The files below `prefix` that a commit added (to its first parent's tree). */
export async function addedFiles(top: string, commit: Commit, prefix: string): Promise<string[]> {
  const range = commit.parent ? [commit.parent, commit.commit] : ['--root', commit.commit];
  const out = await git(top, [
    'diff-tree',
    '-r',
    '--no-commit-id',
    '--name-only',
    '--diff-filter=A',
    '-z',
    ...range,
    '--',
    prefix === '' ? '.' : prefix,
  ]);
  return out.split('\0').filter((name) => name !== '');
}

/**
 * The blob ids git's index holds for the files below `prefix` (relative to it), and the files whose
 * stamp has moved since they were staged (`git diff-files`, from the stat cache, reading nothing).
 */
export async function indexIds(top: string, prefix: string): Promise<{ ids: Map<string, string>; touched: Set<string> }> {
  const spec = prefix === '' ? '.' : prefix;
  const strip = prefix === '' ? 0 : prefix.length + 1;
  const [staged, moved] = await Promise.all([
    git(top, ['ls-files', '--stage', '-z', '--', spec]),
    git(top, ['diff-files', '--name-only', '-z', '--', spec]),
  ]);
  const ids = new Map<string, string>();
  for (const line of staged.split('\0')) {
    // "<mode> <object> <stage>\t<path>": stage 0 only (a file in the middle of a merge is read).
    const m = /^100(?:644|755) (\w+) 0\t(.*)$/s.exec(line);
    if (m?.[1] && m[2] !== undefined) ids.set(m[2].slice(strip), m[1]);
  }
  return {
    ids,
    touched: new Set(
      moved
        .split('\0')
        .filter((name) => name !== '')
        .map((name) => name.slice(strip)),
    ),
  };
}
