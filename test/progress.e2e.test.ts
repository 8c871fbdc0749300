// Long work shows progress on a terminal, one line updated in place and cleared at the end, and
// stays quiet (only the result) when piped or in CI. The benchmark prints its table, leaving no temp folder.

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT, cli, tempdir, testdir, outputCount } from './helpers.ts';

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

const BENCH = path.join(PROJECT, 'bench/lib/run.js');

/** Runs the benchmark on size XS, once, with extra arguments and environment. */
function bench(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [BENCH, '--size', 'XS', '--runs', '1', ...args], { encoding: 'utf8', env });
}

/** The rows of the benchmark's Markdown tables, each as its cells. */
function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) => line.slice(2, -2).split(' | '));
}

test('npm run bench prints each step against its floor, the warm builds against the cold one, and the largest outputs', async () => {
  // Without --dir, in a folder of its own under TMPDIR, removed at the end. (One run of the
  // benchmark costs seconds; --dir's folder, kept for the next run, is the same code's other branch.)
  const tmp = await tempdir();
  const run = bench([], { ...process.env, TMPDIR: tmp });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(`archive in ${path.join(tmp, 'archive-schema-bench-')}`);
  expect(readdirSync(tmp)).toEqual([]);
  expect(run.stdout).toMatch(
    /^Size XS: 1,000 columns, 10 regions, \d+ IFS and \d+ spectra products, [\d.]+ MB of YAML; 1 run on \d+ cores\..*median of a step's ratios to the floor measured right before it\.$/m,
  );
  const [header, ...rest] = tableRows(run.stdout);
  expect(header).toEqual(['step', 'wall', 'ratio to floor', 'YAML MB/s', 'peak RSS']);
  const steps = rest.slice(
    0,
    rest.findIndex((cells) => cells[0] === 'file'),
  );
  expect(steps.map((cells) => cells[0])).toEqual([
    'floor (read + js-yaml + one JSON.stringify + write, one thread)',
    'check (no cache)',
    'cold build without the cache (--no-cache, no previous output)',
    "cold build with an empty cache (a curator's first build, no previous output)",
    expect.stringMatching(/^warm build after editing one catalogue group \(.+\/catalogues\/.+\.yaml\)$/),
    expect.stringMatching(/^warm build after editing one imaging facility \(.+\/imaging\/.+\.yaml\)$/),
    'warm build after editing the catalogue group again',
  ]);
  for (const [, wall, ratio, throughput, rss] of steps) {
    expect(Number(/^([\d.]+) s$/.exec(wall ?? '')?.[1])).toBeGreaterThan(0);
    expect(Number(ratio)).toBeGreaterThan(0);
    expect(Number(throughput)).toBeGreaterThan(0);
    expect(Number(/^(\d+) MB$/.exec(rss ?? '')?.[1])).toBeGreaterThan(0);
  }
  // The floor is the unit of the ratios.
  expect(steps[0]?.[2]).toBe('1.00');
  for (const edit of ['the catalogue edit', 'the imaging edit', 'the second catalogue edit']) {
    const percent = new RegExp(`^Warm build after ${edit}: (\\d+\\.\\d)% of the cold build with an empty cache\\.$`, 'm').exec(
      run.stdout,
    )?.[1];
    expect(Number(percent), edit).toBeGreaterThan(0);
  }
  const files = rest.slice(steps.length + 1);
  expect(files).toHaveLength(5);
  for (const [file, size] of files) {
    expect(file).toMatch(/^(api\/schema|download)\//);
    expect(size).toMatch(/^[\d.]+ MB$/);
  }
}, 120_000);
