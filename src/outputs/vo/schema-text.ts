// What the VO outputs say about a survey's release as a schema: its title and description.

import type { ApiObject } from '../api/objects.ts';
import type { Place } from './place.ts';

const named = (object: ApiObject | undefined, key: string): string | undefined => {
  const value = object?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

/** "GAMA Data Release 2": the survey's and release's display names, or their names. */
export function schemaTitle(place: Place, release: ApiObject, survey?: ApiObject): string {
  return `${named(survey, 'pretty_name') ?? place.survey} ${named(release, 'pretty_name') ?? place.release}`;
}

/** "Catalogue tables of Galaxy And Mass Assembly (GAMA), Data Release 2." */
export function schemaDescription(place: Place, release: ApiObject, survey?: ApiObject): string {
  const title = named(survey, 'title');
  const surveyName = named(survey, 'pretty_name') ?? place.survey;
  return `Catalogue tables of ${title ? `${title} (${surveyName})` : surveyName}, ${named(release, 'pretty_name') ?? place.release}.`;
}
