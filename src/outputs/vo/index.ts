// The Virtual Observatory outputs, as the build calls them: pure renderers of heads, a group's or
// facility's rows, and tails, for columns.csv/.vot, regions.csv/.vot, products.csv/.vot,
// tap_schema.vot and the VOSI tableset. Rows hold a NUL where their survey's API URL goes (text.ts, URL_MARK).

export type { Place } from './place.ts';
export { columnName, columnNames, schemaName, tableName, tableNames } from './names.ts';
export { URL_MARK, XML_REPLACEMENT, csvField, xmlText } from './text.ts';
export { columnsCsvHeader, columnsCsvRows, productsCsvHeader, productsCsvRows, regionsCsvHeader, regionsCsvRows } from './csv.ts';
export {
  columnsVotHead,
  columnsVotRows,
  columnsVotTail,
  productsVotHead,
  productsVotRows,
  productsVotTail,
  regionsVotHead,
  regionsVotRows,
  regionsVotTail,
} from './votable.ts';
export { tapColumnRows, tapColumnsHead, tapSchemaHead, tapSchemaRow, tapSchemaTail, tapTableRows, tapTablesHead } from './tap-schema.ts';
export {
  tablesetEmptySchema,
  tablesetGroupTables,
  tablesetHead,
  tablesetSchemaClose,
  tablesetSchemaOpen,
  tablesetTail,
} from './tableset.ts';
