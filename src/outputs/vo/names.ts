// How the archive's hierarchy is named in the VO outputs (TAP_SCHEMA, the VOSI tableset), where it
// has two levels fewer: a schema per survey and release, and a table per catalogue table, named after
// its group and itself. Every name is an ADQL identifier, regular wherever that is safe and delimited
// (double-quoted) otherwise, and no two schemas, tables or columns get names ADQL reads alike (but for
// the one case at the end).
//
// - Schema: `{survey}_{release}`, e.g. gama_dr2. Survey and release names are lower case; the name
//   is regular when the survey name has no '_' or '-' (so the first '_' separates the two), starts with
//   a letter, the release name has no '-', and the result is no reserved word. Otherwise it is the
//   delimited `"{survey}/{release}"` (e.g. "gama-legacy/dr1"): '/' is in no name and in no regular
//   identifier, so neither form can equal another.
// - Table: `{schema}.{group}_{table}`, e.g. gama_dr2.SpecCat_AATSpecAllzAll. Table names are unique
//   only within their group, so the group is part of the name; the VO has no level for it. Regular
//   when the group name is letters and digits starting with a letter, the table name letters, digits
//   and '_', the result no reserved word, and no other table of the group has the same name but for
//   case (ADQL reads regular identifiers without regard to case). Otherwise `{schema}."{group}/{table}"`.
// - Column: its name as curated when it is a regular identifier, no reserved word, and no other
//   column of its table has the same name but for case; otherwise delimited, quotes doubled.
//
// ADQL compares regular identifiers without regard to case, so two catalogue groups of one release
// whose names differ only in case (SpecCat and speccat) give table names that differ only in case; a
// renderer sees one group at a time and cannot tell (the build's name rules can).

import type { ApiObject } from '../api/objects.ts';
import type { Place } from './place.ts';

const REGULAR = /^[A-Za-z][A-Za-z0-9_]*$/;

// The reserved words of ADQL 2.1 (section 2.1.2): SQL-92's and ADQL's own. Matched without regard to case.
const RESERVED = new Set(
  (
    'ABSOLUTE ACTION ADD ALL ALLOCATE ALTER AND ANY ARE AS ASC ASSERTION AT AUTHORIZATION AVG BEGIN BETWEEN BIT ' +
    'BIT_LENGTH BOTH BY CASCADE CASCADED CASE CAST CATALOG CHAR CHARACTER CHAR_LENGTH CHARACTER_LENGTH CHECK CLOSE ' +
    'COALESCE COLLATE COLLATION COLUMN COMMIT CONNECT CONNECTION CONSTRAINT CONSTRAINTS CONTINUE CONVERT ' +
    'CORRESPONDING COUNT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER CURSOR DATE ' +
    'DAY DEALLOCATE DECIMAL DECLARE DEFAULT DEFERRABLE DEFERRED DELETE DESC DESCRIBE DESCRIPTOR DIAGNOSTICS ' +
    'DISCONNECT DISTINCT DOMAIN DOUBLE DROP ELSE END END-EXEC ESCAPE EXCEPT EXCEPTION EXEC EXECUTE EXISTS EXTERNAL ' +
    'EXTRACT FALSE FETCH FIRST FLOAT FOR FOREIGN FOUND FROM FULL GET GLOBAL GO GOTO GRANT GROUP HAVING HOUR ' +
    'IDENTITY IMMEDIATE IN INDICATOR INITIALLY INNER INPUT INSENSITIVE INSERT INT INTEGER INTERSECT INTERVAL INTO IS ' +
    'ISOLATION JOIN KEY LANGUAGE LAST LEADING LEFT LEVEL LIKE LOCAL LOWER MATCH MAX MIN MINUTE MODULE MONTH NAMES ' +
    'NATIONAL NATURAL NCHAR NEXT NO NOT NULL NULLIF NUMERIC OCTET_LENGTH OF ON ONLY OPEN OPTION OR ORDER OUTER ' +
    'OUTPUT OVERLAPS PAD PARTIAL POSITION PRECISION PREPARE PRESERVE PRIMARY PRIOR PRIVILEGES PROCEDURE PUBLIC READ ' +
    'REAL REFERENCES RELATIVE RESTRICT REVOKE RIGHT ROLLBACK ROWS SCHEMA SCROLL SECOND SECTION SELECT SESSION ' +
    'SESSION_USER SET SIZE SMALLINT SOME SPACE SQL SQLCODE SQLERROR SQLSTATE SUBSTRING SUM SYSTEM_USER TABLE ' +
    'TEMPORARY THEN TIME TIMESTAMP TIMEZONE_HOUR TIMEZONE_MINUTE TO TRAILING TRANSACTION TRANSLATE TRANSLATION TRIM ' +
    'TRUE UNION UNIQUE UNKNOWN UPDATE UPPER USAGE USER USING VALUE VALUES VARCHAR VARYING VIEW WHEN WHENEVER WHERE ' +
    'WITH WORK WRITE YEAR ZONE ' +
    'ABS ACOS ASIN ATAN ATAN2 CEILING COS COT DEGREES EXP FLOOR LOG LOG10 MOD PI POWER RADIANS RAND ROUND SIN SQRT ' +
    'TAN TRUNCATE AREA BOX CENTROID CIRCLE CONTAINS COORD1 COORD2 COORDSYS DISTANCE INTERSECTS POINT POLYGON REGION ' +
    'BIGINT ILIKE IN_UNIT OFFSET TOP'
  ).split(' '),
);

/** Whether a name can be written as a regular ADQL identifier: Latin letters, digits and '_', starting with a letter, and no reserved word. */
export function isRegularIdentifier(name: string): boolean {
  return REGULAR.test(name) && !RESERVED.has(name.toUpperCase());
}

/** A name as a delimited ADQL identifier. */
export function delimited(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The ADQL schema of a survey's release. */
export function schemaName(place: Place): string {
  const name = `${place.survey}_${place.release}`;
  const separable = /^[a-z][a-z0-9]*$/.test(place.survey) && /^[a-z0-9_]+$/.test(place.release);
  return separable && isRegularIdentifier(name) ? name : delimited(`${place.survey}/${place.release}`);
}

/** A catalogue table's qualified ADQL name, `schema.table`. */
export function tableName(place: Place, group: ApiObject, table: ApiObject): string {
  const index = listOf(group, 'tables').indexOf(table);
  if (index < 0) throw new Error(`table ${String(table.name)} is not one of group ${String(group.name)}'s`);
  return tableNames(place, group)[index] as string;
}

/** The qualified ADQL names of a group's tables, in their order. */
export function tableNames(place: Place, group: ApiObject): string[] {
  const schema = schemaName(place);
  const groupName = String(group.name);
  const groupSeparable = /^[A-Za-z][A-Za-z0-9]*$/.test(groupName);
  const tables = listOf(group, 'tables');
  const twins = caseTwins(tables);
  return tables.map((table) => {
    const own = String(table.name);
    const name = `${groupName}_${own}`;
    const regular = groupSeparable && /^[A-Za-z0-9_]+$/.test(own) && isRegularIdentifier(name) && !twins.has(own.toLowerCase());
    return `${schema}.${regular ? name : delimited(`${groupName}/${own}`)}`;
  });
}

/** A catalogue column's ADQL name within its table. */
export function columnName(table: ApiObject, column: ApiObject): string {
  const index = listOf(table, 'columns').indexOf(column);
  if (index < 0) throw new Error(`column ${String(column.name)} is not one of table ${String(table.name)}'s`);
  return columnNames(table)[index] as string;
}

/** The ADQL names of a table's columns, in their order. */
export function columnNames(table: ApiObject): string[] {
  const columns = listOf(table, 'columns');
  const twins = caseTwins(columns);
  return columns.map((column) => {
    const name = String(column.name);
    return isRegularIdentifier(name) && !twins.has(name.toLowerCase()) ? name : delimited(name);
  });
}

/** The names, in lower case, that more than one item of the list has but for case. */
function caseTwins(items: readonly ApiObject[]): Set<string> {
  const seen = new Set<string>();
  const twins = new Set<string>();
  for (const item of items) {
    const name = String(item.name).toLowerCase();
    if (seen.has(name)) twins.add(name);
    seen.add(name);
  }
  return twins;
}

/** The API objects listed under `key`. */
export function listOf(object: ApiObject, key: string): ApiObject[] {
  const list = object[key];
  return Array.isArray(list) ? (list as ApiObject[]) : [];
}
