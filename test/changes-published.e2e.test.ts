// The change records as users meet them (#33): the changelog's pages in the schema browser, the
// dates on each node's page linked to their records, /changes.atom read by a real feed reader
// (Debian's python3-feedparser), /changes.json, each answered by `serve` and nginx with its type,
// in the offline zip too; the API's answers the same with records and without, and the same
// records and metadata giving the same bytes. The records are test/fixtures/changes.

import { spawnSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/outputs/browser/pages/shell.ts';
import {
  PROJECT,
  SKIP_NGINX,
  cli,
  expectSameFiles,
  http,
  netlifyHeader,
  nginxSite,
  serveSite,
  snapshotTree,
  tempdir,
  testdir,
  unpackZip,
} from './helpers.ts';
import { useBrowser } from './browser.ts';

const BASE = 'https://schema.test';
const RECORDS = path.join(PROJECT, 'test/fixtures/changes');

/** The fixture archive with the fixture's records (their files written in `order`), built into dist. */
async function built(options: { records?: boolean; order?: 'forward' | 'backward' } = {}): Promise<string> {
  const dir = await testdir();
  if (options.records !== false) {
    const names = (await readdir(RECORDS)).sort();
    await mkdir(path.join(dir, 'changes'));
    for (const name of options.order === 'backward' ? names.reverse() : names)
      await writeFile(path.join(dir, 'changes', name), await readFile(path.join(RECORDS, name)));
  }
  const result = await cli(['build', '--base-url', BASE], dir);
  expect(result.code, result.stderr).toBe(0);
  return path.join(dir, 'dist');
}

/** Elements a browser shows apart from what is beside them. */
const BLOCKS = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'th',
  'td',
  'tr',
  'caption',
  'div',
  'article',
  'section',
  'h1',
  'h2',
  'h3',
  'h4',
  'figcaption',
]);

/** What a reader sees of a page's main part: its text, blocks apart, white space collapsed. */
function mainText(html: string): string {
  let inMain = 0;
  let text = '';
  const parser = new Parser({
    onopentag: (name) => {
      if (name === 'main') inMain++;
      if (BLOCKS.has(name)) text += ' ';
    },
    onclosetag: (name) => {
      if (name === 'main') inMain--;
      if (BLOCKS.has(name)) text += ' ';
    },
    ontext: (t) => {
      if (inMain > 0) text += t;
    },
  });
  parser.write(html);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}

/** Every link's href on a page, with its text. */
function linksOf(html: string): { href: string; text: string }[] {
  const links: { href: string; text: string }[] = [];
  let open: { href: string; text: string } | undefined;
  const parser = new Parser({
    onopentag: (name, attrs) => {
      if (name === 'a' && attrs.href !== undefined) open = { href: attrs.href, text: '' };
    },
    ontext: (t) => {
      if (open) open.text += t;
    },
    onclosetag: (name) => {
      if (name === 'a' && open) links.push(open);
      if (name === 'a') open = undefined;
    },
  });
  parser.write(html);
  parser.end();
  return links;
}

let dist: string;
let plain: string;
const page = (file: string) => readFile(path.join(dist, file), 'utf8');

beforeAll(async () => {
  [dist, plain] = await Promise.all([built(), built({ records: false })]);
});

describe('the changelog pages', () => {
  test.each([
    ['browse/changes.html', 'Changes', ['HSC imaging', "The redshift's UCD, & a column no one used", 'Redshifts for every object']],
    ['browse/alpha/changes.html', 'Alpha: changes', ["The redshift's UCD, & a column no one used", 'Redshifts for every object']],
    [
      'browse/alpha/dr1/changes.html',
      'Alpha Data Release 1: changes',
      ["The redshift's UCD, & a column no one used", 'Redshifts for every object'],
    ],
    ['browse/beta/changes.html', 'Beta: changes', ['HSC imaging']],
    ['browse/beta/dr1/changes.html', 'Beta DR1: changes', ['HSC imaging']],
  ])('%s lists its records, newest first', async (file, title, summaries) => {
    const html = await page(file);
    expect(/<h1>([^<]*)<\/h1>/.exec(html)?.[1]?.replaceAll('&#39;', "'")).toBe(title);
    const headings = [...html.matchAll(/<h2 id="r-[^"]*-h">(.*?) <a class="permalink"/g)].map((m) =>
      (m[1] ?? '').replaceAll('&#39;', "'").replaceAll('&amp;', '&'),
    );
    expect(headings).toEqual(summaries);
    expect(mainText(html)).toContain(`${summaries.length} ${summaries.length === 1 ? 'record' : 'records'}`);
    expect(html).toContain('<link rel="alternate" type="application/atom+xml" title="Changes (Atom)"');
  });

  test("a correction's reason is shown with its change, escaped", async () => {
    const text = mainText(await page('browse/alpha/dr1/changes.html'));
    expect(text).toContain(
      'correction catalogue column 2001 alpha/dr1/SpecCat/SpecObj/Z: The redshift is <not> optical only; "em.opt" & its kin were wrong.',
    );
    expect(text).toContain('ucd of Z changed from src.redshift;em.opt to src.redshift');
    expect(text).toContain('1 column removed (OLDZ)');
  });

  test('a survey no record touches has no changelog, and its page links none but the footer', async () => {
    await expect(readFile(path.join(dist, 'browse/gamma/changes.html'))).rejects.toThrow(/ENOENT/);
    const links = linksOf(await page('browse/gamma/index.html')).filter((l) => l.href.includes('changes'));
    expect(links).toEqual([{ href: '../../browse/changes.html', text: 'Changes' }]);
  });
});

describe("each node's page says when it was added and last changed, linked to the record", () => {
  test.each([
    ['browse/alpha/dr1/catalogues/SpecCat/SpecObj.html', ['Last changed 2015-06-01']],
    ['browse/beta/dr1/imaging/HSC.html', ['Added 2020-07-01 HSC imaging']],
    ['browse/beta/dr1/imaging/HSC/i.html', ['Added 2020-07-01 HSC imaging']],
    ['browse/alpha/dr1/index.html', ['Last changed 2015-06-01', "the release's changelog (2 records)"]],
    ['browse/alpha/index.html', ['Last changed 2015-06-01', "the survey's changelog (2 records)"]],
  ])('%s', async (file, shown) => {
    const text = mainText(await page(file));
    for (const words of shown) expect(text).toContain(words);
  });

  test("a table's columns: each added and changed, and a removed one, with the record's date", async () => {
    const html = await page('browse/alpha/dr1/catalogues/SpecCat/SpecObj.html');
    const rows = [...html.matchAll(/<tr><th scope="row">(.*?)<\/tr>/g)].map((m) => mainText(`<main><th>${m[1] ?? ''}</main>`));
    expect(rows).toContain("Z 2015-03-01 Redshifts for every object 2015-06-01 The redshift's UCD, & a column no one used");
    expect(rows).toContain("OLDZ removed – 2015-06-01 The redshift's UCD, & a column no one used");
  });

  test('every date links to its record on a changelog that is there', async () => {
    for (const file of [
      'browse/alpha/dr1/catalogues/SpecCat/SpecObj.html',
      'browse/beta/dr1/imaging/HSC.html',
      'browse/alpha/index.html',
    ]) {
      const dated = linksOf(await page(file)).filter((l) => /^\d{4}-\d\d-\d\d$/.test(l.text));
      expect(dated.length, file).toBeGreaterThan(0);
      for (const link of dated) {
        const [target = '', id = ''] = link.href.split('#');
        const changelog = await readFile(path.join(dist, path.dirname(file), target), 'utf8');
        expect(changelog, `${file} → ${link.href}`).toContain(`<article class="card record" id="${id}"`);
      }
    }
  });

  test('a page of what no record names shows no dates', async () => {
    expect(mainText(await page('browse/alpha/dr2/catalogues/InputCat/TilingCat.html'))).not.toMatch(/Added|Last changed/);
  });
});

describe('the Atom feed, as a feed reader reads it', () => {
  /** What feedparser makes of a feed's bytes. */
  function feedparser(bytes: Buffer): {
    bozo: number;
    version: string;
    title: string;
    updated: string;
    entries: { id: string; title: string; updated: string; link: string; content: string; tags: string[] }[];
  } {
    const script = `import json, sys, feedparser
d = feedparser.parse(sys.stdin.buffer.read())
print(json.dumps({"bozo": int(d.bozo), "version": d.version, "title": d.feed.get("title"), "updated": d.feed.get("updated"),
  "entries": [{"id": e.id, "title": e.title, "updated": e.updated, "link": e.link, "content": e.content[0].value,
  "tags": [t.term for t in e.get("tags", [])]} for e in d.entries]}))`;
    const run = spawnSync('/usr/bin/python3', ['-c', script], { input: bytes, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ReturnType<typeof feedparser>;
  }

  test('reads every record, newest first, with absolute links, dates and the reasons of corrections', async () => {
    const feed = feedparser(await readFile(path.join(dist, 'changes.atom')));
    expect(feed.bozo).toBe(0);
    expect(feed.version).toBe('atom10');
    expect(feed.updated).toBe('2020-07-01T00:00:00Z');
    expect(feed.entries.map((e) => [e.title, e.updated, e.link, e.tags])).toEqual([
      ['HSC imaging', '2020-07-01T00:00:00Z', `${BASE}/browse/changes.html#r-2020-07-01-hsc`, ['7/dr1']],
      [
        "The redshift's UCD, & a column no one used",
        '2015-06-01T12:00:00Z',
        `${BASE}/browse/changes.html#r-2015-06-01-redshift-ucd`,
        ['1/dr1'],
      ],
      ['Redshifts for every object', '2015-03-01T00:00:00Z', `${BASE}/browse/changes.html#r-2015-03-01-redshifts`, ['1/dr1']],
    ]);
    expect(new Set(feed.entries.map((e) => e.id)).size).toBe(3);
    const correction = feed.entries[1]?.content ?? '';
    expect(correction).toContain('The redshift is &lt;not&gt; optical only; &quot;em.opt&quot; &amp; its kin were wrong.');
    expect(correction).toContain(`<a href="${BASE}/browse/alpha/dr1/index.html">Alpha Data Release 1</a>`);
  });

  test('an archive without records still has a feed, with no entries, that reads', async () => {
    const feed = feedparser(await readFile(path.join(plain, 'changes.atom')));
    expect([feed.bozo, feed.version, feed.entries.length]).toEqual([0, 'atom10', 0]);
  });
});

describe('/changes.json', () => {
  test('holds every record, newest first, with its address and the reason of each correction', async () => {
    const json = JSON.parse(await page('changes.json')) as {
      changelog: string;
      feed: string;
      records: { name: string; url: string; date: string; changes: { id: number; correction?: { reason: string } }[] }[];
    };
    expect(json.changelog).toBe(`${BASE}/browse/changes.html`);
    expect(json.feed).toBe(`${BASE}/changes.atom`);
    expect(json.records.map((r) => [r.name, r.date])).toEqual([
      ['2020-07-01-hsc.yaml', '2020-07-01T00:00:00Z'],
      ['2015-06-01-redshift-ucd.yaml', '2015-06-01T12:00:00Z'],
      ['2015-03-01-redshifts.yaml', '2015-03-01T00:00:00Z'],
    ]);
    expect(json.records[1]?.changes[0]?.correction?.reason).toMatch(/^The redshift is <not> optical only/);
  });

  test('without records: none, and no changelog pages or footer links', async () => {
    expect(JSON.parse(await readFile(path.join(plain, 'changes.json'), 'utf8'))).toEqual({
      changelog: null,
      feed: `${BASE}/changes.atom`,
      records: [],
    });
    const files = [...(await snapshotTree(plain)).keys()];
    expect(files.filter((f) => f.endsWith('changes.html'))).toEqual([]);
    expect(await readFile(path.join(plain, 'browse/alpha/index.html'), 'utf8')).not.toContain('changes.html');
  });
});

describe('the same bytes', () => {
  test("the API's answers, the VO documents and the downloads but the browser's zip are the same with records and without", async () => {
    const [withRecords, without] = [await snapshotTree(dist), await snapshotTree(plain)];
    const api = (tree: Map<string, Buffer>) =>
      new Map(
        [...tree].filter(
          ([file]) =>
            /^(api|vo|download)\//.test(file) && !['download/browser.zip', 'download/SHA256SUMS', 'download/index.html'].includes(file),
        ),
      );
    expect(api(without).size).toBeGreaterThan(20);
    expectSameFiles(api(withRecords), api(without));
  });

  test('the same metadata and records give the same files, whatever order the records were written in', async () => {
    const again = await built({ order: 'backward' });
    const files = async (at: string) => new Map([...(await snapshotTree(at))].filter(([file]) => !file.startsWith('.')));
    expectSameFiles(await files(again), await files(dist));
  });
});

// A rebuild recalls the changelog's files from the build cache while what they are made from holds.
test("a rebuild's changelog follows an edited record, a survey's new name and the base URL, as a build from nothing", async () => {
  const dir = path.dirname(await built());
  const files = async (out: string) => new Map([...(await snapshotTree(path.join(dir, out)))].filter(([file]) => !file.startsWith('.')));
  const edit = async (file: string, from: string, to: string) => {
    const text = await readFile(path.join(dir, file), 'utf8');
    expect(text).toContain(from);
    await writeFile(path.join(dir, file), text.replace(from, to));
  };
  const steps: [edit: () => Promise<void>, base: string][] = [
    // The records' files recalled as they were.
    [() => edit('metadata/alpha/dr1/catalogues/SpecCat.yaml', 'description: Redshifts.', 'description: Redshifts, edited.'), BASE],
    [() => edit('changes/2020-07-01-hsc.yaml', 'summary: HSC imaging', 'summary: HSC imaging, edited'), BASE],
    [() => edit('metadata/beta/survey.yaml', 'pretty_name: Beta', 'pretty_name: Beta Renamed'), BASE],
    [() => Promise.resolve(), 'https://elsewhere.test'],
  ];
  for (const [change, base] of steps) {
    await change();
    for (const args of [
      ['--out', 'dist'],
      ['--reference', '--out', 'reference'],
    ]) {
      const result = await cli(['build', '--base-url', base, ...args], dir);
      expect(result.code, result.stderr).toBe(0);
    }
    expectSameFiles(await files('dist'), await files('reference'));
  }
  expect(await readFile(path.join(dir, 'dist/changes.atom'), 'utf8')).toContain('https://elsewhere.test/browse/changes.html');
});

test('the offline zip holds the changelog pages and the dated pages, as built', async () => {
  const into = await tempdir();
  unpackZip(path.join(dist, 'download/browser.zip'), into);
  for (const file of ['browse/changes.html', 'browse/alpha/dr1/changes.html', 'browse/alpha/dr1/catalogues/SpecCat/SpecObj.html'])
    expect((await readFile(path.join(into, file))).equals(await readFile(path.join(dist, file))), file).toBe(true);
});

type Host = 'serve' | 'nginx';
const HOSTS: Host[] = SKIP_NGINX ? ['serve'] : ['serve', 'nginx'];

describe.each(HOSTS)('answered by %s', (host) => {
  let origin: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    if (host === 'nginx') ({ origin, stop } = await nginxSite(dist));
    else {
      const served = await serveSite(dist);
      origin = served.origin;
      stop = () => {
        served.server.kill();
        return Promise.resolve();
      };
    }
  });
  afterAll(async () => stop());

  test.each([
    ['/changes.atom', 'changes.atom', 'application/atom+xml', false],
    ['/changes.json', 'changes.json', 'application/json', false],
    ['/browse/changes.html', 'browse/changes.html', 'text/html; charset=utf-8', true],
    ['/browse/alpha/dr1/changes.html', 'browse/alpha/dr1/changes.html', 'text/html; charset=utf-8', true],
  ])('%s: 200, %s as built, its type, and compressed when asked', async (target, file, type, isPage) => {
    const r = await http(origin, 'GET', target);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.bytes.equals(await readFile(path.join(dist, file)))).toBe(true);
    expect(r.headers['content-security-policy']).toBe(isPage ? CONTENT_SECURITY_POLICY : undefined);
    if (!isPage) expect(r.headers['access-control-allow-origin']).toBe('*');
    const zipped = await http(origin, 'GET', target, { 'Accept-Encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe(type);
  });

  test('a changelog no survey has is not found', async () => {
    expect((await http(origin, 'GET', '/browse/gamma/changes.html')).status).toBe(404);
  });
});

test("netlify.toml gives /changes.atom and /changes.json their types, as Netlify's parser reads it", async () => {
  const typeOf = await netlifyHeader('Content-Type');
  expect(typeOf('/changes.atom')).toBe('application/atom+xml');
  expect(typeOf('/changes.json')).toBe('application/json');
});

describe('in a browser', () => {
  const browser = useBrowser();
  let origin: string;
  let stop: () => void;
  beforeAll(async () => {
    const served = await serveSite(dist);
    origin = served.origin;
    stop = () => void served.server.kill();
  });
  afterAll(() => stop());

  test("a table's last change leads to its record on the release's changelog, without errors", () =>
    browser.page({}, async (watched) => {
      await watched.goto(`${origin}/browse/alpha/dr1/catalogues/SpecCat/SpecObj.html`);
      const link = await watched.page.waitForSelector('dl.facts a[href*="changes.html#"]');
      await Promise.all([watched.page.waitForNavigation(), link?.click()]);
      expect(watched.page.url()).toBe(`${origin}/browse/alpha/dr1/changes.html#r-2015-06-01-redshift-ucd`);
      const title = await watched.page.$eval('#r-2015-06-01-redshift-ucd h2', (h) => h.textContent);
      expect(title).toContain("The redshift's UCD, & a column no one used");
      expect([...watched.consoleErrors, ...watched.pageErrors, ...watched.failures]).toEqual([]);
    }));
});
