// Reads what a TAP service publishes of its tables, so `import tableset` can bring an archive's
// schema in: a VOSI tables document (VODataService 1.0 to 1.2: schemas, tables, columns with their
// dataType) or a VOTable of TAP_SCHEMA's tables (schemas, tables, columns, or columns alone) in TABLEDATA.

import { typeFromTap } from '../vocabularies/datatypes.ts';
import type { ColumnType } from '../vocabularies/datatypes.ts';
import { VotableError, readVotableTables } from './votable.ts';
import type { VotableTable } from './votable.ts';
import { XmlError, attribute, childText, childrenNamed, parseXml, rootOf, tagOf, textOf } from './xml.ts';
import type { XmlNode } from './xml.ts';

export class TablesetError extends Error {
  override name = 'TablesetError';
}

export interface TapColumn {
  name: string;
  description?: string;
  unit?: string;
  ucd?: string;
  /** Its VOTable type, when the service gives one this reads. */
  type?: ColumnType;
  /** The type as the service wrote it, when it is one this does not read. */
  unreadType?: string;
  /** TAP_SCHEMA's principal flag, when given. */
  principal?: boolean;
}

export interface TapTable {
  /** As the service names it for queries: `schema.table`, or a delimited `"name"`. */
  name: string;
  title?: string;
  description?: string;
  columns: TapColumn[];
}

export interface TapSchema {
  name: string;
  title?: string;
  description?: string;
  tables: TapTable[];
}

export interface Tableset {
  /** What the file was: "a VOSI tableset" or "a TAP_SCHEMA VOTable". */
  format: string;
  schemas: TapSchema[];
}

const READING = { what: 'VODataService', nesting: 'tableset, schema, table, column, dataType: five levels' };

/** The schemas, tables and columns a VOSI tables document or a TAP_SCHEMA VOTable describes. */
export function readTableset(text: string): Tableset {
  let root: XmlNode;
  try {
    root = rootOf(parseXml(text, { ...READING, stopNodes: ['*.DATA'] }), 'VOSI tableset or a TAP_SCHEMA VOTable');
  } catch (error) {
    if (error instanceof XmlError) throw new TablesetError(error.message);
    throw error;
  }
  const tag = tagOf(root);
  if (tag === 'tableset') return { format: 'a VOSI tableset', schemas: childrenNamed(root, 'schema').map(vosiSchema) };
  // A VOSI document of one table (/tables/{name}) has no schema around it.
  if (tag === 'table') {
    const table = vosiTable(root, 1);
    return { format: 'a VOSI table', schemas: [{ name: schemaOf(table.name), tables: [table] }] };
  }
  if (tag === 'VOTABLE') return { format: 'a TAP_SCHEMA VOTable', schemas: tapSchemaTables(text) };
  throw new TablesetError(
    `Not a VOSI tableset or a TAP_SCHEMA VOTable: the root element is <${tag ?? ''}>; give the service's /tables document, or a VOTable of SELECT * FROM TAP_SCHEMA.columns`,
  );
}

// ---- VOSI tables (VODataService) -------------------------------------------------------------------------

function vosiSchema(node: XmlNode, index: number): TapSchema {
  const name = childText(node, 'name');
  if (name === undefined) throw new TablesetError(`schema ${index + 1} of the tableset has no name`);
  return { name, ...optional(node, ['title', 'description']), tables: childrenNamed(node, 'table').map((t, i) => vosiTable(t, i + 1)) };
}

function vosiTable(node: XmlNode, number: number): TapTable {
  const name = childText(node, 'name');
  if (name === undefined) throw new TablesetError(`table ${number} of the tableset has no name`);
  const columns = childrenNamed(node, 'column').map((column, i) => {
    const columnName = childText(column, 'name');
    if (columnName === undefined) throw new TablesetError(`column ${i + 1} of table ${name} has no name`);
    const dataType = childrenNamed(column, 'dataType')[0];
    return { name: columnName, ...optional(column, ['description', 'unit', 'ucd']), ...(dataType ? vosiType(dataType) : {}) };
  });
  return { name, ...optional(node, ['title', 'description']), columns };
}

/**
 * A dataType element's type: vs:VOTableType names a VOTable datatype, the deprecated vs:TAPType an
 * ADQL one with its `size`; the namespace prefix differs from service to service.
 */
function vosiType(node: XmlNode): Pick<TapColumn, 'type' | 'unreadType'> {
  const written = textOf(node).trim();
  const xsiType = (attribute(node, 'type') ?? '').replace(/^.*:/, '');
  const arraysize = attribute(node, 'arraysize');
  const size = Number(attribute(node, 'size'));
  const type =
    xsiType === 'VOTableType' || xsiType === ''
      ? typeFromTap(written, arraysize)
      : typeFromTap(written, arraysize, Number.isInteger(size) && size > 0 ? size : undefined);
  return type ? { type } : written === '' ? {} : { unreadType: written };
}

/** The texts of the child elements named, by name, those absent or empty left out. */
function optional(node: XmlNode, tags: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    tags.flatMap((tag) => {
      const text = childText(node, tag);
      return text === undefined ? [] : [[tag, text]];
    }),
  );
}

// ---- TAP_SCHEMA as a VOTable --------------------------------------------------------------------------

/** A TABLE's rows as records by lower-case field name, empty cells left out. */
function records(table: VotableTable): Record<string, string>[] {
  if (table.serialisation !== undefined) {
    throw new TablesetError(
      `TABLE ${table.name ?? ''} holds its rows as ${table.serialisation}, which this reads only as TABLEDATA; ask the service for FORMAT=votable/td, or give its /tables document`,
    );
  }
  const names = table.fields.map((f) => f.name.toLowerCase());
  return (table.rows ?? []).map((row) =>
    Object.fromEntries(names.flatMap((name, i) => (row[i] === null || row[i] === undefined ? [] : [[name, (row[i] ?? '').trim()]]))),
  );
}

/** TAP_SCHEMA.schemas, .tables and .columns, each known by its fields; .columns alone will do. */
function tapSchemaTables(text: string): TapSchema[] {
  let tables: VotableTable[];
  try {
    tables = readVotableTables(text, { rows: true });
  } catch (error) {
    if (error instanceof VotableError) throw new TablesetError(error.message);
    throw error;
  }
  const has = (table: VotableTable, ...fields: string[]) => fields.every((f) => table.fields.some((g) => g.name.toLowerCase() === f));
  const columnsTable = tables.find((t) => has(t, 'table_name', 'column_name'));
  if (!columnsTable) {
    throw new TablesetError(
      'The VOTable has no TABLE with the fields table_name and column_name, as TAP_SCHEMA.columns has; give the result of SELECT * FROM TAP_SCHEMA.columns',
    );
  }
  const tablesTable = tables.find((t) => t !== columnsTable && has(t, 'table_name', 'schema_name'));
  const schemasTable = tables.find((t) => t !== columnsTable && t !== tablesTable && has(t, 'schema_name') && !has(t, 'table_name'));

  const schemas = new Map<string, TapSchema>();
  const schemaNamed = (name: string): TapSchema => {
    let schema = schemas.get(name);
    if (!schema) schemas.set(name, (schema = { name, tables: [] }));
    return schema;
  };
  for (const row of byIndex(schemasTable ? records(schemasTable) : [], 'schema_index')) {
    if (row.schema_name) Object.assign(schemaNamed(row.schema_name), row.description ? { description: row.description } : {});
  }
  const byName = new Map<string, TapTable>();
  const tableNamed = (name: string, schema?: string): TapTable => {
    let table = byName.get(name);
    if (!table) {
      table = { name, columns: [] };
      byName.set(name, table);
      schemaNamed(schema ?? schemaOf(name)).tables.push(table);
    }
    return table;
  };
  for (const row of byIndex(tablesTable ? records(tablesTable) : [], 'table_index')) {
    if (row.table_name) Object.assign(tableNamed(row.table_name, row.schema_name), row.description ? { description: row.description } : {});
  }
  const rows = records(columnsTable);
  rows.forEach((row, i) => {
    if (!row.table_name || !row.column_name)
      throw new TablesetError(`row ${i + 1} of TAP_SCHEMA.columns has no table_name or no column_name`);
  });
  for (const row of byIndex(rows, 'column_index')) tableNamed(row.table_name ?? '').columns.push(tapColumn(row));
  return [...schemas.values()].filter((s) => s.tables.length > 0);
}

/** Rows in the order their `*_index` recommends, stably; rows without one after those with one. */
function byIndex(rows: Record<string, string>[], key: string): Record<string, string>[] {
  const at = (row: Record<string, string>) => (row[key] !== undefined && Number.isFinite(Number(row[key])) ? Number(row[key]) : Infinity);
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => at(a.row) - at(b.row) || a.i - b.i)
    .map(({ row }) => row);
}

function tapColumn(row: Record<string, string>): TapColumn {
  const size = Number(row.size ?? row['"size"']);
  const written = row.datatype;
  const type =
    written === undefined ? undefined : typeFromTap(written, row.arraysize, Number.isInteger(size) && size > 0 ? size : undefined);
  const principal = row.principal === undefined ? undefined : /^(1|true|t)$/i.test(row.principal);
  return {
    name: row.column_name ?? '',
    ...(row.description ? { description: row.description } : {}),
    ...(row.unit ? { unit: row.unit } : {}),
    ...(row.ucd ? { ucd: row.ucd } : {}),
    ...(type ? { type } : written ? { unreadType: written } : {}),
    ...(principal === undefined ? {} : { principal }),
  };
}

/** The schema a qualified table name is in (`gaiadr3.gaia_source` → gaiadr3), or "default", as VODataService calls a schema without a name. */
function schemaOf(table: string): string {
  const dot = table.startsWith('"') ? -1 : table.lastIndexOf('.');
  return dot > 0 ? table.slice(0, dot) : 'default';
}
