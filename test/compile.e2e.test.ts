// The npm scripts compile src/ into lib/ before each command only when a source has changed
// (scripts/compile.mjs): a command after an edit runs the new code, and one after no edit starts
// without waiting for the compiler.

import { spawnSync } from 'node:child_process';
import { cp, readFile, rename, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { PROJECT, tempdir } from './helpers.ts';

/** The browser's script's folder. */
const CLIENT = 'src/outputs/browser/client';

/**
 * A copy of the project's sources, sharing its node_modules, with nothing compiled yet. Of src/, it
 * holds what the compile runs afterwards (the schemas' validators, src/pipeline/validate.ts) and
 * what that imports; the benchmark, the second compiled folder, is one small file of its own.
 * The script treats any sources alike, and fewer make each of the compiles below quicker.
 */
async function project(): Promise<string> {
  const dir = await tempdir();
  for (const part of ['schemas', 'scripts', 'tsconfig.json', 'package.json', 'bench/tsconfig.json']) {
    await cp(path.join(PROJECT, part), path.join(dir, part), { recursive: true });
  }
  for (const file of await importedFrom('src/pipeline/validate.ts')) await cp(path.join(PROJECT, file), path.join(dir, file));
  await writeFile(path.join(dir, 'bench/probe.ts'), "export const PROBE = 'probe';\n");
  // The command's module, which the bundle is made from: here, one that asks its imports where a compiled file is.
  await writeFile(
    path.join(dir, 'src/cli.ts'),
    "import { PRECOMPILED } from './pipeline/validate.ts';\nexport const VALIDATORS: string = PRECOMPILED.href;\n",
  );
  // The benchmark's one file needs neither Node.js's types nor the DOM's: each compile below takes a second less.
  const bench = path.join(dir, 'bench/tsconfig.json');
  const benchConfig = JSON.parse(await readFile(bench, 'utf8')) as { compilerOptions: { lib: string[]; types: string[] } };
  benchConfig.compilerOptions.types = [];
  benchConfig.compilerOptions.lib = benchConfig.compilerOptions.lib.filter((lib) => !lib.startsWith('DOM'));
  await writeFile(bench, JSON.stringify(benchConfig));
  // The browser's script, a project of its own inside src/: here, one line.
  await cp(path.join(PROJECT, CLIENT, 'tsconfig.json'), path.join(dir, CLIENT, 'tsconfig.json'));
  await writeFile(path.join(dir, CLIENT, 'main.ts'), "document.title = 'probe';\n");
  await symlink(path.join(PROJECT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** A source and every source it imports, at any depth, as paths from the project. */
async function importedFrom(start: string): Promise<Set<string>> {
  const found = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (found.has(file)) return;
    found.add(file);
    const text = await readFile(path.join(PROJECT, file), 'utf8');
    for (const [, relative = ''] of text.matchAll(/from '(\.{1,2}\/[^']+\.ts)'/g)) {
      await visit(path.posix.join(path.posix.dirname(file), relative));
    }
  };
  await visit(start);
  return found;
}

// One copy for the three tests, which run in order: a first compile is the costly one (tsc over
// every source, with nothing to reuse), and each test starts from what the one before left.
let shared: Promise<string> | undefined;
const copy = () => (shared ??= project());

function compile(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(dir, 'scripts/compile.mjs'), ...args], { cwd: dir, encoding: 'utf8' });
}

const mtime = async (file: string) => (await stat(file)).mtimeMs;

test('compiles when lib/ is missing or a source changed, and leaves lib/ alone otherwise', async () => {
  const dir = await copy();
  const stamp = path.join(dir, 'lib/.compiled');
  const benchStamp = path.join(dir, 'bench/lib/.compiled');
  expect(compile(dir, '--check')).toMatchObject({
    status: 1,
    stdout: 'lib/ was never compiled\nlib/client/ was never compiled\nbench/lib/ was never compiled\n',
  });
  expect(compile(dir).status).toBe(0);
  expect(await readFile(path.join(dir, 'lib/pipeline/validate.js'), 'utf8')).toContain('export function writePrecompiledValidators');
  expect((await stat(path.join(dir, 'lib/pipeline/validators.cjs'))).size).toBeGreaterThan(0);
  expect(await readFile(path.join(dir, 'lib/client/site.js'), 'utf8')).toContain('document.title = "probe"');
  // The bundle, one folder below the project as lib/'s modules are, finds their files where they are.
  const bundled = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "console.log((await import('./lib/cli.bundle.js')).VALIDATORS)"],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  expect(bundled.stdout).toBe(`${pathToFileURL(path.join(dir, 'lib/pipeline/validators.cjs')).href}\n`);
  const first = await mtime(stamp);
  const benchFirst = await mtime(benchStamp);
  const routes = await mtime(path.join(dir, 'lib/site/routes.js'));

  // Nothing changed: no compile.
  expect(compile(dir, '--check')).toMatchObject({ status: 0, stdout: '' });
  expect(compile(dir)).toMatchObject({ status: 0, stdout: '', stderr: '' });
  expect(await mtime(stamp)).toBe(first);
  expect(await mtime(benchStamp)).toBe(benchFirst);
  expect(await mtime(path.join(dir, 'lib/site/routes.js'))).toBe(routes);

  // An edited source is seen (--check says so, compiling nothing); with its old time back, it is not.
  const edited = path.join(dir, 'src/site/routes.ts');
  const original = await readFile(edited, 'utf8');
  const { atime, mtime: time } = await stat(edited);
  await writeFile(edited, `${original}\nexport const EDITED = 'edited';\n`);
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: 'lib/ is older than src/site/routes.ts\n' });
  await writeFile(edited, original);
  await utimes(edited, atime, time);
  expect(compile(dir, '--check')).toMatchObject({ status: 0, stdout: '' });

  // An edit to the browser's script, inside src/, leaves lib/'s own compile up to date.
  const script = path.join(dir, CLIENT, 'main.ts');
  const scriptTimes = await stat(script);
  await writeFile(script, "document.title = 'edited';\n");
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: `lib/client/ is older than ${CLIENT}/main.ts\n` });
  await writeFile(script, "document.title = 'probe';\n");
  await utimes(script, scriptTimes.atime, scriptTimes.mtime);
  expect(compile(dir, '--check')).toMatchObject({ status: 0, stdout: '' });

  // An edited file, a new one, and a renamed one (whose own time stays old) are each seen, and
  // compiled: in the benchmark's folder, which the script treats as it treats src/ and compiles in
  // a fraction of the time; lib/ is left as it is.
  const probe = path.join(dir, 'bench/probe.ts');
  await writeFile(probe, `${await readFile(probe, 'utf8')}export const EDITED = 'edited';\n`);
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: 'bench/lib/ is older than bench/probe.ts\n' });
  await writeFile(path.join(dir, 'bench/added.ts'), "export const ADDED = 'added';\n");
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: 'bench/lib/ is older than bench\n' });
  expect(compile(dir).status).toBe(0);
  expect(await readFile(path.join(dir, 'bench/lib/probe.js'), 'utf8')).toContain("export const EDITED = 'edited';");
  expect(await readFile(path.join(dir, 'bench/lib/added.js'), 'utf8')).toContain("export const ADDED = 'added';");
  expect(await mtime(benchStamp)).toBeGreaterThan(benchFirst);
  expect(await mtime(stamp)).toBe(first);
  expect(await mtime(path.join(dir, 'lib/site/routes.js'))).toBe(routes);
  expect(compile(dir, '--check')).toMatchObject({ status: 0, stdout: '' });
  await rename(path.join(dir, 'bench/added.ts'), path.join(dir, 'bench/renamed.ts'));
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: 'bench/lib/ is older than bench\n' });
}, 60_000);

test('a source that does not compile fails the command, and is tried again next time', async () => {
  const dir = await copy();
  expect(compile(dir).status).toBe(0);
  const stamp = await mtime(path.join(dir, 'bench/lib/.compiled'));
  const file = path.join(dir, 'bench/probe.ts');
  const good = await readFile(file, 'utf8');
  await writeFile(file, `${good}\nexport const BROKEN: number = 'text';\n`);
  const broken = compile(dir);
  expect(broken.status).not.toBe(0);
  expect(broken.stdout).toContain('bench/probe.ts');
  expect(broken.stdout).toContain("Type 'string' is not assignable to type 'number'");
  expect(await mtime(path.join(dir, 'bench/lib/.compiled'))).toBe(stamp);
  // Still out of date: the next command compiles again.
  expect(compile(dir, '--check')).toMatchObject({ status: 1, stdout: 'bench/lib/ is older than bench/probe.ts\n' });
  await writeFile(file, good);
  expect(compile(dir).status).toBe(0);
}, 60_000);

test('--force compiles even when nothing changed', async () => {
  const dir = await copy();
  expect(compile(dir).status).toBe(0);
  const stamp = await mtime(path.join(dir, 'lib/.compiled'));
  expect(compile(dir, '--force').status).toBe(0);
  expect(await mtime(path.join(dir, 'lib/.compiled'))).toBeGreaterThan(stamp);
}, 60_000);
