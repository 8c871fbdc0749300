// Screenshots of the schema browser, to look at: a built site (it builds nothing) served by `serve`,
// and full-page PNGs of its home page, a table's, an imaging facility's and a band's, each 1280 and
// 390 px wide, light and dark, taken with Debian's Chromium through puppeteer-core.
//
//   node scripts/screenshots.mjs [--dir dist] [--out /tmp/archive-schema-shots]
//                                [--table PAGE] [--facility PAGE] [--band PAGE]
//
// PAGE is a page's file below the site's root (browse/gama/dr3/imaging/VST.html). Left out,
// each is chosen from the site: the table with the most columns up to 60, the facility with the
// most bands and the band with the most regions up to 30, so that a page is full but its picture
// still readable. ARCHIVE_SCHEMA_CHROMIUM names another browser than /usr/bin/chromium.

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WIDTHS = [1280, 390];
const SCHEMES = ['light', 'dark'];

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'dist' },
    out: { type: 'string', default: '/tmp/archive-schema-shots' },
    table: { type: 'string' },
    facility: { type: 'string' },
    band: { type: 'string' },
  },
});
const dist = path.resolve(values.dir);
const out = path.resolve(values.out);

/** The site's pages matching `pattern` (below the root, / separated), each with how many times `count` occurs in it. */
function pages(pattern, count) {
  const browse = path.join(dist, 'browse');
  let files;
  try {
    files = readdirSync(browse, { recursive: true });
  } catch {
    throw new Error(`${dist} has no browse/: build the site first (archive-schema build --out ${values.dir})`);
  }
  return files
    .map((file) => `browse/${file.split(path.sep).join('/')}`)
    .filter((file) => pattern.test(file))
    .sort()
    .map((file) => ({ file, n: readFileSync(path.join(dist, file), 'utf8').split(count).length - 1 }));
}

/** The page with the most of its things, up to `most`; the one with the fewest above it when every page has more. */
function fullest(found, most) {
  const within = found.filter((p) => p.n <= most);
  const pick = within.length > 0 ? within.reduce((a, b) => (b.n > a.n ? b : a)) : found.reduce((a, b) => (b.n < a.n ? b : a), found[0]);
  return pick?.file;
}

const chosen = {
  home: 'index.html',
  table: values.table ?? fullest(pages(/^browse\/[^/]+\/[^/]+\/catalogues\/[^/]+\/[^/]+\.html$/, '<tr id="col-'), 60),
  facility: values.facility ?? fullest(pages(/^browse\/[^/]+\/[^/]+\/imaging\/[^/]+\.html$/, 'data-band='), Infinity),
  band: values.band ?? fullest(pages(/^browse\/[^/]+\/[^/]+\/imaging\/[^/]+\/[^/]+\.html$/, '<article class="card"'), 30),
};

/** `archive-schema serve` on a free port, once it says where. */
function serve() {
  const server = spawn(process.execPath, [path.join(root, 'bin/archive-schema.js'), 'serve', '--dir', dist, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let said = '';
    server.stdout.on('data', (chunk) => {
      said += chunk.toString();
      const m = /at (http:\/\/[^ ]+) /.exec(said);
      if (m) resolve({ origin: m[1], server });
    });
    server.stderr.on('data', (chunk) => reject(new Error(chunk.toString())));
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

mkdirSync(out, { recursive: true });
const { origin, server } = await serve();
let browser;
try {
  browser = await puppeteer.launch({
    executablePath: process.env.ARCHIVE_SCHEMA_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    pipe: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  for (const [name, file] of Object.entries(chosen)) {
    if (!file) {
      console.log(`${name}: the site has no such page`);
      continue;
    }
    for (const width of WIDTHS)
      for (const scheme of SCHEMES) {
        const page = await browser.newPage();
        await page.setCacheEnabled(false);
        await page.setViewport({ width, height: 800 });
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        const response = await page.goto(`${origin}/${file}`, { waitUntil: 'load' });
        if (!response?.ok()) throw new Error(`${file}: ${response?.status() ?? 'no response'}`);
        await page.evaluate('document.fonts.ready.then(() => true)');
        const shot = path.join(out, `${name}-${width}-${scheme}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        await page.close();
        console.log(`${shot}  ${file}`);
      }
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
}
