// The walls between src/'s folders hold: dependency-cruiser, with the project's own rules
// (.dependency-cruiser.cjs, which `npm run lint` runs over src/), refuses each import in a forbidden
// direction and each import circle of a small project made to break them, naming the rule.

import { spawnSync } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT, tempdir } from './helpers.ts';

const DEPCRUISE = path.join(PROJECT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Files of a project, each breaking one rule (or, for the targets, none), with the rule it breaks. */
const CASES: [file: string, text: string, rule: string | undefined][] = [
  ['src/build.ts', 'export const build = 1;\n', undefined],
  ['src/outputs/planner.ts', 'export const planned = 1;\n', undefined],
  ['src/destination/write.ts', 'export const written = 1;\n', undefined],
  ['src/site/shared.ts', "import { planned } from '../outputs/planner.ts';\nexport const x = planned;\n", 'layer-site'],
  ['src/pipeline/stage.ts', "import { planned } from '../outputs/planner.ts';\nexport const x = planned;\n", 'layer-pipeline'],
  ['src/outputs/writes.ts', "import { written } from '../destination/write.ts';\nexport const x = written;\n", 'layer-outputs'],
  ['src/destination/plans.ts', "import { planned } from '../outputs/planner.ts';\nexport const x = planned;\n", 'layer-destination'],
  ['src/kinds/built.ts', "import { build } from '../build.ts';\nexport const x = build;\n", 'orchestrator-imported'],
  [
    'src/outputs/browser/client/reads.ts',
    "import { planned } from '../../planner.ts';\nexport const x = planned;\n",
    'client-imports-node',
  ],
  ['src/outputs/browser/client/own.ts', "import { x } from './reads.ts';\nexport const own = x;\n", undefined],
  ['src/outputs/browser/runs.ts', "import { own } from './client/own.ts';\nexport const x = own;\n", 'client-imported'],
  // A circle is reported once, from either end.
  ['src/outputs/a.ts', "import { b } from './b.ts';\nexport const a = (): unknown => b;\n", 'no-circular'],
  ['src/outputs/b.ts', "import { a } from './a.ts';\nexport const b = (): unknown => a;\n", 'no-circular'],
];
const CIRCLE = /error no-circular: src\/outputs\/(a|b)\.ts/;

test('a project made to break every rule fails on each broken rule, naming the file', async () => {
  const dir = await tempdir();
  for (const name of ['.dependency-cruiser.cjs', 'tsconfig.json']) await cp(path.join(PROJECT, name), path.join(dir, name));
  for (const [file, text] of CASES) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const output = run.stdout + run.stderr;
  expect(run.status).not.toBe(0);
  for (const [file, , rule] of CASES) {
    if (rule === 'no-circular') expect(output, file).toMatch(CIRCLE);
    else if (rule) expect(output, file).toContain(`error ${rule}: ${file}`);
    else expect(output, file).not.toMatch(new RegExp(`error [\\w-]+: ${file}`));
  }
});
