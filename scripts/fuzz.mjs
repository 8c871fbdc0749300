// The long fuzzing run: the properties of test/fuzz.test.ts (bench/fuzz.ts), on the compiled code
// in lib/ and bench/lib/, for as many runs as asked. The seed is printed first, so that a failure
// can be replayed; a failure prints the shrunk counterexample and exits 1.
//
//   node scripts/compile.mjs && node scripts/fuzz.mjs [--runs N] [--seed S] [--property parsers|verdicts|output|hostile|names|all]
//                                                    [--path P] [--save DIR]
//
// --runs N       runs of each property (default 1000; the parsers' property takes ten times as many,
//                being a thousand times cheaper)
// --seed S       the seed (default: a random one)
// --property P   run only one property (default: all, in turn)
// --path P       replay: start at the counterexample path a failure printed (with its seed)
// --save DIR     on failure, write the counterexample there: DIR/metadata (a tree), DIR/before and
//                DIR/after (a pair), or DIR/case.yaml (a text)

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: node scripts/fuzz.mjs [--runs N] [--seed S] [--property parsers|verdicts|output|hostile|names|all] [--path P] [--save DIR]';

function parseArgs(argv) {
  const args = { runs: 1000, seed: undefined, property: 'all', path: undefined, save: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value; ${USAGE}`);
      return v;
    };
    if (arg === '--runs') args.runs = Number(value());
    else if (arg === '--seed') args.seed = Number(value());
    else if (arg === '--property') args.property = value();
    else if (arg === '--path') args.path = value();
    else if (arg === '--save') args.save = path.resolve(value());
    else if (arg === '--help' || arg === '-h') return 'help';
    else throw new Error(`unknown argument ${arg}; ${USAGE}`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error(`--runs must be a positive whole number; ${USAGE}`);
  if (args.seed !== undefined && !Number.isInteger(args.seed)) throw new Error(`--seed must be a whole number; ${USAGE}`);
  if (!['parsers', 'verdicts', 'output', 'hostile', 'names', 'all'].includes(args.property))
    throw new Error(`unknown property ${args.property}; ${USAGE}`);
  return args;
}

let args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`fuzz: ${error.message}\n`);
  process.exit(2);
}
if (args === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

for (const compiled of ['lib/cli.js', 'bench/lib/fuzz.js']) {
  if (!existsSync(path.join(root, compiled))) {
    process.stderr.write(`fuzz: ${compiled} is missing; run npm run compile first\n`);
    process.exit(2);
  }
}

const load = (file) => import(pathToFileURL(path.join(root, file)).href);
const { run } = await load('lib/cli.js');
const { parseFile, parseFileFast } = await load('lib/pipeline/parse.js');
const { MARKER } = await load('lib/destination/folder.js');
const fuzz = await load('bench/lib/fuzz.js');

// yaml warns on stderr about keys that are collections (`[a]: b`), which the generator writes.
process.removeAllListeners('warning');

const cli = async (argv, cwd) => {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: {},
    cwd,
    progress: false,
  });
  return { code, stdout, stderr };
};
const subject = { parseFile, parseFileFast, cli, marker: MARKER };

const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
process.stdout.write(`fuzz seed ${seed} (replay with --seed ${seed})\n`);

const samples = await fuzz.readSamples(path.join(root, 'test/fixtures/archive'));
const stats = { runs: 0, built: 0 };
const PROPERTIES = {
  parsers: { property: () => fuzz.parsersProperty(subject, samples), runs: args.runs * 10 },
  verdicts: { property: () => fuzz.verdictsProperty(subject), runs: args.runs },
  output: { property: () => fuzz.outputProperty(subject, stats), runs: args.runs },
  // Ten times the sizes of the short run's hostile texts: nesting 50,000 deep, 200,000 keys.
  hostile: { property: () => fuzz.hostileProperty(subject, 10), runs: args.runs },
  names: { property: () => fuzz.namesProperty(subject), runs: args.runs },
};

/** Writes a counterexample where it can be looked at, or run: `archive-schema check --metadata DIR/metadata`. */
async function save(dir, value) {
  const writeTree = async (tree, into) => {
    await mkdir(into, { recursive: true });
    await fuzz.placeTree(into, tree);
  };
  if (typeof value === 'string') {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'case.yaml'), value);
  } else if (value && 'before' in value) {
    await writeTree(value.before, path.join(dir, 'before'));
    await writeTree(value.after, path.join(dir, 'after'));
  } else {
    await writeTree(value, path.join(dir, 'metadata'));
  }
  process.stderr.write(`fuzz: the counterexample is in ${dir}\n`);
}

let failed = false;
for (const [name, { property, runs }] of Object.entries(PROPERTIES)) {
  if (args.property !== 'all' && args.property !== name) continue;
  const started = Date.now();
  process.stdout.write(`${name}: ${runs} runs... `);
  try {
    await fuzz.runProperty(name, property(), { numRuns: runs, seed, ...(args.path ? { path: args.path } : {}) });
    const built = name === 'output' ? ` (${stats.built} of ${stats.runs} archives built)` : '';
    process.stdout.write(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s${built}\n`);
  } catch (error) {
    failed = true;
    process.stdout.write(`FAILED after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    process.stderr.write(`${error.message}\n`);
    if (!(error instanceof fuzz.FuzzFailure)) throw error;
    if (args.save) await save(args.property === 'all' ? path.join(args.save, name) : args.save, error.counterexample);
  }
}
process.exitCode = failed ? 1 : 0;
