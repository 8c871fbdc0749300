// The pull-request workflow: it runs on changes to metadata/ or schemas/, and the commands it runs
// work as written, in a repository laid out as actions/checkout leaves it.

import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { expect, test } from 'vitest';
import { PROJECT, cli, gitdir } from './helpers.ts';

const workflow = parse(readFileSync(path.join(PROJECT, '.github/workflows/metadata.yml'), 'utf8')) as {
  on: { pull_request: { paths: string[] } };
  jobs: { check: { steps: { run?: string; uses?: string; with?: Record<string, unknown> }[] } };
};
const steps = workflow.jobs.check.steps;
const commands = steps.flatMap((s) => (s.run?.startsWith('node bin/archive-schema.js ') ? [s.run] : []));

test('runs on pull requests that touch the metadata or its schemas, with the base branch fetched', () => {
  expect(workflow.on.pull_request.paths).toEqual(['metadata/**', 'schemas/**', 'changes/**']);
  expect(steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with).toEqual({ 'fetch-depth': 0 });
  expect(steps.map((s) => s.run).filter(Boolean)).toEqual(['npm ci', ...commands]);
  expect(commands.map((c) => c.split(' ')[2])).toEqual(['check', 'fmt', 'diff']);
});

/** The arguments of a step's command, with the base branch GitHub would substitute. */
const argv = (command: string) =>
  command
    .replace('node bin/archive-schema.js ', '')
    .replaceAll('${{ github.base_ref }}', 'main')
    .split(' ')
    .map((a) => a.replace(/^"(.*)"$/, '$1'));

test('its commands pass on an unchanged pull request and annotate a broken one', async () => {
  const { dir, git } = await gitdir();
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  const [, , diffCommand = ''] = commands;
  for (const command of commands.filter((c) => c !== diffCommand))
    expect(await cli(argv(command), dir), command).toEqual({ code: 0, stdout: '', stderr: '' });
  // The summary goes to the log, and in Actions to the run's page.
  const summary = path.join(dir, 'summary.md');
  const diff = await cli(argv(diffCommand), dir, { GITHUB_STEP_SUMMARY: summary });
  expect(diff).toEqual({
    code: 0,
    stdout: expect.stringMatching(/^Metadata changes from origin\/main \([0-9a-f]{7}\) to the working tree: no changes\.\n$/) as unknown,
    stderr: '',
  });
  expect(await readFile(summary, 'utf8')).toContain('### Metadata changes');

  await writeFile(
    path.join(dir, 'metadata/gamma/survey.yaml'),
    "id: 3\nname: gamma\npretty_name: G\ntitle: G\ndescription: ''\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://g.example.org/\nactive: maybe\n",
  );
  const [checkCommand = ''] = commands;
  const result = await cli(argv(checkCommand), dir);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe(
    '::error title=schema/type,file=metadata/gamma/survey.yaml,line=9,col=9::active must be true or false, found the string "maybe"\n',
  );
});
