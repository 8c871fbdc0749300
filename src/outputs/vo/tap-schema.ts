// TAP_SCHEMA as one VOTable (tap_schema.vot): the RESOURCE TAP_SCHEMA with TAP 1.1's tables schemas,
// tables, columns, keys and key_columns and their standard columns, so an archive can load the
// curated schema into its own TAP service. A head, then a schema row per release, the tables of each
// group, the columns of each group, and a tail; a build renders again only an edited file's rows.
//
// A column's datatype and arraysize are the curators' (VOTable's names and syntax, as TAP 1.1 asks),
// "size" the length in its arraysize where it has one. TAP 1.1 requires a datatype, so a column
// without one is left out (check warns of it, table by table): a TAP service loading this file
// needs every row to load. principal is the curators' flag, else 1 for a meta.main UCD; indexed
// and std, which TAP requires as 0 or 1, are 0: nothing records them. What the metadata does not
// record is left empty, as VOTable writes a null: xtype, every utype, tables.table_index.

import { sizeOf } from '../../vocabularies/datatypes.ts';
import type { ApiObject } from '../api/objects.ts';
import type { Cell, Field } from './listings.ts';
import { columnType } from './listings.ts';
import { columnNames, listOf, schemaName, tableNames } from './names.ts';
import type { Place } from './place.ts';
import { schemaDescription } from './schema-text.ts';
import { descriptionText, ucdText, unitText } from './text.ts';
import { tableClose, tableOpen, tableRows, votableClose, votableOpen } from './votable.ts';

const text = (name: string, description: string, datatype: 'char' | 'unicodeChar' = 'char'): Field => ({ name, datatype, description });
const int = (name: string, description: string): Field => ({ name, datatype: 'int', description });

// TAP 1.1, section 4 (TAP_SCHEMA), in its order; free text may hold any character, so it is unicodeChar.
const SCHEMAS = {
  name: 'schemas',
  description: 'The schemas: one per survey release with catalogues',
  fields: [
    text('schema_name', 'The fully qualified schema name'),
    text('utype', 'The utype of the schema'),
    text('description', 'A description of the schema', 'unicodeChar'),
    int('schema_index', 'A hint to the recommended display order of schemas'),
  ],
};

const TABLES = {
  name: 'tables',
  description: 'The tables: one per catalogue table',
  fields: [
    text('schema_name', 'The schema the table belongs to'),
    text('table_name', 'The fully qualified table name, as used in queries'),
    text('table_type', 'One of: table, view'),
    text('utype', 'The utype of the table'),
    text('description', 'A description of the table', 'unicodeChar'),
    int('table_index', 'A hint to the recommended display order of tables'),
  ],
};

const COLUMNS = {
  name: 'columns',
  description: 'The columns of every catalogue table',
  fields: [
    text('table_name', 'The fully qualified table name'),
    text('column_name', 'The column name, as used in queries', 'unicodeChar'),
    text('datatype', 'The VOTable datatype of the column'),
    text('arraysize', 'The VOTable arraysize of the column'),
    text('xtype', 'The VOTable xtype of the column'),
    int('size', 'The length of a fixed-length column (deprecated)'),
    text('description', 'A description of the column', 'unicodeChar'),
    text('utype', 'The utype of the column'),
    text('unit', 'The unit, in VOUnits', 'unicodeChar'),
    text('ucd', 'The UCD (UCD1+)'),
    int('indexed', '1 when the column is indexed, else 0'),
    int('principal', '1 when the column is of primary interest, else 0'),
    int('std', '1 when the column is defined by a standard, else 0'),
    int('column_index', "A hint to the recommended display order of the table's columns"),
  ],
};

const KEYS = {
  name: 'keys',
  description: 'Foreign keys between tables: none are recorded',
  fields: [
    text('key_id', 'The key identifier'),
    text('from_table', 'The fully qualified table name of the table holding the key'),
    text('target_table', 'The fully qualified table name of the table the key refers to'),
    text('description', 'A description of the key', 'unicodeChar'),
    text('utype', 'The utype of the key'),
  ],
};

const KEY_COLUMNS = {
  name: 'key_columns',
  description: 'The columns of the foreign keys: none are recorded',
  fields: [
    text('key_id', 'The key identifier'),
    text('from_column', 'The key column name in the from table'),
    text('target_column', 'The key column name in the target table'),
  ],
};

/** From the XML declaration to where the first schema row goes. */
export function tapSchemaHead(): string {
  return votableOpen('TAP_SCHEMA', "The archive's catalogue tables as TAP 1.1's TAP_SCHEMA") + tableOpen(SCHEMAS);
}

/**
 * A row of TAP_SCHEMA.schemas for a survey's release: `release` is the release's API head (its
 * pretty_name is used), `survey` the survey's object when at hand (its pretty_name and title),
 * `index` its place in the recommended order.
 */
export function tapSchemaRow(place: Place, release: ApiObject, index: number, survey?: ApiObject): string {
  return tableRows([[schemaName(place), null, schemaDescription(place, release, survey), String(index)]]);
}

/** Closes TAP_SCHEMA.schemas and opens TAP_SCHEMA.tables. */
export function tapTablesHead(): string {
  return tableClose() + tableOpen(TABLES);
}

/** The rows of TAP_SCHEMA.tables for a catalogue group's tables. */
export function tapTableRows(group: ApiObject, place: Place): string {
  const schema = schemaName(place);
  const names = tableNames(place, group);
  const rows: Cell[][] = listOf(group, 'tables').map((table, i) => [
    schema,
    names[i] ?? null,
    'table',
    null,
    descriptionText(table.description),
    null,
  ]);
  return tableRows(rows);
}

/** Closes TAP_SCHEMA.tables and opens TAP_SCHEMA.columns. */
export function tapColumnsHead(): string {
  return tableClose() + tableOpen(COLUMNS);
}

/**
 * The rows of TAP_SCHEMA.columns for a catalogue group's columns that have a datatype;
 * column_index keeps each column's place among all of its table's.
 */
export function tapColumnRows(group: ApiObject, place: Place): string {
  const tables = tableNames(place, group);
  const rows: Cell[][] = [];
  listOf(group, 'tables').forEach((table, t) => {
    const names = columnNames(table);
    listOf(table, 'columns').forEach((column, c) => {
      const type = columnType(column);
      if (!type?.datatype) return;
      const size = sizeOf(type.arraysize ?? undefined);
      rows.push([
        tables[t] ?? null,
        names[c] ?? null,
        type.datatype,
        type.arraysize,
        null,
        size === null ? null : String(size),
        descriptionText(column.description),
        null,
        unitText(column.unit) || null,
        ucdText(column.ucd) || null,
        '0',
        type.principal ? '1' : '0',
        '0',
        String(c + 1),
      ]);
    });
  });
  return tableRows(rows);
}

/** Closes TAP_SCHEMA.columns, writes the empty keys and key_columns, and ends the document. */
export function tapSchemaTail(): string {
  return tableClose() + tableOpen(KEYS) + tableClose() + tableOpen(KEY_COLUMNS) + tableClose() + votableClose();
}
