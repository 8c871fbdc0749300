// A rebuild after one edit deflates again only the zip members whose files changed: the others are
// copied from the last build's zip, where its record says they are. Counted by watching the
// deflating function (so this file replaces a module, and runs in the 'mocking' project).

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { expect, test, vi } from 'vitest';
import { isBrowserFile } from '../src/site/routes.ts';
import { edit, snapshotTree, testdir } from './helpers.ts';

const deflated = vi.hoisted(() => ({ count: 0 }));

vi.mock('../src/outputs/browser-zip/zip.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/outputs/browser-zip/zip.ts')>();
  return {
    ...real,
    deflateMemberAsync: (...args: Parameters<typeof real.deflateMemberAsync>) => {
      deflated.count++;
      return real.deflateMemberAsync(...args);
    },
  };
});

/**
 * The command, in this process, loaded afresh: the setup file loaded it before the mock was in
 * place, with the real module.
 */
async function cli(argv: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  vi.resetModules();
  const { run } = await import('../src/cli.ts');
  let stderr = '';
  const code = await run(argv, { stdout: () => undefined, stderr: (t) => (stderr += t), env: {}, cwd, progress: false });
  return { code, stderr };
}

async function browserFiles(dist: string): Promise<Map<string, Buffer>> {
  return new Map([...(await snapshotTree(dist))].filter(([file]) => isBrowserFile(file.split(path.sep).join('/'))));
}

test('a rebuild after one edit deflates again only the members whose files changed; the zip is a cold build’s', async () => {
  const project = await testdir();
  expect((await cli(['build'], project)).code).toBe(0);
  const before = await browserFiles(path.join(project, 'dist'));
  expect(deflated.count).toBe(before.size);

  await edit(project, 'metadata/alpha/dr1/catalogues/SpecCat.yaml', (t) => t.replace('Unique ID', 'Unique GAMA ID'));
  deflated.count = 0;
  expect((await cli(['build'], project)).code).toBe(0);
  const after = await browserFiles(path.join(project, 'dist'));
  const changed = [...after].filter(([file, bytes]) => !before.get(file)?.equals(bytes));
  expect(changed.length).toBeGreaterThan(0);
  expect(changed.length).toBeLessThan(after.size / 2);
  expect(deflated.count).toBe(changed.length);

  // Nothing changed: the zip is kept whole, nothing deflated.
  deflated.count = 0;
  expect((await cli(['build'], project)).code).toBe(0);
  expect(deflated.count).toBe(0);

  expect((await cli(['build', '--no-cache', '--out', 'cold'], project)).code).toBe(0);
  const zip = await readFile(path.join(project, 'dist/download/browser.zip'));
  expect(zip.equals(await readFile(path.join(project, 'cold/download/browser.zip')))).toBe(true);
});
