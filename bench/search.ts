// `npm run bench:search -- [--size XS|S|M|L] [--repeats N] [--loads N] [--dir DIR] [--json FILE]`: the
// schema browser's search in a real browser (Debian's Chromium, driven by puppeteer-core) on a
// synthetic archive (L unless said), built with the project's own command and served by
// `archive-schema serve` on loopback. It measures:
//   - the search data (browse/search-data.js): its size raw, gzip and brotli, what serve sends the
//     browser, and that the page asks for it only once the box is used, and then once;
//   - its first use: from focusing the box to the search being ready (loading, parsing, indexing);
//   - a keystroke: from setting the box's value and dispatching `input` to the results being in
//     the DOM, and with the layout they cause, for a fixed list of queries, median and p95;
//   - the baseline, in the same page and the same rounds: the same dispatch on an input whose
//     listener renders one list item. Each query's time is also given as a ratio to it.
// It prints a Markdown table like the other benchmarks; nothing is asserted, the targets
// (1.5 MB compressed, first results within 50 ms) are reported as met or not.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { CLI, HOST, PROJECT, build, buildHas, dataFor } from './sites.ts';
import { SIZES, isSize } from './synthetic.ts';
import type { Size } from './synthetic.ts';

const CHROMIUM = process.env.ARCHIVE_SCHEMA_CHROMIUM ?? '/usr/bin/chromium';
const DATA = 'browse/search-data.js';
const TARGET = { compressedMb: 1.5, keystrokeMs: 50 };
/** Dispatches timed together for one baseline sample: one alone is below the browser's timer resolution. */
const BASELINE_BATCH = 200;
/** Unmeasured rounds of every query before the measured ones, for the engine to compile the search. */
const WARM_UP = 3;

interface Options {
  size: Size;
  /** Measured rounds: each query, and the baseline, once per round. */
  repeats: number;
  /** First uses measured, each in a fresh page. */
  loads: number;
  dir: string | undefined;
  json: string | undefined;
}

// ---- The site --------------------------------------------------------------------------------------

/** `archive-schema serve` on a free loopback port, once it says where it listens. */
async function serve(site: string): Promise<{ origin: string; server: ChildProcess }> {
  const server = spawn(process.execPath, [CLI, 'serve', '--dir', site, '--port', '0', '--host', HOST], {
    cwd: PROJECT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /at (http:\/\/[^ ]+) /.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    server.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { origin, server };
}

// ---- Measuring in the page -------------------------------------------------------------------------

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
  /** The build's precompressed copies, when it made them. */
  precompressed: { gzip: number | null; brotli: number | null };
  /** What serve sent Chromium: the body's bytes on the wire, and how it was encoded. */
  wire: number;
  wireEncoding: string;
}

function sizesOf(site: string): Omit<Sizes, 'wire' | 'wireEncoding'> {
  const file = path.join(site, DATA);
  const bytes = readFileSync(file);
  const copy = (suffix: string) => (existsSync(file + suffix) ? statSync(file + suffix).size : null);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: 11,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      },
    }).length,
    precompressed: { gzip: copy('.gz'), brotli: copy('.br') },
  };
}

interface FirstUse {
  /** From focusing the box to the search saying it is ready. */
  totalMs: number;
  /** Of which fetching the file (the resource's start to its last byte), and the wait before it. */
  fetchMs: number;
  /** The rest: the script element's parsing and running, and building the index. */
  parseAndIndexMs: number;
  transferBytes: number;
  encodedBytes: number;
}

/** Opens a fresh page of the site, cache off, recording the search data's requests and response headers. */
async function openPage(browser: Browser, origin: string): Promise<{ page: Page; requests: string[]; encoding: () => string }> {
  const page = await browser.newPage();
  await page.setCacheEnabled(false);
  await page.setViewport({ width: 1280, height: 800 });
  const requests: string[] = [];
  let encoding = 'identity';
  page.on('request', (request) => {
    if (request.url().endsWith(`/${DATA}`)) requests.push(request.url());
  });
  page.on('response', (response) => {
    if (response.url().endsWith(`/${DATA}`)) encoding = response.headers()['content-encoding'] ?? 'identity';
  });
  page.on('pageerror', (error) => process.stderr.write(`page error: ${error instanceof Error ? error.message : String(error)}\n`));
  const response = await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
  if (response?.status() !== 200) throw new Error(`${origin}/index.html answered ${response?.status()}`);
  await page.bringToFront();
  return { page, requests, encoding: () => encoding };
}

/** Focuses the box and times it until the search is ready: its status asks for a query. */
async function firstUse(page: Page): Promise<FirstUse> {
  return page.evaluate(async (data) => {
    const box = document.getElementById('search') as HTMLInputElement;
    const status = document.getElementById('search-status') as HTMLElement;
    const started = performance.now();
    const ready = await new Promise<number>((resolve, reject) => {
      const check = () => {
        const text = status.textContent;
        if (text.startsWith('Type')) resolve(performance.now());
        else if (text !== '' && !text.startsWith('Loading')) reject(new Error(`the search did not load: ${text}`));
        else return false;
        return true;
      };
      const observer = new MutationObserver(() => {
        if (check()) observer.disconnect();
      });
      observer.observe(status, { childList: true, characterData: true, subtree: true });
      box.focus();
      if (check()) observer.disconnect();
    });
    const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith(`/${data}`)) as
      PerformanceResourceTiming | undefined;
    if (!entry) throw new Error('no resource timing for the search data');
    return {
      totalMs: ready - started,
      fetchMs: entry.responseEnd - started,
      parseAndIndexMs: ready - entry.responseEnd,
      transferBytes: entry.transferSize,
      encodedBytes: entry.encodedBodySize,
    };
  }, DATA);
}

interface Sample {
  /** To the results in the DOM. */
  domMs: number;
  /** The same, and the style and layout they cause (forced at once). */
  layoutMs: number;
}

/** One keystroke's worth of search: the value set, `input` dispatched, timed to the DOM and to layout. */
function keystroke(page: Page, query: string): Promise<Sample & { status: string; shown: number }> {
  return page.evaluate((q) => {
    const box = document.getElementById('search') as HTMLInputElement;
    const started = performance.now();
    box.value = q;
    box.dispatchEvent(new Event('input', { bubbles: true }));
    const dom = performance.now();
    document.body.getBoundingClientRect(); // forces style and layout
    const laid = performance.now();
    return {
      domMs: dom - started,
      layoutMs: laid - started,
      status: document.getElementById('search-status')?.textContent ?? '',
      shown: document.querySelectorAll('#search-results li').length,
    };
  }, query);
}

/** The baseline's input: its listener renders one list item, the value, in a list of its own. */
function installBaseline(page: Page): Promise<void> {
  return page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'bench-baseline';
    const list = document.createElement('ol');
    list.id = 'bench-baseline-list';
    input.addEventListener('input', () => {
      const li = document.createElement('li');
      li.textContent = input.value;
      list.replaceChildren(li);
    });
    document.body.prepend(input, list);
  });
}

/** The baseline's keystroke, the same steps as a query's, `batch` times over; the time per keystroke. */
function baseline(page: Page, batch: number): Promise<Sample> {
  return page.evaluate((n) => {
    const input = document.getElementById('bench-baseline') as HTMLInputElement;
    const run = (layout: boolean) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        input.value = `q${i}`;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        if (layout) document.body.getBoundingClientRect(); // forces style and layout
      }
      return (performance.now() - started) / n;
    };
    return { domMs: run(false), layoutMs: run(true) };
  }, batch);
}

// ---- Statistics and the report ---------------------------------------------------------------------

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  // Nearest rank: the p95 of 40 samples is the 38th.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
const median = (values: number[]) => quantile(values, 0.5);

interface QueryRow {
  label: string;
  query: string;
  status: string;
  shown: number;
  domMedianMs: number;
  domP95Ms: number;
  layoutMedianMs: number;
  layoutP95Ms: number;
  /** The median to the DOM over the baseline's median to the DOM; likewise with layout. */
  domRatio: number;
  layoutRatio: number;
}

interface Report {
  started: string;
  machine: { cpus: number; loadAverage: number[]; node: string; chromium: string };
  options: Omit<Options, 'dir' | 'json'>;
  columns: number;
  sizes: Sizes;
  lazy: { beforeUse: number; afterUse: number; afterQueries: number };
  firstUse: FirstUse[];
  baseline: { domMedianMs: number; domP95Ms: number; layoutMedianMs: number; layoutP95Ms: number };
  queries: QueryRow[];
  targets: { target: string; value: string; met: boolean }[];
}

/** The queries measured: the kinds a visitor types, on names the synthetic archives all have. */
function queriesFor(firstSurvey: string): { label: string; query: string }[] {
  return [
    { label: 'first keystroke (one letter)', query: 'm' },
    { label: 'name substring', query: 'r_err' },
    { label: 'exact name (in many tables)', query: 'CATAID' },
    { label: 'UCD word prefix', query: 'ucd:phot.mag' },
    { label: 'unit', query: 'unit:mag' },
    { label: 'description word', query: 'extinction' },
    { label: 'two words', query: 'petrosian radius' },
    { label: 'filtered (survey, kind)', query: `mag survey:${firstSurvey} kind:catalogues` },
  ];
}

async function bench(options: Options, root: string, log: (text: string) => void): Promise<Report> {
  const started = new Date().toISOString();
  const loadAverage = os.loadavg();
  log(`Generating or reusing the synthetic ${options.size} archive in ${root}, and building it ...\n`);
  const site = path.join(root, `site-${options.size}`);
  // Built as `npm run bench:serve` builds it (same folder, same cache), so the two can share --dir.
  build(dataFor(options.size, root), site, path.join(root, `cache-site-${options.size}`), buildHas('--precompress'));
  const measuredSizes = sizesOf(site);
  const firstSurvey = /surveys:\[\["([^"]+)"/.exec(readFileSync(path.join(site, DATA), 'utf8').slice(0, 4096))?.[1] ?? '';

  log('Serving it, and starting Chromium ...\n');
  const { origin, server } = await serve(site);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    const chromium = await browser.version();
    log(`Measuring the first use ${options.loads} times, each in a fresh page ...\n`);
    const firstUses: FirstUse[] = [];
    let lazy = { beforeUse: 0, afterUse: 0, afterQueries: 0 };
    let wire = { bytes: 0, encoding: 'identity' };
    let kept: { page: Page; requests: string[] } | undefined;
    for (let i = 0; i < options.loads; i++) {
      const opened = await openPage(browser, origin);
      await opened.page.waitForNetworkIdle({ idleTime: 200 });
      const beforeUse = opened.requests.length;
      const use = await firstUse(opened.page);
      firstUses.push(use);
      lazy = { beforeUse, afterUse: opened.requests.length, afterQueries: 0 };
      wire = { bytes: use.encodedBytes, encoding: opened.encoding() };
      // The last page is kept for the keystrokes, which must not ask for the data again.
      if (i === options.loads - 1) kept = opened;
      else await opened.page.close();
    }
    if (!kept) throw new Error('no page was kept');
    const { page } = kept;

    const queries = queriesFor(firstSurvey);
    await installBaseline(page);
    log(`Warming up (${WARM_UP} rounds), then ${options.repeats} measured rounds of ${queries.length} queries and the baseline ...\n`);
    const last = new Map<string, { status: string; shown: number }>();
    const samples = new Map<string, Sample[]>(queries.map((q) => [q.query, []]));
    const baselineSamples: Sample[] = [];
    for (let round = 0; round < WARM_UP + options.repeats; round++) {
      const measured = round >= WARM_UP;
      // Each round starts at another query, so none is always measured right after the same one.
      for (let k = 0; k < queries.length; k++) {
        const { query } = queries[(round + k) % queries.length] ?? { query: '' };
        const sample = await keystroke(page, query);
        if (measured) samples.get(query)?.push(sample);
        last.set(query, { status: sample.status, shown: sample.shown });
      }
      const base = await baseline(page, BASELINE_BATCH);
      if (measured) baselineSamples.push(base);
    }
    lazy.afterQueries = kept.requests.length;

    const baseDom = median(baselineSamples.map((s) => s.domMs));
    const baseLayout = median(baselineSamples.map((s) => s.layoutMs));
    const rows: QueryRow[] = queries.map(({ label, query }) => {
      const list = samples.get(query) ?? [];
      const dom = list.map((s) => s.domMs);
      const layout = list.map((s) => s.layoutMs);
      return {
        label,
        query,
        status: last.get(query)?.status ?? '',
        shown: last.get(query)?.shown ?? 0,
        domMedianMs: median(dom),
        domP95Ms: quantile(dom, 0.95),
        layoutMedianMs: median(layout),
        layoutP95Ms: quantile(layout, 0.95),
        domRatio: median(dom) / baseDom,
        layoutRatio: median(layout) / baseLayout,
      };
    });

    const sizes: Sizes = { ...measuredSizes, wire: wire.bytes, wireEncoding: wire.encoding };
    const mb = (bytes: number) => bytes / 1e6;
    const worst = Math.max(...rows.map((r) => r.layoutP95Ms));
    const worstRow = rows.find((r) => r.layoutP95Ms === worst);
    const targets = [
      {
        target: `search data, brotli, ≤ ${TARGET.compressedMb} MB`,
        value: `${mb(sizes.brotli).toFixed(2)} MB`,
        met: mb(sizes.brotli) <= TARGET.compressedMb,
      },
      {
        target: `search data, gzip, ≤ ${TARGET.compressedMb} MB`,
        value: `${mb(sizes.gzip).toFixed(2)} MB`,
        met: mb(sizes.gzip) <= TARGET.compressedMb,
      },
      {
        target: `search data as serve sent it (${sizes.wireEncoding}), ≤ ${TARGET.compressedMb} MB`,
        value: `${mb(sizes.wire).toFixed(2)} MB`,
        met: mb(sizes.wire) <= TARGET.compressedMb,
      },
      {
        target: 'search data asked for only once the box is used, then once',
        value: `${lazy.beforeUse} before, ${lazy.afterUse} after focus, ${lazy.afterQueries} after every query`,
        met: lazy.beforeUse === 0 && lazy.afterUse === 1 && lazy.afterQueries === 1,
      },
      {
        target: `first results within ${TARGET.keystrokeMs} ms of a keystroke (every query's p95, with layout)`,
        value: `${worst.toFixed(1)} ms (${worstRow?.label ?? ''})`,
        met: worst <= TARGET.keystrokeMs,
      },
    ];
    return {
      started,
      machine: { cpus: os.availableParallelism(), loadAverage, node: process.version, chromium },
      options: { size: options.size, repeats: options.repeats, loads: options.loads },
      columns: SIZES[options.size].columns,
      sizes,
      lazy,
      firstUse: firstUses,
      baseline: {
        domMedianMs: baseDom,
        domP95Ms: quantile(
          baselineSamples.map((s) => s.domMs),
          0.95,
        ),
        layoutMedianMs: baseLayout,
        layoutP95Ms: quantile(
          baselineSamples.map((s) => s.layoutMs),
          0.95,
        ),
      },
      queries: rows,
      targets,
    };
  } finally {
    await browser.close();
    server.kill('SIGTERM');
  }
}

function markdown(report: Report): string {
  const ms = (value: number) => (value < 1 ? `${value.toFixed(3)} ms` : `${value.toFixed(1)} ms`);
  const bytes = (value: number | null) =>
    value === null ? '–' : value >= 1e6 ? `${(value / 1e6).toFixed(2)} MB` : `${(value / 1e3).toFixed(1)} kB`;
  const { sizes, firstUse, baseline } = report;
  const out: string[] = [];
  out.push(
    `Size ${report.options.size} (${report.columns.toLocaleString('en')} columns); ${report.machine.cpus} cores, load ` +
      `${report.machine.loadAverage.map((l) => l.toFixed(2)).join(' / ')} as it started; Node ${report.machine.node.slice(1)}, ` +
      `${report.machine.chromium}; ${report.options.repeats} measured rounds after ${WARM_UP} to warm up, ${report.options.loads} first uses.\n`,
  );
  out.push('The search data (`browse/search-data.js`):\n');
  out.push('| raw | gzip -9 | brotli -11 | build’s .gz / .br | sent by serve to Chromium |');
  out.push('|---:|---:|---:|---:|---:|');
  out.push(
    `| ${bytes(sizes.raw)} | ${bytes(sizes.gzip)} | ${bytes(sizes.brotli)} | ${bytes(sizes.precompressed.gzip)} / ${bytes(sizes.precompressed.brotli)} | ` +
      `${bytes(sizes.wire)} (${sizes.wireEncoding}) |`,
  );
  out.push(
    `\nAsked for ${report.lazy.beforeUse} times before the box was used, ${report.lazy.afterUse} after it was focused, ` +
      `${report.lazy.afterQueries} after every query.\n`,
  );
  out.push('First use, from focusing the box to the search being ready (median, and the slowest, of the first uses):\n');
  out.push('| | median | max |');
  out.push('|---|---:|---:|');
  const spread = (label: string, values: number[]) => out.push(`| ${label} | ${ms(median(values))} | ${ms(Math.max(...values))} |`);
  spread(
    'focus to ready',
    firstUse.map((u) => u.totalMs),
  );
  spread(
    'of which loading the file (from focus to its last byte)',
    firstUse.map((u) => u.fetchMs),
  );
  spread(
    'of which parsing, running and indexing it',
    firstUse.map((u) => u.parseAndIndexMs),
  );
  out.push('\nA keystroke: the value set and `input` dispatched, to the results in the DOM, and with the layout they cause:\n');
  out.push('| query | | found | DOM median | DOM p95 | × baseline | with layout, median | p95 | × baseline |');
  out.push('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of report.queries) {
    out.push(
      `| ${r.label} | \`${r.query}\` | ${r.status} | ${ms(r.domMedianMs)} | ${ms(r.domP95Ms)} | ${r.domRatio.toFixed(0)}× | ` +
        `${ms(r.layoutMedianMs)} | ${ms(r.layoutP95Ms)} | ${r.layoutRatio.toFixed(0)}× |`,
    );
  }
  out.push(
    `| baseline: an input whose listener renders one item | | | ${ms(baseline.domMedianMs)} | ${ms(baseline.domP95Ms)} | 1× | ` +
      `${ms(baseline.layoutMedianMs)} | ${ms(baseline.layoutP95Ms)} | 1× |`,
  );
  out.push(
    `\nThe baseline's samples are each ${BASELINE_BATCH} dispatches timed together, divided: one alone is below the browser's timer.`,
  );
  out.push('\nTargets (reported, not asserted):\n');
  out.push('| target | measured | met |');
  out.push('|---|---:|---|');
  for (const t of report.targets) out.push(`| ${t.target} | ${t.value} | ${t.met ? 'met' : 'not met'} |`);
  return `${out.join('\n')}\n`;
}

// ---- The command line ------------------------------------------------------------------------------

const USAGE = 'usage: npm run bench:search -- [--size XS|S|M|L] [--repeats N] [--loads N] [--dir DIR] [--json FILE]';

function parseOptions(args: string[]): Options | string {
  const options: Options = { size: 'L', repeats: 40, loads: 5, dir: undefined, json: undefined };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? '';
    const value = args[++i];
    if (value === undefined) return `${flag} needs a value`;
    const number = Number(value);
    if (flag === '--size') {
      if (!isSize(value)) return '--size takes XS, S, M or L';
      options.size = value;
    } else if (flag === '--repeats' || flag === '--loads') {
      if (!(Number.isInteger(number) && number >= 1 && number <= 1000)) return `${flag} takes a whole number from 1 to 1000`;
      options[flag === '--repeats' ? 'repeats' : 'loads'] = number;
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
    process.stderr.write(`bench:search: ${options}\n${USAGE}\n`);
    process.exitCode = 2;
  } else {
    // A folder of its own unless one is given; a given one is kept, to reuse its archive and site.
    const root = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'archive-schema-bench-search-'));
    mkdirSync(root, { recursive: true });
    try {
      const report = await bench(options, root, (t) => process.stderr.write(t));
      process.stdout.write(`\n${markdown(report)}`);
      if (options.json) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
    } catch (error) {
      process.stderr.write(`bench:search: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    } finally {
      if (!options.dir) rmSync(root, { recursive: true, force: true });
    }
  }
}
