// The changelog's files: the Atom feed and the records as JSON (always, empty when the archive keeps
// no records), and with records the changelog's pages: the archive's, and each survey's and
// release's that a record touches.

import type { PublishedRecord } from '../../changes/published.ts';
import { releasePlace, timelines } from '../../changes/timeline.ts';
import type { Archive } from '../../pipeline/assemble.ts';
import { planOf } from '../../site/plan.ts';
import type { Plan } from '../../site/plan.ts';
import { isInstant, parseInstant } from '../../vocabularies/instant.ts';
import type { ReferenceInput } from '../output.ts';
import { FEED_FILE, JSON_FILE } from './documents.ts';
import { feedText } from './feed.ts';
import { recordsJson } from './json.ts';
import { changelogPage } from './pages.ts';
import type { Changelog } from './pages.ts';
import { ARCHIVE_FOLDER, changelogFile, folderOf, placesOf } from './places.ts';
import type { Places } from './places.ts';

export function planChanges(input: ReferenceInput): Plan[] {
  const records = input.changes?.records ?? [];
  const places = placesOf(input.archive, records);
  const plans = [
    planOf(FEED_FILE, [feedText(records, input.baseUrl, places, records.length > 0 ? '' : latestOf(input))]),
    planOf(JSON_FILE, [recordsJson(records, input.baseUrl)]),
  ];
  const links = input.pageNotes?.links ?? [];
  for (const log of changelogs(input.archive, records, places))
    plans.push(planOf(changelogFile(log.folder), [changelogPage(log, places, links)]));
  return plans;
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
