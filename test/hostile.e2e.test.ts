// Hostile metadata: alias bombs, deep nesting, oversize files, long lines and keys, binary and
// mis-encoded bytes, odd line endings, prototype keys, tags, numbers that JSON cannot keep, empty
// and multi-document files, links, pipes, odd file names, unreadable files, markup and terminal
// escapes in text. The cases that could exhaust memory or hang (expansion, depth, size, pipes,
// loops) are built by the real command in a process of its own, with a heap limit and a kill
// timer set by the test; the others in the test's process. For every case, `check` and `build`
// exit as documented, say where the problem is (file:line:col, or the file alone for a whole-file
// problem), never crash or print a stack trace or a raw control character, and a failed build
// leaves the previous output byte for byte as it was. Valid-but-odd metadata is built, its text
// published verbatim.

import { spawn, spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, readlink, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect as globalExpect, test } from 'vitest';
import type { ExpectStatic } from 'vitest';
import { HOSTILE_GROUP, HOSTILE_RELEASE, HOSTILE_SURVEY } from '../bench/hostile-archive.ts';
import { MAX_FILE_BYTES } from '../src/pipeline/scan.ts';
import { FIXTURE, PROJECT, besideOutput, cli, expectSameFiles, snapshotTree, tempdir } from './helpers.ts';

// ---- The process, with its limits -----------------------------------------------------------------

const BIN = path.join(PROJECT, 'bin/archive-schema.js');
/** The heap each process may use: far above what any of these cases needs, far below the machine's. */
const HEAP_MB = 256;
/** A process still running after this long is killed, and its case fails saying so. */
const KILL_AFTER_MS = 30_000;
const BASE_URL = 'https://hostile.example.org';
/** The unprivileged user for the unreadable-file cases (tests run as root, which reads anything). */
const NOBODY = 65534;
const HAS_SETPRIV = spawnSync('setpriv', ['--version']).status === 0;
/** Processes run at once: each is mostly CPU, so one per core, and one more for the moments each waits on the disk. */
const SLOTS = os.availableParallelism() + 1;

// Nothing from the test's own environment may change what the command does: no Netlify URL,
// no NODE_OPTIONS overriding the heap limit.
const ENV: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1' };
for (const name of ['NODE_OPTIONS', 'URL', 'DEPLOY_PRIME_URL', 'CONTEXT', 'NETLIFY', 'FORCE_COLOR']) Reflect.deleteProperty(ENV, name);

let free = SLOTS;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (free > 0) free--;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  return () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
}

interface Run {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  killed: boolean;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, as a terminal shows them. */
  output: string;
}

/** `archive-schema <args>` as a process with a heap limit and a kill timer, in `cwd`. */
async function archiveSchema(args: string[], cwd: string, asNobody = false, heapMb = HEAP_MB): Promise<Run> {
  const release = await slot();
  try {
    const argv = [`--max-old-space-size=${heapMb}`, BIN, ...args];
    const [file, full] = asNobody
      ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, ...argv]]
      : [process.execPath, argv];
    const child = spawn(file, full, { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const both: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => (out.push(chunk), both.push(chunk)));
    child.stderr.on('data', (chunk: Buffer) => (err.push(chunk), both.push(chunk)));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, KILL_AFTER_MS);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, s) => resolve([c, s]));
    });
    clearTimeout(timer);
    const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
    return {
      command: `archive-schema ${args.join(' ')}${asNobody ? ' (as nobody)' : ''}`,
      code,
      signal,
      killed,
      stdout: text(out),
      stderr: text(err),
      output: text(both),
    };
  } finally {
    release();
  }
}

/** `archive-schema <args>` in this process, for a verdict the build's process already bounds. */
async function inProcess(args: string[], cwd: string): Promise<Run> {
  const result = await cli(args, cwd, { CI: 'true' });
  return {
    command: `archive-schema ${args.join(' ')}`,
    code: result.code,
    signal: null,
    killed: false,
    stdout: result.stdout,
    stderr: result.stderr,
    output: result.stdout + result.stderr,
  };
}

// ---- Files a case writes --------------------------------------------------------------------------

/** What a case puts at a path under metadata/: bytes, or something that is not a plain file. */
type Content =
  | string
  | Buffer
  | { symlink: string }
  | { fifo: true }
  | { folder: true }
  /** A sparse file of this many bytes (NULs), made at once. */
  | { sparse: number }
  /** The existing file's mode changed. */
  | { mode: number }
  /** The existing file rewritten. */
  | { edit: (bytes: Buffer) => Buffer }
  /** A file whose name, beside the path's, is these bytes (which need not be UTF-8), and may go through a folder. */
  | { named: Buffer; text: string };

async function put(target: string, content: Content): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  if (typeof content === 'string' || Buffer.isBuffer(content)) await writeFile(target, content);
  else if ('symlink' in content) await symlink(content.symlink, target);
  else if ('fifo' in content) {
    const made = spawnSync('mkfifo', [target]);
    if (made.status !== 0) throw new Error(`mkfifo ${target} failed: ${made.stderr.toString()}`);
  } else if ('folder' in content) await mkdir(target, { recursive: true });
  else if ('sparse' in content) {
    await writeFile(target, '');
    await truncate(target, content.sparse);
  } else if ('mode' in content) await chmod(target, content.mode);
  else if ('named' in content) {
    const file = Buffer.concat([Buffer.from(`${path.dirname(target)}/`), content.named]);
    await mkdir(file.subarray(0, file.lastIndexOf('/')), { recursive: true });
    await writeFile(file, content.text);
  } else await writeFile(target, content.edit(await readFile(target)));
}

// ---- The hostile archive's own survey, release, group and facility --------------------------------

// A survey of its own beside the fixture's, so that no case depends on what the fixture holds.
const SURVEY = 'zeta/survey.yaml';
const RELEASE = 'zeta/dr1/release.yaml';
const GROUP = 'zeta/dr1/catalogues/Hostile.yaml';
const FACILITY = 'zeta/dr1/imaging/Scope.yaml';
const SURVEY_JSON = 'api/schema/990/index.json';

const SURVEY_TEXT = HOSTILE_SURVEY;
const RELEASE_TEXT = HOSTILE_RELEASE;
// Line 9 is the column's id, line 11 its description.
const GROUP_TEXT = HOSTILE_GROUP;

// Line 8 is the band's wavelength, line 17 the region's FITS header.
const FACILITY_TEXT = `id: 9902
name: Scope
created: 2020-01-01T00:00:00Z
updated: 2020-01-01T00:00:00Z
bands:
  - id: 99002
    name: r
    central_wave_ang: 6313
    regions:
      - id: 990002
        name: G09
        ra_c: '135.0'
        dec_c: '-0.5'
        unit: deg
        frame: icrs
        equinox: j2000
        fits_header:
          SIMPLE: [true, conforms to FITS standard]
          NAXIS: [0, no data]
`;

/** The survey and its release, with `files` added or put in their place. */
function zeta(files: Record<string, Content> = {}): Record<string, Content> {
  return { [SURVEY]: SURVEY_TEXT, [RELEASE]: RELEASE_TEXT, ...files };
}

/** The hostile group, with `change` made to its text. */
function group(change: (text: string) => string | Buffer = (t) => t): Record<string, Content> {
  return zeta({ [GROUP]: change(GROUP_TEXT) });
}

function facility(change: (text: string) => string): Record<string, Content> {
  return zeta({ [FACILITY]: change(FACILITY_TEXT) });
}

/** The group's text with its column description's value replaced by raw bytes. */
function descriptionBytes(bytes: number[]): Buffer {
  const [before = '', after = ''] = GROUP_TEXT.split('plain');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

function utf16(text: string, order: 'le' | 'be', bom = true): Buffer {
  const le = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? le : Buffer.from(le).swap16();
  return bom ? Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
}

function utf32(text: string, order: 'le' | 'be'): Buffer {
  const points = [0xfeff, ...Array.from(text, (c) => c.codePointAt(0) ?? 0)];
  const bytes = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => (order === 'le' ? bytes.writeUInt32LE(p, i * 4) : bytes.writeUInt32BE(p, i * 4)));
  return bytes;
}

/** Deterministic noise: a linear congruential generator's bytes, with or without NULs. */
function garbage(length: number, withNul: boolean): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 0x2545f491;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const byte = (state >>> 16) & 0xff;
    bytes[i] = withNul ? byte : (byte % 255) + 1;
  }
  // Never a byte order mark at the start: that is another case.
  bytes[0] = 0x9f;
  return bytes;
}

const lines = (text: string, endings: string[]): string =>
  text
    .split('\n')
    .slice(0, -1)
    .map((line, i) => line + (endings[i % endings.length] ?? '\n'))
    .join('');

/** 9 levels of 10 aliases each: 10^9 "lol"s if expanded. */
const BILLION_LAUGHS = [
  'x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...Array.from({ length: 9 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array.from({ length: 10 }, () => `*a${i}`).join(', ')}]`),
].join('\n');

const DEEP = 10_000;
/** What an empty document is told. */
const EMPTY = /the file is empty; a catalogue group file needs at least the keys id, name.*\[schema\/required\]/;
const ESC = '\u001b';
const BEL = '\u0007';
const SCRIPT = '<script>alert(1)</script>';
const CLOSE = '</script><script>alert(2)</script>';
const IMG = '"><img src=x onerror=alert(3)>';

// ---- The cases ------------------------------------------------------------------------------------

interface Expect {
  code: 0 | 1 | 2;
  /** Matched against everything the command printed. */
  message?: RegExp;
  /** Never in what the command printed. */
  absent?: RegExp;
  /** The offending file under metadata/, as the report shows it (control characters escaped), or a pattern of it. */
  file?: string | RegExp;
  /** true: reported at `file:line:col`; false: the file alone, a whole-file problem. */
  located?: boolean;
  line?: number;
  col?: number;
  /** Output file (under out/) → JSON fragments it must hold, byte for byte. */
  published?: Record<string, string[]>;
  /** Text that must never appear unescaped in a browsable page (out/**.html). */
  notInPages?: string[];
  /** The build succeeds and gives the baseline's files, byte for byte (but for the marker naming the build). */
  unchanged?: boolean;
}

interface Row {
  name: string;
  files: Record<string, Content>;
  expect: Expect;
  /** Also `check --reference`: the position-keeping parser alone must reach the same verdict. */
  reference?: boolean;
  /** Run as an unprivileged user, on a copy that user owns. */
  nobody?: boolean;
  /** Only as root, whom file modes do not stop (the tests' user). */
  root?: boolean;
  /**
   * The build runs as the compiled command in a process of its own, under the heap limit and the
   * kill timer: the cases those guard against (expansion, depth, size, pipes, loops). The others
   * are built in this process, which costs a fifth of a process start.
   */
  bounded?: boolean;
  /** The heap of a bounded case's processes, where a file of megabytes needs more than HEAP_MB. */
  heapMb?: number;
}

const refused = (file: string | RegExp, located: boolean, message: RegExp, more: Partial<Expect> = {}): Expect => ({
  code: 1,
  file,
  located,
  message,
  ...more,
});

// ---- Cases of a pull request that would hang or exhaust CI ----------------------------------------

/** `n` lines made by `line`, each ending in a line break. */
const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => `${line(i)}\n`).join('');

/** The refusal of nesting past the limit, at its place. */
const TOO_DEEP = /lists and mappings are nested more than 64 deep here.*\[yaml\/too-deep\]/;
/** Past a hundred problems of a kind in a file, one line says how many more there are. */
const MORE = (n: string, rule: string) =>
  new RegExp(`${n} more problems of this kind \\[${rule}\\] from here on in this file, not listed one by one`);

/**
 * Each was a hang, an internal error or minutes of CI, and ends now in seconds with a located
 * error. The inputs are generated here, a few megabytes at most: the benchmark over the corpus
 * (bench/hostile.ts) runs them at the sizes a 32 MB file allows, and times them.
 */
const HOSTILE_ROWS: Row[] = [
  {
    name: '50,000 aliases of a 9-node anchor are refused at the first alias, never resolved one by one',
    bounded: true,
    files: group((t) => `${t}x: &a {a: 1, b: 2, c: 3, d: 4}\ny: [${Array.from({ length: 50_000 }, () => '*a').join(', ')}]\n`),
    expect: refused(GROUP, true, /the aliases \(\*name\) here and below expand to more than 100 nodes.*\[yaml\/aliases\]/, {
      line: 13,
      col: 5,
    }),
    reference: true,
  },
  {
    name: '20,000 aliases of a scalar are refused at the first alias',
    bounded: true,
    files: group((t) => `${t}x: &a 1\ny:\n${many(20_000, () => '  - *a')}`),
    expect: refused(GROUP, true, /\[yaml\/aliases\]/, { line: 14, col: 5 }),
    reference: true,
  },
  {
    name: 'a chain of 2,000 merge keys (<<: *a) is refused at its first alias',
    bounded: true,
    files: group((t) => `${t}m0: &m0 {k: 1}\n${many(1_999, (i) => `m${i + 1}: &m${i + 1} {<<: *m${i}, k${i + 1}: 1}`)}`),
    expect: refused(GROUP, true, /\[yaml\/aliases\]/, { line: 13, col: 14 }),
    reference: true,
  },
  {
    name: 'a flow mapping of 20,000 keys on one 220 kB line is read in one pass, its key located',
    bounded: true,
    heapMb: 768,
    files: group((t) => `${t}x: {${Array.from({ length: 20_000 }, (_, i) => `k${i}: 1`).join(', ')}}\n`),
    expect: refused(GROUP, true, /unknown key "x".*\[schema\/unknown-key\]/, { line: 12, col: 1 }),
  },
  {
    name: '15,000 unknown keys in one mapping: a hundred listed, and how many more',
    bounded: true,
    heapMb: 768,
    files: group((t) => `${t}${many(15_000, (i) => `k${i}: 1`)}`),
    expect: refused(GROUP, true, /unknown key "k0".*\[schema\/unknown-key\]/, {
      line: 12,
      col: 1,
      message: MORE('14,900', 'schema/unknown-key'),
    }),
  },
  {
    name: 'a table of 5,000 columns each with an error: a hundred listed, and how many more',
    bounded: true,
    heapMb: 768,
    files: group((t) =>
      t.replace(
        '      - id: 990001\n        name: C\n        description: plain\n',
        many(5_000, (i) => `      - id: x${i}\n        name: c${i}`),
      ),
    ),
    expect: refused(GROUP, true, /column "c0" > id must be an integer, found the string "x0".*\[schema\/type\]/, {
      line: 9,
      col: 13,
      message: MORE('4,900', 'schema/type'),
    }),
  },
  {
    name: '150,000 lines of dup: 1 (a million diagnostics’ worth): a hundred listed, and how many more, never a RangeError',
    bounded: true,
    heapMb: 768,
    files: group((t) => `${t}${many(150_000, () => 'dup: 1')}`),
    expect: refused(GROUP, true, /Map keys must be unique; fix the YAML syntax here  \[yaml\/duplicate-key\]/, {
      line: 13,
      col: 1,
      message: MORE('149,899', 'yaml/duplicate-key'),
    }),
  },
  {
    name: '5,000 duplicate keys in a nested mapping, in a file the position-keeping parser reads',
    bounded: true,
    files: group((t) => `${t}x:\n${many(5_000, () => '  dup: 1')}`),
    expect: refused(GROUP, true, /\[yaml\/duplicate-key\]/, { line: 14, col: 3, message: MORE('4,899', 'yaml/duplicate-key') }),
    reference: true,
  },
  ...([1_000, 1_000_000] as const).flatMap((depth): Row[] => [
    {
      name: `flow sequences nested ${depth.toLocaleString('en')} deep are refused as nesting, at its place`,
      bounded: true,
      files: group((t) => t.replace('plain', '['.repeat(depth) + ']'.repeat(depth))),
      expect: refused(GROUP, true, TOO_DEEP, { line: 11 }),
      reference: true,
    },
    {
      name: `flow mappings nested ${depth.toLocaleString('en')} deep are refused as nesting, at its place`,
      bounded: true,
      files: group((t) => t.replace('plain', '{a: '.repeat(depth) + 'b' + '}'.repeat(depth))),
      expect: refused(GROUP, true, TOO_DEEP, { line: 11 }),
      reference: true,
    },
  ]),
  {
    name: 'block mappings 2,000 deep are refused as nesting, at its place',
    bounded: true,
    files: group((t) => `${t}extra:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} leaf\n`),
    expect: refused(GROUP, true, TOO_DEEP),
    reference: true,
  },
  {
    name: 'a syntax error, then flow sequences nested 1,000,000 deep: the error is said, the nesting never read',
    bounded: true,
    files: group((t) => `${t}x: ]\ny: ${'['.repeat(1_000_000)}\n`),
    expect: refused(GROUP, true, / error .*\[yaml\//, { line: 12 }),
    reference: true,
  },
  {
    name: 'a control character in a double-quoted string (which js-yaml refuses), then nesting 1,000,000 deep',
    bounded: true,
    files: group((t) => `${t.replace('plain', `"a${BEL}b"`)}y: ${'['.repeat(1_000_000)}\n`),
    expect: refused(GROUP, true, / error .*\[yaml\/syntax\]/, { line: 11 }),
    reference: true,
  },
  {
    name: 'a tag in a file over 2 MB, which only the position-keeping parser judges, is refused at its place',
    bounded: true,
    heapMb: 768,
    files: group((t) => `${t.replace('plain', '!!str plain')}${many(60_000, (i) => `# ${'padding '.repeat(4)}${i}`)}`),
    expect: refused(GROUP, true, /a tag \(!!str\) here, in a file of 2\.\d MB.*\[yaml\/large-file\]/, { line: 11, col: 22 }),
  },
  {
    name: 'a syntax error at the end of a file over 2 MB is said where it is, in the fast parser’s words',
    bounded: true,
    heapMb: 768,
    files: group((t) => `${t}${many(60_000, (i) => `# ${'padding '.repeat(4)}${i}`)}x: ]\n`),
    expect: refused(GROUP, true, /  error  .*; fix the YAML syntax here  \[yaml\/syntax\]/, { line: 60_012 }),
  },
  {
    name: 'a unit of 3,000 nested parentheses is an error at the unit, never a stack trace',
    bounded: true,
    files: group((t) => t.replace('description: plain', `unit: "${'('.repeat(3000)}m${')'.repeat(3000)}"`)),
    expect: refused(GROUP, true, /is 6,001 characters long, where a unit is a few.*\[units\/vounit\]/, { line: 11, col: 15 }),
    reference: true,
  },
  {
    name: 'a survey description of 50,000 unclosed <div> is refused at check, and the build stops in seconds',
    bounded: true,
    files: zeta({ [SURVEY]: SURVEY_TEXT.replace('description: plain', `description: "${'<div>'.repeat(50_000)}x"`) }),
    expect: refused(SURVEY, true, /nests HTML elements more than 64 deep.*\[values\/markup-depth\]/, { line: 5, col: 14 }),
    reference: true,
  },
];

const ROWS: Row[] = [
  // -- Expansion and depth
  {
    name: 'alias bomb (billion laughs) is refused at its first alias, never expanded',
    bounded: true,
    files: group((t) => `${t}${BILLION_LAUGHS}\n`),
    expect: refused(GROUP, true, /\[yaml\/aliases\]/, { line: 13 }),
  },
  {
    name: 'a single alias is expanded once (valid)',
    files: group((t) => t.replace('name: Hostile\n', 'name: Hostile\npretty_name: &p Aliased text\ndescription: *p\n')),
    expect: { code: 0, published: { [SURVEY_JSON]: ['"pretty_name":"Aliased text","description":"Aliased text"'] } },
  },
  {
    name: `flow sequences nested ${DEEP} deep`,
    bounded: true,
    files: group((t) => t.replace('plain', '['.repeat(DEEP) + ']'.repeat(DEEP))),
    expect: refused(GROUP, true, / error /),
  },
  {
    name: `flow mappings nested ${DEEP} deep`,
    bounded: true,
    files: group((t) => t.replace('plain', '{a: '.repeat(DEEP) + 'b' + '}'.repeat(DEEP))),
    expect: refused(GROUP, true, / error /),
  },
  {
    name: `block sequences nested ${DEEP} deep`,
    bounded: true,
    files: group((t) => t.replace('tables:\n', `tables:\n  ${'- '.repeat(DEEP)}x\nextra:\n`)),
    expect: refused(GROUP, true, / error /),
    reference: true,
  },
  {
    name: 'block mappings indented 2,500 deep',
    bounded: true,
    files: group((t) => `${t}extra:\n${Array.from({ length: 2500 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} leaf\n`),
    expect: refused(GROUP, true, / error /),
  },
  ...HOSTILE_ROWS,
  // -- Size
  {
    name: 'a file one byte over MAX_FILE_BYTES is refused unread, as a whole file',
    bounded: true,
    files: zeta({ [GROUP]: { sparse: MAX_FILE_BYTES + 1 } }),
    expect: refused(GROUP, false, /is 32\.0 MB, over the 32\.0 MB a metadata file may be.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a file of exactly MAX_FILE_BYTES is read, and its NUL bytes refused',
    bounded: true,
    files: zeta({ [GROUP]: { sparse: MAX_FILE_BYTES } }),
    expect: refused(GROUP, true, /NUL bytes.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'a value of 100,000 characters on one line is published whole (valid)',
    bounded: true,
    files: group((t) => t.replace('plain', 'v'.repeat(100_000))),
    expect: { code: 0, published: { [SURVEY_JSON]: [`"description":"${'v'.repeat(100_000)}"`] } },
    reference: true,
  },
  {
    name: 'a key of 100,000 characters',
    bounded: true,
    files: group((t) => `${t}${'k'.repeat(100_000)}: 1\n`),
    expect: refused(GROUP, true, / error /, { line: 12 }),
  },
  {
    name: 'a key of 1,025 characters, one over YAML’s limit',
    files: group((t) => `${t}${'k'.repeat(1025)}: 1\n`),
    expect: refused(GROUP, true, / error /, { line: 12 }),
  },
  {
    name: 'a key of exactly 1,024 characters is legal YAML, and an unknown key',
    files: group((t) => `${t}${'k'.repeat(1024)}: 1\n`),
    expect: refused(GROUP, true, /unknown key "k{1024}".*\[schema\/unknown-key\]/, { line: 12, col: 1 }),
    reference: true,
  },
  // -- Bytes and encodings
  {
    name: 'binary garbage without NUL bytes',
    files: zeta({ [GROUP]: garbage(8192, false) }),
    expect: refused(GROUP, true, /not UTF-8.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'binary garbage with NUL bytes',
    files: zeta({ [GROUP]: garbage(8192, true) }),
    expect: refused(GROUP, true, /not UTF-8.*\[yaml\/encoding\]/),
  },
  {
    name: 'invalid UTF-8 (a Latin-1 é) in a description, at its byte',
    files: zeta({ [GROUP]: descriptionBytes([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b]) }),
    expect: refused(GROUP, true, /\(E9 20 6F 6B\).*\[yaml\/encoding\]/, { line: 11, col: 25 }),
  },
  {
    name: 'an overlong UTF-8 encoding of "/" (C0 AF)',
    files: zeta({ [GROUP]: descriptionBytes([0x2e, 0x2e, 0xc0, 0xaf]) }),
    expect: refused(GROUP, true, /\(C0 AF.*\[yaml\/encoding\]/, { line: 11, col: 24 }),
  },
  {
    name: 'an overlong three-byte NUL (E0 80 80)',
    files: zeta({ [GROUP]: descriptionBytes([0x61, 0xe0, 0x80, 0x80]) }),
    expect: refused(GROUP, true, /\(E0 80 80.*\[yaml\/encoding\]/, { line: 11, col: 23 }),
  },
  {
    name: 'a UTF-16 surrogate encoded in UTF-8 (ED A0 80)',
    files: zeta({ [GROUP]: descriptionBytes([0xed, 0xa0, 0x80]) }),
    expect: refused(GROUP, true, /\(ED A0 80.*\[yaml\/encoding\]/, { line: 11, col: 22 }),
  },
  {
    name: 'a UTF-8 byte order mark is allowed: same output as without it',
    files: { 'alpha/survey.yaml': { edit: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) } },
    expect: { code: 0, unchanged: true },
  },
  {
    name: 'UTF-16 LE with a byte order mark',
    files: zeta({ [GROUP]: utf16(GROUP_TEXT, 'le') }),
    expect: refused(GROUP, true, /encoded as UTF-16.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'UTF-16 BE with a byte order mark',
    files: zeta({ [GROUP]: utf16(GROUP_TEXT, 'be') }),
    expect: refused(GROUP, true, /encoded as UTF-16.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'UTF-16 LE without a byte order mark',
    files: zeta({ [GROUP]: utf16(GROUP_TEXT, 'le', false) }),
    expect: refused(GROUP, true, /NUL bytes.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'UTF-32 LE with a byte order mark',
    files: zeta({ [GROUP]: utf32(GROUP_TEXT, 'le') }),
    expect: refused(GROUP, true, /encoded as UTF-32.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'UTF-32 BE with a byte order mark',
    files: zeta({ [GROUP]: utf32(GROUP_TEXT, 'be') }),
    expect: refused(GROUP, true, /encoded as UTF-32.*\[yaml\/encoding\]/, { line: 1, col: 1 }),
  },
  {
    name: 'a NUL byte inside a description',
    files: zeta({ [GROUP]: descriptionBytes([0x61, 0x00, 0x62]) }),
    expect: refused(GROUP, true, /holds a NUL character, which metadata cannot publish; remove it  \[yaml\/encoding\]/, {
      line: 11,
      col: 23,
    }),
  },
  {
    name: 'a lone surrogate escape (\\uD800) is refused: half a character, which no UTF-8 file, XML or Python string can hold',
    files: group((t) => t.replace('plain', '"a \\uD800 b"')),
    expect: refused(GROUP, true, /holds half of a surrogate pair.*\[values\/surrogate\]/, { line: 11 }),
    reference: true,
  },
  {
    name: 'an escape beyond U+10FFFF (\\U00110000) is refused where it is, never published as two broken halves',
    files: group((t) => t.replace('plain', '"a \\U00110000 b"')),
    expect: refused(GROUP, true, /Invalid escape sequence \\U00110000.*\[yaml\/bad-dq-escape\]/, { line: 11 }),
    reference: true,
  },
  {
    name: 'a NUL byte after the first 4 KiB is still refused, never published',
    files: zeta({
      [GROUP]: Buffer.concat([Buffer.from('# padding comment line\n'.repeat(200)), descriptionBytes([0x61, 0x00, 0x62])]),
    }),
    expect: refused(GROUP, true, / error /, { line: 211 }),
    reference: true,
  },
  {
    name: 'escape and bell written as YAML escapes are published as JSON escapes (valid)',
    files: group((t) => t.replace('plain', '"\\e[31mred\\a"')),
    expect: { code: 0, published: { [SURVEY_JSON]: ['"description":"\\u001b[31mred\\u0007"'] } },
  },
  // -- Line endings
  {
    name: 'CR-only line endings: a mistake is reported on its own line',
    files: group((t) => lines(t.replace('id: 990001', 'id: twelve'), ['\r'])),
    expect: refused(GROUP, true, /must be an integer, found the string "twelve".*\[schema\/type\]/, { line: 9, col: 13 }),
    reference: true,
  },
  {
    name: 'CRLF line endings are valid: same output as with LF',
    files: { 'alpha/survey.yaml': { edit: (b) => Buffer.from(b.toString('utf8').replaceAll('\n', '\r\n')) } },
    expect: { code: 0, unchanged: true },
  },
  {
    name: 'mixed LF, CRLF and CR endings: a mistake is reported on its own line',
    files: group((t) => lines(t.replace('id: 990001', 'id: twelve'), ['\n', '\r\n', '\r'])),
    expect: refused(GROUP, true, /must be an integer, found the string "twelve".*\[schema\/type\]/, { line: 9, col: 13 }),
  },
  // -- Keys
  {
    name: 'a duplicate key at the top',
    files: group((t) => `${t}name: Again\n`),
    expect: refused(GROUP, true, /\[yaml\/duplicate-key\]/, { line: 12 }),
  },
  {
    name: 'a duplicate key inside a column',
    files: group((t) => `${t}        name: D\n`),
    expect: refused(GROUP, true, /\[yaml\/duplicate-key\]/, { line: 12 }),
  },
  {
    name: '__proto__ at the top is an unknown key, not a prototype',
    files: group((t) => `${t}__proto__: {polluted: true}\n`),
    expect: refused(GROUP, true, /unknown key "__proto__".*\[schema\/unknown-key\]/, { line: 12, col: 1 }),
  },
  {
    name: '__proto__ cannot supply a required key',
    files: group((t) => `${t.replace('name: Hostile\n', '')}__proto__: {name: Hostile}\n`),
    expect: refused(GROUP, true, /unknown key "__proto__"/),
  },
  {
    name: 'constructor at the top is an unknown key',
    files: group((t) => `${t}constructor: {name: x}\n`),
    expect: refused(GROUP, true, /unknown key "constructor".*\[schema\/unknown-key\]/, { line: 12, col: 1 }),
  },
  {
    name: 'prototype at the top is an unknown key',
    files: group((t) => `${t}prototype: {name: x}\n`),
    expect: refused(GROUP, true, /unknown key "prototype".*\[schema\/unknown-key\]/, { line: 12, col: 1 }),
  },
  {
    name: '__proto__ nested in a column is an unknown key',
    files: group((t) => `${t}        __proto__: {id: 1}\n`),
    expect: refused(GROUP, true, /unknown key "__proto__".*\[schema\/unknown-key\]/, { line: 12, col: 9 }),
  },
  {
    name: 'constructor nested in a contact is an unknown key',
    files: zeta({ [SURVEY]: SURVEY_TEXT.replace('email: zeta@example.org}', 'email: zeta@example.org, constructor: x}') }),
    expect: refused(SURVEY, true, /unknown key "constructor".*\[schema\/unknown-key\]/, { line: 7 }),
  },
  {
    name: '__proto__ as a FITS keyword',
    files: facility((t) => `${t}          __proto__: [1, polluted]\n`),
    expect: refused(FACILITY, true, /__proto__/, { line: 20 }),
  },
  {
    name: 'a merge key (<<) with a mapping is a YAML 1.1 feature: an unknown key',
    files: group((t) => `${t}        <<: {pretty_name: merged}\n`),
    expect: refused(GROUP, true, /unknown key "<<".*\[schema\/unknown-key\]/, { line: 12, col: 9 }),
    reference: true,
  },
  {
    name: 'a merge key (<<) with an alias: an unknown key',
    files: group(
      (t) =>
        `${t.replace('      - id: 990001\n', '      - &m\n        id: 990001\n')}      - <<: *m\n        id: 990002\n        name: D\n`,
    ),
    expect: refused(GROUP, true, /unknown key "<<"/),
  },
  {
    name: 'a complex key (? [a, b])',
    files: group((t) => `${t}? [a, b]\n: c\n`),
    expect: refused(GROUP, true, / error /, { line: 12 }),
    reference: true,
  },
  ...(
    [
      ['null: c', 'a null key (null:)', 1],
      ['~: c', 'a null key (~:)', 1],
      [': c', 'a value with no key (: c)', 1],
      ['x: {: c}', 'an empty key in a flow mapping', 5],
    ] as const
  ).map(([line, name, col]) => ({
    name: `${name} is refused at its place, never published as "null" or ""`,
    files: group((t) => `${t}${line}\n`),
    expect: refused(GROUP, true, /a key here is empty or null.*\[yaml\/null-key\]/, { line: 12, col }),
    reference: true,
  })),
  // -- Tags
  {
    name: 'a !!python/object tag is refused, never resolved or dropped',
    files: group((t) => t.replace('plain', '!!python/object:os.system echo pwned')),
    expect: refused(GROUP, true, /python\/object/, { line: 11 }),
    reference: true,
  },
  {
    name: 'a local !foo tag is refused, never dropped',
    files: group((t) => t.replace('plain', '!foo bar')),
    expect: refused(GROUP, true, /foo/, { line: 11 }),
    reference: true,
  },
  {
    name: 'a !!binary value where text is expected',
    files: group((t) => t.replace('plain', '!!binary aGVsbG8=')),
    expect: refused(GROUP, true, / error /, { line: 11 }),
    reference: true,
  },
  {
    name: 'an !!omap FITS header (YAML 1.1) is refused, never published empty',
    files: facility((t) =>
      t.replace(
        '        fits_header:\n          SIMPLE: [true, conforms to FITS standard]\n          NAXIS: [0, no data]\n',
        '        fits_header: !!omap\n          - SIMPLE: [true, conforms to FITS standard]\n          - NAXIS: [0, no data]\n',
      ),
    ),
    expect: refused(FACILITY, true, / error /, { line: 17 }),
    reference: true,
  },
  {
    name: '!!float on a whole number: the fast path and the reference agree (were: published 6313, refused as a string)',
    files: facility((t) => t.replace('central_wave_ang: 6313', 'central_wave_ang: !!float 6313')),
    expect: refused(FACILITY, true, /the tag !!float is not used in metadata files.*\[yaml\/tag\]/, { line: 8, col: 23 }),
    reference: true,
  },
  // -- Numbers
  ...(
    [
      ['.nan', 'NaN'],
      ['.inf', 'infinity'],
      ['-.inf', 'minus infinity'],
      ['1e400', 'a float beyond the double range'],
    ] as const
  ).map(([written, what]): Row => ({
    name: `${what} (${written}) as an id`,
    files: group((t) => t.replace('id: 9901', `id: ${written}`)),
    expect: refused(GROUP, true, /\[schema\/type\]/, { line: 1, col: 5 }),
    // js-yaml reads 1e400 as text, the position-keeping parser as infinity: both must refuse it.
    reference: written === '1e400',
  })),
  ...(
    [
      ['.nan', 'NaN'],
      ['.inf', 'infinity'],
      ['-.inf', 'minus infinity'],
      ['1e400', 'a float beyond the double range'],
    ] as const
  ).map(([written, what]): Row => ({
    name: `${what} (${written}) as a wavelength`,
    files: facility((t) => t.replace('central_wave_ang: 6313', `central_wave_ang: ${written}`)),
    expect: refused(FACILITY, true, / error /, { line: 8, col: 23 }),
    reference: written === '1e400',
  })),
  {
    name: '.inf as a release version (a number field)',
    files: zeta({ [RELEASE]: RELEASE_TEXT.replace('version: 1', 'version: .inf') }),
    expect: refused(RELEASE, true, / error /, { line: 3, col: 10 }),
  },
  ...(
    [
      ['9007199254740993', '2^53+1'],
      ['18446744073709551616', '2^64'],
      ['-18446744073709551616', '-2^64'],
    ] as const
  ).map(([written, what]): Row => ({
    name: `${what} as an id is an unsafe integer, not a rounded id`,
    files: group((t) => t.replace('id: 990001', `id: ${written}`)),
    expect: refused(GROUP, true, new RegExp(`is ${written}, beyond 9007199254740991.*\\[values/unsafe-integer\\]`), { line: 9, col: 13 }),
    reference: written.startsWith('9'),
  })),
  ...(
    [
      [
        '9007199254740993.0',
        /is written as 9007199254740993\.0, where a whole number is expected; it would be published as 9007199254740992/,
      ],
      ['5.0', /is written as 5\.0, where a whole number is expected; write 5  \[values\/whole-number\]/],
      ['5e0', /is written as 5e0, where a whole number is expected; write 5  \[values\/whole-number\]/],
    ] as const
  ).map(([written, message]): Row => ({
    name: `an id written ${written} is refused, never published as another number`,
    files: group((t) => t.replace('id: 990001', `id: ${written}`)),
    expect: refused(GROUP, true, message, { line: 9, col: 13 }),
    reference: true,
  })),
  {
    name: 'two columns named a\\x01 and a\\x02 are refused, never published as one name a\\uFFFD twice in the VO tables',
    files: group((t) => `${t}      - id: 990002\n        name: "a\\x01"\n      - id: 990003\n        name: "a\\x02"\n`),
    expect: refused(
      GROUP,
      true,
      /column "a\\u0001" > name holds a control character \(U\+0001\), which a name cannot hold.*\[values\/control-character\]/,
      {
        line: 13,
        col: 15,
      },
    ),
    reference: true,
  },
  {
    name: 'a hexadecimal id (0x10) is the YAML 1.2 integer 16 (valid)',
    files: group((t) => t.replace('id: 9901', 'id: 0x10')),
    expect: { code: 0, published: { [SURVEY_JSON]: ['{"id":16,"name":"Hostile"'] } },
    reference: true,
  },
  {
    name: 'an octal id (0o17) is the YAML 1.2 integer 15 (valid)',
    files: group((t) => t.replace('id: 9901', 'id: 0o17')),
    expect: { code: 0, published: { [SURVEY_JSON]: ['{"id":15,"name":"Hostile"'] } },
    reference: true,
  },
  {
    name: 'a quoted id ("12") is a string, not an id',
    files: group((t) => t.replace('id: 9901', 'id: "12"')),
    expect: refused(GROUP, true, /must be an integer, found the string "12".*\[schema\/type\]/, { line: 1, col: 5 }),
  },
  {
    name: 'a boolean id',
    files: group((t) => t.replace('id: 9901', 'id: true')),
    expect: refused(GROUP, true, /must be an integer, found the boolean true.*\[schema\/type\]/, { line: 1, col: 5 }),
  },
  {
    name: 'a null id',
    files: group((t) => t.replace('id: 9901', 'id: ~')),
    expect: refused(GROUP, true, /must be an integer, found nothing \(null\).*\[schema\/type\]/, { line: 1, col: 5 }),
  },
  // -- Degenerate files
  {
    name: 'an empty file',
    files: zeta({ [GROUP]: '' }),
    expect: refused(GROUP, true, EMPTY, { line: 1, col: 1 }),
    reference: true,
  },
  {
    name: 'a file of comments only',
    files: zeta({ [GROUP]: '# nothing here\n# at all\n' }),
    expect: refused(GROUP, true, EMPTY, { line: 1 }),
  },
  {
    name: 'a file holding only ---',
    files: zeta({ [GROUP]: '---\n' }),
    expect: refused(GROUP, true, EMPTY, { line: 1 }),
  },
  {
    name: 'two documents in one file',
    files: group((t) => `${t}---\n${t}`),
    expect: refused(GROUP, true, / error /, { line: 12 }),
  },
  {
    name: 'a scalar where the file’s mapping is expected',
    files: zeta({ [GROUP]: 'just some text\n' }),
    expect: refused(GROUP, true, /must be a mapping.*\[schema\/type\]/, { line: 1, col: 1 }),
  },
  {
    name: 'a list where a mapping is expected (a column)',
    files: group((t) => t.replace('      - id: 990001\n        name: C\n        description: plain\n', '      - [990001, C, plain]\n')),
    expect: refused(GROUP, true, /must be a mapping.*\[schema\/type\]/, { line: 9, col: 9 }),
  },
  {
    name: 'a mapping where a list is expected (tables)',
    files: group((t) => t.replace('tables:\n  - id: 99001', 'tables:\n  T:\n    id: 99001')),
    expect: refused(GROUP, true, /tables must be a list.*\[schema\/type\]/, { line: 6 }),
  },
  {
    name: 'merge-conflict markers',
    files: group((t) =>
      t.replace(
        '        description: plain\n',
        '<<<<<<< HEAD\n        description: plain\n=======\n        description: other\n>>>>>>> branch\n',
      ),
    ),
    expect: refused(GROUP, true, /merge-conflict markers.*\[yaml\/conflict\]/, { line: 11, col: 1 }),
  },
  {
    name: 'a tab-indented file',
    files: group((t) => t.replaceAll('  ', '\t')),
    expect: refused(GROUP, true, / error /),
  },
  // -- Text that is odd but valid
  {
    name: 'HTML and script in every text field are published verbatim as JSON strings (valid)',
    files: zeta({
      [SURVEY]: SURVEY_TEXT.replace('pretty_name: Zeta', `pretty_name: '${CLOSE}'`)
        .replace('title: Zeta Hostile Survey', `title: '${SCRIPT}'`)
        .replace('description: plain', `description: '${IMG}'`)
        .replace('pi: Nobody', "pi: '<!-- -->'"),
      [RELEASE]: RELEASE_TEXT.replace('pretty_name: Zeta DR1', `pretty_name: '${SCRIPT}'`),
      [GROUP]: GROUP_TEXT.replace('name: Hostile\n', `name: Hostile\npretty_name: '${CLOSE}'\ndocumentation: '${IMG}'\nversion: '<b>'\n`)
        .replace('    name: T\n', `    name: T\n    description: '${SCRIPT}'\n    file_path: '/${CLOSE}/'\n    file_name: '${IMG}.fits'\n`)
        .replace('name: C', `name: '${SCRIPT}'`)
        .replace('description: plain', `description: '${IMG}'`),
    }),
    expect: {
      code: 0,
      published: {
        [SURVEY_JSON]: [
          `"pretty_name":${JSON.stringify(CLOSE)}`,
          `"title":${JSON.stringify(SCRIPT)}`,
          `"description":${JSON.stringify(IMG)}`,
          '"pi":"<!-- -->"',
          `"documentation":${JSON.stringify(IMG)}`,
          '"version":"<b>"',
          `"file_path":${JSON.stringify(`/${CLOSE}/`)}`,
          `"file_name":${JSON.stringify(`${IMG}.fits`)}`,
          `"name":${JSON.stringify(SCRIPT)}`,
        ],
      },
      notInPages: [SCRIPT, CLOSE, IMG],
    },
  },
  {
    name: 'escape sequences and a bell in a title are published as JSON escapes (valid)',
    files: zeta({ [SURVEY]: SURVEY_TEXT.replace('title: Zeta Hostile Survey', `title: "${ESC}[2J${ESC}]0;owned${BEL}Zeta"`) }),
    expect: { code: 0, published: { [SURVEY_JSON]: ['"title":"\\u001b[2J\\u001b]0;owned\\u0007Zeta"'] } },
  },
  {
    name: 'escape sequences in a column name are shown escaped in the report',
    files: group((t) => t.replace('name: C', `name: "${ESC}[31mC${BEL}"`).replace('id: 990001', 'id: twelve')),
    expect: refused(GROUP, true, /column "\\u001B\[31mC\\u0007" > id must be an integer/, { line: 9, col: 13 }),
  },
  // -- File names
  {
    name: 'escape sequences and a bell in a file name are shown escaped',
    files: zeta({ [`zeta/dr1/catalogues/${ESC}[31mRed${BEL}.yaml`]: GROUP_TEXT }),
    expect: refused('zeta/dr1/catalogues/\\u001B[31mRed\\u0007.yaml', true, / error /),
  },
  {
    name: 'a right-to-left override in a file name is shown escaped',
    files: zeta({ 'zeta/dr1/catalogues/Evil\u202elmay.yaml': GROUP_TEXT }),
    expect: refused('zeta/dr1/catalogues/Evil\\u202Elmay.yaml', true, / error /),
  },
  {
    name: 'a space in a group’s file name',
    files: zeta({ 'zeta/dr1/catalogues/Spec Cat.yaml': GROUP_TEXT.replace('name: Hostile', 'name: Spec Cat') }),
    expect: refused('zeta/dr1/catalogues/Spec Cat.yaml', true, /\[schema\/pattern\]/, { line: 2 }),
  },
  {
    name: 'a non-ASCII group file name',
    files: zeta({ 'zeta/dr1/catalogues/Spëc.yaml': GROUP_TEXT.replace('name: Hostile', 'name: Spëc') }),
    expect: refused('zeta/dr1/catalogues/Spëc.yaml', true, /\[schema\/pattern\]/, { line: 2 }),
  },
  {
    name: 'a leading dash in a group’s file name',
    files: zeta({ 'zeta/dr1/catalogues/-rf.yaml': GROUP_TEXT.replace('name: Hostile', "name: '-rf'") }),
    expect: refused('zeta/dr1/catalogues/-rf.yaml', true, /\[schema\/pattern\]/, { line: 2 }),
  },
  {
    name: 'a newline in a file name is shown escaped, the report’s lines intact',
    files: zeta({ 'zeta/dr1/catalogues/Bad\nName.yaml': GROUP_TEXT }),
    // However it is escaped (\n, or \u000A as other control characters are), never a raw line break.
    expect: refused(/zeta\/dr1\/catalogues\/Bad(\\n|\\u000A)Name\.yaml/, true, / error /),
  },
  {
    name: 'a hidden .hidden.yaml is reported, never skipped',
    files: zeta({ 'zeta/dr1/catalogues/.hidden.yaml': GROUP_TEXT }),
    expect: refused('zeta/dr1/catalogues/.hidden.yaml', true, / error /),
  },
  {
    name: 'an odd but legal group file name (0_-.yaml) is built (valid)',
    files: zeta({ 'zeta/dr1/catalogues/0_-.yaml': GROUP_TEXT.replace('name: Hostile', "name: '0_-'") }),
    expect: { code: 0, published: { [SURVEY_JSON]: ['{"id":9901,"name":"0_-"'] } },
  },
  {
    name: 'a file whose name is not UTF-8 is an error at its path, shown escaped, never an empty archive',
    files: { notes: { named: Buffer.from([0x6e, 0x6f, 0x74, 0x65, 0x73, 0xff]), text: 'x' } },
    expect: refused('notes\\xFF', false, /has a name that is not UTF-8.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a file whose name is not UTF-8 beside a group hides nothing of its folder: the group is still checked',
    files: {
      ...group((t) => t.replace('id: 990001', 'id: twelve')),
      'zeta/dr1/catalogues/x': { named: Buffer.from([0x78, 0xc3, 0x28, 0x2e, 0x79, 0x61, 0x6d, 0x6c]), text: GROUP_TEXT },
    },
    expect: refused('zeta/dr1/catalogues/x\\xC3(.yaml', false, /has a name that is not UTF-8/, {
      message: /Hostile\.yaml:9:13  error  .*must be an integer/,
    }),
  },
  {
    name: 'a folder whose name is not UTF-8 is an error at its path, never skipped with what it holds',
    files: zeta({
      'zeta/x': { named: Buffer.from([0x64, 0x72, 0x80, 0x2f, 0x72, 0x65, 0x6c, 0x2e, 0x79, 0x61, 0x6d, 0x6c]), text: RELEASE_TEXT },
    }),
    expect: refused('zeta/dr\\x80', false, /has a name that is not UTF-8.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a pipe whatever its name, in any folder, is reported without opening it',
    bounded: true,
    files: { 'alpha/dr1/notes': { fifo: true } },
    expect: refused('alpha/dr1/notes', false, /is not a regular file.*\[layout\/not-a-file\]/),
  },
  {
    name: 'notes and editor backups beside metadata are not metadata: same output',
    files: {
      'alpha/notes.txt': 'notes',
      'alpha/dr1/catalogues/.DS_Store': garbage(64, true),
      'alpha/dr1/catalogues/SpecCat.yaml~': 'id: [broken',
      'alpha/dr1/catalogues/#SpecCat.yaml#': 'id: [broken',
    },
    expect: { code: 0, unchanged: true },
  },
  {
    name: 'a .yml file is named for what it is',
    files: zeta({ 'zeta/dr1/catalogues/Hostile.yml': GROUP_TEXT }),
    expect: refused('zeta/dr1/catalogues/Hostile.yml', false, /rename Hostile\.yml to Hostile\.yaml.*\[layout\/unexpected-file\]/),
  },
  {
    name: 'an upper-case .YAML extension',
    files: zeta({ 'zeta/dr1/catalogues/Hostile.YAML': GROUP_TEXT }),
    expect: refused('zeta/dr1/catalogues/Hostile.YAML', false, /\[layout\/unexpected-file\]/),
  },
  // -- Layout
  {
    name: 'a folder named like a YAML file',
    files: zeta({ 'zeta/dr1/catalogues/Dir.yaml': { folder: true } }),
    expect: refused('zeta/dr1/catalogues/Dir.yaml', false, /is a folder named like a metadata file.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a YAML file at a path outside the layout',
    files: zeta({ 'zeta/dr1/notes/x.yaml': 'a: 1\n' }),
    expect: refused('zeta/dr1/notes/x.yaml', false, /unexpected file in the metadata tree.*\[layout\/unexpected-file\]/),
  },
  {
    name: 'a YAML file at the top of the metadata folder',
    files: { 'stray.yaml': 'a: 1\n' },
    expect: refused('stray.yaml', false, /\[layout\/unexpected-file\]/),
  },
  {
    name: 'a group in a folder without release.yaml',
    files: zeta({ 'zeta/dr9/catalogues/Hostile.yaml': GROUP_TEXT }),
    expect: { code: 1, file: 'zeta/dr9/catalogues/Hostile.yaml', message: /release/ },
  },
  // -- Links, pipes, permissions
  {
    name: 'a symbolic link to a file in the tree',
    files: { 'alpha/dr1/catalogues/Copy.yaml': { symlink: 'SpecCat.yaml' } },
    expect: refused('alpha/dr1/catalogues/Copy.yaml', false, /is a symbolic link.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a symbolic link loop',
    bounded: true,
    files: { 'alpha/dr1/catalogues/Loop.yaml': { symlink: 'Loop.yaml' } },
    expect: refused('alpha/dr1/catalogues/Loop.yaml', false, /is a symbolic link.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a folder linked to its parent (a directory loop)',
    bounded: true,
    files: { 'alpha/loop': { symlink: '.' } },
    expect: refused('alpha/loop', false, /is a symbolic link.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a symbolic link out of the metadata folder (/etc/passwd) is never read',
    files: { 'alpha/dr1/catalogues/Passwd.yaml': { symlink: '/etc/passwd' } },
    expect: refused('alpha/dr1/catalogues/Passwd.yaml', false, /is a symbolic link.*\[layout\/not-a-file\]/, { absent: /root:/ }),
  },
  {
    name: 'a dangling symbolic link',
    files: { 'alpha/dr1/catalogues/Gone.yaml': { symlink: 'does-not-exist.yaml' } },
    expect: refused('alpha/dr1/catalogues/Gone.yaml', false, /is a symbolic link.*\[layout\/not-a-file\]/),
  },
  {
    name: 'a FIFO named like a YAML file is refused without opening it (no hang)',
    bounded: true,
    files: { 'alpha/dr1/catalogues/Pipe.yaml': { fifo: true } },
    expect: refused('alpha/dr1/catalogues/Pipe.yaml', false, /is not a regular file.*\[layout\/not-a-file\]/),
  },
  {
    name: 'an unreadable file (chmod 000) is read anyway by root: same output',
    files: { 'alpha/survey.yaml': { mode: 0o000 } },
    root: true,
    expect: { code: 0, unchanged: true },
  },
  {
    name: 'an unreadable file (chmod 000), as an unprivileged user: I/O trouble naming the file',
    files: { 'alpha/survey.yaml': { mode: 0o000 } },
    nobody: true,
    expect: { code: 2, message: /cannot read .*alpha\/survey\.yaml.*EACCES/ },
  },
  {
    name: 'an unreadable folder (chmod 000), as an unprivileged user: I/O trouble naming it, never skipped',
    files: { 'alpha/dr2': { mode: 0o000 } },
    nobody: true,
    expect: { code: 2, message: /cannot read .*EACCES.*alpha\/dr2/ },
  },
];

// ---- The checks -----------------------------------------------------------------------------------

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What no output may hold: a crash, a stack trace, or a character that acts on a terminal. */
function expectClean(run: Run, expect: ExpectStatic = globalExpect): void {
  const label = `${run.command}\n${run.output}`;
  expect(run.killed, `${run.command} was killed after ${KILL_AFTER_MS / 1000} s`).toBe(false);
  expect(run.signal, label).toBeNull();
  expect(run.output, label).not.toMatch(/internal error/i);
  expect(run.output, label).not.toMatch(/^ {4}at /m);
  expect(run.output, label).not.toMatch(/FATAL ERROR|heap out of memory/i);
  // Node's own warnings are not the product's messages: they name no file and say nothing to do.
  expect(run.output, label).not.toMatch(/^\(node:\d+\) /m);
  // eslint-disable-next-line no-control-regex
  expect(run.output, label).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]/);
}

function expectVerdict(run: Run, want: Expect, expect: ExpectStatic): void {
  const label = `${run.command}\n${run.output.slice(0, 4000)}`;
  expect(run.code, label).toBe(want.code);
  if (want.message) expect(run.output, label).toMatch(want.message);
  if (want.absent) expect(run.output, label).not.toMatch(want.absent);
  if (want.file === undefined) return;
  const shown = `metadata/${typeof want.file === 'string' ? escapeRegExp(want.file) : want.file.source}`;
  // The report line: `  path:line:col  error  message  [rule]`, or `  path  error  …` for a whole file.
  const at = want.located === undefined ? '(:\\d+:\\d+)?' : want.located ? `:${want.line ?? '\\d+'}:${want.col ?? '\\d+'}` : '';
  expect(run.output, label).toMatch(new RegExp(`^  ${shown}${at}  error  .+  \\[[a-z0-9-]+/[a-z0-9-]+\\]$`, 'm'));
}

const MARKER = '.archive-schema-output';

/** A copy of a folder, with its files' modes and times. */
function copyInto(from: string[], to: string): void {
  const copied = spawnSync('cp', ['-a', ...from, to], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`cp -a ${from.join(' ')} ${to} failed: ${copied.stderr}`);
}

function withoutMarker(files: Map<string, Buffer>): Map<string, Buffer> {
  return new Map([...files].filter(([file]) => file !== MARKER));
}

async function htmlPages(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const [file, bytes] of await snapshotTree(dir)) if (file.endsWith('.html')) found.push(bytes.toString('utf8'));
  return found;
}

describe('hostile metadata, checked and built; what could exhaust memory or hang, in a process with a heap limit and a kill timer', () => {
  let base = '';
  let baseline = new Map<string, Buffer>();

  beforeAll(async () => {
    base = await tempdir();
    await cp(FIXTURE, path.join(base, 'metadata'), { recursive: true });
    const built = await archiveSchema(
      ['build', '--metadata', 'metadata', '--out', 'out', '--cache-dir', 'cache-build', '--base-url', BASE_URL],
      base,
    );
    expectClean(built);
    globalExpect(built.code, built.output).toBe(0);
    baseline = await snapshotTree(path.join(base, 'out'));
    // The cache of a check in this process, which runs the sources (the build's process runs the
    // compiled code, whose cache is another).
    const checked = await inProcess(['check', '--metadata', 'metadata', '--cache-dir', 'cache-check'], base);
    globalExpect(checked.code, checked.output).toBe(0);
  });

  test('the hostile survey, release, group and facility are valid as written', async () => {
    const dir = await tempdir();
    await cp(path.join(base, 'metadata'), path.join(dir, 'metadata'), { recursive: true });
    for (const [relative, content] of Object.entries(zeta({ [GROUP]: GROUP_TEXT, [FACILITY]: FACILITY_TEXT })))
      await put(path.join(dir, 'metadata', relative), content);
    const run = await archiveSchema(['check', '--metadata', 'metadata', '--cache-dir', 'cache', '--quiet'], dir);
    expectClean(run);
    globalExpect(run.code, run.output).toBe(0);
  });

  test(`the corpus holds at least 55 cases, each named once`, () => {
    globalExpect(ROWS.length).toBeGreaterThanOrEqual(55);
    globalExpect(new Set(ROWS.map((r) => r.name)).size).toBe(ROWS.length);
  });

  test.concurrent.for(ROWS)('$name', { timeout: 4 * KILL_AFTER_MS }, async (row, ctx) => {
    if (row.nobody && !HAS_SETPRIV) ctx.skip('setpriv is not installed');
    if ((row.nobody || row.root) && process.getuid?.() !== 0) ctx.skip('only root can change owners and read past modes');
    const dir = await tempdir();
    // The metadata, the previous output as a build left it (the hostile build goes into the same
    // folder), and the caches the build and a check left, as a curator's next command finds them:
    // the files a case writes are read and checked afresh, the fixture's come from the cache.
    // Copied by one cp(1), which takes a tenth of the time Node's cp takes here.
    copyInto(
      ['metadata', 'out', await readlink(path.join(base, 'out')), '.out.manifest.json', 'cache-build', 'cache-check'].map((name) =>
        path.join(base, name),
      ),
      dir,
    );
    for (const [relative, content] of Object.entries(row.files)) await put(path.join(dir, 'metadata', relative), content);
    if (row.nobody) {
      const owned = spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
      if (owned.status !== 0) throw new Error(`chown failed: ${owned.stderr.toString()}`);
    }

    const want = row.expect;
    // `check` (and the reference path) give their verdict in this process, which costs a tenth of a
    // process start; so does the build, but for the cases a process's limits guard against. As
    // nobody, all are processes.
    // A bounded case is checked in a process of its own too, as CI checks a pull request.
    const run = (args: string[]) => (row.nobody || row.bounded ? archiveSchema(args, dir, row.nobody, row.heapMb) : inProcess(args, dir));
    const build = ['build', '--metadata', 'metadata', '--out', 'out', '--cache-dir', 'cache-build', '--base-url', BASE_URL];
    const [checked, built, reference] = await Promise.all([
      run(['check', '--metadata', 'metadata', '--cache-dir', 'cache-check']),
      row.bounded || row.nobody ? archiveSchema(build, dir, row.nobody, row.heapMb) : inProcess(build, dir),
      row.reference ? run(['check', '--metadata', 'metadata', '--reference']) : undefined,
    ]);
    for (const run of [checked, built, reference]) {
      if (!run) continue;
      expectClean(run, ctx.expect);
      if (want.code === 0) {
        ctx.expect(run.code, `${run.command}\n${run.output.slice(0, 4000)}`).toBe(0);
        if (want.message) ctx.expect(run.output).toMatch(want.message);
      } else {
        expectVerdict(run, want, ctx.expect);
      }
    }

    const after = await snapshotTree(path.join(dir, 'out'));
    if (want.code !== 0) {
      // A failed build leaves the previous output byte for byte, and nothing beside it.
      expectSameFiles(after, baseline);
      ctx.expect(await besideOutput(dir, 'out'), 'build folders left beside the output').toEqual([]);
    } else if (want.unchanged) {
      // The same metadata gives the same files; only the marker names the new build.
      ctx.expect(after.has(MARKER)).toBe(true);
      expectSameFiles(withoutMarker(after), withoutMarker(baseline));
    }
    for (const [file, fragments] of Object.entries(want.published ?? {})) {
      const bytes = after.get(file);
      ctx.expect(bytes, `out/${file}`).toBeDefined();
      const text = bytes?.toString('utf8') ?? '';
      ctx.expect(() => JSON.parse(text) as unknown, `out/${file} is JSON`).not.toThrow();
      for (const fragment of fragments) ctx.expect(text.includes(fragment), `out/${file} holds ${fragment.slice(0, 200)}`).toBe(true);
    }
    for (const page of want.notInPages ? await htmlPages(path.join(dir, 'out')) : []) {
      for (const text of want.notInPages ?? []) ctx.expect(page.includes(text), `a browsable page holds ${text} unescaped`).toBe(false);
    }
  });
});
