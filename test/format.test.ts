// `fmt`: one canonical form for every metadata file, comments kept, data unchanged, idempotent;
// `fmt --check` for pull requests; files with conflicts or broken YAML are never touched.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { PROJECT, cli, testdir } from './helpers.ts';

const MESSY = `# yaml-language-server: $schema=../../../../schemas/catalogue-group.schema.json
# The spectroscopic DMU.
tables:
- columns:
  - {unit: "deg", name: "RA", id: 2010, ucd: 'pos.eq.ra'}   # kept
  - name: DEC
    id: 2011
    unit: '-'
    ucd: "pos.eq.dec"
  name: "TilingCat"
  id: 201
updated: "2018-01-01T00:00:00Z"
contact:
    email: alpha-team@example.org
    name: Alpha Team
name: InputCat
created: 2018-01-01T00:00:00Z    # first release
id: 21
version: '3'
`;

const CANONICAL = `# yaml-language-server: $schema=../../../../schemas/catalogue-group.schema.json
# The spectroscopic DMU.
id: 21
name: InputCat
version: '3'
created: 2018-01-01T00:00:00Z # first release
updated: 2018-01-01T00:00:00Z
contact: {name: Alpha Team, email: alpha-team@example.org}
tables:
  - id: 201
    name: TilingCat
    columns:
      - id: 2010
        name: RA
        ucd: pos.eq.ra
        unit: deg
        # kept
      - id: 2011
        name: DEC
        ucd: pos.eq.dec
        unit: '-'
`;

const FILE = 'metadata/alpha/dr2/catalogues/InputCat.yaml';

describe('fmt', () => {
  test('puts a file in canonical form, keeping its comments and its data', async () => {
    const dir = await testdir({ 'alpha/dr2/catalogues/InputCat.yaml': MESSY });
    const result = await cli(['fmt'], dir);
    expect(result).toEqual({ code: 0, stdout: `${FILE} reformatted\n1 file reformatted, 9 already canonical.\n`, stderr: '' });
    const text = await readFile(path.join(dir, FILE), 'utf8');
    expect(text).toBe(CANONICAL);
    expect(parse(text)).toEqual(parse(MESSY));
  });

  test('changes nothing the second time', async () => {
    const dir = await testdir({ 'alpha/dr2/catalogues/InputCat.yaml': MESSY });
    await cli(['fmt'], dir);
    const first = await readFile(path.join(dir, FILE), 'utf8');
    expect(await cli(['fmt'], dir)).toEqual({ code: 0, stdout: '0 files reformatted, 10 already canonical.\n', stderr: '' });
    expect(await readFile(path.join(dir, FILE), 'utf8')).toBe(first);
  });

  test('--check lists what it would change, changes nothing and exits 1', async () => {
    const dir = await testdir({ 'alpha/dr2/catalogues/InputCat.yaml': MESSY });
    const result = await cli(['fmt', '--check'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${FILE} would be reformatted\n1 file would be reformatted, 9 already canonical.\n`);
    expect(await readFile(path.join(dir, FILE), 'utf8')).toBe(MESSY);
    const github = await cli(['fmt', '--check', '--format', 'github'], dir);
    expect(github.stdout).toBe(
      `::error title=fmt/not-canonical,file=${FILE}::is not in canonical form; run \`npm run fmt\` and commit the result\n`,
    );
  });

  test.each([
    [
      'merge-conflict markers',
      `id: 21\n<<<<<<< HEAD\nname: InputCat\n=======\nname: InputCats\n>>>>>>> other\n`,
      `${FILE}:2:1  error  has merge-conflict markers (<<<<<<<) left by an unfinished merge; resolve the conflict, keep the lines you mean, and remove the markers; nothing was changed  [fmt/refused]`,
    ],
    ['broken YAML', `id: 21\nname: [InputCat\n`, `${FILE}:3:1  error  is not valid YAML (`],
  ])('never touches a file with %s', async (_what, text, message) => {
    const dir = await testdir({ 'alpha/dr2/catalogues/InputCat.yaml': text });
    const result = await cli(['fmt'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(await readFile(path.join(dir, FILE), 'utf8')).toBe(text);
  });

  test('keeps invisible characters visible as escapes', async () => {
    const text =
      'id: 21\nname: InputCat\ndescription: "tab\\there, line\\u2028separator, zero\\u200bwidth"\ncreated: 2018-01-01T00:00:00Z\nupdated: 2018-01-01T00:00:00Z\ntables: []\n';
    const dir = await testdir({ 'alpha/dr2/catalogues/InputCat.yaml': text });
    await cli(['fmt'], dir);
    const after = await readFile(path.join(dir, FILE), 'utf8');
    expect(after).toContain('description: "tab\\there, line\\u2028separator, zero\\u200bwidth"');
    expect(parse(after)).toEqual(parse(text));
  });

  // fmt --check on a folder that does not exist said "0 files would be reformatted" and exited 0.
  test.each([[['fmt']], [['fmt', '--check']]])('%j on a metadata folder that does not exist is trouble, exit 2', async (argv) => {
    const dir = await testdir();
    const result = await cli([...argv, '--metadata', 'no-such-folder'], dir);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'archive-schema: metadata folder no-such-folder does not exist; pass the right folder with --metadata\n',
    });
  });

  test('the bundled metadata is canonical', async () => {
    const result = await cli(['fmt', '--check'], PROJECT);
    expect(result.stdout).toMatch(/^0 files would be reformatted, \d+ already canonical\.\n$/);
    expect(result.code).toBe(0);
  });
});
