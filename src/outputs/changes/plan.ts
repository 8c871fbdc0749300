// The changelog's files: the Atom feed and the records as JSON (always, empty when the archive keeps
// no records), and with records the changelog's pages: the archive's, and each survey's and
// release's that a record touches. Made from the records, the base URL, the names of the surveys
// and releases and the footer's links alone, so a build recalls them while none of those changed.

import { createHash } from 'node:crypto';
import type { PublishedRecord } from '../../changes/published.ts';
import { releasePlace, timelines } from '../../changes/timeline.ts';
import type { Archive } from '../../pipeline/assemble.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import { isInstant, parseInstant } from '../../vocabularies/instant.ts';
import type { PlanInput, ReferenceInput } from '../output.ts';
import { FEED_FILE, JSON_FILE } from './documents.ts';
import { feedText } from './feed.ts';
import { recordsJson } from './json.ts';
import { changelogPage } from './pages.ts';
import type { Changelog } from './pages.ts';
import { ARCHIVE_FOLDER, changelogFile, folderOf, placesOf } from './places.ts';
import type { Places } from './places.ts';

/** The name the changelog's files are recalled by (PlanInput.recall). */
const RECALLED = 'changes';

export function planChanges(input: ReferenceInput & Pick<PlanInput, 'recall'>): Plan[] {
  const { changes, recall } = input;
  // A thousand records take a second to render; an edit of a description changes none of their files.
  if (!recall || !changes || changes.records.length === 0) return changesFiles(input).map(([file, text]) => planOf(file, [text]));
  const made = () => keptPlans(changesFiles(input));
  return recalledPlans(recall(RECALLED, madeFrom(input, changes.key), made));
}

/**
 * The files' plans as one text: a line of their paths, keys, sizes and lengths, then the texts one
 * after another. Read back without hashing the texts again (7 MB at 1,000 records) or parsing them
 * as JSON.
 */
function keptPlans(files: readonly [string, string][]): string {
  const heads = files.map(([file, text]) => {
    const plan = planOf(file, [text]);
    return [plan.path, plan.key, plan.size, text.length];
  });
  return `${JSON.stringify(heads)}\n${files.map(([, text]) => text).join('')}`;
}

/** The plans keptPlans wrote: each key made from the same bytes as it was then. */
function recalledPlans(kept: string): Plan[] {
  const line = kept.indexOf('\n');
  const heads = JSON.parse(kept.slice(0, line)) as [path: string, key: string, size: number, length: number][];
  let at = line + 1;
  return heads.map(([path, key, size, length]) => {
    const text = kept.slice(at, (at += length));
    return { path, pieces: text === '' ? [] : [text], key, size };
  });
}

/**
 * A key of all that the files are made from but the code: the records, the base URL, each survey's and
 * release's id, names and order, and the links of the footer.
 */
function madeFrom(input: ReferenceInput, records: string): string {
  const surveys = input.archive.surveys.map((survey) => [
    survey.data.id,
    survey.data.name,
    survey.data.pretty_name,
    survey.releases.map((release) => [release.data.name, release.data.pretty_name]),
  ]);
  const links = input.pageNotes?.links ?? [];
  return createHash('sha256')
    .update(JSON.stringify([records, input.baseUrl, surveys, links]))
    .digest('hex');
}

/** The changelog's files, rendered: path and text. */
function changesFiles(input: ReferenceInput): [string, string][] {
  const records = input.changes?.records ?? [];
  const places = placesOf(input.archive, records);
  const files: [string, string][] = [
    [FEED_FILE, feedText(records, input.baseUrl, places, records.length > 0 ? '' : latestOf(input))],
    [JSON_FILE, recordsJson(records, input.baseUrl)],
  ];
  const links = input.pageNotes?.links ?? [];
  for (const log of changelogs(input.archive, records, places)) files.push([changelogFile(log.folder), changelogPage(log, places, links)]);
  return files;
}

/** The archive's changelog, and each survey's and release's that a record touches; none without records. */
function changelogs(archive: Archive, records: readonly PublishedRecord[], places: Places): Changelog[] {
  if (records.length === 0) return [];
  const { touching } = timelines(records);
  const newest = (place: string) => [...(touching.get(place) ?? [])].reverse();
  const logs: Changelog[] = [];
  const surveys: Changelog['narrower'][number][] = [];
  for (const survey of archive.surveys) {
    const { id, name } = survey.data;
    const label = places.title(id);
    const ofSurvey = newest(String(id));
    if (ofSurvey.length === 0) continue;
    surveys.push({ label, folder: folderOf(name) });
    const releases: Changelog['narrower'][number][] = [];
    for (const release of survey.releases) {
      const ofRelease = newest(releasePlace(id, release.data.name));
      if (ofRelease.length === 0) continue;
      const folder = folderOf(name, release.data.name);
      const releaseLabel = release.data.pretty_name || release.data.name;
      releases.push({ label: releaseLabel, folder });
      logs.push({
        folder,
        scope: { survey: id, release: release.data.name },
        title: places.title(id, release.data.name),
        names: { survey: name, release: release.data.name, surveyLabel: label, releaseLabel },
        surveyId: id,
        records: ofRelease,
        narrower: [],
      });
    }
    logs.push({
      folder: folderOf(name),
      scope: { survey: id },
      title: label,
      names: { survey: name, surveyLabel: label },
      surveyId: id,
      records: ofSurvey,
      narrower: releases,
    });
  }
  logs.push({ folder: ARCHIVE_FOLDER, scope: {}, title: 'the archive', names: {}, records: [...records].reverse(), narrower: surveys });
  return logs;
}

/** When the archive last changed, as its releases and files say: the feed's date while no record says more. */
function latestOf(input: ReferenceInput): string {
  const stamps = [...input.fragments.values()].map((f) => f.latest);
  for (const survey of input.archive.surveys) for (const release of survey.releases) stamps.push(release.data.updated);
  let latest = -Infinity;
  for (const stamp of stamps) {
    const instant = parseInstant(stamp);
    if (isInstant(instant)) latest = Math.max(latest, instant.epochMs);
  }
  return Number.isFinite(latest) ? `${new Date(latest).toISOString().slice(0, 19)}Z` : '1970-01-01T00:00:00Z';
}
