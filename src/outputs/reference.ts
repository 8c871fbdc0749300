// The reference transform: every response built as whole objects and serialised at once, the
// straightforward way. The build's fast path (outputs/plan.ts) must give the same bytes; tests and
// `build --reference` hold it to that.

import { createHash } from 'node:crypto';
import { DOWNLOAD_DIR, detailFile, isBrowserFile, precompressible } from '../site/routes.ts';
import type { NodeYaml } from '../kinds/data.ts';
import { KIND_TYPES, SECTIONS } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { rootsOf } from '../pipeline/assemble.ts';
import type { Archive, Entry, ReleaseEntry, SurveyEntry } from '../pipeline/assemble.ts';
import { ARCHIVE_SCHEMA_VERSION, archiveParts } from './download/archive.ts';
import { planDownloadIndex } from './download/index.ts';
import { ARCHIVE_FILE, VO_TABLES_FILE } from './download/plan.ts';
import { voDocuments } from './download/vo.ts';
import { BROWSER_ZIP } from './download/browser-zip.ts';
import { zipWhole } from './download/zip.ts';
import { UNIT_TEXTS } from './units.ts';
import { renderFragment } from './fragment.ts';
import type { Fragment } from '../site/fragment.ts';
import { plansOf } from '../site/plan.ts';
import type { Piece } from '../site/plan.ts';
import { planOpenapi } from './openapi/plan.ts';
import { COPIES, copyPath } from './precompress.ts';
import { compressWhole, gzipMember } from '../site/compression.ts';
import { fixedFiles } from './api/fixed.ts';
import { encodeJson } from './api/encode.ts';
import { nodeObject } from './api/objects.ts';
import { responses } from './api/responses.ts';
import { pageJson, renderBrowsable } from './browsable/page.ts';
import { planBrowser } from './browser/plan.ts';

/** dist/-relative path → file content. Insertion order is the order files are listed in. */
export type OutputFiles = Map<string, string | Uint8Array>;

export function referenceFiles(archive: Archive, baseUrl: string): OutputFiles {
  const out: OutputFiles = new Map();
  const items = responses(
    archive,
    (kind, entry, survey, release) => nodeObject(kind, entry.data, [survey.data.name, release.data.name]),
    baseUrl,
  );
  for (const spec of items) {
    out.set(
      spec.path,
      spec.format === 'api'
        ? renderBrowsable({ view: spec.view, status: 200, pretty: pageJson(spec.value), survey: spec.survey })
        : encodeJson(spec.value),
    );
  }
  for (const [path, text] of fixedFiles()) out.set(path, text);
  // Each group's and facility's texts rendered here, once, for the browser's pages (filled in place) and the download.
  const fragments = renderedFragments(archive);
  for (const plan of planBrowser({ archive, fragments, baseUrl })) out.set(plan.path, filledText(plan.pieces));
  // Documents that do not depend on the metadata are the same on both paths.
  for (const plan of planOpenapi({ archive, fragments: new Map(), baseUrl })) out.set(plan.path, textOf(plan.path, plan.pieces));
  for (const [path, content] of downloadFiles(archive, fragments, baseUrl, browserFiles(out))) out.set(path, content);
  return out;
}

/** The schema browser's files among these, as bytes. */
function browserFiles(files: OutputFiles): Map<string, Uint8Array> {
  return new Map(
    [...files]
      .filter(([file]) => isBrowserFile(file))
      .map(([file, content]) => [file, typeof content === 'string' ? Buffer.from(content, 'utf8') : content]),
  );
}

/** The files with each precompressible one's copies after it, each compressed at once from the whole file. */
export function withReferenceCopies(files: OutputFiles): OutputFiles {
  const out: OutputFiles = new Map();
  for (const [file, content] of files) {
    out.set(file, content);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (!precompressible(file, bytes.length)) continue;
    for (const compression of COPIES) out.set(copyPath(file, compression), compressWhole(bytes, compression));
  }
  return out;
}

/**
 * The download, the straightforward way: archive.json as one value serialised at once; the gzip
 * members over the same parts as the fast path's (each group's and facility's text rendered here);
 * the browser's files zipped whole; checksums of the bytes themselves.
 */
function downloadFiles(
  archive: Archive,
  fragments: ReadonlyMap<string, Fragment>,
  baseUrl: string,
  browser: ReadonlyMap<string, Uint8Array>,
): OutputFiles {
  const files: OutputFiles = new Map();
  const items = (kind: KindType, entry: Entry<NodeYaml>, survey: SurveyEntry, release: ReleaseEntry) =>
    nodeObject(kind, entry.data, [survey.data.name, release.data.name]);
  const surveys = [...responses(archive, items, baseUrl)].filter(
    (r) => r.view === 'detail' && r.format === null && r.path === detailFile(pathId(r.path), null, null),
  );
  const counts: Record<string, number> = Object.fromEntries(KIND_TYPES.map((type) => [type, 0]));
  let latest = '';
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (typeof node.type === 'string') {
      counts[node.type] = (counts[node.type] ?? 0) + 1;
      if (typeof node.updated === 'string' && node.updated > latest) latest = node.updated;
    }
    Object.values(node).forEach(visit);
  };
  for (const survey of surveys) visit(survey.value);
  const json = `${encodeJson({ schema_version: ARCHIVE_SCHEMA_VERSION, generated: latest || null, counts, surveys: surveys.map((s) => s.value) })}\n`;
  files.set(ARCHIVE_FILE, json);
  const members = archiveParts({ archive, fragments, baseUrl }).map((part) =>
    gzipMember(typeof part === 'string' ? Buffer.from(part, 'utf8') : (part.compact as Uint8Array)),
  );
  files.set(`${ARCHIVE_FILE}.gz`, Buffer.concat(members));
  // Each row text rendered from the whole objects here, its URL marks filled in place.
  const rows = (entry: Entry<NodeYaml>, text: string, fill: string): string => {
    const declared = UNIT_TEXTS.find((t) => t.name === text);
    const { survey, release = '' } = entry.file.placement;
    const kind = entry.file.kind as KindType;
    if (!declared || !('render' in declared)) throw new Error(`no text named ${text}`);
    const made = declared.render(nodeObject(kind, entry.data, [survey, release]), { survey, release }, new Uint8Array());
    return (typeof made === 'string' ? made : Buffer.from(made).toString('utf8')).replaceAll('\0', fill);
  };
  const documents = voDocuments(archive, baseUrl, rows);
  for (const [name, pieces] of documents) files.set(`${DOWNLOAD_DIR}/${name}`, textOf(name, pieces));
  files.set(BROWSER_ZIP, zipWhole(browser));
  const sha = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
  const plans = plansOf(files);
  const sums = new Map([...files].map(([path, content]) => [path, sha(content)]));
  for (const plan of planDownloadIndex(plans, sums, sha)) files.set(plan.path, textOf(plan.path, plan.pieces));
  files.set(VO_TABLES_FILE, textOf(VO_TABLES_FILE, documents.get('tables.xml') ?? []));
  return files;
}

/** Every group's and facility's texts, rendered here from its whole object. */
function renderedFragments(archive: Archive): Map<string, Fragment> {
  const fragments = new Map<string, Fragment>();
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      for (const section of SECTIONS) {
        for (const entry of rootsOf(release, section.kind)) {
          fragments.set(
            entry.file.relative,
            renderFragment(section.kind, entry.data, [survey.data.name, release.data.name], entry.file.relative, entry.file.relative),
          );
        }
      }
    }
  }
  return fragments;
}

/** Pieces in memory as one text, their NUL marks filled. */
function filledText(pieces: readonly Piece[]): string {
  return pieces
    .map((piece) => {
      if (typeof piece === 'string') return piece;
      if (!(piece.bytes instanceof Uint8Array) || piece.shift !== 0) throw new Error('a piece not made in memory');
      const text = Buffer.from(piece.bytes).toString('utf8');
      return piece.fill === undefined ? text : text.replaceAll('\0', piece.fill);
    })
    .join('');
}

/** Pieces that are text only, as one text. */
function textOf(path: string, pieces: readonly Piece[]): string {
  return pieces
    .map((piece) => {
      if (typeof piece !== 'string') throw new Error(`${path}: planned from rendered texts, not text alone`);
      return piece;
    })
    .join('');
}

/** The survey id in a detail file's path. */
function pathId(file: string): string {
  return file.split('/')[2] ?? '';
}
