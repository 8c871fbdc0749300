// `npm run bench:hostile [-- --only NAME] [--timeout S] [--keep]`: runs `check` on each case of the
// hostile corpus at full size (files up to the 32 MB limit), each in a process of its own, and
// prints a Markdown table of them, slowest first, with time and peak memory.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOSTILE_GROUP, HOSTILE_GROUP_HEAD, HOSTILE_RELEASE, HOSTILE_SURVEY } from './hostile-archive.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../../bin/archive-schema.js');
// Prints the process's peak resident memory and its processor time (all its threads') as it exits:
// on a machine others share, the processor time says what the wall-clock time would be alone.
const RSS_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nBENCH-RSS '+u.maxRSS+' '+(u.userCPUTime+u.systemCPUTime)+'\\n')})`;
/** What `check` of any file under the size limit should take on the project's machine. */
const TARGET_S = 10;

const SURVEY = HOSTILE_SURVEY;
const RELEASE = HOSTILE_RELEASE;
const HEAD = HOSTILE_GROUP_HEAD;
const GROUP = HOSTILE_GROUP;

const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => `${line(i)}\n`).join('');

/** A group of realistic columns, each a few lines, about `mb` megabytes. */
function columns(mb: number, edit: (i: number, text: string) => string = (_, t) => t): string {
  const one = (i: number) =>
    `      - id: ${1_000_000 + i}\n        name: col_${i}\n        ucd: phot.mag;em.opt.R\n        unit: mag\n        description: The magnitude of the source in band r, corrected for extinction\n`;
  const n = Math.floor((mb * 1e6) / one(0).length);
  return HEAD + Array.from({ length: n }, (_, i) => edit(i, one(i))).join('');
}

interface Case {
  name: string;
  /** Files under metadata/, by path, besides the survey and its release. */
  files: () => Record<string, string | Buffer>;
  /** Also time `build`, where the build had a cost of its own. */
  build?: boolean;
}

const G = 'zeta/dr1/catalogues/Hostile.yaml';

const CASES: Case[] = [
  {
    name: '50,000 aliases of a 9-node anchor',
    files: () => ({ [G]: `${GROUP}x: &a {a: 1, b: 2, c: 3, d: 4}\ny: [${Array(50_000).fill('*a').join(', ')}]\n` }),
  },
  { name: '200,000 aliases of a scalar', files: () => ({ [G]: `${GROUP}x: &a 1\ny:\n${many(200_000, () => '  - *a')}` }) },
  {
    name: 'a chain of 20,000 merge keys',
    files: () => ({ [G]: `${GROUP}m0: &m0 {k: 1}\n${many(19_999, (i) => `m${i + 1}: &m${i + 1} {<<: *m${i}, k${i + 1}: 1}`)}` }),
  },
  {
    name: 'a flow mapping of 1,000,000 keys on one line',
    files: () => ({ [G]: `${GROUP}x: {${Array.from({ length: 1_000_000 }, (_, i) => `k${i}: 1`).join(', ')}}\n` }),
  },
  { name: '500,000 unknown keys in one mapping', files: () => ({ [G]: GROUP + many(500_000, (i) => `k${i}: 1`) }) },
  {
    name: '300,000 columns each with an error',
    files: () => ({ [G]: HEAD + many(300_000, (i) => `      - id: x${i}\n        name: c${i}`) }),
  },
  { name: '1,000,000 duplicate keys', files: () => ({ [G]: `${GROUP}x:\n${many(1_000_000, () => '  dup: 1')}` }) },
  { name: '150,000 lines of dup: 1', files: () => ({ [G]: GROUP + many(150_000, () => 'dup: 1') }) },
  { name: 'flow sequences nested 1,000,000 deep', files: () => ({ [G]: GROUP.replace('plain', '['.repeat(1e6) + ']'.repeat(1e6)) }) },
  {
    name: 'flow mappings nested 1,000,000 deep',
    files: () => ({ [G]: GROUP.replace('plain', '{a: '.repeat(1e6) + 'b' + '}'.repeat(1e6)) }),
  },
  {
    name: 'block mappings 2,000 deep',
    files: () => ({ [G]: `${GROUP}extra:\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i + 1)}k${i}:`).join('\n')} leaf\n` }),
  },
  { name: 'a syntax error, then 10,000,000-deep flow', files: () => ({ [G]: `${GROUP}x: ]\ny: ${'['.repeat(10_000_000)}\n` }) },
  {
    name: 'a unit of 3,000 nested parentheses',
    files: () => ({ [G]: GROUP.replace('description: plain', `unit: "${'('.repeat(3000)}m${')'.repeat(3000)}"`) }),
  },
  {
    name: 'a description of 200,000 unclosed <div>',
    build: true,
    files: () => ({ 'zeta/survey.yaml': SURVEY.replace('description: plain', `description: "${'<div>'.repeat(200_000)}x"`) }),
  },
  { name: 'a 31 MB group, valid', files: () => ({ [G]: columns(31) }) },
  {
    name: 'a 31 MB group with one error',
    files: () => ({ [G]: columns(31, (i, t) => (i === 150_000 ? t.replace('unit: mag', 'unit: [mag]') : t)) }),
  },
  { name: 'a 31 MB group with a syntax error at its end', files: () => ({ [G]: `${columns(31)}x: ]\n` }) },
  { name: 'a 31 MB group with a tag at its end', files: () => ({ [G]: `${columns(31)}x: !!str y\n` }) },
  {
    name: 'a 29 MB group, every id written as 1.000001e6',
    files: () => ({ [G]: columns(29, (i, t) => t.replace(`id: ${1_000_000 + i}`, `id: ${1 + i / 1e6}e6`)) }),
  },
  {
    name: '20,000 files whose names are not UTF-8',
    files: () => Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`zeta/x${i}\u0000`, 'x'])),
  },
];

interface Result {
  name: string;
  mb: number;
  command: string;
  code: number | null;
  seconds: number;
  /** Processor time, all threads. */
  cpu: number;
  rssMb: number;
  said: string;
}

/** Writes a case's files; a name ending in NUL stands for one ending in a byte that is not UTF-8. */
function place(metadata: string, files: Record<string, string | Buffer>): number {
  let bytes = 0;
  const all: Record<string, string | Buffer> = { 'zeta/survey.yaml': SURVEY, 'zeta/dr1/release.yaml': RELEASE, ...files };
  for (const [relative, content] of Object.entries(all)) {
    const target = path.join(metadata, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    const name = relative.endsWith('\u0000') ? Buffer.concat([Buffer.from(target.slice(0, -1)), Buffer.from([0xff])]) : target;
    writeFileSync(name, content);
    bytes += typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  }
  return bytes;
}

function run(dir: string, args: string[], timeoutS: number): Pick<Result, 'code' | 'seconds' | 'cpu' | 'rssMb' | 'said'> {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--import', RSS_HOOK, CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: timeoutS * 1000,
    env: { ...process.env, CI: 'true' },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [, rss, cpu] = /BENCH-RSS (\d+) (\d+)/.exec(child.stderr) ?? [];
  const report = `${child.stdout}${child.stderr.replace(/\nBENCH-RSS \d+ \d+\n/, '')}`;
  const said =
    report.split('\n').find((line) => / (error|warning) /.test(line) || line.startsWith('archive-schema:')) ?? report.split('\n')[0] ?? '';
  return {
    code: child.status,
    seconds,
    cpu: cpu ? Number(cpu) / 1e6 : 0,
    rssMb: rss ? Number(rss) / 1024 : 0,
    said: child.signal ? `killed after ${timeoutS} s` : said.trim(),
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const timeoutS = args.includes('--timeout') ? Number(args[args.indexOf('--timeout') + 1]) : 120;
  const root = mkdtempSync(path.join(os.tmpdir(), 'archive-schema-hostile-'));
  const results: Result[] = [];
  try {
    for (const c of CASES) {
      if (only !== undefined && !c.name.includes(only)) continue;
      const dir = path.join(root, String(results.length));
      const bytes = place(path.join(dir, 'metadata'), c.files());
      for (const command of c.build ? ['check', 'build'] : ['check']) {
        const argv = command === 'check' ? ['check', '--no-cache'] : ['build', '--no-cache', '--out', 'dist'];
        const result = { name: c.name, mb: bytes / 1e6, command, ...run(dir, argv, timeoutS) };
        results.push(result);
        process.stderr.write(
          `${result.seconds.toFixed(1).padStart(6)} s ${result.cpu.toFixed(1).padStart(6)} s ${result.rssMb.toFixed(0).padStart(5)} MB  ${command} ${c.name}\n`,
        );
      }
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    if (!args.includes('--keep')) rmSync(root, { recursive: true, force: true });
  }
  results.sort((a, b) => b.seconds - a.seconds);
  const lines = [
    '| case | MB | command | exit | time (s) | processor (s) | peak RSS (MB) | first line of its report |',
    '|---|---:|---|---:|---:|---:|---:|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.mb.toFixed(1)} | ${r.command} | ${r.code ?? '—'} | ${r.seconds.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.rssMb.toFixed(0)} | ${r.said.slice(0, 120).replaceAll('|', '\\|')} |`,
    ),
  ];
  const slowest = results[0];
  process.stdout.write(`${lines.join('\n')}\n\n`);
  if (slowest) {
    const load = os.loadavg()[0]?.toFixed(1) ?? '?';
    process.stdout.write(
      `Slowest: ${slowest.command} of "${slowest.name}", ${slowest.seconds.toFixed(1)} s (${slowest.cpu.toFixed(1)} s of processor time) and ${slowest.rssMb.toFixed(0)} MB ` +
        `(target ${TARGET_S} s: ${slowest.seconds <= TARGET_S ? 'met' : 'missed'}; load average ${load} on ${os.availableParallelism()} cores).\n`,
    );
  }
}

main();
