// A short run of the fuzzing properties (bench/fuzz.ts); `npm run fuzz` runs them long. The seed is
// printed here and in any failure with the path to replay it:
// FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz.test.ts -t <property>:, or the script's
// --property, --seed and --path.

import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  hostileProperty,
  namesProperty,
  outputProperty,
  parsersProperty,
  readSamples,
  runProperty,
  verdictsProperty,
} from '../bench/fuzz.ts';
import type { RunOptions, Subject } from '../bench/fuzz.ts';
import { MARKER } from '../src/destination/output.ts';
import { parseFile, parseFileFast } from '../src/pipeline/parse.ts';
import { FIXTURE, cli } from './helpers.ts';

const subject: Subject = { parseFile, parseFileFast, cli: (argv, cwd) => cli(argv, cwd), marker: MARKER };

// A fixed seed, so that the suite is steady: the same cases every run, and a failure is a change in
// the code. New cases come from the long run (`npm run fuzz`), which draws a fresh seed each time.
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261124;
const replayPath = process.env.FUZZ_PATH;
console.log(`fuzz seed ${seed} (replay with FUZZ_SEED=${seed})`);

// yaml warns on stderr of every key that is a collection (`[a]: b`), which the generator writes often.
const warnings = process.listeners('warning');
beforeAll(() => {
  process.removeAllListeners('warning');
});
afterAll(() => {
  for (const listener of warnings) process.on('warning', listener);
});

/**
 * A short run of each property, a few seconds each on a quiet 2-core machine: the suite's share is
 * to keep the properties working, `npm run fuzz` to search (as many runs as it is asked for, from a
 * new seed each time). Every run is made, however long a loaded machine takes: the same cases each
 * time. A failure is reported as found, not shrunk; its replay line shrinks it.
 */
const RUNS = { parsers: 300, verdicts: 8, output: 20, hostile: 6, names: 10 };

const options = (property: keyof typeof RUNS): RunOptions => ({
  numRuns: RUNS[property],
  seed,
  ...(replayPath ? { path: replayPath } : { endOnFailure: true }),
});

test('parsers: the fast and the position-keeping YAML parsers read every text alike', async () => {
  const samples = await readSamples(FIXTURE);
  await runProperty('parsers', parsersProperty(subject, samples), options('parsers'));
}, 120_000);

test('verdicts: check, build and build --reference never crash, and agree on every tree', async () => {
  await runProperty('verdicts', verdictsProperty(subject), options('verdicts'));
}, 120_000);

test('output: a successful build gives the reference bytes, cached and after an edit too', async () => {
  const stats = { runs: 0, built: 0 };
  await runProperty('output', outputProperty(subject, stats), options('output'));
  // The generator's valid trees must mostly be valid, or this property tests nothing.
  if (!replayPath) expect(stats.built, `${stats.built} of ${stats.runs} generated archives built`).toBeGreaterThan(stats.runs / 2);
}, 120_000);

test('hostile: aliases, keys, nesting, duplicate keys and problems by the thousand are read within the limits, located and listed a hundred of a kind', async () => {
  await runProperty('hostile', hostileProperty(subject), options('hostile'));
}, 120_000);

test('names: whatever the file names, check and fmt report the undecodable ones and print nothing a terminal or CI log acts on', async () => {
  await runProperty('names', namesProperty(subject), options('names'));
}, 120_000);
