// Which responses the archive gives rise to: each data type's listing and each survey's routes,
// in every format, with their values. What stands for each group or facility inside them is the
// caller's: the API object itself, or a placeholder for text rendered once (outputs/plan.ts).

import { DATA_TYPES, FORMATS, detailFile, listFile, surveyUrl } from '../../site/routes.ts';
import type { DataType, Format, View } from '../../site/routes.ts';
import type { NodeYaml } from '../../kinds/data.ts';
import { SECTIONS } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import { rootsOf } from '../../pipeline/assemble.ts';
import type { Archive, Entry, ReleaseEntry, SurveyEntry } from '../../pipeline/assemble.ts';
import { releaseHead, surveyObject } from './objects.ts';
import type { ApiObject } from './objects.ts';

/**
 * What each data type's listing shows of a release: a release qualifies when one of these is
 * populated, and the rest are null. The ifs and spectra listings show catalogues too, as the
 * original service did.
 */
const SHOWN: Record<DataType, readonly DataType[]> = {
  catalogues: ['catalogues'],
  imaging: ['imaging'],
  ifs: ['catalogues', 'ifs'],
  spectra: ['catalogues', 'spectra'],
};

/** What stands for one file's item (a group, a facility) in a response. */
export type ItemOf<T> = (kind: KindType, entry: Entry<NodeYaml>, survey: SurveyEntry, release: ReleaseEntry) => T;

/** One response to write: its file, the view and format it answers, and its value. */
export interface Response {
  path: string;
  view: View;
  format: Format;
  value: unknown;
  /** The survey a detail shows, by name (its browsable page links to the survey's page in the schema browser). */
  survey?: string;
}

/** A release's head and its data of each type, built once and shared by every response showing it. */
interface ReleaseParts {
  head: ApiObject;
  /** Each data type's object (`{"groups": […]}`), or null where the release has none. */
  data: Record<DataType, ApiObject | null>;
}

function releaseParts<T>(survey: SurveyEntry, release: ReleaseEntry, itemOf: ItemOf<T>): ReleaseParts {
  const data = Object.fromEntries(DATA_TYPES.map((t) => [t, null])) as Record<DataType, ApiObject | null>;
  for (const section of SECTIONS) {
    const items = rootsOf(release, section.kind).map((entry) => itemOf(section.kind, entry, survey, release));
    if (items.length > 0) data[section.dataType] = { [section.key]: items };
  }
  return { head: releaseHead(release.data), data };
}

/**
 * A release as shown for a data type, or undefined when it does not qualify for it; null is the
 * survey's own route, which shows every release with everything populated.
 */
function releaseFor(parts: ReleaseParts, dataType: DataType | null): ApiObject | undefined {
  const shown = dataType === null ? DATA_TYPES : SHOWN[dataType];
  if (dataType !== null && !shown.some((t) => parts.data[t] !== null)) return undefined;
  const release: ApiObject = { ...parts.head, type: 'DataRelease' };
  for (const t of DATA_TYPES) release[t] = shown.includes(t) ? parts.data[t] : null;
  return release;
}

function released(parts: readonly ReleaseParts[], dataType: DataType | null): ApiObject[] {
  return parts.flatMap((p) => {
    const r = releaseFor(p, dataType);
    return r ? [r] : [];
  });
}

/** Every response the data gives rise to: the listings, then each survey's routes. */
export function* responses<T>(archive: Archive, itemOf: ItemOf<T>, baseUrl: string): Generator<Response> {
  const parts = new Map(archive.surveys.map((s) => [s, s.releases.map((r) => releaseParts(s, r, itemOf))]));
  for (const dataType of DATA_TYPES) {
    for (const format of FORMATS) {
      const listing = archive.surveys.flatMap((survey) => {
        const releases = released(parts.get(survey) ?? [], dataType);
        return releases.length > 0 ? [surveyObject(survey.data, surveyUrl(baseUrl, survey.data.id, format), releases)] : [];
      });
      yield { path: listFile(dataType, format), view: 'list', format, value: listing };
    }
  }
  for (const survey of archive.surveys) {
    const surveyParts = parts.get(survey) ?? [];
    for (const dataType of [null, ...DATA_TYPES]) {
      const releases = released(surveyParts, dataType);
      // A survey with nothing of a data type has no file for it: the request answers 404.
      if (dataType !== null && releases.length === 0) continue;
      for (const format of FORMATS) {
        const value = surveyObject(survey.data, surveyUrl(baseUrl, survey.data.id, format), releases);
        yield { path: detailFile(survey.data.id, dataType, format), view: 'detail', format, value, survey: survey.data.name };
      }
    }
  }
}
