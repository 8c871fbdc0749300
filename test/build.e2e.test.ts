// The build as a curator runs it: exit codes, byte-identical rebuilds, a failed build that leaves
// the previous output untouched, refusing dangerous output folders, and the base URL chosen from
// the flag or Netlify's environment.

import { spawn, spawnSync } from 'node:child_process';
import { cp, lstat, mkdir, readFile, readdir, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_BASE_URL, resolveBaseUrl } from '../src/hosting/base-url.ts';
import { UsageError } from '../src/errors.ts';
import { renderNetlifyToml } from '../src/hosting/netlify.ts';
import { FIXTURE, PROJECT, besideOutput, cli, expectSameFiles, http, snapshotTree, tempdir, testdir, outputCount } from './helpers.ts';

/** The output's files' sizes, each path's, and each file once however many paths link to it; without the marker. */
async function sizesOf(dist: string): Promise<{ size: number; disk: number }> {
  const entries = await readdir(dist, { recursive: true, withFileTypes: true });
  const inodes = new Set<number>();
  let size = 0;
  let disk = 0;
  for (const e of entries) {
    if (!e.isFile() || (e.parentPath === dist && e.name.startsWith('.'))) continue;
    const info = await lstat(path.join(e.parentPath, e.name));
    size += info.size;
    if (!inodes.has(info.ino)) disk += info.size;
    inodes.add(info.ino);
  }
  return { size, disk };
}

describe('archive-schema build', () => {
  test('writes the API and says what it did', async () => {
    const dir = await testdir();
    const result = await cli(['build'], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const said =
      /^Built (\d+) files of ([\d.]+) kB, ([\d.]+) kB on disk \((\d+) written, (\d+) reused\) from 10 metadata files into dist for http:\/\/127\.0\.0\.1:8080 in [\d.]+ s\.\n$/.exec(
        result.stdout,
      );
    expect(said, result.stdout).not.toBeNull();
    const [, built, size, disk, written, reused] = (said ?? []).map(Number);
    expect(built).toBe(await outputCount(path.join(dir, 'dist')));
    expect((written ?? 0) + (reused ?? 0)).toBe(built);
    // The sizes are the files' (as `du --apparent-size` counts them, less the folders and the
    // marker): each path's, and each linked file once.
    const files = await sizesOf(path.join(dir, 'dist'));
    expect(size).toBe(Number((files.size / 1e3).toFixed(1)));
    expect(disk).toBe(Number((files.disk / 1e3).toFixed(1)));
    expect(files.disk).toBeLessThan(files.size);
    // Files with equal bytes (the ifs and spectra listings show catalogues) are written once.
    expect(reused).toBeGreaterThan(0);
    const listing = JSON.parse(await readFile(path.join(dir, 'dist/api/schema/data_type/imaging.json'), 'utf8')) as { url: string }[];
    expect(listing.map((s) => s.url)).toEqual(['http://127.0.0.1:8080/api/schema/1/', 'http://127.0.0.1:8080/api/schema/7/']);
  });

  test('building twice gives byte-identical output', async () => {
    const dir = await testdir();
    expect((await cli(['build', '--out', 'one'], dir)).code).toBe(0);
    expect((await cli(['build', '--out', 'two'], dir)).code).toBe(0);
    const one = await snapshotTree(path.join(dir, 'one'));
    const two = await snapshotTree(path.join(dir, 'two'));
    expectSameFiles(two, one);
  });

  test('output does not depend on the order files were created in', async () => {
    const a = await testdir();
    // Same content, files written in reverse order into a fresh tree.
    const source = await snapshotTree(path.join(a, 'metadata'));
    const b = await testdir({}, null);
    for (const [file, bytes] of [...source].reverse()) {
      await mkdir(path.dirname(path.join(b, 'metadata', file)), { recursive: true });
      await writeFile(path.join(b, 'metadata', file), bytes);
    }
    await cli(['build'], a);
    await cli(['build'], b);
    const one = await snapshotTree(path.join(a, 'dist'));
    const two = await snapshotTree(path.join(b, 'dist'));
    expectSameFiles(two, one);
  });

  test('a failed build writes nothing and leaves the previous dist/ exactly as it was', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const before = await snapshotTree(path.join(dir, 'dist'));
    await writeFile(path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml'), 'id: 20\nname: SpecCat\n  broken: [\n');
    const result = await cli(['build'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/metadata\/alpha\/dr1\/catalogues\/SpecCat\.yaml:\d+:\d+  error  /);
    expect(result.stderr).toMatch(/Nothing was written; dist was left as it was\.\n$/);
    const after = await snapshotTree(path.join(dir, 'dist'));
    expectSameFiles(after, before);
    // No build folder is left behind either.
    expect(await besideOutput(dir)).toEqual([]);
  });

  test('--dry-run lists what a build would write, link and remove, with sizes and reasons, and writes nothing', async () => {
    const dir = await testdir();
    const first = await cli(['build', '--dry-run'], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^write {3}api\/schema\/1\/catalogues\.format-api\.html +[\d.]+ kB {2}no previous output$/m);
    const planned =
      /\nA build would write (\d+) files \([\d.]+ kB\), link (\d+) to files of the same bytes, keep 0 unchanged and remove 0 in dist\. Nothing was written\.\n$/.exec(
        first.stdout,
      );
    expect(planned, first.stdout).not.toBeNull();
    await expect(stat(path.join(dir, 'dist'))).rejects.toThrow();
    expect((await readdir(dir)).filter((name) => name.includes('dist'))).toEqual([]);

    expect((await cli(['build'], dir)).code).toBe(0);
    const before = await snapshotTree(path.join(dir, 'dist'));
    const files = await outputCount(path.join(dir, 'dist'));
    expect(files).toBe(Number(planned?.[1]) + Number(planned?.[2]));
    expect((await cli(['build', '--dry-run'], dir)).stdout).toBe(
      `A build would write 0 files (0.0 kB), link 0 to files of the same bytes, keep ${files} unchanged and remove 0 in dist. Nothing was written.\n`,
    );
    // An edit of one group; a survey that goes, with its files.
    const group = path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml');
    await writeFile(group, (await readFile(group, 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    await rm(path.join(dir, 'metadata/gamma'), { recursive: true });
    const run = await cli(['build', '--dry-run'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^write {3}api\/schema\/1\/catalogues\.format-api\.html +[\d.]+ kB {2}catalogue group alpha\/dr1\/SpecCat changed$/m,
    );
    expect(run.stdout).toMatch(/^remove {2}api\/schema\/3\/index\.json {12,} no longer built$/m);
    // Files of the survey left as it was are kept, and not listed.
    expect(run.stdout).not.toMatch(/ api\/schema\/7\//);
    expect(run.stdout).toMatch(
      /\nA build would write \d+ files \([\d.]+ kB\), link \d+ to files of the same bytes, keep \d+ unchanged and remove \d+ in dist\. Nothing was written\.\n$/,
    );
    expectSameFiles(await snapshotTree(path.join(dir, 'dist')), before);
    // --explain says it of one file, or of every file in a folder, kept ones too.
    const explained = await cli(['build', '--dry-run', '--explain', 'dist/api/schema/7/index.json', 'download/'], dir);
    expect(explained.stdout).toMatch(/^keep {4}api\/schema\/7\/index\.json +[\d.]+ kB {2}unchanged since the last build$/m);
    expect(explained.stdout).toMatch(/^write {3}download\/SHA256SUMS +[\d.]+ kB {2}its text changed \(since the last build: /m);
    // Invalid metadata: the report, exit 1, as check gives them.
    await writeFile(group, 'id: 20\nname: SpecCat\n  broken: [\n');
    const invalid = await cli(['build', '--dry-run'], dir);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toMatch(/ error  [\s\S]*A build would stop here; nothing was written\.\n$/);
    expectSameFiles(await snapshotTree(path.join(dir, 'dist')), before);
  });

  // A failing build printed its one error among the bundled metadata's ~950 warnings; listed first,
  // it scrolled away above them. Last, it stays on the screen above the closing count.
  test('a failing build lists its errors after its warnings, and with --quiet only counts the warnings', async () => {
    const group = 'alpha/dr1/catalogues/SpecCat.yaml';
    const dir = await testdir();
    const target = path.join(dir, 'metadata', group);
    // Warnings in the group (units that are not VOUnits), and one error in a file that sorts after it.
    await writeFile(target, (await readFile(target, 'utf8')).replace("unit: '-'", 'unit: km/sec').replace('unit: None', 'unit: kms'));
    await writeFile(
      path.join(dir, 'metadata/gamma/survey.yaml'),
      (await readFile(path.join(dir, 'metadata/gamma/survey.yaml'), 'utf8')).replace(/^id: \d+$/m, 'id: -3'),
    );
    const result = await cli(['build'], dir);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n').filter((l) => /  (error|warning)  /.test(l));
    expect(lines.map((l) => l.split('  ')[2])).toEqual(['warning', 'warning', 'error']);
    expect(lines[2]).toMatch(/^  metadata\/gamma\/survey\.yaml:1:5  error  /);
    expect(result.stderr).toMatch(/\n1 error and 2 warnings in 2 files\. Nothing was written; dist was left as it was\.\n$/);
    const quiet = await cli(['build', '--quiet'], dir);
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).not.toContain('warning  ');
    expect(quiet.stderr).toMatch(
      /^metadata\/gamma\/survey\.yaml\n  metadata\/gamma\/survey\.yaml:1:5  error  [^\n]+\n\n1 error in 1 file, and 2 warnings not shown\. Nothing was written; dist was left as it was\.\n$/,
    );
  });

  // In a folder named `my archive`, build and check ended with "internal error … scandir
  // '…/my%20archive/lib/'" and serve could not read netlify.toml: paths were taken from URL.pathname.
  test('a checkout in a folder whose name holds a space builds, checks and serves', async () => {
    const root = path.join(await tempdir(), 'my archive');
    for (const part of ['lib', 'bin', 'schemas', 'package.json', 'netlify.toml'])
      await cp(path.join(PROJECT, part), path.join(root, part), { recursive: true });
    await symlink(path.join(PROJECT, 'node_modules'), path.join(root, 'node_modules'));
    await cp(FIXTURE, path.join(root, 'metadata'), { recursive: true });
    const bin = path.join(root, 'bin/archive-schema.js');
    const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' });
    expect(run('build')).toMatchObject({ status: 0, stderr: '' });
    expect(run('check')).toMatchObject({ status: 0, stderr: '' });
    expect(run('check', '--no-cache')).toMatchObject({ status: 0, stderr: '' });
    const server = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: root });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /at (http:\/\/\S+) /.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        server.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const res = await http(address, 'GET', '/api/schema/?data_type=imaging');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toHaveLength(2);
    } finally {
      server.kill('SIGINT');
    }
  });

  test('the output folder can be read as any new folder here can (by a web server, say)', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    await mkdir(path.join(dir, 'plain'));
    const mode = (p: string) => stat(path.join(dir, p)).then((s) => s.mode & 0o777);
    expect(await mode('dist')).toBe(await mode('plain'));
    expect(await mode('dist/api/schema/data_type')).toBe(await mode('plain'));
  });

  test('an output reached through a symbolic link is built where it points, and the link stays', async () => {
    const dir = await testdir();
    await mkdir(path.join(dir, 'site'));
    expect((await cli(['build', '--out', 'site/dist'], dir)).code).toBe(0);
    await symlink(path.join(dir, 'site/dist'), path.join(dir, 'dist'));
    const group = path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml');
    await writeFile(group, (await readFile(group, 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    expect((await cli(['build'], dir)).code).toBe(0);
    expect((await lstat(path.join(dir, 'dist'))).isSymbolicLink()).toBe(true);
    expect((await cli(['build', '--no-cache', '--out', 'cold'], dir)).code).toBe(0);
    const built = await snapshotTree(path.join(dir, 'site/dist'));
    const cold = await snapshotTree(path.join(dir, 'cold'));
    expectSameFiles(built, cold);
    expect(await besideOutput(path.join(dir, 'site'))).toEqual([]);
  });

  test('a write the disk refuses stops the build: exit 2, the file named, the output as it was', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const before = await snapshotTree(path.join(dir, 'dist'));
    const group = path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml');
    await writeFile(group, (await readFile(group, 'utf8')).replace('Unique ID', 'Unique GAMA ID'));
    // Files of at most 8 KiB (\`ulimit -f\`): the listings' pages and the download's files are larger, so their writes fail.
    const bin = path.join(PROJECT, 'bin/archive-schema.js');
    const run = spawnSync('bash', ['-c', 'ulimit -f 8 && exec "$0" "$@"', process.execPath, bin, 'build'], { cwd: dir, encoding: 'utf8' });
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^archive-schema: cannot write (api\/schema|download)\/\S+ of the output: EFBIG: file too large, write; \S+\/dist was left as it was\n$/,
    );
    expect(run.status).toBe(2);
    const after = await snapshotTree(path.join(dir, 'dist'));
    expectSameFiles(after, before);
    expect(await besideOutput(dir)).toEqual([]);
  });

  test('a build clears what stopped builds left beside the output, and puts a moved-aside output back', async () => {
    const dir = await testdir();
    expect((await cli(['build'], dir)).code).toBe(0);
    const before = await snapshotTree(path.join(dir, 'dist'));
    // No process has this id; a running one (this one) still owns its folder.
    const stopped = 2147483646;
    await mkdir(path.join(dir, `.dist-new-${stopped}-a1b2c3/api`), { recursive: true });
    await writeFile(path.join(dir, `.dist-new-${stopped}-a1b2c3/api/half.json`), '[{"id":');
    await mkdir(path.join(dir, `.dist-new-${process.pid}-d4e5f6`));
    // Stopped between the swap's two renames: the previous output is aside and dist is missing.
    await rename(path.join(dir, 'dist'), path.join(dir, `.dist-old-${stopped}-a1b2c3`));
    // Even a build that fails puts it back.
    const target = path.join(dir, 'metadata/alpha/dr1/catalogues/SpecCat.yaml');
    const text = await readFile(target, 'utf8');
    await writeFile(target, 'id: 20\nname: SpecCat\n  broken: [\n');
    expect((await cli(['build'], dir)).code).toBe(1);
    expect(await besideOutput(dir)).toEqual([`.dist-new-${process.pid}-d4e5f6`]);
    const restored = await snapshotTree(path.join(dir, 'dist'));
    expectSameFiles(restored, before);
    await writeFile(target, text);
    expect((await cli(['build'], dir)).code).toBe(0);
  });

  test('refuses to replace a folder it did not write, and the metadata folder itself', async () => {
    const dir = await testdir();
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'docs/notes.txt'), 'keep me');
    const docs = await cli(['build', '--out', 'docs'], dir);
    expect(docs.code).toBe(2);
    expect(docs.stderr).toMatch(/^archive-schema: .*docs is not empty and was not written by archive-schema/);
    expect(await readFile(path.join(dir, 'docs/notes.txt'), 'utf8')).toBe('keep me');
    const meta = await cli(['build', '--out', '.'], dir);
    expect(meta.code).toBe(2);
    expect(meta.stderr).toMatch(/would replace the metadata folder/);
    const inside = await cli(['build', '--out', 'metadata/out'], dir);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/is inside the metadata folder/);
  });

  test.each([
    [['build', '--base-url', 'schema.example.org'], /base URL "schema\.example\.org" is not an absolute URL/],
    [['build', '--base-url', 'ftp://schema.example.org'], /must start with http:\/\/ or https:\/\//],
    [['build', '--base-url', 'https://schema.example.org/?x=1'], /must not carry a query/],
    [['bulid'], /unknown command 'bulid'/],
    [['serve', '--port', 'eighty'], /expected a port number from 0 to 65535/],
  ])('usage trouble exits 2: %j', async (argv, message) => {
    const dir = await testdir();
    const result = await cli(argv, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  test('serve refuses a folder that holds no build', async () => {
    const dir = await tempdir();
    const result = await cli(['serve', '--dir', dir, '--port', '0'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds no build; run `npm run build` first/);
  });

  test("a deploy preview links to its own address, production to the site's", async () => {
    const dir = await testdir();
    const preview = {
      NETLIFY: 'true',
      CONTEXT: 'deploy-preview',
      URL: 'https://schema.example.org',
      DEPLOY_PRIME_URL: 'https://deploy-preview-42--schema.netlify.app',
    };
    expect((await cli(['build', '--out', 'preview'], dir, preview)).code).toBe(0);
    const listing = await readFile(path.join(dir, 'preview/api/schema/data_type/imaging.json'), 'utf8');
    expect(listing).toContain('"url":"https://deploy-preview-42--schema.netlify.app/api/schema/1/"');
    expect(listing).not.toContain('schema.example.org');
    const production = { ...preview, CONTEXT: 'production' };
    expect((await cli(['build', '--out', 'prod'], dir, production)).code).toBe(0);
    expect(await readFile(path.join(dir, 'prod/api/schema/1/index.json'), 'utf8')).toContain(
      '"url":"https://schema.example.org/api/schema/1/"',
    );
  });
});

describe('the command line', () => {
  test.each([
    [['--version'], 0, /^\d+\.\d+\.\d+\n$/, ''],
    [['-V'], 0, /^\d+\.\d+\.\d+\n$/, ''],
    [['--help'], 0, /^Usage: archive-schema \[options\] \[command\][\s\S]*\n {2}check \[options\][\s\S]*\n {2}build \[options\]/, ''],
    [['--verbose'], 2, /^$/, "error: unknown option '--verbose'\n(run archive-schema --help for usage)\n"],
  ])('archive-schema %j exits %i', async (args, code, stdout, stderr) => {
    const result = await cli(args, await tempdir());
    expect(result.code).toBe(code);
    expect(result.stdout).toMatch(stdout);
    expect(result.stderr).toBe(stderr);
  });

  test("--version is the package's", async () => {
    const { version } = JSON.parse(await readFile(path.join(PROJECT, 'package.json'), 'utf8')) as { version: string };
    expect((await cli(['--version'], await tempdir())).stdout).toBe(`${version}\n`);
  });
});

describe('resolveBaseUrl', () => {
  test.each([
    [
      'the flag wins',
      'https://a.example.org/',
      { NETLIFY: 'true', CONTEXT: 'production', URL: 'https://b.example.org' },
      'https://a.example.org',
    ],
    [
      'Netlify production',
      undefined,
      { NETLIFY: 'true', CONTEXT: 'production', URL: 'https://b.example.org', DEPLOY_PRIME_URL: 'https://p--b.netlify.app' },
      'https://b.example.org',
    ],
    [
      'Netlify deploy preview',
      undefined,
      {
        NETLIFY: 'true',
        CONTEXT: 'deploy-preview',
        URL: 'https://b.example.org',
        DEPLOY_PRIME_URL: 'https://deploy-preview-7--b.netlify.app',
      },
      'https://deploy-preview-7--b.netlify.app',
    ],
    [
      'Netlify branch deploy',
      undefined,
      { NETLIFY: 'true', CONTEXT: 'branch-deploy', URL: 'https://b.example.org', DEPLOY_PRIME_URL: 'https://staging--b.netlify.app' },
      'https://staging--b.netlify.app',
    ],
    ['outside Netlify', undefined, { URL: 'https://ignored.example.org' }, DEFAULT_BASE_URL],
    ['a path is kept, trailing slashes dropped', 'https://c.example.org/schema//', {}, 'https://c.example.org/schema'],
  ])('%s', (_name, flag, env, expected) => {
    expect(resolveBaseUrl(flag, env)).toBe(expected);
  });

  test('a bad base URL is a usage error', () => {
    expect(() => resolveBaseUrl('not a url', {})).toThrow(UsageError);
  });
});

describe('netlify.toml', () => {
  test('is what the route table makes (run `npm run routes` after changing src/site/routes.ts)', async () => {
    expect(await readFile(path.join(PROJECT, 'netlify.toml'), 'utf8')).toBe(renderNetlifyToml());
  });

  // Writing netlify.toml into a folder that does not exist printed "internal error" and a stack trace.
  test('routes --write where the file cannot be written is trouble, exit 2, with the file named', async () => {
    const dir = await tempdir();
    const result = await cli(['routes', '--write', '--file', 'no/such/dir/x.toml'], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^archive-schema: cannot write \S+\/no\/such\/dir\/x\.toml: ENOENT: no such file or directory[^\n]*\n$/);
  });

  test('routes --check agrees, and fails on a stale file', async () => {
    expect((await cli(['routes', '--check'], PROJECT)).code).toBe(0);
    const dir = await tempdir();
    await writeFile(path.join(dir, 'netlify.toml'), '[build]\n');
    const stale = await cli(['routes', '--check'], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      'netlify.toml differs from the route table in src/site/routes.ts; run `npm run routes` and commit the result.\n',
    );
  });

  test('its plugin restores the build cache first, saves it last, and hands the deploy the output as a folder', async () => {
    type Hook = (options: {
      utils: { cache: { restore: (p: string) => Promise<void>; save: (p: string) => Promise<void> } };
      constants: { PUBLISH_DIR: string };
    }) => Promise<void>;
    const plugin = (await import(path.join(PROJECT, 'netlify/plugins/archive-schema-cache/index.js'))) as {
      onPreBuild: Hook;
      onPostBuild: Hook;
    };
    const dir = await testdir();
    const cache = 'node_modules/.cache/archive-schema';
    const calls: string[] = [];
    const utils = {
      cache: {
        restore: (p: string) => {
          calls.push(`restore ${p}`);
          return Promise.resolve();
        },
        save: async (p: string) => {
          calls.push(`save ${p}: ${(await readdir(path.join(dir, p))).sort().join(', ')}`);
        },
      },
    };
    const constants = { PUBLISH_DIR: path.join(dir, 'dist') };
    await plugin.onPreBuild({ utils, constants });
    expect((await cli(['build'], dir)).code).toBe(0);
    const built = await snapshotTree(path.join(dir, 'dist'));
    expect((await lstat(path.join(dir, 'dist'))).isSymbolicLink()).toBe(true);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await plugin.onPostBuild({ utils, constants });
    } finally {
      process.chdir(cwd);
    }
    expect(calls).toEqual([`restore ${cache}`, `save ${cache}: digests, recalled, rules-passed, scans`]);
    // A folder now, with every file the build wrote.
    expect((await lstat(path.join(dir, 'dist'))).isDirectory()).toBe(true);
    expectSameFiles(await snapshotTree(path.join(dir, 'dist')), built);
  });
});
