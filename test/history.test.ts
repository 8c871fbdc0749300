// Published ids keep their meaning: `check --base REV` compares the metadata with a git revision
// (a pull request's base). An id may disappear only through metadata/retired.yaml, may not move
// to another parent, and a retired id is never used again.

import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, edit, gitdir } from './helpers.ts';

const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';

/** A repository whose first commit is the fixture archive; the working tree is then changed. */
const repo = async () => (await gitdir()).dir;

const RETIRED = `retired:
  - kind: CatalogueColumn
    id: 2002
    name: NOTE
    retired: 2026-11-01T00:00:00Z
    reason: The free-text note column was dropped from the re-released table.
`;

describe('check --base', () => {
  test('an unchanged archive passes', async () => {
    const dir = await repo();
    expect(await cli(['check', '--base', 'main'], dir)).toMatchObject({ code: 0 });
  });

  test('a published column that disappears is an error at its table', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace(/      - id: 2002\n[\s\S]*$/, ''));
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${GROUP}:10:9  error  catalogue column 2002 (alpha/dr1/SpecCat/SpecObj/NOTE) is published on the base branch and is gone; clients may still ask for it. Put it back, or record its retirement in metadata/retired.yaml  [ids/published]`,
    );
  });

  test('a retirement entry lets it go', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace(/      - id: 2002\n[\s\S]*$/, ''));
    await writeFile(path.join(dir, 'metadata/retired.yaml'), RETIRED);
    expect(await cli(['check', '--base', 'main'], dir)).toMatchObject({ code: 0, stdout: '11 metadata files checked: no errors.\n' });
  });

  test('a retired id used again is an error, with or without --base', async () => {
    const dir = await repo();
    await writeFile(path.join(dir, 'metadata/retired.yaml'), RETIRED);
    const result = await cli(['check'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:\d+:\d+  error  catalogue column id 2002 was retired \(metadata\/retired\.yaml:2\) and is never used again; choose a new id  \[ids\/retired\]/,
    );
  });

  test('a whole survey folder removed is an error on its file', async () => {
    const dir = await repo();
    await rm(path.join(dir, 'metadata/gamma'), { recursive: true });
    const result = await cli(['check', '--base', 'main', '--format', 'json'], dir);
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { diagnostics: unknown[] }).diagnostics).toEqual([
      {
        file: 'metadata/gamma/survey.yaml',
        line: 0,
        col: 0,
        severity: 'error',
        rule: 'ids/published',
        message:
          'survey 3 (gamma) is published on the base branch and is gone; clients may still ask for it. Put it back, or record its retirement in metadata/retired.yaml',
      },
    ]);
  });

  test('an id that moves to another parent changes its meaning', async () => {
    const dir = await repo();
    // Table 201 moves from InputCat (dr2) into SpecCat (dr1).
    await edit(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) => t.replace(/tables:[\s\S]*$/, 'tables: []\n'));
    await edit(dir, GROUP, (t) => `${t}  - id: 201\n    name: TilingCat\n    columns:\n      - id: 2010\n        name: RA\n`);
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'error  catalogue table 201 was published at alpha/dr2/InputCat/TilingCat and now sits at alpha/dr1/SpecCat/TilingCat; an id keeps its meaning: give the moved item a new id and retire 201  [ids/published]',
    );
  });

  test('a survey id given to another survey changes its meaning', async () => {
    const dir = await repo();
    await edit(dir, 'metadata/gamma/survey.yaml', (t) => t.replace('id: 3', 'id: 30'));
    await edit(dir, 'metadata/beta/survey.yaml', (t) => t.replace('id: 7', 'id: 3'));
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'metadata/beta/survey.yaml:1:5  error  survey id 3 was published as "gamma" and now names "beta"; an id keeps its meaning: give this survey a new id  [ids/published]',
    );
    expect(result.stdout).toContain('survey 7 (beta) is published on the base branch and is gone');
  });

  test('a rename in place is a warning for review', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace('name: NOTE', 'name: NOTES'));
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /SpecCat\.yaml:\d+:15  warning  catalogue column 2002 was published as "NOTE" and is renamed "NOTES"; clients that look it up by name will miss it  \[ids\/renamed\]/,
    );
    expect((await cli(['check', '--base', 'main', '--strict'], dir)).code).toBe(1);
  });

  test('warnings are reported only on lines changed since the base; errors everywhere', async () => {
    const { dir } = await gitdir({
      'alpha/dr2/catalogues/InputCat.yaml':
        'id: 21\nname: InputCat\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-01T00:00:00Z\ntables:\n  - id: 201\n    name: TilingCat\n    columns:\n      - id: 2010\n        name: RA\n        unit: km s-1\n',
    });
    await edit(dir, 'metadata/alpha/dr2/catalogues/InputCat.yaml', (t) => `${t}      - id: 2011\n        name: MASS\n        unit: Msun\n`);
    const all = await cli(['check'], dir);
    expect(all.stdout).toContain('unit "km s-1" is not a VOUnit');
    expect(all.stdout).toContain('unit "Msun" is not a known VOUnit (write solMass)');
    const changed = await cli(['check', '--base', 'main'], dir);
    expect(changed.code).toBe(0);
    expect(changed.stdout).not.toContain('km s-1');
    expect(changed.stdout).toContain(
      'metadata/alpha/dr2/catalogues/InputCat.yaml:14:15  warning  table "TilingCat" > column "MASS" > unit "Msun" is not a known VOUnit (write solMass)  [units/vounit]',
    );
    expect((await cli(['check', '--base', 'main', '--quiet'], dir)).stdout).toBe('10 metadata files checked: no errors.\n');
  });

  test('an unknown revision is usage trouble', async () => {
    const dir = await repo();
    const result = await cli(['check', '--base', 'no-such-branch'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'archive-schema: no-such-branch is not a revision of this repository; pass a branch, tag or commit with --base (in CI, fetch the base branch first)\n',
    );
  });
  test('a file name that is not UTF-8 beside a group is named as itself, and no published id is called gone', async () => {
    const { dir, git } = await gitdir();
    // Read by a name decoded with replacement characters, such a file hid every group of its folder.
    const bad = Buffer.concat([Buffer.from(path.join(dir, 'metadata/alpha/dr1/catalogues/x')), Buffer.from([0xff]), Buffer.from('.yaml')]);
    await writeFile(bad, 'id: 1\n');
    const result = await cli(['check', '--base', 'main'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('metadata/alpha/dr1/catalogues/x\\xFF.yaml  error  has a name that is not UTF-8');
    expect(result.stdout).not.toContain('[ids/published]');
    // Committed, it is in the base too: such a file was never read by a build, and the base still reads.
    git('add', '.');
    git('commit', '-q', '-m', 'a file with a name that is not UTF-8');
    const again = await cli(['check', '--base', 'main'], dir);
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toContain('metadata/alpha/dr1/catalogues/x\\xFF.yaml  error  has a name that is not UTF-8');
  });
});
