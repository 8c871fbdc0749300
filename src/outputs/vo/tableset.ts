// The VOSI tables document (/vo/tables, text/xml): a VODataService 1.2 tableset with a schema per
// survey release and every catalogue table with its columns' names, descriptions, units and UCDs.
// A head, then per release a schema's opening, its groups' tables and its closing, and a tail; a
// build renders again only an edited file's tables. Elements are in the order the XSD's sequences
// fix (unit before ucd); no version attribute, which neither XSD declares.
//
// A column's dataType is its VOTable type (vs:VOTableType, which VODataService 1.2 asks new
// software to write), with its arraysize; a column whose datatype is not recorded has none, which
// VODataService allows. Tables have no type, since nothing here is more than a table.

import type { ColumnTypeFields } from '../../kinds/catalogues.ts';
import type { ApiObject } from '../api/objects.ts';
import { columnType } from './listings.ts';
import { columnNames, listOf, schemaName, tableNames } from './names.ts';
import type { Place } from './place.ts';
import { schemaDescription, schemaTitle } from './schema-text.ts';
import { descriptionText, ucdText, unitText, xmlText } from './text.ts';

/** An element with its text escaped, or nothing when there is no text. */
function element(name: string, text: string | null, indent: string): string {
  return text === null || text === '' ? '' : `${indent}<${name}>${xmlText(text)}</${name}>\n`;
}

export function tablesetHead(): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<vosi:tableset xmlns:vosi="http://www.ivoa.net/xml/VOSITables/v1.0"' +
    ' xmlns:vs="http://www.ivoa.net/xml/VODataService/v1.1"' +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
  );
}

/**
 * A survey release's schema, up to where its tables go: `release` is the release's API head,
 * `survey` the survey's object when at hand (for the title and description).
 */
export function tablesetSchemaOpen(place: Place, release: ApiObject, survey?: ApiObject): string {
  return (
    '  <schema>\n' +
    element('name', schemaName(place), '    ') +
    element('title', schemaTitle(place, release, survey), '    ') +
    element('description', schemaDescription(place, release, survey), '    ')
  );
}

/** A catalogue group's tables, each with its columns. */
export function tablesetGroupTables(group: ApiObject, place: Place): string {
  const names = tableNames(place, group);
  const groupTitle = typeof group.pretty_name === 'string' && group.pretty_name !== '' ? group.pretty_name : String(group.name);
  let out = '';
  listOf(group, 'tables').forEach((table, t) => {
    const tableTitle = typeof table.pretty_name === 'string' && table.pretty_name !== '' ? table.pretty_name : String(table.name);
    out += '    <table>\n';
    out += element('name', names[t] ?? '', '      ');
    out += element('title', `${groupTitle}: ${tableTitle}`, '      ');
    out += element('description', descriptionText(table.description), '      ');
    const columns = columnNames(table);
    listOf(table, 'columns').forEach((column, c) => {
      out += '      <column>\n';
      out += element('name', columns[c] ?? '', '        ');
      out += element('description', descriptionText(column.description), '        ');
      out += element('unit', unitText(column.unit), '        ');
      out += element('ucd', ucdText(column.ucd), '        ');
      out += dataType(columnType(column));
      out += '      </column>\n';
    });
    out += '    </table>\n';
  });
  return out;
}

/** A column's dataType element, after its ucd as the XSD's sequence has it; nothing when its datatype is not recorded. */
function dataType(type: ColumnTypeFields | undefined): string {
  if (!type?.datatype) return '';
  const arraysize = type.arraysize === null ? '' : ` arraysize="${xmlText(type.arraysize)}"`;
  return `        <dataType xsi:type="vs:VOTableType"${arraysize}>${xmlText(type.datatype)}</dataType>\n`;
}

export function tablesetSchemaClose(): string {
  return '  </schema>\n';
}

/**
 * The schema to write when no release has catalogues: a tableset needs at least one schema, and
 * VODataService names one that has nothing better "default".
 */
export function tablesetEmptySchema(): string {
  return '  <schema>\n    <name>default</name>\n  </schema>\n';
}

export function tablesetTail(): string {
  return '</vosi:tableset>\n';
}
