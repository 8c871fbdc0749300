// The build benchmark's comparison of two versions' outputs (bench/run.ts, differences): the same
// output is the same but for the marker's build id and the zip's bytes when its members are the
// same; any other file that differs is named.

import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from 'vitest';
import { differences } from '../bench/run.ts';
import { zipWhole } from '../src/outputs/browser-zip/zip.ts';
import { isBrowserFile } from '../src/site/routes.ts';
import { cli, snapshotTree, tempdir, testdir } from './helpers.ts';

test('two builds of the same metadata differ in nothing; a changed file, and a zip of other members, are named', async () => {
  const dir = await testdir();
  expect((await cli(['build', '--no-cache', '--out', 'one'], dir)).code).toBe(0);
  expect((await cli(['build', '--no-cache', '--out', 'two'], dir)).code).toBe(0);
  const [one, two] = [path.join(dir, 'one'), path.join(dir, 'two')];
  expect(differences(one, two)).toEqual([]);

  // The same members deflated another way: not a difference (the zip's own lines in the checksum
  // list and on the page are not compared); a zip of other members is named.
  const copy = path.join(await tempdir(), 'copy');
  await cp(two, copy, { recursive: true, dereference: true });
  const browserFiles = [...(await snapshotTree(copy))].filter(([file]) => isBrowserFile(file.split(path.sep).join('/')));
  const zip = path.join(copy, 'download/browser.zip');
  await writeFile(zip, zipWhole(new Map(browserFiles.map(([file, bytes]) => [file.split(path.sep).join('/'), new Uint8Array(bytes)])), 1));
  expect(differences(one, copy)).toEqual([]);
  await writeFile(
    zip,
    zipWhole(new Map(browserFiles.slice(1).map(([file, bytes]) => [file.split(path.sep).join('/'), new Uint8Array(bytes)])), 1),
  );
  expect(differences(one, copy)).toEqual(['download/browser.zip: its members differ']);

  // A file of the API changed: named.
  const again = path.join(await tempdir(), 'again');
  await cp(two, again, { recursive: true, dereference: true });
  await writeFile(path.join(again, 'api/schema/1/index.json'), '{}');
  expect(differences(one, again)).toEqual(['api/schema/1/index.json: differs']);
});
