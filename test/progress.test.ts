// Long work shows progress on a terminal, one line updated in place and cleared at the end, and
// stays quiet (nothing but the result) when piped or in CI. The benchmark prints its table.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT, cli, tempdir, testdir } from './helpers.ts';

test('on a terminal, build shows files read and outputs written, then clears the line', async () => {
  const dir = await testdir();
  const result = await cli(['build', '--no-cache'], dir, {}, true);
  expect(result.code).toBe(0);
  const updates = result.stderr.split('\r\x1b[2K').filter(Boolean);
  expect(updates).toContain('10/10 files read and checked');
  expect(updates).toContain('46/46 outputs written');
  // The last thing written to the terminal clears the progress line.
  expect(result.stderr.endsWith('\r\x1b[2K')).toBe(true);
  expect(result.stdout).toMatch(/^Built 46 files/);
});

test('piped or in CI, there is no progress, only the result', async () => {
  const dir = await testdir();
  const result = await cli(['build', '--no-cache'], dir, {}, false);
  expect(result.stderr).toBe('');
  expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
});

test('npm run bench prints the table of steps against the floor, and the largest outputs', async () => {
  const dir = await tempdir();
  const run = spawnSync(process.execPath, [path.join(PROJECT, 'bench/lib/run.js'), '--size', 'S', '--runs', '1', '--dir', dir], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const rows = run.stdout.split('\n').filter((l) => l.startsWith('| '));
  expect(rows.map((r) => r.split(' | ')[0])).toEqual([
    '| step',
    '| floor (read + js-yaml + one JSON.stringify + write, one thread)',
    '| check (no cache)',
    '| cold build (empty cache, no previous output)',
    expect.stringMatching(/^\| warm build after editing one catalogue group \(.+\.yaml\)$/),
    expect.stringMatching(/^\| warm build after editing one imaging facility \(.+\.yaml\)$/),
    '| warm build after editing the catalogue group again',
    '| file',
    expect.stringMatching(/^\| api\/schema\//),
    expect.stringMatching(/^\| api\/schema\//),
    expect.stringMatching(/^\| api\/schema\//),
    expect.stringMatching(/^\| api\/schema\//),
    expect.stringMatching(/^\| api\/schema\//),
  ]);
  expect(run.stdout).toMatch(/\| floor [^\n]*\| [\d.]+ s \| 1\.00 \| [\d.]+ \| \d+ MB \|/);
  expect(run.stdout).toMatch(/Warm build after the catalogue edit: \d+% of the cold build\./);
  expect(run.stdout).toMatch(/Warm build after the second catalogue edit: \d+% of the cold build\./);
}, 120_000);
