// `stamp`: curators never type timestamps. Changed nodes get `updated`, new nodes `created` and
// `updated`, nothing else moves, and a second run changes nothing.

import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, edit, expectSameFiles, gitdir, snapshotTree } from './helpers.ts';

const GROUP = 'metadata/alpha/dr1/catalogues/SpecCat.yaml';

const repo = async () => (await gitdir()).dir;

describe('stamp', () => {
  test('sets updated on changed nodes and created on new ones, where fmt would put them', async () => {
    const dir = await repo();
    await edit(
      dir,
      GROUP,
      (t) =>
        t.replace('description: Heliocentric redshift', 'description: Heliocentric redshift, flow-corrected') +
        '      - id: 2003\n        name: ZERR\n        description: Error on Z\n',
    );
    await edit(dir, 'metadata/beta/dr1/release.yaml', (t) => t.replace('pretty_name: Beta DR1', 'pretty_name: Beta Data Release 1'));
    const result = await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'metadata/beta/dr1/release.yaml: updated on release "dr1"\n' +
        `${GROUP}: updated on catalogue column "Z" (id 2001)\n` +
        `${GROUP}: created and updated on new catalogue column "ZERR" (id 2003)\n` +
        'Stamped 3 nodes in 2 files with 2026-11-22T06:00:00Z.\n',
    });
    const group = await readFile(path.join(dir, GROUP), 'utf8');
    expect(group).toContain(
      '      - id: 2001\n        name: Z\n        description: Heliocentric redshift, flow-corrected\n        updated: 2026-11-22T06:00:00Z\n        ucd: src.redshift\n',
    );
    expect(group).toContain(
      '      - id: 2003\n        name: ZERR\n        description: Error on Z\n        created: 2026-11-22T06:00:00Z\n        updated: 2026-11-22T06:00:00Z\n',
    );
    expect(await readFile(path.join(dir, 'metadata/beta/dr1/release.yaml'), 'utf8')).toContain('updated: 2026-11-22T06:00:00Z\n');
    // What changed is exactly that: the rest of each file is as it was.
    const diff = execFileSync('git', ['diff', '--numstat'], { cwd: dir, encoding: 'utf8' });
    expect(diff).toBe(`7\t2\t${GROUP}\n2\t2\tmetadata/beta/dr1/release.yaml\n`);
    expect((await cli(['check'], dir)).code).toBe(0);
  });

  test('inside a new node, new children inherit its timestamps', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) =>
      t.replace(
        'tables:\n',
        'tables:\n  - id: 209\n    name: SpecAll\n    columns:\n      - id: 2090\n        name: CATAID\n      - id: 2091\n        name: Z\n',
      ),
    );
    const result = await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    expect(result.stdout).toBe(
      `${GROUP}: created and updated on new catalogue table "SpecAll" (id 209)\nStamped 1 node in 1 file with 2026-11-22T06:00:00Z.\n`,
    );
  });

  test('running it twice changes nothing the second time', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) => t.replace('description: Unique ID', 'description: Unique GAMA ID'));
    await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    const first = await snapshotTree(path.join(dir, 'metadata'));
    const again = await cli(['stamp', '--now', '2026-11-23T06:00:00Z'], dir);
    expect(again.stdout).toBe('Nothing to stamp: no node changed since HEAD, or all are stamped already.\n');
    const second = await snapshotTree(path.join(dir, 'metadata'));
    expectSameFiles(second, first);
  });

  test('a change of timestamps or children alone is not a change of a node', async () => {
    const dir = await repo();
    await edit(
      dir,
      GROUP,
      (t) => t + '      - id: 2003\n        name: ZERR\n        created: 2026-01-01T00:00:00Z\n        updated: 2026-01-01T00:00:00Z\n',
    );
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const result = await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    expect(result.stdout).toBe(
      `${GROUP}: new catalogue column "ZERR" (id 2003) has its created and updated already\n` +
        'Nothing to stamp: the new nodes above have their timestamps already, and no other node changed since HEAD.\n',
    );
    expectSameFiles(await snapshotTree(path.join(dir, 'metadata')), before);
  });

  // Stamping after adding a whole file said "Nothing to stamp: no node changed", as if the new file
  // had not been seen.
  test("a new file: its items are named as taking the file's timestamps", async () => {
    const dir = await repo();
    const file = 'metadata/alpha/dr1/catalogues/Photometry.yaml';
    await writeFile(
      path.join(dir, file),
      'id: 30\nname: Photometry\ncreated: 2026-11-20T00:00:00Z\nupdated: 2026-11-20T00:00:00Z\ntables:\n  - id: 300\n    name: Mags\n    columns:\n      - id: 3000\n        name: MAG_R\n      - id: 3001\n        name: MAG_G\n',
    );
    const result = await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    expect(result).toEqual({
      code: 0,
      stderr: '',
      stdout:
        `${file}: new catalogue group "Photometry" (id 30) has its created and updated already; the 3 new nodes inside it take its timestamps\n` +
        'Nothing to stamp: the new nodes above have their timestamps already, and no other node changed since HEAD.\n',
    });
    expect((await cli(['check'], dir)).code).toBe(0);
  });

  test('refuses a file with merge-conflict markers and changes nothing', async () => {
    const dir = await repo();
    await edit(dir, GROUP, (t) =>
      t.replace('description: Unique ID', '<<<<<<< HEAD\n        description: Unique ID\n=======\n        description: ID\n>>>>>>> other'),
    );
    const before = await snapshotTree(path.join(dir, 'metadata'));
    const result = await cli(['stamp', '--now', '2026-11-22T06:00:00Z'], dir);
    expect(result.code).toBe(1);
    // Named as the conflict it is, not as broken YAML.
    expect(result.stderr).toMatch(
      /SpecCat\.yaml:\d+:1 has merge-conflict markers \((<{7}|={7}|>{7})\) left by an unfinished merge; resolve the conflict/,
    );
    const after = await snapshotTree(path.join(dir, 'metadata'));
    expectSameFiles(after, before);
  });
});
