// Long work shows progress on a terminal, one line updated in place and cleared at the end, and
// stays quiet (only the result) when piped or in CI.

import path from 'node:path';
import { expect, test } from 'vitest';
import { cli, testdir, outputCount } from './helpers.ts';

test('on a terminal, build shows files read and outputs written, then clears the line', async () => {
  const dir = await testdir();
  const result = await cli(['build', '--no-cache'], dir, {}, true);
  expect(result.code).toBe(0);
  const updates = result.stderr.split('\r\x1b[2K').filter(Boolean);
  expect(updates).toContain('10/10 files read and checked');
  const files = await outputCount(path.join(dir, 'dist'));
  expect(updates).toContain(`${files}/${files} outputs written`);
  // The last thing written to the terminal clears the progress line.
  expect(result.stderr.endsWith('\r\x1b[2K')).toBe(true);
  expect(result.stdout).toMatch(new RegExp(`^Built ${files} files`));
});

test('piped or in CI, there is no progress, only the result', async () => {
  const dir = await testdir();
  const result = await cli(['build', '--no-cache'], dir, {}, false);
  expect(result.stderr).toBe('');
  expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
});
