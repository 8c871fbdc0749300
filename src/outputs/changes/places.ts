// Where the changelog's surveys and releases are now, and what they are called: a record names a
// survey by its id and a release by its survey's id and its name, the browser by their folders. A
// survey or release the archive no longer has is named from the records alone.

import type { PublishedRecord } from '../../changes/published.ts';
import type { Archive } from '../../pipeline/assemble.ts';
import { rootOf, segment } from '../browser/pages/html.ts';
import type { PagePath } from '../browser/pages/html.ts';

export interface Places {
  /** A survey's folder name, if the archive has it. */
  surveyName: (survey: number) => string | undefined;
  /** Whether the archive has the release. */
  hasRelease: (survey: number, release: string) => boolean;
  /** How readers know a survey (its pretty name) or a release ("GAMA Data Release 4"). */
  title: (survey: number, release?: string) => string;
}

export function placesOf(archive: Archive, records: readonly PublishedRecord[]): Places {
  const surveys = new Map<number, { name: string; label: string; releases: Map<string, string> }>();
  for (const survey of archive.surveys) {
    const releases = new Map(survey.releases.map((r) => [r.data.name, r.data.pretty_name || r.data.name]));
    surveys.set(survey.data.id, { name: survey.data.name, label: survey.data.pretty_name || survey.data.name, releases });
  }
  // A survey that is gone is named as its own records last named it.
  const gone = new Map<number, string>();
  for (const record of records)
    for (const entry of record.changes)
      if (entry.kind === 'Survey' && entry.id !== undefined) {
        const fields = entry.new ?? entry.old ?? {};
        const label = fields.pretty_name ?? fields.name;
        if (typeof label === 'string' && label !== '') gone.set(entry.id, label);
      }
  return {
    surveyName: (survey) => surveys.get(survey)?.name,
    hasRelease: (survey, release) => surveys.get(survey)?.releases.has(release) ?? false,
    title(survey, release) {
      const known = surveys.get(survey);
      const label = known?.label ?? gone.get(survey) ?? `Survey ${survey}`;
      if (release === undefined) return label;
      const named = known?.releases.get(release) ?? release.toUpperCase();
      // A release's pretty name may name its survey already ("Beta DR1").
      return named.startsWith(`${label} `) ? named : `${label} ${named}`;
    },
  };
}

// ---- The changelog's pages --------------------------------------------------------------------------
// Each a `changes.html` in a folder of the browser: browse/ for the archive's, a survey's folder
// and a release's for theirs. No survey or release can be named `changes.html` (their names hold
// no dot), so none is ever in the way.

/** The archive's changelog's folder. */
export const ARCHIVE_FOLDER: PagePath = ['browse'];

/** The folder of a survey's or a release's pages in the browser, where its changelog sits beside them. */
export function folderOf(survey: string, release?: string): PagePath {
  return release === undefined ? ['browse', survey] : ['browse', survey, release];
}

const CHANGELOG = 'changes.html';

/** The output file of the changelog in a folder. */
export function changelogFile(folder: PagePath): string {
  return [...folder, CHANGELOG].join('/');
}

/** The link to the changelog in a folder from a page at `from` (a page's path, as the browser's pages go by). */
export function changelogHref(from: PagePath, folder: PagePath): string {
  return `${rootOf(from)}${folder.map(segment).join('/')}/${CHANGELOG}`;
}

/** The id of a record's entry on a changelog: `r-` and its file's name without `.yaml`, percent-encoded. */
export function recordId(record: Pick<PublishedRecord, 'name'>): string {
  return `r-${encodeURIComponent(record.name.replace(/\.yaml$/, ''))}`;
}
