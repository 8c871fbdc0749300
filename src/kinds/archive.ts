// The archive's top two levels: a survey, and a data release of a survey. Their API objects have
// fields of their own rather than the common node fields (outputs/api.ts builds them).

import type { Kind } from './kind.ts';

export const Survey: Kind = {
  type: 'Survey',
  word: 'survey',
  label: 'survey',
  ids: true,
  schema: { file: 'survey.schema.json', pointer: [] },
  file: { path: ['{survey}', 'survey.yaml'], described: 'a survey' },
  scaffold: { command: 'survey', example: 'gama' },
};

export const DataRelease: Kind = {
  type: 'DataRelease',
  word: 'release',
  label: 'release',
  ids: false,
  schema: { file: 'release.schema.json', pointer: [] },
  file: { path: ['{survey}', '{release}', 'release.yaml'], described: 'a data release' },
  scaffold: { command: 'release', example: 'gama/dr5' },
};
