// `npm run bench:serve -- [--duration S] [--connections N] [--size XS|S|M|L] [--timeout S] [--dir DIR] [--json FILE]`:
// load on the preview server (`archive-schema serve`), beside the least a server must do (a plain
// static file server, bench/static-server.ts) and nginx when it is installed, each in a process
// of its own on a loopback port. It prints a Markdown table; each ratio is to the baseline
// measured in the same run, right before, and nothing is asserted: targets are reported as met
// or not.

import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, HOST, PROJECT, build, buildHas, dataFor } from './sites.ts';
import { isSize } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STATIC_SERVER = path.join(HERE, 'static-server.js');
/** Everything listens and connects here, and nowhere else. */
const COMPRESSED = { 'Accept-Encoding': 'br, gzip' };
/** Requests a large case makes over one connection; with many, one per connection. */
const LARGE_SEQUENTIAL = 8;
/** RSS is sampled this often (ms), besides each process's own peak, reset before each case. */
const SAMPLE_MS = 50;
/** Seconds a small answer may take before it is a timeout (at most --timeout). */
const SMALL_TIMEOUT = 10;
const TARGET = { ratio: 0.8, rssMb: 300, compression: 10 };

interface Options {
  /** Seconds each time-bounded run lasts. */
  duration: number;
  /** The many-connections count; every case also runs with one. */
  connections: number;
  size: Size;
  /** Seconds a response may take before it is a timeout; also bounds each count-bounded run. */
  timeout: number;
  dir: string | undefined;
  json: string | undefined;
}

type ServerName = 'baseline' | 'serve' | 'nginx';

// ---- Processes, and cleaning up after them ------------------------------------------------------

const live = new Set<ChildProcess>();
/** Servers that run in the background, by pid: nginx's master, found through its pid file. */
const daemons = new Set<number>();
const temporary = new Set<string>();

/** A process and its descendants, from the parents in /proc (task/*\/children is not in every kernel). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid ...; comm may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree = [pid];
  // The loop reaches what it appends, so the whole tree.
  for (const p of tree) tree.push(...(children.get(p) ?? []));
  return tree;
}

function signalTree(pid: number, signal: NodeJS.Signals): void {
  for (const p of processTree(pid).reverse()) {
    try {
      process.kill(p, signal);
    } catch {
      // Gone already.
    }
  }
}

/** What runs on exit whatever the reason: every server still running is stopped, every temporary folder removed. */
function cleanUpNow(): void {
  for (const child of live) if (child.pid !== undefined) signalTree(child.pid, 'SIGTERM');
  for (const pid of daemons) signalTree(pid, 'SIGTERM');
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  temporary.clear();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free loopback port');
  return address.port;
}

/** Whether anything answers HTTP on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get({ host: HOST, port, path: '/', agent: false, timeout: 1000 }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

/** Whether a process is there and not a zombie. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until the port answers HTTP; `why` says, while it does not, whether the server is gone. */
async function answering(port: number, why: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await answers(port))) {
    const gone = why();
    if (gone !== undefined || Date.now() > deadline) throw new Error(gone ?? 'it did not answer within 30 s');
    await sleep(50);
  }
}

/** Stops a process tree: SIGTERM, then SIGKILL after 5 s. */
async function stopTree(pid: number, gone: () => Promise<unknown>): Promise<void> {
  signalTree(pid, 'SIGTERM');
  if (await Promise.race([gone().then(() => true), sleep(5000).then(() => false)])) return;
  signalTree(pid, 'SIGKILL');
  await gone();
}

interface Running {
  name: ServerName;
  port: number;
  /** The process measured with its descendants: the server (nginx's master, with its workers). */
  pid: number;
  stop(): Promise<void>;
}

async function launch(name: ServerName, command: string, args: string[], port: number): Promise<Running> {
  const child = spawn(command, args, { cwd: PROJECT, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let failed: Error | undefined;
  child.on('error', (error) => (failed = error));
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      live.delete(child);
      resolve();
    }),
  );
  const gone = () => failed !== undefined || child.exitCode !== null || child.signalCode !== null;
  try {
    await answering(port, () => (gone() ? (failed?.message ?? `it exited (${child.exitCode ?? child.signalCode})`) : undefined));
  } catch (error) {
    if (child.pid !== undefined) signalTree(child.pid, 'SIGKILL');
    throw new Error(`${name} (${command} ${args.join(' ')}) did not start: ${(error as Error).message}\n${output}`, { cause: error });
  }
  const pid = child.pid ?? 0;
  return { name, port, pid, stop: () => stopTree(pid, () => exited) };
}

// ---- The servers --------------------------------------------------------------------------------

async function startBaseline(site: string): Promise<Running> {
  const port = await freePort();
  return launch('baseline', process.execPath, [STATIC_SERVER, site, String(port)], port);
}

async function startServe(site: string): Promise<Running> {
  const port = await freePort();
  return launch('serve', process.execPath, [CLI, 'serve', '--dir', site, '--port', String(port), '--host', HOST], port);
}

/** Why nginx cannot run, or undefined when it can: it is installed and the CLI writes its configuration. */
function nginxMissing(): string | undefined {
  const installed = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (installed.error || installed.status !== 0) return 'nginx is not installed';
  const help = spawnSync(process.execPath, [CLI, 'nginx', '--help'], { cwd: PROJECT, encoding: 'utf8' });
  if (!help.stdout.includes('--standalone')) return 'this checkout has no `archive-schema nginx --standalone` yet';
  return undefined;
}

function nginxVersion(): string {
  const run = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  return /nginx\/(\S+)/.exec(`${run.stderr}${run.stdout}`)?.[1] ?? 'not installed';
}

async function startNginx(site: string): Promise<Running> {
  const port = await freePort();
  // The prefix holds the configuration, the pid file, the logs and nginx's temporary folders.
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-nginx-'));
  temporary.add(prefix);
  // Run by root, nginx's workers run as nobody, who must reach the site.
  chmodSync(prefix, 0o755);
  const made = spawnSync(process.execPath, [CLI, 'nginx', '--root', site, '--listen', `${HOST}:${port}`, '--standalone'], {
    cwd: PROJECT,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`archive-schema nginx exited with ${made.status ?? made.signal}:\n${made.stderr}`);
  const config = path.join(prefix, 'nginx.conf');
  writeFileSync(config, made.stdout);
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  const args = ['-p', `${prefix}/`, '-c', config, '-e', path.join(prefix, 'logs', 'startup-error.log')];
  if (/^\s*daemon\s+off\s*;/m.test(made.stdout)) return launch('nginx', 'nginx', args, port);
  // It puts itself in the background: the process started ends, and the pid file names the master.
  const log = path.join(prefix, 'logs', 'startup.log');
  const fd = openSync(log, 'a');
  const started = spawnSync('nginx', args, { cwd: prefix, stdio: ['ignore', fd, fd], timeout: 30_000 });
  closeSync(fd);
  const pidFile = path.resolve(prefix, /^\s*pid\s+([^;\s]+)\s*;/m.exec(made.stdout)?.[1] ?? 'logs/nginx.pid');
  const failure = (why: string, cause?: unknown) =>
    new Error(`nginx (nginx ${args.join(' ')}) did not start: ${why}\n${readFileSync(log, 'utf8')}`, { cause });
  if (started.status !== 0) throw failure(`it exited with ${started.status ?? started.signal}`);
  const deadline = Date.now() + 10_000;
  let master = 0;
  while (!(master = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : 0)) {
    if (Date.now() > deadline) throw failure(`no pid file ${pidFile}`);
    await sleep(20);
  }
  daemons.add(master);
  try {
    await answering(port, () => (alive(master) ? undefined : 'its master process ended'));
  } catch (error) {
    signalTree(master, 'SIGKILL');
    daemons.delete(master);
    throw failure((error as Error).message, error);
  }
  const gone = async () => {
    while (alive(master)) await sleep(20);
    daemons.delete(master);
  };
  return { name: 'nginx', port, pid: master, stop: () => stopTree(master, gone) };
}

// ---- Measuring -----------------------------------------------------------------------------------

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * The peak resident memory of a process and its descendants during a case: the larger of the
 * highest sum of VmRSS sampled every SAMPLE_MS, and the sum of their own peaks (VmHWM) once those
 * are reset at the start (clear_refs), which catches a peak between two samples.
 */
class PeakRss {
  private readonly pids: number[];
  private readonly timer: NodeJS.Timeout;
  private readonly reset: boolean;
  private peakKb = 0;

  constructor(pid: number) {
    this.pids = processTree(pid);
    let reset = true;
    for (const p of this.pids) {
      try {
        writeFileSync(`/proc/${p}/clear_refs`, '5');
      } catch {
        reset = false;
      }
    }
    this.reset = reset;
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): void {
    this.peakKb = Math.max(
      this.peakKb,
      this.pids.reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0),
    );
  }

  /** MB (MiB). */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    const own = this.reset ? this.pids.reduce((sum, p) => sum + statusKb(p, 'VmHWM'), 0) : 0;
    return Math.max(this.peakKb, own) / 1024;
  }
}

interface Probe {
  status: number;
  /** Content-Encoding, or identity. */
  encoding: string;
  /** Bytes of the body as sent (encoded, without chunk framing). */
  bodyBytes: number;
}

/** One request, to learn what a route answers: its status, encoding and size. */
function probe(port: number, route: string, headers: Record<string, string>, timeout: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: HOST, port, path: route, headers, agent: false, timeout: timeout * 1000 }, (response) => {
      let bodyBytes = 0;
      response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      response.on('end', () => {
        const encoding = response.headers['content-encoding'];
        resolve({ status: response.statusCode ?? 0, encoding: typeof encoding === 'string' ? encoding : 'identity', bodyBytes });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error(`no answer to ${route} within ${timeout} s`)));
  });
}

interface Load {
  port: number;
  route: string;
  headers: Record<string, string>;
  connections: number;
  /** Time-bounded (seconds), or count-bounded (requests in all, at least one per connection). */
  bound: { seconds: number } | { requests: number };
  timeout: number;
  /** The status every answer should have; any other counts as an error. */
  expected: number;
  /** The server's process, whose peak RSS is taken. */
  pid: number;
}

interface Measured {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** What the errors were, e.g. "2 timeouts, 3× 500". */
  errorKinds: string;
  bytesPerResponse: number;
  peakRssMb: number;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

async function load(spec: Load): Promise<Measured> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let bytes = 0;
  let last = 0;
  const statuses = new Map<number, number>();
  const peak = new PeakRss(spec.pid);
  const started = performance.now();
  const perConnection = 'requests' in spec.bound ? Math.ceil(spec.bound.requests / spec.connections) : 0;
  let result: autocannon.Result;
  try {
    result = await new Promise<autocannon.Result>((resolve, reject) => {
      // A server that stops answering cannot hold the benchmark: every run has an end. Unref'd, so
      // that when autocannon refuses its options (it calls back at once) nothing waits for it.
      const capSeconds = 'seconds' in spec.bound ? spec.bound.seconds + spec.timeout : spec.timeout * perConnection + 10;
      const cap = setTimeout(() => instance.stop(), capSeconds * 1000).unref();
      const instance = autocannon(
        {
          url: `http://${HOST}:${spec.port}${spec.route}`,
          connections: spec.connections,
          headers: spec.headers,
          timeout: spec.timeout,
          // The end of a run is noticed at the next sample.
          sampleInt: 100,
          ...('seconds' in spec.bound ? { duration: spec.bound.seconds } : { amount: spec.bound.requests }),
          // autocannon keeps each body as a string, which for a 50 MB answer over 50 connections
          // would make the client, not the server, what is measured. Only sizes are needed.
          setupClient: (client) => {
            client.pipelinedRequests.addBody = () => undefined;
            // autocannon writes its next request on a connection the server has said it closes
            // (nginx does after keepalive_requests), and counts the reset that follows as an
            // error. A client reconnects instead, as this makes it do.
            let closing = false;
            client.on('headers', (info) => (closing = info.shouldKeepAlive === false));
            const next = client._doRequest.bind(client);
            client._doRequest = (...args) => {
              if (closing) {
                closing = false;
                client._resetConnection();
              } else next(...args);
            };
          },
        },
        (error, done) => {
          clearTimeout(cap);
          if (error) reject(error);
          else resolve(done);
        },
      );
      instance.on('response', (_client, status, responseBytes, milliseconds) => {
        if (count === latencies.length) {
          const grown = new Float64Array(count * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[count++] = milliseconds;
        bytes += responseBytes;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        last = performance.now();
      });
    });
  } catch (error) {
    peak.stop();
    throw error;
  }
  const peakRssMb = peak.stop();
  const sorted = latencies.slice(0, count).sort();
  const seconds = ((count ? last : performance.now()) - started) / 1000;
  const kinds: string[] = [];
  const connectionErrors = result.errors - result.timeouts;
  if (result.timeouts) kinds.push(`${result.timeouts} timeout${result.timeouts === 1 ? '' : 's'}`);
  if (connectionErrors) kinds.push(`${connectionErrors} connection error${connectionErrors === 1 ? '' : 's'}`);
  let unexpected = 0;
  for (const [status, n] of [...statuses].sort((a, b) => a[0] - b[0])) {
    if (status === spec.expected) continue;
    unexpected += n;
    kinds.push(`${n}× ${status}`);
  }
  return {
    requests: count,
    seconds,
    perSecond: seconds > 0 ? count / seconds : 0,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: result.errors + unexpected,
    errorKinds: kinds.join(', '),
    bytesPerResponse: count ? bytes / count : 0,
    peakRssMb,
  };
}

// ---- The sites -------------------------------------------------------------------------------------

/** The survey whose answer is the smallest: the small response. */
function smallestSurvey(site: string): string {
  const dir = path.join(site, 'api/schema');
  const ids = readdirSync(dir).filter((name) => /^\d+$/.test(name) && existsSync(path.join(dir, name, 'index.json')));
  const size = (id: string) => statSync(path.join(dir, id, 'index.json')).size;
  const id = ids.sort((a, b) => size(a) - size(b) || Number(a) - Number(b))[0];
  if (id === undefined) throw new Error(`no survey in ${site}`);
  return id;
}

// ---- The cases -------------------------------------------------------------------------------------

interface Site {
  label: string;
  dir: string;
}

interface Case {
  key: 'small' | 'error' | 'listing' | 'listing-compressed';
  label: string;
  site: Site;
  route: string;
  /** The file the route resolves to, which the baseline is asked for instead (it has no routes). */
  file: string;
  headers: Record<string, string>;
  /** What serve and nginx answer; the baseline answers 200. */
  status: number;
  /** Large answers: runs are bounded by count, not time. */
  large: boolean;
}

interface Row {
  case: Case['key'];
  label: string;
  server: ServerName;
  connections: number;
  route: string;
  /** Content-Encoding of the answer. */
  encoding: string;
  requests: number;
  seconds: number;
  perSecond: number;
  /** req/s over the baseline's in the same case and connections, measured right before. */
  vsBaseline: number | null;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  errorKinds: string;
  bytesPerResponse: number;
  peakRssMb: number;
}

interface MemoryRow {
  label: string;
  route: string;
  encoding: string;
  clients: number;
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  errorKinds: string;
  bytesPerResponse: number;
  peakRssMb: number;
}

/** The baseline's file for the compressed listing: a precompressed copy when the build wrote one. */
function compressedFile(site: string, file: string): string {
  for (const suffix of ['.br', '.gz']) if (existsSync(path.join(site, file + suffix))) return file + suffix;
  return file;
}

function makeCases(bundled: Site, synthetic: Site): Case[] {
  const survey = smallestSurvey(bundled.dir);
  const listing = 'api/schema/data_type/catalogues.json';
  const listingRoute = '/api/schema/?data_type=catalogues';
  return [
    {
      key: 'small',
      label: `small: one survey (${bundled.label})`,
      site: bundled,
      route: `/api/schema/${survey}/`,
      file: `api/schema/${survey}/index.json`,
      headers: {},
      status: 200,
      large: false,
    },
    {
      key: 'error',
      label: `error: invalid data_type (${bundled.label})`,
      site: bundled,
      route: '/api/schema/?data_type=bogus',
      file: '_errors/400-data_type-invalid.json',
      headers: {},
      status: 400,
      large: false,
    },
    {
      key: 'listing',
      label: `catalogues listing (${synthetic.label}), uncompressed`,
      site: synthetic,
      route: listingRoute,
      file: listing,
      headers: {},
      status: 200,
      large: true,
    },
    {
      key: 'listing-compressed',
      label: `catalogues listing (${synthetic.label}), Accept-Encoding: br, gzip`,
      site: synthetic,
      route: listingRoute,
      file: compressedFile(synthetic.dir, listing),
      headers: COMPRESSED,
      status: 200,
      large: true,
    },
  ];
}

// ---- Formatting ------------------------------------------------------------------------------------

function rate(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}

function ms(n: number): string {
  if (Number.isNaN(n)) return '–';
  return n >= 100 ? `${n.toFixed(0)} ms` : n >= 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(2)} ms`;
}

function bytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n.toFixed(0)} B`;
}

function errors(n: number, kinds: string): string {
  return n ? `${n} (${kinds})` : '0';
}

// ---- The run ---------------------------------------------------------------------------------------

interface Report {
  started: string;
  /** loadAverage: the 1, 5 and 15-minute load averages as the benchmark started, before its own load. */
  machine: { cpus: number; loadAverage: number[]; node: string; nginx: string; autocannon: string };
  options: Omit<Options, 'dir' | 'json'>;
  precompress: boolean;
  notes: string[];
  rows: Row[];
  compression: { server: ServerName; uncompressed: number; compressed: number; encoding: string; ratio: number }[];
  memory: MemoryRow[];
  targets: { target: string; server: ServerName; value: string; met: boolean }[];
}

async function bench(options: Options, root: string, log: (text: string) => void): Promise<Report> {
  const started = new Date().toISOString();
  const loadAverage = os.loadavg();
  const notes: string[] = [];
  const precompress = buildHas('--precompress');
  if (!precompress) notes.push('`build --precompress` does not exist yet: the sites are built without precompressed copies.');
  const nginxWhy = nginxMissing();
  if (nginxWhy) notes.push(`nginx skipped: ${nginxWhy}.`);
  const servers: ServerName[] = nginxWhy ? ['baseline', 'serve'] : ['baseline', 'serve', 'nginx'];

  log(`Building the bundled archive${precompress ? ' with --precompress' : ''} ...\n`);
  const bundled: Site = { label: 'bundled archive', dir: path.join(root, 'site-bundled') };
  build(path.join(PROJECT, 'metadata'), bundled.dir, path.join(root, 'cache-site-bundled'), precompress);
  log(`Generating or reusing the synthetic ${options.size} archive, and building it ...\n`);
  const synthetic: Site = { label: `synthetic ${options.size}`, dir: path.join(root, `site-${options.size}`) };
  build(dataFor(options.size, root), synthetic.dir, path.join(root, `cache-site-${options.size}`), precompress);
  const cases = makeCases(bundled, synthetic);
  const listingCompressed = cases.find((c) => c.key === 'listing-compressed');
  if (listingCompressed && !/\.(br|gz)$/.test(listingCompressed.file)) {
    notes.push('The site has no precompressed listing, so the baseline sends the compressed case uncompressed.');
  }

  const rows: Row[] = [];
  for (const site of [bundled, synthetic]) {
    const running: Running[] = [];
    try {
      for (const name of servers) {
        log(`Starting ${name} on ${site.label} ...\n`);
        try {
          running.push(await (name === 'baseline' ? startBaseline : name === 'serve' ? startServe : startNginx)(site.dir));
        } catch (error) {
          // nginx is the optional one: the rest is still worth measuring without it.
          if (name !== 'nginx') throw error;
          notes.push(`nginx skipped on the ${site.label}: ${(error as Error).message.split('\n').join(' ').trim()}`);
          log(`  ${(error as Error).message}\n`);
        }
      }
      for (const c of cases.filter((x) => x.site === site)) {
        for (const connections of [1, options.connections]) {
          // Back to back, baseline first, so each ratio compares runs made in the same state of the machine.
          for (const server of running) {
            const route = server.name === 'baseline' ? `/${c.file}` : c.route;
            const expected = server.name === 'baseline' ? 200 : c.status;
            const seen = await probe(server.port, route, c.headers, options.timeout);
            if (seen.status !== expected) notes.push(`${server.name} answered ${route} with ${seen.status}, not ${expected}.`);
            const common = {
              port: server.port,
              route,
              headers: c.headers,
              connections,
              // A small answer that takes 10 s has failed; a large one may take longer under load.
              timeout: c.large ? options.timeout : Math.min(options.timeout, SMALL_TIMEOUT),
              expected,
              pid: server.pid,
            };
            // Small answers: a short unmeasured run first, so every server is measured warm.
            if (!c.large) await load({ ...common, bound: { seconds: Math.min(1, options.duration / 5) } });
            const bound = c.large ? { requests: Math.max(connections, LARGE_SEQUENTIAL) } : { seconds: options.duration };
            const m = await load({ ...common, bound });
            const baseline = rows.find((r) => r.case === c.key && r.connections === connections && r.server === 'baseline');
            rows.push({
              case: c.key,
              label: c.label,
              server: server.name,
              connections,
              route,
              encoding: seen.encoding,
              requests: m.requests,
              seconds: m.seconds,
              perSecond: m.perSecond,
              vsBaseline: baseline && baseline.perSecond > 0 ? m.perSecond / baseline.perSecond : null,
              p50Ms: m.p50,
              p99Ms: m.p99,
              errors: m.errors,
              errorKinds: m.errorKinds,
              // From the one probe when the run completed nothing (headers not counted then).
              bytesPerResponse: m.requests ? m.bytesPerResponse : seen.bodyBytes,
              peakRssMb: m.peakRssMb,
            });
            log(
              `  ${c.key}, ${server.name}, ${connections} conn: ${rate(m.perSecond)} req/s, p99 ${ms(m.p99)}, ` +
                `${errors(m.errors, m.errorKinds)} errors, ${m.peakRssMb.toFixed(0)} MB\n`,
            );
          }
        }
      }
    } finally {
      for (const server of running) await server.stop();
    }
  }

  // Memory: many clients at once downloading the largest page, from a serve that has done nothing else.
  const memory: MemoryRow[] = [];
  const page = '/api/schema/?data_type=catalogues&format=api';
  log(`Starting serve on ${synthetic.label} for the memory case ...\n`);
  const serve = await startServe(synthetic.dir);
  try {
    for (const headers of [{}, COMPRESSED]) {
      const seen = await probe(serve.port, page, headers, options.timeout);
      const m = await load({
        port: serve.port,
        route: page,
        headers,
        connections: options.connections,
        bound: { requests: options.connections },
        timeout: options.timeout,
        expected: 200,
        pid: serve.pid,
      });
      const label = `${options.connections} clients at once, each downloading the catalogues page (${synthetic.label}) once${'Accept-Encoding' in headers ? ', Accept-Encoding: br, gzip' : ''}`;
      memory.push({
        label,
        route: page,
        encoding: seen.encoding,
        clients: options.connections,
        requests: m.requests,
        seconds: m.seconds,
        p50Ms: m.p50,
        p99Ms: m.p99,
        errors: m.errors,
        errorKinds: m.errorKinds,
        bytesPerResponse: m.requests ? m.bytesPerResponse : seen.bodyBytes,
        peakRssMb: m.peakRssMb,
      });
      log(`  page, ${seen.encoding}: ${m.requests} done in ${m.seconds.toFixed(1)} s, serve's peak RSS ${m.peakRssMb.toFixed(0)} MB\n`);
    }
  } finally {
    await serve.stop();
  }

  const compression: Report['compression'] = [];
  for (const server of servers) {
    const at = (key: Case['key']) => rows.filter((r) => r.case === key && r.server === server && r.bytesPerResponse > 0);
    const plain = at('listing')[0];
    const packed = at('listing-compressed')[0];
    if (plain && packed) {
      compression.push({
        server,
        uncompressed: plain.bytesPerResponse,
        compressed: packed.bytesPerResponse,
        encoding: packed.encoding,
        ratio: plain.bytesPerResponse / packed.bytesPerResponse,
      });
    }
  }

  const targets: Report['targets'] = [];
  const small = rows.filter((r) => r.server === 'serve' && (r.case === 'small' || r.case === 'error'));
  const worst = Math.min(...small.map((r) => r.vsBaseline ?? 0));
  targets.push({
    target: `serve ≥ ${TARGET.ratio}× the baseline's req/s on small responses (the lowest of its ${small.length} runs)`,
    server: 'serve',
    value: `${worst.toFixed(2)}×`,
    met: worst >= TARGET.ratio,
  });
  for (const server of servers) {
    const count =
      rows.filter((r) => r.server === server).reduce((n, r) => n + r.errors, 0) +
      (server === 'serve' ? memory.reduce((n, r) => n + r.errors, 0) : 0);
    targets.push({ target: 'zero errors', server, value: String(count), met: count === 0 });
  }
  const peakMb = Math.max(...memory.map((r) => r.peakRssMb));
  targets.push({
    target: `serve's peak RSS < ${TARGET.rssMb} MB with ${options.connections} clients downloading the page`,
    server: 'serve',
    value: `${peakMb.toFixed(0)} MB`,
    met: peakMb < TARGET.rssMb && memory.every((r) => r.requests === r.clients),
  });
  for (const c of compression.filter((x) => x.server !== 'baseline')) {
    targets.push({
      target: `compressed listing ≥ ${TARGET.compression}× fewer bytes on the wire`,
      server: c.server,
      value: `${c.ratio.toFixed(1)}×`,
      met: c.ratio >= TARGET.compression,
    });
  }

  const require = createRequire(import.meta.url);
  return {
    started,
    machine: {
      cpus: os.availableParallelism(),
      loadAverage,
      node: process.version,
      nginx: nginxVersion(),
      autocannon: (require('autocannon/package.json') as { version: string }).version,
    },
    options: { duration: options.duration, connections: options.connections, size: options.size, timeout: options.timeout },
    precompress,
    notes,
    rows,
    compression,
    memory,
    targets,
  };
}

function markdown(report: Report): string {
  const { options, machine } = report;
  const out: string[] = [];
  out.push(
    `Load on loopback from autocannon ${machine.autocannon} in one process, on ${machine.cpus} cores shared with the servers; ` +
      `node ${machine.node}, nginx ${machine.nginx}; load average ${machine.loadAverage[0]?.toFixed(2)} as it started. Small answers: ${options.duration} s per run after a warm-up; listings: ` +
      `${LARGE_SEQUENTIAL} requests over 1 connection, 1 per connection over ${options.connections}. ` +
      `Each "× baseline" is req/s over the baseline's, measured right before in the same run.\n`,
  );
  out.push('| case | server | conns | req/s | × baseline | p50 | p99 | errors | bytes/response | peak RSS |');
  out.push('|---|---|---:|---:|---:|---:|---:|---|---:|---:|');
  for (const r of report.rows) {
    const encoding = r.encoding === 'identity' ? '' : ` (${r.encoding})`;
    out.push(
      `| ${r.label} | ${r.server} | ${r.connections} | ${rate(r.perSecond)} | ${r.vsBaseline === null ? '–' : `${r.vsBaseline.toFixed(2)}×`} | ` +
        `${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${errors(r.errors, r.errorKinds)} | ${bytes(r.bytesPerResponse)}${encoding} | ${r.peakRssMb.toFixed(0)} MB |`,
    );
  }
  if (report.compression.length) {
    out.push('\nThe catalogues listing on the wire, per response:\n');
    out.push('| server | uncompressed | with Accept-Encoding: br, gzip | encoding | ratio |');
    out.push('|---|---:|---:|---|---:|');
    for (const c of report.compression) {
      out.push(`| ${c.server} | ${bytes(c.uncompressed)} | ${bytes(c.compressed)} | ${c.encoding} | ${c.ratio.toFixed(1)}× |`);
    }
  }
  out.push('\nMemory, from a fresh serve:\n');
  out.push('| case | done | wall | p50 | p99 | errors | bytes/response | serve peak RSS |');
  out.push('|---|---:|---:|---:|---:|---|---:|---:|');
  for (const m of report.memory) {
    const encoding = m.encoding === 'identity' ? '' : ` (${m.encoding})`;
    out.push(
      `| ${m.label} | ${m.requests}/${m.clients} | ${m.seconds.toFixed(1)} s | ${ms(m.p50Ms)} | ${ms(m.p99Ms)} | ${errors(m.errors, m.errorKinds)} | ` +
        `${bytes(m.bytesPerResponse)}${encoding} | ${m.peakRssMb.toFixed(0)} MB |`,
    );
  }
  out.push('\nTargets (reported, not asserted):\n');
  out.push('| target | server | measured | met |');
  out.push('|---|---|---:|---|');
  for (const t of report.targets) out.push(`| ${t.target} | ${t.server} | ${t.value} | ${t.met ? 'met' : 'not met'} |`);
  if (report.notes.length) out.push(`\nNotes:\n${report.notes.map((n) => `- ${n}`).join('\n')}`);
  return `${out.join('\n')}\n`;
}

// ---- The command line ------------------------------------------------------------------------------

const USAGE =
  'usage: npm run bench:serve -- [--duration SECONDS] [--connections N] [--size XS|S|M|L] [--timeout SECONDS] [--dir DIR] [--json FILE]';

function parseOptions(args: string[]): Options | string {
  const options: Options = { duration: 5, connections: 50, size: 'L', timeout: 60, dir: undefined, json: undefined };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? '';
    const value = args[++i];
    if (value === undefined) return `${flag} needs a value`;
    const number = Number(value);
    if (flag === '--duration' || flag === '--timeout') {
      if (!(number > 0 && number <= 3600)) return `${flag} takes seconds, from more than 0 to 3600`;
      options[flag === '--duration' ? 'duration' : 'timeout'] = number;
    } else if (flag === '--connections') {
      if (!(Number.isInteger(number) && number >= 2 && number <= 1000)) return '--connections takes a whole number from 2 to 1000';
      options.connections = number;
    } else if (flag === '--size') {
      if (!isSize(value)) return '--size takes XS, S, M or L';
      options.size = value;
    } else if (flag === '--dir') options.dir = path.resolve(value);
    else if (flag === '--json') options.json = path.resolve(value);
    else return `unknown option ${flag}`;
  }
  return options;
}

// The entry point (only when run as a program).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const options = parseOptions(process.argv.slice(2));
  if (typeof options === 'string') {
    process.stderr.write(`bench:serve: ${options}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    // A folder of its own unless one is given; a given one is kept, to reuse its archive and sites.
    const root = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-serve-'));
    if (options.dir) mkdirSync(root, { recursive: true });
    else temporary.add(root);
    // Run by root, nginx's workers run as nobody, who must reach the sites.
    if (!options.dir) chmodSync(root, 0o755);
    process.on('exit', cleanUpNow);
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      process.once(signal, () => {
        process.stderr.write(`bench:serve: stopped by ${signal}; stopping the servers and removing temporary folders\n`);
        cleanUpNow();
        process.exit(code);
      });
    }
    try {
      const report = await bench(options, root, (t) => process.stderr.write(t));
      process.stdout.write(`\n${markdown(report)}`);
      if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    } catch (error) {
      process.stderr.write(`bench:serve: ${(error as Error).message}\n`);
      process.exitCode = 1;
    } finally {
      cleanUpNow();
    }
  }
}
