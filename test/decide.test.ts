// What a build decides to do with each file of its output, and why, without a disk: plans and the
// previous output's record and files are given as data (src/destination/decide.ts).

import { describe, expect, test } from 'vitest';
import { decide } from '../src/destination/decide.ts';
import type { BuildInputs, Step } from '../src/destination/decide.ts';
import type { FileRecord, FileStat, Manifest, PreviousOutput } from '../src/destination/state.ts';
import { planOf } from '../src/site/plan.ts';
import type { BytesPiece, Plan } from '../src/site/plan.ts';

/** A piece rendered from a metadata file, whose key says which version of it. */
const from = (source: string, version = 1): BytesPiece => ({
  bytes: Buffer.from(`${source} v${version}`),
  key: `${source}@${version}`,
  shift: 0,
  breaks: 0,
  source,
});

const GROUP = 'gama/dr4/catalogues/StellarMasses.yaml';
const OTHER = 'gama/dr4/catalogues/SpecCat.yaml';
const SURVEY = 'gama/survey.yaml';

const NOW: BuildInputs = { fingerprint: 'code-1', baseUrl: 'https://example.org', files: { [GROUP]: 'g1', [OTHER]: 'o1', [SURVEY]: 's1' } };
const name = (relative: string) => `the file ${relative}`;

/** The previous output: a record made from `plans` and `inputs`, and its files as the record says unless `present` overrides. */
function previousOf(plans: readonly Plan[], inputs: BuildInputs = NOW, present: Record<string, FileStat | null> = {}): PreviousOutput {
  const files: Record<string, FileRecord> = Object.fromEntries(
    plans.map((plan) => [plan.path, { key: plan.key, size: plan.size, mtimeMs: 1000 }]),
  );
  const manifest: Manifest = { build: 'b1', fingerprint: inputs.fingerprint, baseUrl: inputs.baseUrl, inputs: inputs.files, files };
  const found = new Map(Object.entries(files).map(([file, record]) => [file, { size: record.size, mtimeMs: record.mtimeMs }]));
  for (const [file, stat] of Object.entries(present)) {
    if (stat === null) found.delete(file);
    else found.set(file, stat);
  }
  return { dir: '/previous', present: found, manifest };
}

/** Each step as `action path: reason`. */
const shown = (steps: readonly Step[]) => steps.map((step) => `${step.action} ${step.path}: ${step.reason}`);

const listing = (version = 1) => planOf('api/list.json', ['[', from(GROUP, version), ',', from(OTHER), ']']);
const page = (version = 1) => planOf('browse/StellarMasses.html', ['<p>', from(GROUP, version)]);
const fixed = planOf('api/options.json', ['{}']);

describe('deciding each file of the output', () => {
  test.each<[string, () => { plans: Plan[]; previous?: PreviousOutput; inputs?: BuildInputs }, string[]]>([
    [
      'no previous output: every file written, a second of the same bytes linked to the first',
      () => ({ plans: [listing(), fixed, planOf('api/copy.json', ['{}'])] }),
      [
        'write api/list.json: no previous output',
        'write api/options.json: no previous output',
        'link api/copy.json: same bytes as api/options.json',
      ],
    ],
    [
      'nothing changed: every file kept',
      () => ({ plans: [listing(), fixed], previous: previousOf([listing(), fixed]) }),
      ['keep api/list.json: unchanged since the last build', 'keep api/options.json: unchanged since the last build'],
    ],
    [
      'an edited group: the files made of its text written, naming it; the others kept',
      () => ({
        plans: [listing(2), page(2), fixed],
        previous: previousOf([listing(), page(), fixed]),
        inputs: { ...NOW, files: { ...NOW.files, [GROUP]: 'g2' } },
      }),
      [
        `write api/list.json: the file ${GROUP} changed`,
        `write browse/StellarMasses.html: the file ${GROUP} changed`,
        'keep api/options.json: unchanged since the last build',
      ],
    ],
    [
      'a new file, and a file no longer built',
      () => ({ plans: [fixed, page()], previous: previousOf([fixed, listing()]) }),
      [
        'keep api/options.json: unchanged since the last build',
        'write browse/StellarMasses.html: new file',
        'remove api/list.json: no longer built',
      ],
    ],
    [
      'the code changed: files whose bytes changed say so, files whose bytes did not are kept',
      () => ({ plans: [listing(2), fixed], previous: previousOf([listing(), fixed]), inputs: { ...NOW, fingerprint: 'code-2' } }),
      ['write api/list.json: code changed (the program, its schemas or Node.js)', 'keep api/options.json: unchanged since the last build'],
    ],
    [
      'another base URL',
      () => ({ plans: [listing(2)], previous: previousOf([listing()]), inputs: { ...NOW, baseUrl: 'https://other.example' } }),
      ['write api/list.json: base URL changed from https://example.org to https://other.example'],
    ],
    [
      'a text that changed with no rendered piece changed names what changed since the last build',
      () => ({
        plans: [planOf('api/list.json', ['surveys v2'])],
        previous: previousOf([planOf('api/list.json', ['surveys v1'])]),
        inputs: { ...NOW, files: { ...NOW.files, [SURVEY]: 's2' } },
      }),
      [`write api/list.json: its text changed (since the last build: the file ${SURVEY} changed)`],
    ],
    [
      'a file edited in the previous output since it was written is not kept',
      () => ({
        plans: [listing(), fixed],
        previous: previousOf([listing(), fixed], NOW, { 'api/list.json': { size: listing().size, mtimeMs: 2000 } }),
      }),
      ['write api/list.json: changed in the previous output since it was written', 'keep api/options.json: unchanged since the last build'],
    ],
    [
      'a file of another size than recorded is not kept',
      () => ({ plans: [fixed], previous: previousOf([fixed], NOW, { 'api/options.json': { size: 3, mtimeMs: 1000 } }) }),
      ['write api/options.json: changed in the previous output since it was written'],
    ],
    [
      'a file gone from the previous output is written',
      () => ({ plans: [fixed], previous: previousOf([fixed], NOW, { 'api/options.json': null }) }),
      ['write api/options.json: missing from the previous output'],
    ],
    [
      'the same bytes at another path of the previous output are linked from there',
      () => ({ plans: [planOf('api/moved.json', ['{}'])], previous: previousOf([fixed]) }),
      ['link api/moved.json: same bytes as api/options.json in the previous output', 'remove api/options.json: no longer built'],
    ],
    [
      'a previous output without a record: nothing is kept, and what is there but not planned is removed',
      () => ({
        plans: [fixed],
        previous: {
          dir: '/previous',
          present: new Map([
            ['api/options.json', { size: 2, mtimeMs: 1 }],
            ['old.html', { size: 1, mtimeMs: 1 }],
          ]),
          unrecorded: 'no record of the previous output',
        },
      }),
      ['write api/options.json: no record of the previous output', 'remove old.html: no longer built'],
    ],
  ])('%s', (_title, make, expected) => {
    const { plans, previous, inputs = NOW } = make();
    expect(shown(decide(plans, previous, inputs, name).steps)).toEqual(expected);
  });

  test('many changed files are named two at a time, with a count of the rest', () => {
    const sources = ['a.yaml', 'b.yaml', 'c.yaml', 'd.yaml'];
    const before = planOf(
      'all.json',
      sources.map((s) => from(s, 1)),
    );
    const after = planOf(
      'all.json',
      sources.map((s) => from(s, 2)),
    );
    const inputs = { ...NOW, files: Object.fromEntries(sources.map((s) => [s, 'v2'])) };
    const previous = previousOf([before], { ...NOW, files: Object.fromEntries(sources.map((s) => [s, 'v1'])) });
    expect(shown(decide([after], previous, inputs, (s) => s).steps)).toEqual(['write all.json: a.yaml changed, b.yaml changed and 2 more']);
  });

  test('a link to a file this build writes names the first file of those bytes, which it follows', () => {
    const { steps } = decide([fixed, planOf('b.json', ['{}']), planOf('c.json', ['{}'])], undefined, NOW, name);
    expect(steps.map((step) => (step.action === 'link' ? [step.path, step.from, step.fromPrevious] : [step.path, step.action]))).toEqual([
      ['api/options.json', 'write'],
      ['b.json', 'api/options.json', false],
      ['c.json', 'api/options.json', false],
    ]);
  });
});
