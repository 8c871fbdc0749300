// `new`: a file scaffolded in its place, with the next free id, the time, the parent's contact
// and the schema comment; what only a person knows is listed as to-do, and nothing is overwritten.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, testdir } from './helpers.ts';

const NOW = ['--now', '2026-11-22T06:00:00Z'];

describe('new', () => {
  test('a release in an existing survey: numbered from its name, contact from the survey', async () => {
    const dir = await testdir();
    const result = await cli(['new', 'release', 'alpha/dr3', ...NOW], dir);
    expect(result).toEqual({ code: 0, stderr: '', stdout: 'Created metadata/alpha/dr3/release.yaml.\n' });
    expect(await readFile(path.join(dir, 'metadata/alpha/dr3/release.yaml'), 'utf8')).toBe(
      '# yaml-language-server: $schema=../../../schemas/release.schema.json\n' +
        'name: dr3\npretty_name: Data Release 3\nversion: 3\ndata_release_number: 3\n' +
        'contact: {name: Alpha Team, email: alpha-team@example.org}\n' +
        'created: 2026-11-22T06:00:00Z\nupdated: 2026-11-22T06:00:00Z\n',
    );
    expect((await cli(['check'], dir)).code).toBe(0);
  });

  test('a catalogue group and an imaging facility get the next free ids of their kinds', async () => {
    const dir = await testdir();
    await cli(['new', 'release', 'alpha/dr3', ...NOW], dir);
    const group = await cli(['new', 'group', 'alpha/dr3/PhotCat', '--description', 'Aperture photometry', '--version', 'v01', ...NOW], dir);
    expect(group.stdout).toBe('Created metadata/alpha/dr3/catalogues/PhotCat.yaml with id 22.\n');
    const facility = await cli(['new', 'facility', 'alpha/dr3/VISTA', '--pretty-name', 'VISTA (VIRCAM)', ...NOW], dir);
    expect(facility.stdout).toBe('Created metadata/alpha/dr3/imaging/VISTA.yaml with id 32.\n');
    expect(await readFile(path.join(dir, 'metadata/alpha/dr3/catalogues/PhotCat.yaml'), 'utf8')).toBe(
      '# yaml-language-server: $schema=../../../../schemas/catalogue-group.schema.json\n' +
        'id: 22\nname: PhotCat\ndescription: Aperture photometry\nversion: v01\n' +
        'created: 2026-11-22T06:00:00Z\nupdated: 2026-11-22T06:00:00Z\n' +
        'contact: {name: Alpha Team, email: alpha-team@example.org}\ntables: []\n',
    );
    expect((await cli(['check'], dir)).code).toBe(0);
    expect((await cli(['fmt', '--check'], dir)).code).toBe(0);
  });

  test('a survey lists what only a person can fill in', async () => {
    const dir = await testdir();
    const result = await cli(
      ['new', 'survey', 'delta', '--title', 'Delta Survey', '--contact', 'Delta Team <delta-team@example.org>', ...NOW],
      dir,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Created metadata/delta/survey.yaml with id 8.\n');
    expect(result.stdout).toContain('metadata/delta/survey.yaml:7:5  error  pi must not be empty');
    expect(result.stdout).toContain('website must be an absolute address');
    expect(result.stdout).toMatch(/Fill these in, then run `npm run check`\.\n$/);
    expect(await readFile(path.join(dir, 'metadata/delta/survey.yaml'), 'utf8')).toContain(
      'contact: {name: Delta Team, email: delta-team@example.org}\n',
    );
  });

  test.each([
    [
      ['new', 'group', 'alpha/dr9/X'],
      'archive-schema: there is no release alpha/dr9; create it first with: archive-schema new release alpha/dr9\n',
    ],
    [['new', 'release', 'alpha/dr1'], 'archive-schema: metadata/alpha/dr1/release.yaml already exists; edit it instead\n'],
    [
      ['new', 'facility', 'alpha/dr2/Bad.Name'],
      `archive-schema: metadata/alpha/dr2/imaging/Bad.Name.yaml: name must be letters, digits, '_' or '-', starting with a letter or digit (it is also the file name and part of band_key), found the string "Bad.Name"; nothing was written\n`,
    ],
    [['new', 'release', 'alpha'], 'archive-schema: new release takes SURVEY/RELEASE, for example gama/dr5; got "alpha"\n'],
  ])('refuses %j', async (argv, message) => {
    const dir = await testdir();
    const result = await cli([...argv, ...NOW], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(message);
  });
});
