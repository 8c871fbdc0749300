// The curator's writing commands (fmt, stamp, import) on hostile files lose nothing: a rewritten
// file keeps its mode, owner, links and inode's other names; a rewrite is one rename and leaves no
// temporary file, whether it succeeds or fails; a file that cannot be read safely (conflict markers,
// broken YAML, bytes that are not UTF-8, UTF-16, over the size limit, duplicate keys) is refused
// with its place and what is wrong, and the metadata tree is left byte for byte as it was.

import { spawnSync } from 'node:child_process';
import { chmod, chown, link, lstat, open, readFile, readdir, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import { describe, expect, test, vi } from 'vitest';
import { MAX_FILE_BYTES } from '../src/pipeline/scan.ts';
import { FIXTURE, PROJECT, cli, expectSameFiles, gitdir, snapshotTree, testdir } from './helpers.ts';

// ---- Faults injected into the file system, for the failures a test cannot cause for real ----------------

/** The next write of a temporary file (`.name.xxxx.tmp`) or its rename into place fails with this code. */
const fault = vi.hoisted(() => ({ on: undefined as undefined | { op: 'writeFile' | 'rename'; code: string } }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const isTemp = (file: unknown): file is string => typeof file === 'string' && /^\..*\.tmp$/.test(path.basename(file));
  // Worded as Node words them.
  const words: Record<string, string> = { ENOSPC: 'no space left on device', EIO: 'i/o error' };
  const failure = (code: string, call: string, file: string) =>
    Object.assign(new Error(`${code}: ${words[code] ?? 'failure'}, ${call} '${file}'`), { code, syscall: call, path: file });
  const writeFile: typeof real.writeFile = async (file, data, options) => {
    const on = fault.on;
    if (on?.op === 'writeFile' && isTemp(file) && typeof data === 'string') {
      // Half the text reaches the disk before it is full.
      await real.writeFile(file, data.slice(0, data.length >> 1), options);
      throw failure(on.code, 'write', file);
    }
    return real.writeFile(file, data, options);
  };
  const rename: typeof real.rename = async (from, to) => {
    const on = fault.on;
    if (on?.op === 'rename' && isTemp(from)) throw failure(on.code, 'rename', from);
    return real.rename(from, to);
  };
  return { ...real, writeFile, rename };
});

// ---- The project --------------------------------------------------------------------------------------------

/** The group every test rewrites; in the fixture it holds table 201 and column 2010. */
const GROUP = 'metadata/alpha/dr2/catalogues/InputCat.yaml';
/** Another group, for imports while InputCat is hostile. */
const OTHER = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
/** InputCat as the fixture has it: canonical. */
const FIXTURE_GROUP = path.join(FIXTURE, 'alpha/dr2/catalogues/InputCat.yaml');

/** InputCat, valid but not canonical: keys out of order, a flow mapping, needless quotes. */
const MESSY = `tables:
- columns:
  - {unit: "deg", name: "RA", id: 2010, ucd: 'pos.eq.ra'}
  name: "TilingCat"
  id: 201
updated: "2018-01-01T00:00:00Z"
name: InputCat
created: 2018-01-01T00:00:00Z
id: 21
`;

const IMPORT = ['import', 'columns', 'cols.csv', '--into', GROUP, '--table', 'Imported'];
const NOW = '2026-11-22T06:00:00Z';

/** A fixture project with InputCat messy (or as given) and a CSV to import. */
async function project(group: string | Buffer = MESSY): Promise<string> {
  const dir = await testdir();
  await writeFile(path.join(dir, GROUP), group);
  await writeFile(path.join(dir, 'cols.csv'), 'MAG_R,MAG_G\n1,2\n');
  return dir;
}

const abs = (dir: string, file: string) => path.join(dir, file);
const metadataOf = (dir: string) => snapshotTree(path.join(dir, 'metadata'));

/** Temporary files a rewrite left anywhere under a folder. */
async function tempFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => /^\..*\.tmp$/.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

/** No internal error and no stack trace. */
function expectNoCrash(output: string): void {
  expect(output).not.toMatch(/internal error|^\s+at .+:\d+:\d+\)?$/m);
}

const isRoot = process.getuid?.() === 0;

// ---- Mode, owner, links ---------------------------------------------------------------------------------

const REWRITES: [string, string[]][] = [
  ['fmt', ['fmt']],
  ['import columns', IMPORT],
];

/** The command did what it does: fmt made InputCat canonical, import added the table. */
async function expectRewritten(dir: string, command: string, file = abs(dir, GROUP)): Promise<void> {
  const text = await readFile(file, 'utf8');
  expect(text).not.toBe(MESSY);
  const data = parse(text) as { tables: { name: string }[] };
  if (command === 'fmt') {
    expect(text.startsWith('id: 21\nname: InputCat\n')).toBe(true);
    expect(data).toEqual(parse(MESSY));
  } else {
    expect(data.tables.at(-1)?.name).toBe('Imported');
    expect(data.tables.length).toBeGreaterThan(1);
  }
}

describe.runIf(isRoot)('a rewritten file keeps what it was', () => {
  test.each(
    REWRITES.flatMap(([name, argv]) =>
      [0o444, 0o600, 0o640, 0o664].map((mode) => [name, mode.toString(8).padStart(4, '0'), argv, mode] as const),
    ),
  )('%s keeps mode %s and owner 1234:5678', async (command, _shown, argv, mode) => {
    const dir = await project();
    const file = abs(dir, GROUP);
    await chown(file, 1234, 5678);
    await chmod(file, mode);
    const result = await cli([...argv], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await expectRewritten(dir, command);
    const after = await stat(file);
    expect((after.mode & 0o7777).toString(8)).toBe(mode.toString(8));
    expect([after.uid, after.gid]).toEqual([1234, 5678]);
    expect(await tempFiles(dir)).toEqual([]);
  });

  test.each(REWRITES)('%s on a file with a second hard link: both names show the new text, same inode', async (command, argv) => {
    const dir = await project();
    const file = abs(dir, GROUP);
    const second = path.join(dir, 'InputCat-hardlink.yaml');
    await link(file, second);
    const { ino } = await stat(file);
    const result = await cli([...argv], dir);
    expect(result.code).toBe(0);
    await expectRewritten(dir, command);
    expect(await readFile(second, 'utf8')).toBe(await readFile(file, 'utf8'));
    expect((await stat(file)).ino).toBe(ino);
    expect((await stat(second)).ino).toBe(ino);
    expect((await stat(file)).nlink).toBe(2);
    expect(await tempFiles(dir)).toEqual([]);
  });
});

describe('symbolic links', () => {
  // The scan refuses links in the metadata folder: fmt reports one and neither follows nor replaces it.
  test.each([[['fmt']], [['fmt', '--check']]])(
    '%j reports a link in the metadata folder, and leaves the link and its target',
    async (argv) => {
      const dir = await project();
      const outside = path.join(dir, 'elsewhere.yaml');
      await writeFile(outside, MESSY.replaceAll('InputCat', 'Linked').replace('id: 21', 'id: 22'));
      const linkPath = abs(dir, 'metadata/alpha/dr2/catalogues/Linked.yaml');
      await symlink(outside, linkPath);
      await writeFile(abs(dir, GROUP), await readFile(FIXTURE_GROUP));
      const target = await readFile(outside);
      const result = await cli(argv, dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('metadata/alpha/dr2/catalogues/Linked.yaml  error  is a symbolic link;');
      expectNoCrash(result.stderr);
      expect((await lstat(linkPath)).isSymbolicLink()).toBe(true);
      expect(await readlink(linkPath)).toBe(outside);
      expect((await readFile(outside)).equals(target)).toBe(true);
      expect(await tempFiles(dir)).toEqual([]);
    },
  );

  /**
   * Either sensible outcome: the link stays a link (to the same place) and its target is rewritten,
   * or a refusal that names the --into file, with nothing changed.
   */
  async function expectLinkKeptOrRefused(dir: string, linkPath: string, realFile: string, into: string) {
    const before = await metadataOf(dir);
    const destination = await readlink(linkPath);
    const result = await cli(['import', 'columns', 'cols.csv', '--into', into, '--table', 'Imported'], dir);
    expectNoCrash(result.stderr);
    expect((await lstat(linkPath)).isSymbolicLink()).toBe(true);
    expect(await readlink(linkPath)).toBe(destination);
    if (result.code === 0) {
      await expectRewritten(dir, 'import', realFile);
    } else {
      expect(result.code).toBe(1);
      expect(result.stderr.includes(`--into ${into} `) || result.stderr.includes('symbolic link'), result.stderr).toBe(true);
      expectSameFiles(await metadataOf(dir), before);
    }
    expect(await tempFiles(dir)).toEqual([]);
    return result;
  }

  test('import --into a link outside the metadata folder to the group inside it', async () => {
    const dir = await project();
    const linkPath = path.join(dir, 'shortcut.yaml');
    await symlink(abs(dir, GROUP), linkPath);
    await expectLinkKeptOrRefused(dir, linkPath, abs(dir, GROUP), 'shortcut.yaml');
  });

  test('import --into a link inside the metadata folder, to the group of the same name in another release', async () => {
    const dir = await project(await readFile(FIXTURE_GROUP));
    // dr2/catalogues/SpecCat.yaml -> dr1's SpecCat.yaml: the name matches the file, so the layout accepts it.
    const linkPath = abs(dir, 'metadata/alpha/dr2/catalogues/SpecCat.yaml');
    await symlink('../../dr1/catalogues/SpecCat.yaml', linkPath);
    await expectLinkKeptOrRefused(dir, linkPath, abs(dir, OTHER), 'metadata/alpha/dr2/catalogues/SpecCat.yaml');
  });
});

// ---- Atomic rewrites ------------------------------------------------------------------------------------

describe('a rewrite is one rename and leaves no temporary file', () => {
  test.each(REWRITES)('%s: a reader holding the old file open reads it whole; the new text is a new file', async (command, argv) => {
    const dir = await project();
    const file = abs(dir, GROUP);
    const { ino } = await stat(file);
    const handle = await open(file, 'r');
    try {
      const result = await cli([...argv], dir);
      expect(result.code).toBe(0);
      const old = Buffer.alloc(MESSY.length + 10);
      const { bytesRead } = await handle.read(old, 0, old.length, 0);
      expect(old.subarray(0, bytesRead).toString('utf8')).toBe(MESSY);
    } finally {
      await handle.close();
    }
    await expectRewritten(dir, command);
    expect((await stat(file)).ino).not.toBe(ino);
    expect(await tempFiles(dir)).toEqual([]);
  });

  test.each(
    REWRITES.flatMap(([name, argv]) => [
      [name, 'the disk fills up while the new text is written (ENOSPC)', argv, 'writeFile', 'ENOSPC', /free some space/i] as const,
      [name, 'the rename into place fails (EIO)', argv, 'rename', 'EIO', /check (it|the disk)/i] as const,
    ]),
  )('%s, when %s: the file is as it was, no temporary file is left, exit 2', async (_command, _what, argv, op, code, remedy) => {
    const dir = await project();
    const before = await metadataOf(dir);
    fault.on = { op, code };
    let result;
    try {
      result = await cli([...argv], dir);
    } finally {
      fault.on = undefined;
    }
    expectSameFiles(await metadataOf(dir), before);
    expect(await tempFiles(dir)).toEqual([]);
    expectNoCrash(result.stderr);
    expect(result.stderr).toContain('InputCat.yaml');
    expect(result.stderr).toContain(code);
    // It was not done, so it is not reported as done.
    expect.soft(result.stdout).not.toContain(`${GROUP} reformatted`);
    expect.soft(result.stdout).not.toContain('columns added');
    // The README: exit 2 is "I/O trouble, such as ... an unwritable disk"; it says what to do.
    expect.soft(result.stderr).toMatch(remedy);
    expect(result.code).toBe(2);
  });
});

// ---- Files that cannot be read safely -------------------------------------------------------------------

const VALID = 'id: 21\nname: InputCat\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-01T00:00:00Z\ntables: []\n';

/** A valid group padded with a comment to just over the size limit, made in one allocation. */
function oversize(): Buffer {
  const bytes = Buffer.alloc(MAX_FILE_BYTES + 1_000_000, '#');
  bytes.write(VALID + '#');
  bytes[bytes.length - 1] = 0x0a;
  return bytes;
}

interface Hostile {
  what: string;
  bytes: () => Buffer;
  /** Where the problem is, or null when it is the whole file. */
  at: [number, number] | null;
  /** The words that name it. */
  says: RegExp;
}

const HOSTILE: Hostile[] = [
  {
    what: 'merge-conflict markers',
    bytes: () =>
      Buffer.from(
        'id: 21\nname: InputCat\n<<<<<<< HEAD\ncreated: 2018-01-01T00:00:00Z\n=======\ncreated: 2019-01-01T00:00:00Z\n>>>>>>> other\nupdated: 2018-01-01T00:00:00Z\ntables: []\n',
      ),
    at: [3, 1],
    says: /merge-conflict markers/,
  },
  {
    what: 'invalid YAML',
    bytes: () => Buffer.from('id: 21\nname: [InputCat\ncreated: 2018-01-01T00:00:00Z\n'),
    at: [3, 1],
    says: /YAML|Flow sequence/,
  },
  {
    what: 'invalid UTF-8 (Latin-1 ï)',
    bytes: () => Buffer.from(VALID.replace('tables', 'description: na\xefve\ntables'), 'latin1'),
    at: [5, 16],
    says: /not UTF-8 \(EF 76 65 0A\).*encoding UTF-8/,
  },
  {
    what: 'UTF-16 with a byte order mark',
    bytes: () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(VALID, 'utf16le')]),
    at: [1, 1],
    says: /encoded as UTF-16.*encoding UTF-8/,
  },
  {
    what: 'UTF-16 without a byte order mark',
    bytes: () => Buffer.from(VALID, 'utf16le'),
    at: [1, 1],
    says: /NUL bytes.*UTF-16.*encoding UTF-8/,
  },
  {
    what: 'a duplicate key',
    bytes: () => Buffer.from(VALID.replace('tables', 'name: Other\ntables')),
    at: [5, 1],
    says: /keys must be unique/,
  },
  {
    what: 'a size over the limit',
    bytes: oversize,
    at: null,
    says: /is 33\.0 MB, over the 32(\.0)? MB a metadata file may be/,
  },
];

const COMMANDS: [string, string[]][] = [
  ['fmt', ['fmt']],
  ['fmt --check', ['fmt', '--check']],
  ['stamp', ['stamp', '--now', NOW]],
  ['import columns', IMPORT],
];

/** The line of the output that locates the problem at `at` in `file` and names it. */
function expectLocated(output: string, file: string, at: [number, number] | null, says: RegExp): void {
  const place = at ? `${file}:${at[0]}:${at[1]}` : file;
  const line = output.split('\n').find((l) => l.includes(`${place} `) && says.test(l));
  expect(line, `a line with "${place}" that matches ${String(says)} in:\n${output}`).toBeDefined();
}

describe('hostile files are refused with their place, and nothing changes', () => {
  test.each(HOSTILE.flatMap((h) => COMMANDS.map(([name, argv]) => [name, h.what, argv, h] as const)))(
    '%s on a file with %s',
    async (command, _what, argv, hostile) => {
      const { dir } = await gitdir();
      await writeFile(path.join(dir, 'cols.csv'), 'MAG_R,MAG_G\n1,2\n');
      await writeFile(abs(dir, GROUP), hostile.bytes());
      const before = await metadataOf(dir);
      const result = await cli([...argv], dir);
      expectNoCrash(result.stderr + result.stdout);
      expectLocated(result.stderr, GROUP, hostile.at, hostile.says);
      expect(result.code, `${command}: ${result.stdout}${result.stderr}`).toBe(1);
      expectSameFiles(await metadataOf(dir), before);
      expect(await tempFiles(dir)).toEqual([]);
    },
  );

  // import read the next free ids from the readable files only: with InputCat unreadable it gave
  // a new table id 201 and column id 2010 again, which InputCat already uses.
  test.each(HOSTILE)('import into another group while InputCat has $what gives out no id InputCat holds', async (hostile) => {
    const dir = await project(hostile.bytes());
    const before = await metadataOf(dir);
    const result = await cli(['import', 'columns', 'cols.csv', '--into', OTHER, '--table', 'Imported'], dir);
    expectNoCrash(result.stderr);
    if (result.code === 0) {
      const table = (
        parse(await readFile(abs(dir, OTHER), 'utf8')) as { tables: { id: number; name: string; columns: { id: number }[] }[] }
      ).tables.find((t) => t.name === 'Imported');
      expect(table?.id, 'the new table id (InputCat holds table 201)').toBeGreaterThan(201);
      expect(Math.min(...(table?.columns ?? []).map((c) => c.id)), 'the new column ids (InputCat holds column 2010)').toBeGreaterThan(2010);
    } else {
      expect(result.code).toBe(1);
      expectLocated(result.stderr, GROUP, hostile.at, hostile.says);
      expectSameFiles(await metadataOf(dir), before);
    }
  });
});

// ---- Permissions, as a curator who is not root -------------------------------------------------------

const setpriv = spawnSync('setpriv', ['--version'], { encoding: 'utf8' });
const canSwitchUser = isRoot && !setpriv.error && setpriv.status === 0;
const NOBODY = 65534;
const BIN = path.join(PROJECT, 'bin/archive-schema.js');

/** The compiled command, run as uid and gid 65534 with no other groups, within a minute. */
function asNobody(argv: string[], cwd: string) {
  const run = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, BIN, ...argv], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A project that uid 65534 owns and can read throughout. */
async function nobodysProject(): Promise<string> {
  const dir = await project();
  const files = [dir, ...(await readdir(dir, { recursive: true })).map((f) => path.join(dir, f))];
  for (const file of files) {
    await chown(file, NOBODY, NOBODY);
    await chmod(file, (await stat(file)).isDirectory() ? 0o755 : 0o644);
  }
  return dir;
}

describe.runIf(canSwitchUser)('permissions, as uid 65534', () => {
  test('a read-only metadata folder: fmt exits 2, names the file and what to do, changes nothing', async () => {
    const dir = await nobodysProject();
    const folder = path.dirname(abs(dir, GROUP));
    await chmod(folder, 0o555);
    const before = await metadataOf(dir);
    const result = asNobody(['fmt'], dir);
    await chmod(folder, 0o755);
    expectNoCrash(result.stderr);
    expectSameFiles(await metadataOf(dir), before);
    expect(await tempFiles(dir)).toEqual([]);
    const line = result.stderr.split('\n').find((l) => /InputCat\.yaml.*(EACCES|permission denied)/i.test(l));
    expect(line, `a line naming the file and the refusal in:\n${result.stderr}`).toBeDefined();
    // Not done, so not reported as done.
    expect.soft(result.stdout).not.toContain(`${GROUP} reformatted`);
    expect.soft(line, 'says what to do').toMatch(/check the permissions|make .* writable|chmod/i);
    expect(result.code, 'README: exit 2 is I/O trouble').toBe(2);
  });

  test('a read-only file (0444) in a writable folder: rewritten by a rename, still 0444 and its owner', async () => {
    const dir = await nobodysProject();
    const file = abs(dir, GROUP);
    await chmod(file, 0o444);
    const result = asNobody(['fmt'], dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await expectRewritten(dir, 'fmt');
    const after = await stat(file);
    expect((after.mode & 0o7777).toString(8)).toBe('444');
    expect([after.uid, after.gid]).toEqual([NOBODY, NOBODY]);
    expect(await tempFiles(dir)).toEqual([]);
  });

  test("another user's file in a folder this user may write: not replaced behind its owner's back, no temporary file left", async () => {
    const dir = await nobodysProject();
    const file = abs(dir, GROUP);
    await chown(file, 0, 0);
    const before = await metadataOf(dir);
    const result = asNobody(['fmt'], dir);
    expectNoCrash(result.stderr);
    expectSameFiles(await metadataOf(dir), before);
    expect((await stat(file)).uid).toBe(0);
    expect(await tempFiles(dir)).toEqual([]);
    expect(result.stderr).toContain('InputCat.yaml');
    expect.soft(result.stdout).not.toContain(`${GROUP} reformatted`);
    expect(result.code, 'README: exit 2 is I/O trouble').toBe(2);
  });
});

// ---- Large and strange content ----------------------------------------------------------------------

describe('content', () => {
  // 5,000 columns (0.5 MB): enough for a rewrite that grows faster than the file to show, and quick.
  test('a group of 5,000 columns: fmt makes it canonical, and again changes nothing', async () => {
    const columns = Array.from(
      { length: 5_000 },
      (_, i) => `  - {unit: "mag", name: "C${i}", id: ${100_000 + i}, description: 'Flux in <b>band</b> ${i}', ucd: "phot.mag"}\n`,
    );
    const text = `tables:\n- columns:\n${columns.join('')}  name: "Big"\n  id: 201\n${MESSY.slice(MESSY.indexOf('updated'))}`;
    const dir = await project(text);
    const file = abs(dir, GROUP);
    const first = await cli(['fmt'], dir);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(new RegExp(`^${GROUP} reformatted\n1 file reformatted, \\d+ already canonical\\.\n$`));
    const formatted = await readFile(file, 'utf8');
    expect(formatted).toContain('      - id: 104999\n        name: C4999\n        description: Flux in <b>band</b> 4999\n');
    // Read as the build reads it (js-yaml), the data is the same.
    expect(load(formatted)).toEqual(load(text));
    const second = await cli(['fmt'], dir);
    expect(second.stdout).toMatch(/^0 files reformatted, \d+ already canonical\.\n$/);
    expect(second.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(formatted);
    expect(await tempFiles(dir)).toEqual([]);
  });

  test('HTML and script in curator text survive fmt as written', async () => {
    const texts = [
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      "</textarea><svg onload=alert('x')>",
      '{{constructor.constructor("alert(1)")()}}',
      '${alert(1)} and `whoami`',
      '&lt;script&gt; &amp; &#x3C;b&#x3E;',
      '<!-- hidden --> # not a comment: really',
      'javascript:alert(document.cookie)',
    ];
    const q = (s: string) => JSON.stringify(s);
    const text = `updated: 2018-01-01T00:00:00Z
pretty_name: ${q(texts[0] ?? '')}
tables:
- columns:
${texts.map((t, i) => `  - {description: ${q(t)}, name: C${i}, id: ${3000 + i}}\n`).join('')}  description: ${q(texts[1] ?? '')}
  name: TilingCat
  id: 201
description: ${q(texts.join(' | '))}
name: InputCat
created: 2018-01-01T00:00:00Z
id: 21
`;
    const dir = await project(text);
    const result = await cli(['fmt'], dir);
    expect(result.code).toBe(0);
    const after = await readFile(abs(dir, GROUP), 'utf8');
    expect(after).not.toBe(text);
    expect(parse(after)).toEqual(parse(text));
    expect(after).toContain('<script>alert(1)</script>');
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });
});

describe('what the commands print cannot forge a line of a CI log', () => {
  // A pull request names a file so that its name, printed raw, starts a GitHub workflow command of
  // its own; the runner also reads `##[command]` anywhere in a line.
  const FORGED = 'x\n::error file=README.md,line=1::forged';
  const FORGED_GROUP = `metadata/alpha/dr2/catalogues/${FORGED}.yaml`;

  /** No line that GitHub's runner would read as a workflow command: `::` after leading spaces, or `##[` anywhere. */
  function expectNoCommand(output: string): void {
    for (const line of output.split('\n')) {
      expect(line.trimStart().startsWith('::'), line).toBe(false);
      expect(line.includes('##['), line).toBe(false);
    }
  }

  test.each([[['fmt']], [['fmt', '--check']]])('%j prints a line feed in a file name escaped, as check does', async (argv) => {
    const dir = await project();
    await writeFile(abs(dir, FORGED_GROUP), MESSY.replace('name: InputCat', 'name: x'));
    const result = await cli(argv, dir);
    expectNoCommand(result.stdout + result.stderr);
    expect(result.stdout).toContain('metadata/alpha/dr2/catalogues/x\\u000A::error file=README.md,line=1::forged.yaml ');
  });

  test('fmt --check --format github: one annotation per file, the name inside it', async () => {
    const dir = await project();
    await writeFile(abs(dir, FORGED_GROUP), MESSY.replace('name: InputCat', 'name: x'));
    const result = await cli(['fmt', '--check', '--format', 'github'], dir);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines.every((line) => line.startsWith('::error title=fmt/not-canonical,file=metadata/'))).toBe(true);
    expect(result.stdout).toContain('file=metadata/alpha/dr2/catalogues/x%0A%3A%3Aerror file=README.md%2Cline=1%3A%3Aforged.yaml::');
  });

  test('stamp prints a line feed in a new file’s name escaped', async () => {
    const { dir } = await gitdir();
    await writeFile(abs(dir, FORGED_GROUP), MESSY.replace('name: InputCat', 'name: x').replace('id: 21', 'id: 29'));
    const result = await cli(['stamp', '--now', NOW], dir);
    expectNoCommand(result.stdout + result.stderr);
    expect(result.stdout).toContain('metadata/alpha/dr2/catalogues/x\\u000A::error file=README.md,line=1::forged.yaml: ');
  });

  test('new prints a line feed in the path it was given escaped', async () => {
    const dir = await project();
    const result = await cli(['new', 'group', `alpha/dr2/${FORGED}`], dir);
    expectNoCommand(result.stdout + result.stderr);
    expect(result.stdout + result.stderr).toContain('x\\u000A::error');
  });

  test('import prints a line feed in a column name of its source escaped', async () => {
    const dir = await project();
    await writeFile(abs(dir, 'cols.csv'), `"${FORGED}",MAG_G\n1,2\n`);
    const result = await cli(IMPORT, dir);
    expectNoCommand(result.stdout + result.stderr);
  });

  test('an error naming a folder given on the command line prints it escaped', async () => {
    const dir = await project();
    const result = await cli(['check', '--metadata', FORGED], dir);
    expect(result.code).toBe(2);
    expectNoCommand(result.stdout + result.stderr);
    expect(result.stderr).toContain('x\\u000A::error');
  });

  test('##[ in a value or a file name is shown with its bracket escaped, in every format of check', async () => {
    const dir = await project();
    await writeFile(abs(dir, 'metadata/alpha/dr2/catalogues/##[error]forged.yaml'), MESSY.replace('id: 21', "'##[error]forged': 1"));
    for (const format of ['text', 'github', 'json']) {
      const result = await cli(['check', '--format', format], dir);
      expect(result.code).toBe(1);
      expect(result.stdout.includes('##['), format).toBe(false);
      expect(result.stdout, format).toContain('##\\u005B');
    }
  });
});

describe('names as long as the file system takes', () => {
  // A group's file name of 250 characters is one check accepts; the temporary file beside it,
  // named after it, was longer than any name may be.
  const LONG = 'G'.repeat(250);
  const LONG_GROUP = `metadata/alpha/dr2/catalogues/${LONG}.yaml`;
  const longGroup = MESSY.replace('name: InputCat', `name: ${LONG}`)
    .replace('id: 21\n', 'id: 77\n')
    .replace('id: 201\n', 'id: 7701\n')
    .replace('id: 2010,', 'id: 77010,');

  test.each([
    ['fmt', ['fmt']],
    ['import columns', ['import', 'columns', 'cols.csv', '--into', LONG_GROUP, '--table', 'Imported']],
  ])('%s rewrites a group whose file name is 250 characters long, never ENAMETOOLONG', async (_name, argv) => {
    const dir = await project();
    await writeFile(abs(dir, LONG_GROUP), longGroup);
    const result = await cli(argv, dir);
    expectNoCrash(result.stdout + result.stderr);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await readFile(abs(dir, LONG_GROUP), 'utf8')).not.toBe(longGroup);
    expect(await tempFiles(dir)).toEqual([]);
  });

  test('new survey with a name of 300 characters is I/O trouble naming it, in one sentence, and writes nothing', async () => {
    const dir = await project();
    const before = await metadataOf(dir);
    const result = await cli(['new', 'survey', 's'.repeat(300)], dir);
    expectNoCrash(result.stdout + result.stderr);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^archive-schema: ENAMETOOLONG: name too long, \w+ '.*s{300}.*'; a name in the path is longer than the file system allows \(255 bytes on most\); choose a shorter name\n$/,
    );
    expectSameFiles(await metadataOf(dir), before);
  });
});
