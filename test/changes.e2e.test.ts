// `diff`, `changes add`, `changes backfill` and what `check --base` says of change records, in
// temporary git repositories made from the fixture archive: a reviewer's report and the job
// summary, records dated by their data, released data guarded, bad records located, and a
// shallow clone (`git clone --depth 1`) that reads the records it holds with no history.

import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadRecords } from '../src/changes/records.ts';
import { PROJECT, cli, edit, gitdir, tempdir } from './helpers.ts';

const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';
const RELEASE = 'metadata/alpha/dr1/release.yaml';

/** Runs git in a folder as a curator, at a fixed date so that commits (and records dated by them) are the same every run. */
function git(dir: string, args: string[], date = '2026-03-01T09:00:00Z'): string {
  return execFileSync('git', ['-c', 'user.name=Curator', '-c', 'user.email=curator@example.org', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: 'pipe',
    env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
}

/** The fixture archive committed on main, and a branch `feature` checked out; `adopt` gives it a changes folder. */
async function repo(options: { adopt?: boolean; released?: boolean } = {}): Promise<string> {
  const { dir } = await gitdir();
  if (options.released) await edit(dir, RELEASE, (t) => `${t}released: 2015-05-01\n`);
  if (options.adopt) await writeFile(path.join(await mkdirp(dir, 'changes'), 'README.md'), 'Change records: see docs/changes.md.\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', 'Adopt']);
  git(dir, ['checkout', '-q', '-b', 'feature']);
  return dir;
}

async function mkdirp(dir: string, sub: string): Promise<string> {
  await mkdir(path.join(dir, sub), { recursive: true });
  return path.join(dir, sub);
}

/** The example, on the fixture: a column's unit set, a column renamed, two columns added, all stamped. */
async function editColumns(dir: string): Promise<void> {
  await edit(dir, GROUP, (t) =>
    t
      .replace('ucd: src.redshift', 'ucd: src.redshift\n        unit: km/s')
      .replace('name: NOTE\n', 'name: NOTES\n')
      .concat(
        '      - id: 2003\n        name: ZERR\n        unit: km/s\n        datatype: float\n      - id: 2004\n        name: ZQ\n        datatype: short\n',
      ),
  );
  expect((await cli(['stamp', '--base', 'main', '--now', '2026-03-02T10:15:00Z'], dir)).code).toBe(0);
}

const records = async (dir: string) => (await readdir(path.join(dir, 'changes'))).filter((n) => n.endsWith('.yaml')).sort();

describe('diff', () => {
  test('what a reviewer reads, against where the branch left main', async () => {
    const dir = await repo();
    await editColumns(dir);
    const text = await cli(['diff'], dir);
    expect(text).toEqual({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(
        /^Metadata changes from the merge base with main \([0-9a-f]{7}\) to the working tree: 2 columns added, 2 columns changed\.\n\nAlpha DR1: 2 columns added, 2 columns changed\n  SpecCat \/ SpecObj: 2 columns added \(ZERR, ZQ\); unit of Z set to "km\/s"; NOTE renamed NOTES\n$/,
      ) as unknown,
    });
    const markdown = await cli(['diff', '--format', 'markdown', '--base', 'main'], dir);
    expect(markdown.stdout).toContain(
      '- **SpecCat / SpecObj**: 2 columns added (`ZERR`, `ZQ`); unit of `Z` set to `km/s`; `NOTE` renamed `NOTES`\n',
    );
    const json = JSON.parse((await cli(['diff', '--format', 'json'], dir)).stdout) as {
      changes: { id: number; old?: object; new?: object }[];
    };
    expect(json.changes.map((c) => [c.id, c.old, c.new])).toEqual([
      [2001, undefined, { unit: 'km/s' }],
      [2002, { name: 'NOTE' }, { name: 'NOTES' }],
      [2003, undefined, { id: 2003, name: 'ZERR', unit: 'km/s', datatype: 'float' }],
      [2004, undefined, { id: 2004, name: 'ZQ', datatype: 'short' }],
    ]);
  });

  test('in GitHub Actions the Markdown is appended to the job summary', async () => {
    const dir = await repo();
    await editColumns(dir);
    const summary = path.join(dir, 'summary.md');
    await writeFile(summary, 'An earlier step wrote this.\n');
    const result = await cli(['diff', '--base', 'main'], dir, { GITHUB_STEP_SUMMARY: summary });
    expect(result.stdout.startsWith('Metadata changes from main (')).toBe(true);
    const written = await readFile(summary, 'utf8');
    expect(written).toMatch(
      /^An earlier step wrote this\.\n### Metadata changes\n\nFrom main \([0-9a-f]{7}\) to the working tree: 2 columns added, 2 columns changed\.\n\n\*\*Alpha DR1\*\*: 2 columns added, 2 columns changed\n\n- \*\*SpecCat \/ SpecObj\*\*: /,
    );
  });

  test('two folders, and a committed revision against another', async () => {
    const dir = await repo();
    await cp(path.join(dir, 'metadata'), path.join(dir, 'before'), { recursive: true });
    await edit(dir, 'metadata/alpha/dr2/imaging/VST.yaml', (t) => t.replace('central_wave_ang: 6313.5', 'central_wave_ang: 6200'));
    const folders = await cli(['diff', '--from', 'before', '--to', 'metadata'], dir);
    expect(folders.stdout).toBe(
      'Metadata changes from before to metadata: 1 band changed.\n\nAlpha DR2: 1 band changed\n  VST / r: central_wave_ang changed from 6313.5 to 6200\n',
    );
    git(dir, ['commit', '-qam', 'Band']);
    expect((await cli(['diff', '--base', 'main', '--head', 'HEAD'], dir)).stdout).toContain(
      '  VST / r: central_wave_ang changed from 6313.5 to 6200\n',
    );
  });

  test('the working tree as it is, whatever git has staged: staged, edited again, untracked, touched', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace('ucd: src.redshift', 'ucd: src.redshift\n        unit: km/s'));
    git(dir, ['add', '.']);
    await edit(dir, GROUP, (t) => t.replace('unit: km/s', 'unit: m/s'));
    await writeFile(
      path.join(dir, 'metadata/alpha/dr2/catalogues/Extra.yaml'),
      'id: 22\nname: Extra\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\ntables: []\n',
    );
    await edit(dir, 'metadata/alpha/dr2/imaging/VST.yaml', (t) => t);
    expect((await cli(['diff'], dir)).stdout).toMatch(
      /: 1 group added, 1 column changed\.\n\nAlpha DR1: 1 column changed\n  SpecCat \/ SpecObj: unit of Z set to "m\/s"\n\nAlpha DR2: 1 group added\n  Extra: group added\n$/,
    );
  });

  test('a changed file that cannot be read stops it, located', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace('    columns:', '    columns: [\n'));
    const result = await cli(['diff'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml\n  metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:\d+:\d+  error  /,
    );
    expect(result.stderr).toContain('These files cannot be read, so nothing was compared');
  });

  test.each([
    [['diff', '--base', 'no-such-branch'], 'no-such-branch is not a revision of this repository'],
    [['diff', '--from', 'metadata'], '--from and --to go together'],
  ])('%j is a usage error', async (argv, says) => {
    const dir = await repo();
    const result = await cli(argv, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(says);
  });

  test('without main or master, it says what to pass', async () => {
    const dir = await repo();
    git(dir, ['branch', '-q', '-m', 'main', 'trunk']);
    const result = await cli(['diff'], dir);
    expect(result).toMatchObject({ code: 2 });
    expect(result.stderr).toContain(
      'cannot tell what to compare with: none of origin/HEAD, origin/main, origin/master, main, master is a branch here; pass --base REV',
    );
  });
});

describe('changes add', () => {
  test('writes a record of the stamped changes, dated by their `updated`, that check --base then finds', async () => {
    const dir = await repo({ adopt: true });
    await editColumns(dir);
    const missing = await cli(['check', '--base', 'main'], dir);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain(
      `${GROUP}:23:13  warning  the metadata changed since main (2 columns added, 2 columns changed) and no change record is new since then; record it with \`archive-schema changes add --summary "…"\`, and commit the file it writes  [changes/missing]`,
    );
    expect((await cli(['check', '--base', 'main', '--strict'], dir)).code).toBe(1);

    const added = await cli(['changes', 'add', '--summary', 'Redshift errors and quality flags'], dir);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toMatch(
      /^Wrote changes\/2026-03-02-redshift-errors-and-quality-flags\.yaml: 2 columns added, 2 columns changed since the merge base with main \([0-9a-f]{7}\), dated 2026-03-02T10:15:00Z\. Commit it with the metadata\.\n$/,
    );
    const text = await readFile(path.join(dir, 'changes/2026-03-02-redshift-errors-and-quality-flags.yaml'), 'utf8');
    expect(text).toBe(
      [
        '# yaml-language-server: $schema=../schemas/change-record.schema.json',
        '',
        'date: 2026-03-02T10:15:00Z',
        'summary: Redshift errors and quality flags',
        'changes:',
        '  - change: changed',
        '    kind: CatalogueColumn',
        '    id: 2001',
        '    survey: 1',
        '    release: dr1',
        '    path: alpha/dr1/SpecCat/SpecObj/Z',
        '    new:',
        '      unit: km/s',
        '  - change: changed',
        '    kind: CatalogueColumn',
        '    id: 2002',
        '    survey: 1',
        '    release: dr1',
        '    path: alpha/dr1/SpecCat/SpecObj/NOTES',
        '    old:',
        '      name: NOTE',
        '    new:',
        '      name: NOTES',
        '  - change: added',
        '    kind: CatalogueColumn',
        '    id: 2003',
        '    survey: 1',
        '    release: dr1',
        '    path: alpha/dr1/SpecCat/SpecObj/ZERR',
        '    new:',
        '      id: 2003',
        '      name: ZERR',
        '      unit: km/s',
        '      datatype: float',
        '  - change: added',
        '    kind: CatalogueColumn',
        '    id: 2004',
        '    survey: 1',
        '    release: dr1',
        '    path: alpha/dr1/SpecCat/SpecObj/ZQ',
        '    new:',
        '      id: 2004',
        '      name: ZQ',
        '      datatype: short',
        '',
      ].join('\n'),
    );
    const checked = await cli(['check', '--base', 'main', '--strict', '--quiet'], dir);
    expect(checked.stdout).not.toContain('changes/');
    // The only warning left is the rename's, which is not about records.
    expect(checked.stdout).toContain('[ids/renamed]');
    expect((await cli(['changes', 'add', '--summary', 'Again'], dir)).stdout).toMatch(
      /^Nothing to record: the changes since the merge base with main \([0-9a-f]{7}\) are in changes\/2026-03-02-redshift-errors-and-quality-flags\.yaml already\.\n$/,
    );
  });

  test('a later edit is recorded as what changed since the first record, and the records agree', async () => {
    const dir = await repo({ adopt: true });
    await editColumns(dir);
    await cli(['changes', 'add', '--summary', 'First'], dir);
    await edit(dir, GROUP, (t) =>
      t.replace('unit: km/s\n        datatype: float\n      - id: 2002', 'unit: km s-1\n        datatype: float\n      - id: 2002'),
    );
    // Dated before the first record, it still comes after it: records are read in the order of their dates.
    const second = await cli(['changes', 'add', '--summary', 'Second', '--date', '2026-03-01T00:00:00Z'], dir);
    expect(second.stdout).toContain('Wrote changes/2026-03-02-second.yaml: 1 column changed since');
    expect(second.stdout).toContain('dated 2026-03-02T10:15:01Z.');
    expect(await readFile(path.join(dir, 'changes/2026-03-02-second.yaml'), 'utf8')).toContain(
      '    old:\n      unit: km/s\n    new:\n      unit: km s-1\n',
    );
    const checked = await cli(['check', '--base', 'main'], dir);
    expect(checked.code).toBe(0);
    expect(checked.stdout).not.toContain('[changes/');
  });

  test('is never dated by the clock: unstamped and uncommitted, it asks; committed, it takes the commit date', async () => {
    const dir = await repo({ adopt: true });
    await edit(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) => t.replace('unit: deg', 'unit: rad'));
    const undated = await cli(['changes', 'add', '--summary', 'Radians'], dir);
    expect(undated.code).toBe(2);
    expect(undated.stderr).toMatch(
      /cannot date this record: nothing that changed has a new `updated` \(run `archive-schema stamp --base [0-9a-f]{7}` to set it\), and the change is not committed/,
    );
    git(dir, ['commit', '-qam', 'Radians'], '2026-04-05T06:07:08+02:00');
    const dated = await cli(['changes', 'add', '--summary', 'Radians', '--dry-run'], dir);
    expect(dated.stdout).toContain('date: 2026-04-05T04:07:08Z\n');
    expect(dated.stdout).toMatch(
      /Would write changes\/2026-04-05-radians\.yaml \(1 column changed since .*, dated 2026-04-05T04:07:08Z\)\. Nothing was written\.\n$/,
    );
    expect(await records(dir)).toEqual([]);
  });

  test('a record that no longer matches the metadata is noted at its entry', async () => {
    const dir = await repo({ adopt: true });
    await editColumns(dir);
    await cli(['changes', 'add', '--summary', 'First'], dir);
    await edit(dir, GROUP, (t) =>
      t.replace('        unit: km/s\n        datatype: float\n      - id: 2002', '        datatype: float\n      - id: 2002'),
    );
    const checked = await cli(['check', '--base', 'main'], dir);
    expect(checked.stdout).toContain(
      'changes/2026-03-02-first.yaml:6:5  warning  change 1 (catalogue column 2001) no longer matches the metadata: its unit is nothing in the metadata, where the records leave it "km/s"; correct the record, or remove it and run `archive-schema changes add --summary "…"` again  [changes/stale]',
    );
  });
});

describe('released data', () => {
  // Column types came to the metadata after many releases: recording one describes what the
  // column always held, where changing one changes what a client reads.
  test('a released column given a datatype for the first time passes; one whose datatype changes fails', async () => {
    const dir = await repo({ adopt: true, released: true });
    await edit(dir, GROUP, (t) => t.replace('        datatype: float\n', ''));
    git(dir, ['commit', '-qam', 'No type for Z']);
    git(dir, ['branch', '-qf', 'main']);
    await edit(dir, GROUP, (t) => t.replace('ucd: src.redshift\n', 'ucd: src.redshift\n        datatype: double\n'));
    const first = await cli(['check', '--base', 'main'], dir);
    expect(first.stdout).not.toContain('[changes/released]');
    git(dir, ['commit', '-qam', 'A type for Z']);
    git(dir, ['branch', '-qf', 'main']);
    await edit(dir, GROUP, (t) => t.replace('datatype: double', 'datatype: float'));
    const changed = await cli(['check', '--base', 'main'], dir);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('and its datatype changes from "double" to "float": released data cannot change silently');
  });

  test('a released column changed fails check --base until the change is recorded as a correction', async () => {
    const dir = await repo({ adopt: true, released: true });
    await editColumns(dir);
    const refused = await cli(['check', '--base', 'main'], dir);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `${GROUP}:28:15  error  catalogue column 2001 (alpha/dr1/SpecCat/SpecObj/Z) belongs to release alpha/dr1, released 2015-05-01, and its unit is set to "km/s": released data cannot change silently. If this corrects a mistake, record it as a correction: run \`archive-schema changes add --summary "…" --correction "why it had to change"\`; otherwise undo the change  [changes/released]`,
    );
    expect(refused.stdout).toContain(
      `${GROUP}:31:15  error  catalogue column 2002 (alpha/dr1/SpecCat/SpecObj/NOTES) belongs to release alpha/dr1, released 2015-05-01, and it is renamed "NOTES"`,
    );
    // New columns change nothing a client reads.
    expect(refused.stdout).not.toContain('catalogue column 2003');

    await cli(['changes', 'add', '--summary', 'Units'], dir);
    const recorded = await cli(['check', '--base', 'main'], dir);
    expect(recorded.code).toBe(1);
    expect(recorded.stdout).toContain(
      'record it as a correction: add `correction: {reason: "…"}` to change 1 of changes/2026-03-02-units.yaml (line 6), saying why it had to change; otherwise undo the change  [changes/released]',
    );

    await rm(path.join(dir, 'changes/2026-03-02-units.yaml'));
    const corrected = await cli(
      ['changes', 'add', '--summary', 'Units', '--correction', 'The unit was left out when the table was first loaded'],
      dir,
    );
    expect(corrected.stdout).toContain('2 changes to released data marked as corrections.');
    expect(await readFile(path.join(dir, 'changes/2026-03-02-units.yaml'), 'utf8')).toContain(
      '    correction:\n      reason: The unit was left out when the table was first loaded\n',
    );
    expect((await cli(['check', '--base', 'main'], dir)).code).toBe(0);
  });

  test('a released table removed is one error, at its group, however many columns it had', async () => {
    const dir = await repo({ released: true });
    await edit(dir, GROUP, (t) => t.replace(/tables:[\s\S]*$/, 'tables: []\n'));
    // Their ids withdrawn, as a removal must be.
    const retired = [
      ['CatalogueTable', 200, 'SpecObj'],
      ['CatalogueColumn', 2000, 'CATAID'],
      ['CatalogueColumn', 2001, 'Z'],
      ['CatalogueColumn', 2002, 'NOTE'],
    ].map(([kind, id, name]) => `  - {kind: ${kind}, id: ${id}, name: ${name}, retired: 2026-03-01T00:00:00Z, reason: Withdrawn.}\n`);
    await writeFile(path.join(dir, 'metadata/retired.yaml'), `retired:\n${retired.join('')}`);
    const result = await cli(['check', '--base', 'main', '--format', 'json'], dir);
    const released = (
      JSON.parse(result.stdout) as { diagnostics: { file: string; line: number; rule: string; message: string }[] }
    ).diagnostics.filter((d) => d.rule === 'changes/released');
    expect(released.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      `${GROUP}:1 catalogue table 200 (alpha/dr1/SpecCat/SpecObj) belongs to release alpha/dr1, released 2015-05-01, and it is removed: released data cannot change silently. If this corrects a mistake, record it as a correction: run \`archive-schema changes add --summary "…" --correction "why it had to change"\`; otherwise undo the change`,
    ]);
  });

  test('a released release stays released: taking `released` away is refused too', async () => {
    const dir = await repo({ released: true });
    await edit(dir, RELEASE, (t) => t.replace('released: 2015-05-01\n', ''));
    await edit(dir, GROUP, (t) => t.replace('name: NOTE\n', 'name: NOTES\n'));
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'metadata/alpha/dr1/release.yaml:1:7  error  release alpha/dr1, released 2015-05-01, and its released "2015-05-01" is removed: released data cannot change silently.',
    );
    expect(result.stdout).toContain(
      'catalogue column 2002 (alpha/dr1/SpecCat/SpecObj/NOTES) belongs to release alpha/dr1, released 2015-05-01, and it is renamed',
    );
  });

  test('a release released in this pull request may still change; `released` itself is checked', async () => {
    const dir = await repo();
    await edit(dir, RELEASE, (t) => `${t}released: 2026-03-02\n`);
    await edit(dir, GROUP, (t) => t.replace('name: NOTE\n', 'name: NOTES\n'));
    expect((await cli(['check', '--base', 'main'], dir)).code).toBe(0);
    await edit(dir, RELEASE, (t) => t.replace('released: 2026-03-02', 'released: 2026-02-30'));
    const bad = await cli(['check'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      `${RELEASE}:8:11  error  released "2026-02-30" has day 30, which month 02 of 2026 does not have  [timestamps/date]`,
    );
  });

  test('`released` stays out of the API: the same bytes with it and without it', async () => {
    const dir = await repo();
    expect((await cli(['build', '--no-cache', '--out', 'without'], dir)).code).toBe(0);
    await edit(dir, RELEASE, (t) => `${t}released: 2015-05-01\n`);
    expect((await cli(['build', '--no-cache', '--out', 'with'], dir)).code).toBe(0);
    const api = async (out: string) => {
      const files = (await readdir(path.join(dir, out, 'api'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
      return Promise.all(
        files.map(async (e) => [
          path.relative(dir, path.join(e.parentPath, e.name)).replace(/^[^/]+/, ''),
          await readFile(path.join(e.parentPath, e.name), 'utf8'),
        ]),
      );
    };
    const [before, after] = await Promise.all([api('without'), api('with')]);
    expect(before.length).toBeGreaterThan(10);
    expect(after.sort()).toEqual(before.sort());
    expect(after.some(([, text]) => text?.includes('released'))).toBe(false);
  });
});

describe('bad records', () => {
  test('check reports each at its file, line and column, as it reports metadata', async () => {
    const dir = await repo({ adopt: true });
    await writeFile(
      path.join(dir, 'changes/2026-03-02-bad.yaml'),
      'date: 2026-02-30T00:00:00Z\nsummary: Bad\nchanges:\n  - change: changed\n    kind: CatalogueColumn\n    id: 9999\n    survey: 1\n    release: dr1\n    path: x\n    new: {unit: m}\n    oops: 1\n',
    );
    await writeFile(
      path.join(dir, 'changes/2026-03-03-ghost.yaml'),
      'date: 2026-03-03T00:00:00Z\nsummary: Ghost\nchanges:\n  - change: changed\n    kind: CatalogueColumn\n    id: 9999\n    survey: 1\n    release: dr1\n    path: alpha/dr1/SpecCat/SpecObj/GHOST\n    new: {unit: m}\n',
    );
    const result = await cli(['check'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'changes/2026-03-02-bad.yaml',
        '  changes/2026-03-02-bad.yaml:11:5  error  unknown key "oops" in change 1; the keys allowed here are change, kind, id, survey, release, path, moved_from, old, new, correction  [schema/unknown-key]',
        '',
        'changes/2026-03-03-ghost.yaml',
        '  changes/2026-03-03-ghost.yaml:4:5  error  change 1 names catalogue column 9999 (alpha/dr1/SpecCat/SpecObj/GHOST), which the metadata does not have and metadata/retired.yaml does not list; correct the kind and id, or remove the entry  [changes/unknown-item]',
        '',
        '2 errors and 0 warnings in 2 files. The metadata is invalid; fix the errors above.',
        '',
      ].join('\n'),
    );
  });
});

describe('records beside broken metadata', () => {
  test('an empty release file is its own error, not a crash of the record checks', async () => {
    const dir = await repo({ adopt: true });
    await editColumns(dir);
    await cli(['changes', 'add', '--summary', 'Redshift errors'], dir);
    await writeFile(path.join(dir, 'metadata/alpha/dr2/release.yaml'), '# nothing here yet\n');
    const result = await cli(['check'], dir);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).toContain('metadata/alpha/dr2/release.yaml:1:1  error  the file is empty');
  });
});

describe('a shallow clone', () => {
  test('checks and reads the records it holds with no history; diff says what to fetch', async () => {
    const origin = await repo({ adopt: true });
    await editColumns(origin);
    await cli(['changes', 'add', '--summary', 'Redshift errors'], origin);
    git(origin, ['add', '.']);
    git(origin, ['commit', '-qm', 'Redshift errors']);
    const strip = (set: ReturnType<typeof loadRecords>) => set.records.map((r) => ({ ...r, locate: undefined }));
    const recorded = strip(loadRecords(path.join(origin, 'changes')));
    expect(recorded).toHaveLength(1);
    // The origin's default branch is main, as a hosted repository's is.
    git(origin, ['checkout', '-q', 'main']);
    const clone = path.join(await tempdir(), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${origin}`, clone]);
    expect(git(clone, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true');
    // The compiled command, as a build in CI runs it.
    const checked = execFileSync(process.execPath, [path.join(PROJECT, 'bin/archive-schema.js'), 'check', '--no-cache'], {
      cwd: clone,
      encoding: 'utf8',
    });
    expect(checked).toBe('10 metadata files checked: no errors.\n');
    expect(strip(loadRecords(path.join(clone, 'changes')))).toEqual(recorded);
    const diff = await cli(['diff'], clone);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('This clone is shallow');
    const advice = /`(git fetch --deepen=100 origin main:refs\/remotes\/origin\/main)`/.exec(diff.stderr)?.[1];
    expect(advice, diff.stderr).toBeDefined();
    // The advice, followed, is enough.
    git(clone, (advice ?? '').split(' ').slice(1));
    expect((await cli(['diff', '--format', 'json'], clone)).stdout).toContain('"to": "the working tree"');
    expect((await cli(['diff'], clone)).stdout).toContain('2 columns added, 2 columns changed');
  });
});

describe('changes backfill', () => {
  test('writes a record per commit that changed the metadata, dated by it, once', async () => {
    const dir = await repo();
    const since = git(dir, ['rev-parse', 'HEAD']).trim();
    await edit(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) => t.replace('unit: deg', 'unit: rad'));
    git(dir, ['commit', '-qam', 'RA in radians'], '2024-01-10T12:00:00+01:00');
    await edit(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) =>
      t.replace('updated: 2018-01-01T00:00:00Z', 'updated: 2024-01-11T00:00:00Z'),
    );
    git(dir, ['commit', '-qam', 'Stamp only'], '2024-01-11T12:00:00Z');
    git(dir, ['checkout', '-q', '-b', 'pr']);
    await edit(dir, 'metadata/alpha/dr2/imaging/VST.yaml', (t) => t.replace('central_wave_ang: 6313.5', 'central_wave_ang: 6200'));
    git(dir, ['commit', '-qam', 'Band centre'], '2024-02-01T00:00:00Z');
    git(dir, ['checkout', '-q', 'feature']);
    git(
      dir,
      ['merge', '-q', '--no-ff', 'pr', '-m', 'Merge pull request #7 from curator/pr\n\nThe r band centred at its pivot wavelength'],
      '2024-02-02T00:00:00Z',
    );
    await cli(['diff'], dir);

    const first = await cli(['changes', 'backfill', '--since', since], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Wrote changes\/2024-01-10-ra-in-radians\.yaml for [0-9a-f]{7}: 1 column changed\.\nWrote changes\/2024-02-02-the-r-band-centred-at-its\.yaml for [0-9a-f]{7}: 1 band changed\.\nSkipped [0-9a-f]{7} \(2024-01-11T12:00:00Z\), as it changes no survey, release or node \(only timestamps, comments or layout\)\.\nWrote 2 records for the commits since [0-9a-f]{40}; skipped 1\.\n$/,
    );
    const merged = await readFile(path.join(dir, 'changes/2024-02-02-the-r-band-centred-at-its.yaml'), 'utf8');
    expect(merged).toContain('date: 2024-02-02T00:00:00Z\nsummary: The r band centred at its pivot wavelength (#7)\ncommit: ');
    expect(await readFile(path.join(dir, 'changes/2024-01-10-ra-in-radians.yaml'), 'utf8')).toContain('date: 2024-01-10T11:00:00Z\n');

    const again = await cli(['changes', 'backfill', '--since', since], dir);
    expect(again.stdout).toMatch(/Wrote 0 records for the commits since [0-9a-f]{40}; skipped 3\.\n$/);
    expect(again.stdout).toContain('as a record names it already');
    expect(await records(dir)).toEqual(['2024-01-10-ra-in-radians.yaml', '2024-02-02-the-r-band-centred-at-its.yaml']);
    expect((await cli(['check'], dir)).code).toBe(0);
  });
});
