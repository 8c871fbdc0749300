// The download's checksum list (SHA256SUMS, which `sha256sum -c` reads) and its page: each file
// with what it is, its size and checksum, and how to verify them.

import { DOCUMENTS, DOWNLOAD_DIR } from '../../site/routes.ts';
import { html, joinHtml } from '../html.ts';
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
    return html`<tr><td>${link}</td><td>${titles.get(r.name)}</td><td class="n">${sizeText(r.size)}</td><td><code>${r.sum}</code></td></tr>`;
  });
  return html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Download the archive's schema</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:72rem}table{border-collapse:collapse}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.n{text-align:right;white-space:nowrap}code{font-size:.85em;word-break:break-all}pre{background:#f4f4f4;padding:.6rem}</style>
</head>
<body>
<h1>Download the archive's schema</h1>
<p>Everything the API publishes, to work offline: the whole archive as one JSON document, every catalogue column, every imaging region and every IFS or spectra data product as CSV and as VOTable, the catalogue tables as TAP_SCHEMA and as a VOSI tables document, and the schema browser's pages as a zip: unpack it and open <code>index.html</code> in a browser.</p>
<table>
<thead><tr><th>file</th><th>what it is</th><th>size</th><th>SHA-256</th></tr></thead>
<tbody>
${joinHtml(body, '\n')}
<tr><td><a href="SHA256SUMS">SHA256SUMS</a></td><td>${titles.get('SHA256SUMS')}</td><td class="n"></td><td>this page and every file above</td></tr>
</tbody>
</table>
<h2>Verifying a download</h2>
<p>Download the files you want and <code>SHA256SUMS</code> into one folder, then run:</p>
<pre>sha256sum -c --ignore-missing SHA256SUMS</pre>
<p>Each file should be reported <code>OK</code>. On macOS, use <code>shasum -a 256 -c SHA256SUMS</code>.</p>
<p><a href="../">The site's front page</a> · <a href="../api/docs/">API reference</a></p>
</body>
</html>
`.text;
}
