// `import tableset`: a TAP service's schema brought into a data release with one command. Its VOSI
// tables document, or a VOTable of its TAP_SCHEMA, becomes one catalogue group per VO schema, each
// with its tables and their columns' descriptions, units, UCDs and VOTable types; new ids are the
// archive's next free ones; nothing is written over, and nothing at all unless every group is valid.

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, isMap, isScalar } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';
import { exists } from './rewrite.ts';
import type { ColumnYaml, ContactYaml, GroupYaml, TableYaml } from '../kinds/data.ts';
import { classify, fileOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { nextIds } from '../pipeline/assemble.ts';
import { loadMetadata, parseFile, unreadable } from '../pipeline/parse.ts';
import { SCHEMA_FILES, validateFiles } from '../pipeline/validate.ts';
import { TablesetError, readTableset } from '../readers/tableset.ts';
import type { TapColumn, TapSchema, TapTable } from '../readers/tableset.ts';
import { hasUcdWord } from '../vocabularies/ucd.ts';
import { RewriteError, printCanonical, writeAtomically } from './rewrite.ts';

export interface TablesetOptions {
  metadataDir: string;
  displayRoot: string;
  /** The VOSI tables document or TAP_SCHEMA VOTable. */
  source: string;
  /** The release's folder: metadata/SURVEY/RELEASE. */
  into: string;
  /** The VO schemas to import; all but TAP_SCHEMA when none are named. */
  schemas?: string[];
  now: string;
}

export interface TablesetReport {
  /** One line per group written, and what a curator should know of it. */
  lines: string[];
  /** What check says of the groups written: warnings only, since errors stop the import. */
  notes: Diagnostic[];
}

/** A group's and a table's name as the schemas allow them: letters, digits, '_' and '-'. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const TABLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

/** A name as the metadata allows it: a delimited name's quotes taken off, anything else but letters, digits, '_' and '-' made '_'. */
function safeName(name: string, pattern: RegExp): string {
  const bare = /^"(.*)"$/.exec(name)?.[1]?.replaceAll('""', '"') ?? name;
  const safe = bare.replace(/[^A-Za-z0-9_-]/g, '_');
  return pattern.test(safe) ? safe : `x${safe}`;
}

/** A column's name as it is in the table: a delimited name (`"size"`) without its quotes. */
function columnName(name: string): string {
  return /^"(.*)"$/.exec(name)?.[1]?.replaceAll('""', '"') ?? name;
}

/** A table's own name: its schema's prefix taken off (`gaiadr3.gaia_source` → gaia_source). */
function localName(table: string, schema: string): string {
  if (table.startsWith(`${schema}.`)) return table.slice(schema.length + 1);
  const dot = table.startsWith('"') ? -1 : table.lastIndexOf('.');
  return dot >= 0 ? table.slice(dot + 1) : table;
}

export async function importTableset(options: TablesetOptions): Promise<TablesetReport> {
  const root = path.resolve(options.metadataDir);
  const folder = path.resolve(options.displayRoot, options.into);
  const [survey, release, ...rest] = path.relative(root, folder).split(path.sep);
  if (survey === undefined || release === undefined || rest.length > 0 || survey.startsWith('..') || survey === '') {
    throw new RewriteError(`--into ${options.into} is not a release's folder (metadata/<survey>/<release>) under ${options.metadataDir}`);
  }
  const display = (relative: string) => path.relative(options.displayRoot, path.join(root, relative)).split(path.sep).join('/');
  const releaseFile = fileOf('DataRelease', { survey, release, name: release });
  if (!(await exists(path.join(root, releaseFile)))) {
    throw new RewriteError(
      `there is no release ${survey}/${release} (${display(releaseFile)}); create it first with: archive-schema new release ${survey}/${release}`,
    );
  }

  const tableset = readSource(
    options.source,
    await readFile(options.source, 'utf8').catch((error: unknown) => {
      throw new RewriteError(`cannot read ${options.source}: ${(error as Error).message}`);
    }),
  );
  const schemas = chosen(tableset.schemas, options.schemas, options.source);

  const loaded = await loadMetadata(root, { displayRoot: options.displayRoot });
  const broken = loaded.diagnostics.find(unreadable);
  if (broken)
    throw new RewriteError(`${broken.message}; its ids cannot be known, so no new ones were given and nothing was written`, broken);
  const releaseData = loaded.files.find((f) => f.relative === releaseFile)?.data as { contact?: ContactYaml } | undefined;
  const ids = nextIds(loaded.files);

  const lines: string[] = [];
  const planned: { relative: string; text: string }[] = [];
  const names = new Set<string>();
  for (const schema of schemas) {
    const name = safeName(schema.name, NAME);
    if (names.has(name))
      throw new RewriteError(`${options.source}: two schemas become the group "${name}"; import them one at a time with --schema`);
    names.add(name);
    const relative = fileOf('CatalogueGroup', { survey, release, name });
    if (await exists(path.join(root, relative))) {
      throw new RewriteError(
        `${display(relative)} exists already, and import tableset never writes over a group; nothing was written. Remove or rename it, or leave schema ${schema.name} out with --schema`,
      );
    }
    const first = { table: ids.CatalogueTable, column: ids.CatalogueColumn };
    const { group, notes } = groupOf(schema, name, ids, { contact: releaseData?.contact, now: options.now });
    const columns = group.tables.reduce((n, t) => n + t.columns.length, 0);
    lines.push(
      `${display(relative)}: new catalogue group "${name}" (id ${group.id}) from schema ${schema.name}: ${plural(group.tables.length, 'table')} (${range(first.table, ids.CatalogueTable)}), ${plural(columns, 'column')} (${range(first.column, ids.CatalogueColumn)})`,
      ...notes.map((note) => `${display(relative)}: ${note}`),
    );
    planned.push({ relative, text: groupText(group, relative, display(relative)) });
    ids.CatalogueGroup++;
  }
  const skipped = tableset.schemas.filter((s) => !schemas.includes(s)).map((s) => s.name);
  if (skipped.length > 0)
    lines.push(`left out: schema ${skipped.join(', ')} (name ${skipped.length === 1 ? 'it' : 'them'} with --schema to import)`);

  // Every group is checked before any is written: an import is all of them or nothing.
  const notes: Diagnostic[] = [];
  for (const { relative, text } of planned) notes.push(...problemsOf(relative, text, display(relative)));
  for (const { relative, text } of planned) {
    await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await writeAtomically(path.join(root, relative), text, display(relative));
  }
  return { lines, notes };
}

function readSource(file: string, text: string) {
  try {
    return readTableset(text);
  } catch (error) {
    if (error instanceof TablesetError) throw new RewriteError(`${file}: ${error.message}`);
    throw error;
  }
}

/** The schemas to import: those named, each of which must be there, or all but TAP_SCHEMA, the service's own. */
function chosen(schemas: TapSchema[], wanted: string[] | undefined, file: string): TapSchema[] {
  const list = schemas.map((s) => s.name).join(', ') || 'none';
  if (wanted === undefined || wanted.length === 0) {
    const picked = schemas.filter((s) => s.name.toLowerCase() !== 'tap_schema' && s.tables.length > 0);
    if (picked.length === 0) throw new RewriteError(`${file} describes no tables but TAP_SCHEMA's (schemas: ${list})`);
    return picked;
  }
  return wanted.map((name) => {
    const schema = schemas.find((s) => s.name === name) ?? schemas.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!schema) throw new RewriteError(`${file} has no schema ${name}; it has ${list}`);
    return schema;
  });
}

interface GroupContext {
  contact: ContactYaml | undefined;
  now: string;
}

/** A schema as a group, taking ids from `ids` as it goes; with notes on what it had to change or leave out. */
function groupOf(
  schema: TapSchema,
  name: string,
  ids: Record<KindType, number>,
  context: GroupContext,
): { group: GroupYaml; notes: string[] } {
  const notes: string[] = [];
  const tableNames = new Set<string>();
  const tables = schema.tables.map((table): TableYaml => {
    const local = localName(table.name, schema.name);
    const tableName = safeName(local, TABLE_NAME);
    if (tableNames.has(tableName))
      throw new RewriteError(`schema ${schema.name} has two tables named ${tableName}; a group's table names are unique`);
    tableNames.add(tableName);
    if (tableName !== local) notes.push(`table ${table.name} is named ${tableName}, as the metadata allows`);
    return {
      id: ids.CatalogueTable++,
      name: tableName,
      ...(table.title && table.title !== local ? { pretty_name: table.title } : {}),
      ...(table.description ? { description: table.description } : {}),
      columns: columnsOf(table, ids, notes),
    };
  });
  const group: GroupYaml = {
    id: ids.CatalogueGroup,
    name,
    ...(schema.title ? { pretty_name: schema.title } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    ...(context.contact ? { contact: context.contact } : {}),
    created: context.now,
    updated: context.now,
    tables,
  };
  return { group, notes };
}

function columnsOf(table: TapTable, ids: Record<KindType, number>, notes: string[]): ColumnYaml[] {
  const seen = new Set<string>();
  const untyped: string[] = [];
  const assumed: string[] = [];
  const columns = table.columns.map((column: TapColumn): ColumnYaml => {
    const name = columnName(column.name);
    if (seen.has(name)) throw new RewriteError(`table ${table.name} names the column "${name}" twice; a table's column names are unique`);
    seen.add(name);
    if (column.unreadType !== undefined) untyped.push(`${name} (${column.unreadType})`);
    let arraysize = column.type?.arraysize;
    // Services write text without an arraysize (Gaia's does): it is text of any length, not one character.
    if ((column.type?.datatype === 'char' || column.type?.datatype === 'unicodeChar') && arraysize === undefined) {
      arraysize = '*';
      assumed.push(name);
    }
    const ucd = column.ucd;
    const principal =
      column.principal !== undefined && column.principal !== hasUcdWord(ucd ?? '-', 'meta.main') ? column.principal : undefined;
    return {
      id: ids.CatalogueColumn++,
      name,
      ...(column.description ? { description: column.description } : {}),
      ...(ucd ? { ucd } : {}),
      ...(column.unit ? { unit: column.unit } : {}),
      ...(column.type ? { datatype: column.type.datatype } : {}),
      ...(arraysize !== undefined ? { arraysize } : {}),
      ...(principal !== undefined ? { principal } : {}),
    };
  });
  if (untyped.length > 0)
    notes.push(`table ${table.name}: no datatype for ${untyped.join(', ')}: neither VOTable's type nor TAP's; give each its datatype`);
  if (assumed.length > 0)
    notes.push(`table ${table.name}: text of any length (arraysize '*') for ${listed(assumed)}, which the service gives no arraysize`);
  return columns;
}

/** The group's file as `new` writes one: the schema comment first, then canonical YAML. */
function groupText(group: GroupYaml, relative: string, display: string): string {
  const doc = new Document(group);
  const first = isMap(doc.contents) ? doc.contents.items[0] : undefined;
  const depth = relative.split('/').length - 1;
  if (first && isScalar(first.key))
    first.key.commentBefore = ` yaml-language-server: $schema=${'../'.repeat(depth + 1)}schemas/${SCHEMA_FILES.CatalogueGroup}`;
  return printCanonical(doc, 'CatalogueGroup', display);
}

/** check's warnings on a group about to be written; its errors stop the import, listed. */
function problemsOf(relative: string, text: string, display: string): Diagnostic[] {
  const parsed = parseFile(display, text);
  const placed = classify(relative);
  if (!parsed.file || 'problem' in placed)
    throw new RewriteError(`${display}: the group would not parse; nothing was written. This is a bug in archive-schema.`);
  const diagnostics = validateFiles([{ ...parsed.file, relative, kind: 'CatalogueGroup', placement: placed.placement }]).diagnostics;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const list = errors
      .slice(0, 5)
      .map((d) => `  ${d.line}:${d.col} ${d.message}`)
      .join('\n');
    const more = errors.length > 5 ? `\n  and ${errors.length - 5} more` : '';
    throw new RewriteError(
      `${display} would be invalid, so nothing was written; correct these in the source and import again:\n${list}${more}`,
    );
  }
  return diagnostics;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The ids given, first to last: "ids 202–204", "id 205". */
function range(first: number, next: number): string {
  return next === first ? 'no ids' : next - first === 1 ? `id ${first}` : `ids ${first}–${next - 1}`;
}

function listed(names: string[]): string {
  return names.length <= 10 ? names.join(', ') : `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`;
}
