// Compiles src/ into lib/ (with the schemas' validators ahead of time, src/pipeline/validate.ts, and
// the command bundled into one module, lib/cli.bundle.js, which starts faster), the schema
// browser's script (src/outputs/browser/client/) into lib/client/site.js, and the benchmark's
// bench/ into bench/lib/, each only when something it is made from has changed
// since its last compile. The npm scripts run it before every command: tsc takes about 1.5 s even
// when there is nothing to do, far longer than a warm build. With --force (`npm run compile`, and
// `npm ci` through the prepare script) it always compiles; with --check it only says what is out
// of date (exit 1) or that nothing is (exit 0).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The schema browser's script, a project of its own inside src/. */
const CLIENT = 'src/outputs/browser/client';

/**
 * Each compiled folder and what it is made from. Its stamp file is touched after each successful
 * compile, and its time is the compile's; its text never changes, because the build cache's
 * fingerprint reads every file in lib/.
 */
const PROJECTS = [
  {
    tsconfig: 'tsconfig.json',
    out: 'lib',
    inputs: ['src', 'schemas'],
    apart: [CLIENT],
    after: async () => (await writeValidators(), await bundle()),
  },
  // The schema browser's script runs in the visitor's browser: its tsconfig gives it the DOM's types
  // and no Node.js ones, and emits nothing; rolldown bundles it once tsc has found no error.
  { tsconfig: `${CLIENT}/tsconfig.json`, out: 'lib/client', inputs: [CLIENT], after: () => bundleClient() },
  // The benchmark is compiled apart from lib/, so that changing it leaves curators' build caches valid.
  { tsconfig: 'bench/tsconfig.json', out: 'bench/lib', inputs: ['bench'], after: () => undefined },
];

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The first input newer than the last compile, if any (but those of a project `apart` inside its inputs). */
function changedSince(time, { tsconfig, out, inputs, apart = [] }) {
  const files = ['tsconfig.json', 'package.json', tsconfig].map((f) => path.join(root, f));
  const skip = [out, ...apart].map((folder) => path.join(root, folder));
  // Folders too: a folder's time moves when a file in it is added, removed or renamed.
  const walk = (dir) => {
    if (skip.includes(dir)) return;
    files.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  for (const input of inputs) walk(path.join(root, input));
  return files.find((file) => (mtime(file) ?? Infinity) > time);
}

async function writeValidators() {
  const { writePrecompiledValidators } = await import(pathToFileURL(path.join(root, 'lib/pipeline/validate.js')).href);
  writePrecompiledValidators();
}

/**
 * The packages every command loads, bundled with it, with the packages they use: loaded from
 * node_modules/ as CommonJS, each file was found, read, compiled and scanned for its exports on its
 * own, 16 of the 60 ms a command took to load. The packages only some commands load (the server's,
 * Netlify's, the editor's) stay in node_modules/, where they are loaded when needed.
 */
const BUNDLED = ['commander', 'fast-glob', 'js-yaml', 'fastest-levenshtein', 'd3-geo'];

/**
 * The command as one module (with a few parts it loads only when needed, each one module too), made
 * from lib/ by rolldown: Node loads the hundred-odd modules of lib/ one by one, which took a fifth
 * of the time of a command that has little to do (`check` on a small archive, `--version`). It sits
 * in lib/ beside them, one folder below the project as they are (src/project.ts), with the packages
 * in BUNDLED; the others stay where they are, in node_modules/. The digest workers run lib/'s modules.
 */
async function bundle() {
  const lib = path.join(root, 'lib');
  for (const name of readdirSync(lib)) if (/\.(bundle|chunk)\.js(\.map)?$/.test(name)) rmSync(path.join(lib, name));
  const { build } = await import('rolldown');
  await build({
    input: { 'cli.bundle': path.join(lib, 'cli.js') },
    platform: 'node',
    // A package is bundled when lib/ imports one in BUNDLED, or a bundled package imports it. So
    // are the bundler's own helpers (a tagged template holding `</script` is rewritten to use one).
    external: (id, importer) =>
      id.startsWith('node:') ||
      builtinModules.includes(id) ||
      (!id.startsWith('.') &&
        !path.isAbsolute(id) &&
        !importer?.includes(`${path.sep}node_modules${path.sep}`) &&
        !BUNDLED.includes(id) &&
        !id.startsWith('@oxc-project/runtime/')),
    output: { dir: lib, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name].chunk.js', sourcemap: true },
    logLevel: 'warn',
  });
}

/**
 * The schema browser's script as one classic script, lib/client/site.js, which the planner copies
 * into browse/site.js (src/outputs/browser/script.ts): the pages load it with a plain script element,
 * which works from the offline download opened from disk, where a module script is refused. Made in
 * a function of its own, so none of its names is a global. No source map, and module names relative
 * to the project: the same sources give the same bytes on every machine.
 */
async function bundleClient() {
  const { build } = await import('rolldown');
  await build({
    cwd: root,
    input: path.join(root, CLIENT, 'main.ts'),
    platform: 'browser',
    tsconfig: path.join(root, CLIENT, 'tsconfig.json'),
    // Strict, as the modules it is made of are: inside its function, as the file's first line is
    // the planner's, and a directive below it would be none.
    output: { file: path.join(root, 'lib/client/site.js'), format: 'iife', strict: false, intro: "'use strict';" },
    logLevel: 'warn',
  });
}

const force = process.argv.includes('--force');
// --check compiles nothing: it says what is out of date, and exits 1 if anything is.
const checkOnly = process.argv.includes('--check');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let stale = false;
for (const project of PROJECTS) {
  const stamp = path.join(root, project.out, '.compiled');
  const last = force ? undefined : mtime(stamp);
  const changed = last === undefined ? undefined : changedSince(last, project);
  if (last !== undefined && changed === undefined) continue;
  if (checkOnly) {
    stale = true;
    const why = last === undefined ? 'was never compiled' : `is older than ${path.relative(root, changed)}`;
    process.stdout.write(`${project.out}/ ${why}\n`);
    continue;
  }
  // The output folder is made first: made by tsc, it would move the time of a folder it sits in
  // (bench/) past the stamp's, and the next command would compile again for nothing.
  const out = path.join(root, project.out);
  mkdirSync(out, { recursive: true });
  // The stamp's time is taken before compiling, so an edit made while tsc runs is not missed, and
  // clearly after the time making the folder gave its parent: the file system's clock runs a few
  // milliseconds behind Date's, but not always, and a stamp stored a microsecond short of that
  // time (utimes rounds it) left bench/ out of date at once.
  const started = new Date(Math.max(Date.now(), Math.floor(mtime(path.dirname(out)) ?? 0) + 2));
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, project.tsconfig)], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  await project.after();
  writeFileSync(stamp, `${project.out}/ was compiled at this file's modification time (scripts/compile.mjs).\n`);
  utimesSync(stamp, started, started);
}
if (stale) process.exit(1);
