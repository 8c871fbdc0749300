// The download's checksum list (SHA256SUMS, which `sha256sum -c` reads) and its page: each file
// with what it is, its size and checksum, and how to verify them.

import { DOCUMENTS, DOWNLOAD_DIR } from '../../site/routes.ts';
import { html } from '../html.ts';
import { scrollTable } from '../browser/pages/html.ts';
import { shell } from '../browser/pages/shell.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';

export const SUMS_FILE = `${DOWNLOAD_DIR}/SHA256SUMS`;
export const INDEX_FILE = `${DOWNLOAD_DIR}/index.html`;
/** The files planDownloadIndex makes. */
export const INDEX_FILES = [INDEX_FILE, SUMS_FILE] as const;

/** A file's size as people read it. */
function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['kB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit] ?? ''}`;
}

/** `sha256sum` lines for the files, by name within the download folder. */
function sumsText(files: readonly { name: string; sum: string }[]): string {
  return files.map((f) => `${f.sum}  ${f.name}\n`).join('');
}

/**
 * The page and the checksum list for the download's data files (`plans`, with `sums` by path).
 * The list covers every file in the folder but itself, the page included; the page gives each data
 * file's checksum, and the list's size.
 */
export function planDownloadIndex(plans: readonly Plan[], sums: ReadonlyMap<string, string>, sha256: (text: string) => string): Plan[] {
  const inFolder = (p: Plan) => p.path.slice(DOWNLOAD_DIR.length + 1);
  const rows = plans.map((p) => ({ name: inFolder(p), size: p.size, sum: sums.get(p.path) ?? '' }));
  const page = indexPage(rows);
  const listed = [...rows, { name: INDEX_FILE.slice(DOWNLOAD_DIR.length + 1), size: Buffer.byteLength(page), sum: sha256(page) }];
  const [indexFile, sumsFile] = INDEX_FILES;
  return [planOf(indexFile, [page]), planOf(sumsFile, [sumsText(listed)])];
}

function indexPage(rows: readonly { name: string; size: number; sum: string }[]): string {
  const titles = new Map(DOCUMENTS.map((d) => [d.file.slice(DOWNLOAD_DIR.length + 1), d.title]));
  const body = rows.map((r) => {
    const link = html`<a href="${encodeURIComponent(r.name)}">${r.name}</a>`;
    return html`<tr><th scope="row">${link}</th><td data-label="What it is">${titles.get(r.name)}</td><td class="num" data-label="Size">${sizeText(r.size)}</td><td class="sum" data-label="SHA-256"><code>${r.sum}</code></td></tr>`;
  });
  const sums = html`<tr><th scope="row"><a href="SHA256SUMS">SHA256SUMS</a></th><td data-label="What it is">${titles.get('SHA256SUMS')}</td><td class="num"></td><td class="sum" data-label="SHA-256">this page and every file above</td></tr>`;
  const content = html`<p class="lead">Everything the API publishes, to work offline: the whole archive as one JSON document, every catalogue column, every imaging region and every IFS or spectra data product as CSV and as VOTable, the catalogue tables as TAP_SCHEMA and as a VOSI tables document, and the schema browser's pages as a zip: unpack it and open <code>index.html</code> in a browser.</p>
${scrollTable('Files of the download', ['File', 'What it is', { num: 'Size' }, 'SHA-256'], [...body, sums], 'files')}<h2>Verifying a download</h2>
<p>Download the files you want and <code>SHA256SUMS</code> into one folder, then run:</p>
<pre>sha256sum -c --ignore-missing SHA256SUMS</pre>
<p>Each file should be reported <code>OK</code>. On macOS, use <code>shasum -a 256 -c SHA256SUMS</code>.</p>
`;
  return shell({ path: [DOWNLOAD_DIR], title: "Download the archive's schema", body: content });
}
