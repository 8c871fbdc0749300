// Catalogue data: a group of tables in one file per group, each table with its columns.

import type { ColumnYaml, TableYaml } from './data.ts';
import type { ApiContext, Kind } from './kind.ts';
import { hasUcdWord } from '../vocabularies/ucd.ts';

const SCHEMA = 'catalogue-group.schema.json';

export const CatalogueGroup: Kind = {
  type: 'CatalogueGroup',
  word: 'catalogue group',
  label: 'group',
  ids: true,
  schema: { file: SCHEMA, pointer: [] },
  file: {
    path: ['{survey}', '{release}', 'catalogues', '{name}.yaml'],
    section: { dataType: 'catalogues', key: 'groups' },
    described: 'a catalogue group',
  },
  api: (_group: never, c: ApiContext) => ({ ...c.common(), tables: c.children('tables') }),
  scaffold: { command: 'group', example: 'gama/dr5/SpecCat' },
};

export const CatalogueTable: Kind = {
  type: 'CatalogueTable',
  word: 'catalogue table',
  label: 'table',
  ids: true,
  schema: { file: SCHEMA, pointer: ['definitions', 'table'] },
  nested: { parent: 'CatalogueGroup', key: 'tables' },
  api: (table: TableYaml, c: ApiContext) => ({ ...c.common(), input_cat: table.input_cat ?? false, columns: c.children('columns') }),
};

export const CatalogueColumn: Kind = {
  type: 'CatalogueColumn',
  word: 'catalogue column',
  label: 'column',
  ids: true,
  schema: { file: SCHEMA, pointer: ['definitions', 'column'] },
  nested: { parent: 'CatalogueTable', key: 'columns' },
  // '-' stands for "no UCD" and "no unit", as the original service published them.
  api: (column: ColumnYaml, c: ApiContext) => ({ ...c.common(), ucd: column.ucd ?? '-', unit: column.unit ?? '-' }),
  // The column's VOTable type, for the VO tables; a column is principal, as TAP says, when its
  // curators say so, or else when its UCD marks it the main one of its kind.
  beyondApi: (column: ColumnYaml): ColumnTypeFields => ({
    datatype: column.datatype ?? null,
    arraysize: column.arraysize === undefined ? null : String(column.arraysize),
    principal: column.principal ?? hasUcdWord(column.ucd ?? '-', 'meta.main'),
  }),
};

/** A column's fields beyond the API. */
export interface ColumnTypeFields {
  datatype: string | null;
  arraysize: string | null;
  principal: boolean;
}
