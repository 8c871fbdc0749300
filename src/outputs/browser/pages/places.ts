// Where each page of the schema browser lives, and the breadcrumbs that lead to it:
//   browse/<survey>/                                          a survey
//   browse/<survey>/<release>/                                a release
//   browse/<survey>/<release>/catalogues/<group>.html         a catalogue group
//   browse/<survey>/<release>/catalogues/<group>/<table>.html  one of its tables
//   browse/<survey>/<release>/imaging/<facility>.html         an imaging facility
//   browse/<survey>/<release>/imaging/<facility>/<band>.html  one of its bands
//   browse/<survey>/<release>/ifs|spectra/<facility>.html     an IFS or spectra facility and its products

import type { Html } from '../../html.ts';
import { displayName, surveyId } from './html.ts';
import type { PagePath } from './html.ts';
import { shell } from './shell.ts';
import type { Crumb } from './shell.ts';
import type { DataRelease, Survey } from './types.ts';
import { sectionOf } from '../../../kinds/registry.ts';
import type { KindType } from '../../../kinds/registry.ts';

/** The survey a page belongs to. */
export interface SurveyPlace {
  /** The site's name (the shell's default when left out). */
  site?: string;
  survey: Pick<Survey, 'url' | 'name' | 'pretty_name'>;
}

/** The release a page belongs to. */
export interface ReleasePlace extends SurveyPlace {
  release: Pick<DataRelease, 'name' | 'pretty_name'>;
}

export type DataKind = 'catalogues' | 'imaging' | 'ifs' | 'spectra';

/** The group, or the facility, a page belongs to. */
export interface ParentPlace extends ReleasePlace {
  parent: { name: string; pretty_name: string | null };
}

export const KIND_LABEL: Record<DataKind, string> = { catalogues: 'Catalogues', imaging: 'Imaging', ifs: 'IFS', spectra: 'Spectra' };

export function surveyPath(place: SurveyPlace): PagePath {
  return ['browse', place.survey.name];
}

export function releasePath(place: ReleasePlace): PagePath {
  return [...surveyPath(place), place.release.name];
}

/** A group's or a facility's page. */
export function parentPath(place: ReleasePlace, kind: DataKind, name: string): PagePath {
  return [...releasePath(place), kind, name];
}

/** A table's or a band's page. */
export function childPath(place: ParentPlace, kind: DataKind, name: string): PagePath {
  return [...parentPath(place, kind, place.parent.name), name];
}

export function homeCrumb(place: SurveyPlace): Crumb {
  return { label: place.site ?? 'Home', path: [] };
}

export function surveyCrumbs(place: SurveyPlace): Crumb[] {
  return [homeCrumb(place), { label: place.survey.pretty_name || place.survey.name, path: surveyPath(place) }];
}

export function releaseCrumbs(place: ReleasePlace): Crumb[] {
  return [...surveyCrumbs(place), { label: place.release.pretty_name || place.release.name, path: releasePath(place) }];
}

export function parentCrumbs(place: ParentPlace, kind: DataKind): Crumb[] {
  return [...releaseCrumbs(place), { label: displayName(place.parent), path: parentPath(place, kind, place.parent.name) }];
}

export function idOf(place: SurveyPlace): string | undefined {
  return surveyId(place.survey.url);
}

/**
 * The page of a group, facility, table or band: titled with its name, its breadcrumbs those of what
 * holds it (`above`) and its own, its footer linking its survey's JSON.
 */
export function nodePage(
  path: PagePath,
  node: { name: string; pretty_name: string | null },
  place: SurveyPlace,
  above: readonly Crumb[],
  body: Html,
): string {
  const title = displayName(node);
  return shell({ path, title, body, crumbs: [...above, { label: title }], site: place.site, surveyId: idOf(place) });
}

/** The data type of a kind's files. */
export function dataKindOf(kind: KindType): DataKind {
  const section = sectionOf(kind);
  if (!section) throw new Error(`${kind} files have no pages of their own`);
  return section.dataType;
}
