// `import`: what a machine already knows, written into curators' YAML. A FITS binary-table header,
// a VOTable's FIELDs or a CSV header become a table's columns; a FITS image header becomes an
// imaging region; a FITS cube, map or spectrum becomes an IFS or spectra data product. Existing
// ids are kept, new items get the next free ids, and nothing is written unless the result is
// valid. Timestamps are `stamp`'s job.

import { closeSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq } from 'yaml';
import type { Document, YAMLMap, YAMLSeq } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';
import { FitsError, looksLikeFits, parseHeaderText, readFitsHeaders } from '../readers/fits.ts';
import type { FitsHdu, FitsValue } from '../readers/fits.ts';
import { KINDS, classify, pathHelp } from '../kinds/registry.ts';
import { loadMetadata, parseFile, unreadable } from '../pipeline/parse.ts';
import type { FileKind, KindType } from '../kinds/registry.ts';
import { RewriteError, exists, printCanonical, readForRewrite, writeAtomically } from './rewrite.ts';
import { nextIds } from '../pipeline/assemble.ts';
import { SCHEMA_FILES, readSchema, validateFiles } from '../pipeline/validate.ts';
import { CsvError, firstRecord, readCsvHeader } from '../readers/csv.ts';
import { VotableError, readVotableTables, votableHead } from '../readers/votable.ts';
import type { VotableField } from '../readers/votable.ts';
import { walk } from '../kinds/walk.ts';
import type { MetadataFile, PathSegment } from '../pipeline/parse.ts';
import { PRODUCT_TYPES, describeProduct } from './product-header.ts';
import type { ImportedProduct, ProductFields, ProductOptions } from './product-header.ts';
import { voUnitFor } from '../vocabularies/vounit.ts';
import { ARRAYSIZE, VOTABLE_DATATYPES, isVotableDatatype, typeFromFits } from '../vocabularies/datatypes.ts';
import type { VotableDatatype } from '../vocabularies/datatypes.ts';

export interface ImportOptions {
  metadataDir: string;
  displayRoot: string;
  /** The file the data comes from. */
  source: string;
  /** The metadata file it goes into. */
  into: string;
  /** Which HDU of a FITS file (0 = primary); default: the first that fits. */
  hdu?: number;
  /** Which TABLE of a VOTable, by name; default: the first. */
  votableTable?: string;
}

export interface ImportedColumn {
  name: string;
  description?: string;
  ucd?: string;
  unit?: string;
  datatype?: VotableDatatype;
  arraysize?: string;
}

// ---- Reading sources ---------------------------------------------------------------------------------

type Source =
  | { format: 'fits'; hdus: FitsHdu[] }
  | { format: 'fits-text'; text: string }
  | { format: 'votable'; text: string }
  | { format: 'csv'; header: string };

/** How much of a file is read at a time. */
const CHUNK = 1 << 20;
/** The largest FITS header saved as text that is read: a header of a million cards. */
const MAX_HEADER_TEXT = 100_000_000;

/**
 * What a source file holds, reading only what import needs: a FITS file's headers (its data units
 * are skipped, so its size does not matter), a VOTable without its DATA, a CSV file's header row.
 */
async function readSource(file: string): Promise<Source> {
  const info = await stat(file).catch((error: unknown) => {
    throw new RewriteError(`cannot read ${file}: ${(error as Error).message}`);
  });
  if (!info.isFile()) throw new RewriteError(`${file} is not a file; pass a FITS file, a FITS header as text, a VOTable or a CSV file`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new RewriteError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return sourceOf(fd, info.size, file);
  } catch (error) {
    if (error instanceof FitsError || error instanceof VotableError || error instanceof CsvError) {
      throw new RewriteError(`${file}: ${error.message}`);
    }
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new RewriteError(`${file} is not UTF-8 text; save it as UTF-8 (or, for a FITS file, check that it is not damaged)`);
    }
    if (error instanceof Error && 'syscall' in error) throw new RewriteError(`cannot read ${file}: ${error.message}`);
    throw error;
  } finally {
    closeSync(fd);
  }
}

function sourceOf(fd: number, size: number, file: string): Source {
  const read = (offset: number, length: number): Uint8Array => {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(fd, buffer, got, buffer.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  };
  const first = read(0, CHUNK);
  if (first[0] === 0x1f && first[1] === 0x8b) {
    throw new RewriteError(
      `${file} is compressed with gzip; import reads only headers, but of an uncompressed file: gunzip -k it and import that`,
    );
  }
  // A header saved as text starts like a FITS file too, but has line breaks among its cards.
  if (looksLikeFits(first) && !first.subarray(0, 2880).includes(0x0a)) return { format: 'fits', hdus: readFitsHeaders({ size, read }) };
  // Text, read a chunk at a time; a byte-order mark is not part of it.
  function* chunks(): Generator<string> {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    for (let offset = 0; offset < size; offset += CHUNK) yield decoder.decode(offset === 0 ? first : read(offset, CHUNK), { stream: true });
    yield decoder.decode();
  }
  const start = new TextDecoder('utf-8').decode(first);
  if (/^\s*</.test(start.replace(/^\ufeff/, ''))) return { format: 'votable', text: votableHead(chunks()) };
  if (/^(SIMPLE|XTENSION|TTYPE1|NAXIS|BITPIX)\s*=|^# HDU \d+/m.test(start)) {
    if (size > MAX_HEADER_TEXT) {
      throw new RewriteError(
        `${file} looks like a FITS header saved as text, but is ${(size / 1e6).toFixed(0)} MB; a header is far smaller`,
      );
    }
    return { format: 'fits-text', text: [...chunks()].join('') };
  }
  if (/\.(csv|tsv)$/i.test(file)) return { format: 'csv', header: firstRecord(chunks(), file.toLowerCase().endsWith('.tsv') ? '\t' : ',') };
  throw new RewriteError(
    `cannot tell what ${file} is: expected a FITS file, a FITS header as text, a VOTable (XML) or a CSV file (.csv, .tsv)`,
  );
}

function headers(source: Source, file: string): FitsHdu[] {
  if (source.format === 'fits') return source.hdus;
  if (source.format !== 'fits-text') throw new RewriteError(`${file} is not a FITS file or a FITS header as text`);
  try {
    return parseHeaderText(source.text);
  } catch (error) {
    if (error instanceof FitsError) throw new RewriteError(`${file}: ${error.message}`);
    throw error;
  }
}

function pickHdu(hdus: FitsHdu[], wanted: number | undefined, fits: (hdu: FitsHdu) => boolean, what: string, file: string): FitsHdu {
  if (wanted !== undefined) {
    const hdu = hdus.find((h) => h.index === wanted);
    if (!hdu) throw new RewriteError(`${file} has no HDU ${wanted}; it has ${hdus.length} (0 to ${hdus.length - 1})`);
    if (!fits(hdu)) throw new RewriteError(`HDU ${wanted} of ${file} is not ${what}`);
    return hdu;
  }
  const hdu = hdus.find(fits);
  if (!hdu) throw new RewriteError(`${file} has no ${what.replace(/^an? /, '')}; pass --hdu to choose one`);
  return hdu;
}

const text = (v: FitsValue | undefined): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The columns described by a table source. */
export async function readColumns(
  file: string,
  options: { hdu?: number; votableTable?: string } = {},
): Promise<{ columns: ImportedColumn[]; dataFile?: string }> {
  const source = await readSource(file);
  if (source.format === 'votable') {
    let tables;
    try {
      tables = readVotableTables(source.text);
    } catch (error) {
      if (error instanceof VotableError) throw new RewriteError(`${file}: ${error.message}`);
      throw error;
    }
    const table = options.votableTable ? tables.find((t) => t.name === options.votableTable || t.ID === options.votableTable) : tables[0];
    if (!table) {
      const names = tables.map((t) => t.name ?? t.ID ?? '(unnamed)').join(', ');
      throw new RewriteError(
        options.votableTable ? `${file} has no TABLE named ${options.votableTable}; it has ${names}` : `${file} has no TABLE`,
      );
    }
    return {
      columns: table.fields.map((f) => ({
        name: f.name,
        ...(f.description ? { description: f.description } : {}),
        ...(f.ucd ? { ucd: f.ucd } : {}),
        ...(f.unit ? { unit: f.unit } : {}),
        ...fieldType(f, file),
      })),
    };
  }
  if (source.format === 'csv') {
    let names: string[];
    try {
      names = readCsvHeader(source.header, file.toLowerCase().endsWith('.tsv') ? '\t' : ',');
    } catch (error) {
      if (error instanceof CsvError) throw new RewriteError(`${file}: ${error.message}`);
      throw error;
    }
    if (names.length === 0) throw new RewriteError(`${file} has no header row of column names`);
    return { columns: names.map((name) => ({ name })), dataFile: path.basename(file) };
  }
  const hdu = pickHdu(
    headers(source, file),
    options.hdu,
    (h) => Number(h.get('TFIELDS')?.value ?? 0) > 0,
    'a table HDU (one with TFIELDS)',
    file,
  );
  const count = Number(hdu.get('TFIELDS')?.value);
  const columns: ImportedColumn[] = [];
  for (let n = 1; n <= count; n++) {
    const ttype = hdu.get(`TTYPE${n}`);
    const name = text(ttype?.value);
    if (!name) throw new RewriteError(`${file}: column ${n} of HDU ${hdu.index} has no TTYPE${n}, so it has no name`);
    // A TTYPE card's comment describes the column when there is no TCOMM card.
    const description = text(hdu.get(`TCOMM${n}`)?.value) ?? text(ttype?.comment);
    const ucd = text(hdu.get(`TUCD${n}`)?.value);
    const unit = text(hdu.get(`TUNIT${n}`)?.value);
    columns.push({
      name,
      ...(description ? { description } : {}),
      ...(ucd ? { ucd } : {}),
      ...(unit ? { unit } : {}),
      ...fitsType(hdu, n, file),
    });
  }
  return { columns, ...(source.format === 'fits' ? { dataFile: path.basename(file) } : {}) };
}

/** A FITS binary-table column's type from its TFORMn (and TDIMn, TZEROn, TSCALn). */
function fitsType(hdu: FitsHdu, n: number, file: string): Pick<ImportedColumn, 'datatype' | 'arraysize'> {
  const tform = text(hdu.get(`TFORM${n}`)?.value);
  if (tform === undefined)
    throw new RewriteError(`${file}: column ${n} of HDU ${hdu.index} has no TFORM${n}, which every binary-table column has`);
  const number = (keyword: string) => {
    const value = hdu.get(`${keyword}${n}`)?.value;
    return typeof value === 'number' ? value : undefined;
  };
  const tdim = text(hdu.get(`TDIM${n}`)?.value);
  const tzero = number('TZERO');
  const tscal = number('TSCAL');
  const type = typeFromFits({
    tform,
    ...(tdim ? { tdim } : {}),
    ...(tzero !== undefined ? { tzero } : {}),
    ...(tscal !== undefined ? { tscal } : {}),
  });
  if (typeof type === 'string') throw new RewriteError(`${file}: column ${n} of HDU ${hdu.index}: ${type}`);
  return type;
}

/** A VOTable FIELD's type as it declares it; a datatype VOTable does not define is refused, naming the FIELD. */
function fieldType(field: VotableField, file: string): Pick<ImportedColumn, 'datatype' | 'arraysize'> {
  if (field.datatype === undefined) return {};
  if (!isVotableDatatype(field.datatype)) {
    throw new RewriteError(
      `${file}: FIELD "${field.name}" has datatype="${field.datatype}", which VOTable does not define (it has ${VOTABLE_DATATYPES.join(', ')})`,
    );
  }
  const arraysize = field.arraysize;
  if (arraysize === undefined) return { datatype: field.datatype };
  if (!ARRAYSIZE.test(arraysize)) {
    throw new RewriteError(`${file}: FIELD "${field.name}" has arraysize="${arraysize}", which is not VOTable's syntax (10, 10*, *, 3x4)`);
  }
  return { datatype: field.datatype, arraysize };
}

export interface ImportedRegion {
  name: string;
  ra_c: string;
  dec_c: string;
  unit: string;
  frame: string;
  equinox: string;
  fits_header: Record<string, [string | number | boolean, string]>;
  dataFile?: string;
  /** Cards left out: commentary cards and keywords without a value. */
  skipped: number;
}

/** A region described by an image header: its FITS header and centre from the WCS reference point. */
export async function readRegion(file: string, options: { hdu?: number; name?: string } = {}): Promise<ImportedRegion> {
  const source = await readSource(file);
  if (source.format !== 'fits' && source.format !== 'fits-text') {
    throw new RewriteError(`${file} is not a FITS image or a FITS header as text; import region reads those`);
  }
  const hdu = pickHdu(
    headers(source, file),
    options.hdu,
    (h) => Number(h.get('NAXIS')?.value ?? 0) >= 2,
    'an image HDU (one with NAXIS of 2 or more)',
    file,
  );
  const fitsHeader: ImportedRegion['fits_header'] = {};
  let skipped = 0;
  for (const card of hdu.cards) {
    if (card.value === null || card.keyword === '' || card.keyword === 'COMMENT' || card.keyword === 'HISTORY' || card.keyword === 'END') {
      skipped++;
      continue;
    }
    // A repeated keyword keeps its first value, as FITS readers do.
    if (!(card.keyword in fitsHeader)) fitsHeader[card.keyword] = [card.value, card.comment];
  }
  const ctype = (n: number) => String(hdu.get(`CTYPE${n}`)?.value ?? '').toUpperCase();
  const axis = (prefix: string) => [1, 2].find((n) => ctype(n).startsWith(prefix));
  const raAxis = axis('RA');
  const decAxis = axis('DEC');
  if (!raAxis || !decAxis) {
    throw new RewriteError(
      `${file}: HDU ${hdu.index} has no RA and DEC axes (CTYPE1 is "${ctype(1)}", CTYPE2 is "${ctype(2)}"), so it has no centre on the sky`,
    );
  }
  const crval = (n: number) => {
    const v = hdu.get(`CRVAL${n}`)?.value;
    if (typeof v !== 'number') throw new RewriteError(`${file}: HDU ${hdu.index} has no numeric CRVAL${n}, the WCS reference point`);
    return v;
  };
  const ra = ((crval(raAxis) % 360) + 360) % 360;
  const equinox = hdu.get('EQUINOX')?.value ?? hdu.get('EPOCH')?.value;
  const radesys = text(hdu.get('RADESYS')?.value ?? hdu.get('RADECSYS')?.value);
  // The FITS WCS default: FK4 before 1984, FK5 after, ICRS when neither is said.
  const frame = (radesys ?? (typeof equinox === 'number' ? (equinox < 1984 ? 'FK4' : 'FK5') : 'ICRS')).toLowerCase();
  const year = typeof equinox === 'number' ? equinox : 2000;
  const equinoxText = `${frame === 'fk4' ? 'b' : 'j'}${Number.isInteger(year) ? year : year.toFixed(1)}`;
  return {
    name: options.name ?? text(hdu.get('OBJECT')?.value) ?? path.basename(file).replace(/\.(fits|fit|fts|hdr|txt)(\.gz)?$/i, ''),
    ra_c: String(ra),
    dec_c: String(crval(decAxis)),
    unit: (text(hdu.get(`CUNIT${raAxis}`)?.value) ?? 'deg').toLowerCase(),
    frame,
    equinox: equinoxText,
    fits_header: fitsHeader,
    ...(source.format === 'fits' ? { dataFile: path.basename(file) } : {}),
    skipped,
  };
}

// ---- Writing into metadata files ----------------------------------------------------------------------

function seqAt(doc: Document, key: string, display: string): YAMLSeq {
  const list = doc.get(key, true);
  if (!isSeq(list)) throw new RewriteError(`${display} has no ${key} list to add to; fix the file first`);
  return list;
}

function findByName(list: YAMLSeq, name: string): YAMLMap | undefined {
  return list.items.find((item): item is YAMLMap => isMap(item) && item.get('name') === name);
}

/** A list's items by name, so that looking up each of n imported names costs one step, not n. */
function byName(list: YAMLSeq): Map<string, YAMLMap> {
  const found = new Map<string, YAMLMap>();
  for (const item of list.items) {
    const name = isMap(item) ? item.get('name') : undefined;
    if (isMap(item) && typeof name === 'string' && !found.has(name)) found.set(name, item);
  }
  return found;
}

/** Validates the new text as its file kind; writes only when it has no errors. */
async function commit(file: string, display: string, relative: string, kind: FileKind, doc: Document): Promise<string> {
  const textOut = printCanonical(doc, kind, display);
  const placed = classify(relative);
  const parsed = parseFile(display, textOut);
  if (!parsed.file || 'problem' in placed)
    throw new RewriteError(`${display}: the result would not parse; nothing was written. This is a bug in archive-schema.`);
  const errors: Diagnostic[] = validateFiles([{ ...parsed.file, relative, kind, placement: placed.placement }]).diagnostics.filter(
    (d) => d.severity === 'error',
  );
  if (errors.length > 0) {
    const list = errors
      .slice(0, 5)
      .map((d) => `  ${d.message}`)
      .join('\n');
    throw new RewriteError(`${display} would be invalid after the import, so nothing was written:\n${list}`);
  }
  await writeAtomically(file, textOut, display);
  return textOut;
}

/** The metadata file an import writes into, which must be of one of `kinds`: its document, and the ids in use around it. */
async function target(options: ImportOptions, kinds: KindType | readonly KindType[]) {
  const root = path.resolve(options.metadataDir);
  const file = path.resolve(options.displayRoot, options.into);
  const relative = path.relative(root, file).split(path.sep).join('/');
  const display = path.relative(options.displayRoot, file).split(path.sep).join('/');
  const placed = classify(relative);
  const wanted: readonly KindType[] = typeof kinds === 'string' ? [kinds] : kinds;
  const kind = 'problem' in placed ? undefined : wanted.find((k) => k === placed.kind);
  if (relative.startsWith('..') || 'problem' in placed || kind === undefined) {
    const declared = wanted.map((k) => KINDS[k]);
    const where = declared.map((d) => pathHelp(d.file?.path ?? []).replace('<name>', `<${d.label}>`)).join(' or ');
    const what = declared.map((d) => d.file?.described ?? d.word).join(' or ');
    throw new RewriteError(`--into ${options.into} is not ${what} file (${where}) under ${options.metadataDir}`);
  }
  const declared = KINDS[kind];
  if (!(await exists(file))) {
    const { survey, release, name } = placed.placement;
    throw new RewriteError(
      `there is no ${display}; create it first with: archive-schema new ${declared.scaffold?.command ?? ''} ${survey}/${release ?? ''}/${name ?? ''}`,
    );
  }
  const { doc, text: before } = await readForRewrite(file, display);
  const loaded = await loadMetadata(root, { displayRoot: options.displayRoot });
  // New ids are the next free ones across the archive: a file that cannot be read may hold some.
  const broken = loaded.diagnostics.find(unreadable);
  if (broken)
    throw new RewriteError(`${broken.message}; its ids cannot be known, so no new ones were given and nothing was changed`, broken);
  return { file, relative, display, doc, kind, before, files: loaded.files, ids: nextIds(loaded.files) };
}

export interface ImportReport {
  file: string;
  lines: string[];
  /** What the curator should look at in the file written, each at its line. */
  notes?: Diagnostic[];
}

export async function importColumns(options: ImportOptions & { table: string }): Promise<ImportReport> {
  const { columns, dataFile } = await readColumns(options.source, options);
  const t = await target(options, 'CatalogueGroup');
  const tables = seqAt(t.doc, 'tables', t.display);
  let table = findByName(tables, options.table);
  const lines: string[] = [];
  if (!table) {
    const id = t.ids.CatalogueTable;
    table = t.doc.createNode({ id, name: options.table, ...(dataFile ? { file_name: dataFile } : {}), columns: [] });
    tables.items.push(table);
    lines.push(`new table "${options.table}" with id ${id}`);
  }
  const list = table.get('columns', true);
  if (!isSeq(list)) throw new RewriteError(`${t.display}: table "${options.table}" has no columns list; fix the file first`);
  let nextColumn = t.ids.CatalogueColumn;
  const added: string[] = [];
  const updated: string[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  const present = byName(list);
  for (const column of columns) {
    if (seen.has(column.name))
      throw new RewriteError(`${options.source} names the column "${column.name}" twice; a table's column names are unique`);
    seen.add(column.name);
    const existing = present.get(column.name);
    if (!existing) {
      list.items.push(t.doc.createNode({ id: nextColumn, ...column }));
      added.push(`${column.name} (${nextColumn++})`);
      continue;
    }
    let changed = false;
    for (const key of ['description', 'ucd', 'unit', 'datatype', 'arraysize'] as const) {
      const value = column[key];
      if (value !== undefined && existing.get(key) !== value) {
        existing.set(key, value);
        changed = true;
      }
    }
    // A type is its datatype and arraysize together: a file that says a column holds one value says it has no arraysize.
    if (column.datatype !== undefined && column.arraysize === undefined && existing.has('arraysize')) {
      existing.delete('arraysize');
      changed = true;
    }
    if (changed) updated.push(column.name);
    else unchanged++;
  }
  const kept = list.items.filter((i): i is YAMLMap => isMap(i) && !seen.has(String(i.get('name')))).map((i) => String(i.get('name')));
  if (added.length > 0) lines.push(`${added.length} column${added.length === 1 ? '' : 's'} added: ${listed(added)}`);
  if (updated.length > 0) lines.push(`${updated.length} column${updated.length === 1 ? '' : 's'} updated: ${listed(updated)}`);
  lines.push(`${unchanged} column${unchanged === 1 ? '' : 's'} unchanged`);
  if (kept.length > 0)
    lines.push(
      `${kept.length} column${kept.length === 1 ? '' : 's'} kept that ${path.basename(options.source)} does not list (published ids are never dropped by an import): ${listed(kept)}`,
    );
  if (added.length > 0 || updated.length > 0) await commit(t.file, t.display, t.relative, 'CatalogueGroup', t.doc);
  return { file: t.display, lines: lines.map((l) => `table "${options.table}": ${l}`) };
}

/** Names for a report line: all of them when few, else the first ones and how many more (the file has them all). */
function listed(names: string[]): string {
  const SHOWN = 50;
  return names.length <= SHOWN ? names.join(', ') : `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more`;
}

export async function importRegion(options: ImportOptions & { band: string; name?: string }): Promise<ImportReport> {
  const region = await readRegion(options.source, options);
  const t = await target(options, 'ImagingFacility');
  const bands = seqAt(t.doc, 'bands', t.display);
  const band = findByName(bands, options.band);
  if (!band) {
    const names = bands.items
      .filter(isMap)
      .map((b) => String(b.get('name')))
      .join(', ');
    throw new RewriteError(`${t.display} has no band "${options.band}" (it has ${names || 'none'}); add the band first`);
  }
  const regions = band.get('regions', true);
  if (!isSeq(regions)) throw new RewriteError(`${t.display}: band "${options.band}" has no regions list; fix the file first`);
  const { skipped, dataFile, ...fields } = region;
  const content = { ...(dataFile ? { file_name: dataFile } : {}), ...fields };
  const existing = findByName(regions, region.name);
  let line: string;
  if (existing) {
    for (const [key, value] of Object.entries(content)) existing.set(key, t.doc.createNode(value));
    line = `region "${region.name}" updated from ${path.basename(options.source)}`;
  } else {
    const id = t.ids.ImagingRegion;
    regions.items.push(t.doc.createNode({ id, ...content }));
    line = `new region "${region.name}" with id ${id}`;
  }
  await commit(t.file, t.display, t.relative, 'ImagingFacility', t.doc);
  const cards = Object.keys(region.fits_header).length;
  return {
    file: t.display,
    lines: [
      `band "${options.band}": ${line}: ${cards} header cards${skipped > 0 ? ` (${skipped} commentary or valueless card${skipped === 1 ? '' : 's'} left out)` : ''}, centre ${region.ra_c}, ${region.dec_c} ${region.unit} ${region.frame}`,
    ],
  };
}

// ---- Data products --------------------------------------------------------------------------------

/** The data product a FITS cube, map or spectrum (or its header as text) describes. */
function productOf(source: Source, file: string, options: ProductOptions): ImportedProduct {
  if (source.format !== 'fits' && source.format !== 'fits-text') {
    throw new RewriteError(`${file} is not a FITS file or a FITS header as text; import product reads those`);
  }
  return describeProduct(headers(source, file), file, options);
}

/** A value as a report shows it: text quoted, lists in brackets. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(shown).join(', ')}]`;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** The ids of a kind in use or retired anywhere in the archive. */
function idsInUse(files: readonly MetadataFile[], kind: KindType): Set<number> {
  const used = new Set<number>();
  for (const file of files) {
    if (file.kind === 'Retired') {
      const entries = (file.data as { retired?: unknown } | null)?.retired;
      for (const e of Array.isArray(entries) ? (entries as { kind?: unknown; id?: unknown }[]) : []) {
        if (e.kind === kind && typeof e.id === 'number') used.add(e.id);
      }
    } else {
      walk(file.kind, file.data, true, (k, item) => {
        if (k === kind && typeof item.id === 'number') used.add(item.id);
        return true;
      });
    }
  }
  return used;
}

export async function importProduct(options: ImportOptions & ProductOptions & { name: string; id?: number }): Promise<ImportReport> {
  const source = await readSource(options.source);
  const t = await target(options, ['IFSFacility', 'SpectraFacility']);
  const kind: KindType = t.kind === 'IFSFacility' ? 'IFSDataProduct' : 'SpectraDataProduct';
  const products = seqAt(t.doc, 'products', t.display);
  let item = findByName(products, options.name);
  // A product listed already is read as what it says it is, unless --type says otherwise.
  const listed = item?.get('product_type');
  const type = options.type ?? PRODUCT_TYPES.find((p) => p === listed);
  const imported = productOf(source, options.source, { ...options, ...(type ? { type } : {}), extensionName: extensionNameIn(t.kind) });
  const shownSource = path.basename(options.source);
  const { fields } = imported;
  const named = `product "${options.name}"`;
  const lines: string[] = [];
  let changed: boolean;
  if (item) {
    const id = item.get('id');
    if (options.id !== undefined && id !== options.id) {
      throw new RewriteError(
        `${t.display}: ${named} has id ${String(id)}, and a published id never changes; leave out --id to update it from ${shownSource}`,
      );
    }
    const changes = updateProduct(t.doc, item, fields);
    changed = changes.length > 0;
    lines.push(
      changed
        ? `${named} (id ${String(id)}) updated from ${shownSource}: ${changes.length} field${changes.length === 1 ? '' : 's'} changed`
        : `${named} (id ${String(id)}) unchanged: it already says what ${shownSource} says`,
      ...changes.map((c) => `${named}: ${c}`),
    );
  } else {
    const id = options.id ?? t.ids[kind];
    if (options.id !== undefined && idsInUse(t.files, kind).has(options.id)) {
      throw new RewriteError(
        `--id ${options.id} is in use (or retired) among ${KINDS[kind].word}s; the next free id is ${t.ids[kind]}, which a new product gets when --id is left out`,
      );
    }
    const { extensions, ...rest } = fields;
    const given: Record<string, unknown> = rest;
    item = t.doc.createNode({
      id,
      name: options.name,
      ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== null)),
      extensions: extensions.map((e) => ({ name: e.name, holds: e.holds ?? e.shape })),
    });
    products.items.push(item);
    changed = true;
    lines.push(`${named}: new ${KINDS[kind].word} with id ${id}, from ${shownSource}`, ...imported.readFrom.map((l) => `${named}: ${l}`));
    const undescribed = extensions.filter((e) => e.holds === undefined).map((e) => e.name);
    lines.push(
      `${named}: ${extensions.length} extension${extensions.length === 1 ? '' : 's'} from EXTNAME: ${extensions.map((e) => e.name).join(', ')}` +
        (undescribed.length > 0 ? `; ${undescribed.length} to describe: ${undescribed.join(', ')}` : ''),
    );
  }
  const text = changed ? await commit(t.file, t.display, t.relative, t.kind, t.doc) : t.before;
  const index = products.items.indexOf(item);
  return { file: t.display, lines, notes: productNotes(t, text, index, imported, shownSource) };
}

/** What a facility kind's schema allows as the name of a product's extension, and its words for it. */
function extensionNameIn(kind: FileKind): NonNullable<ProductOptions['extensionName']> {
  const definitions = readSchema(SCHEMA_FILES[kind]).definitions as
    { extension?: { properties?: { name?: { pattern?: string; patternErrorMessage?: string } } } } | undefined;
  const name = definitions?.extension?.properties?.name;
  if (name?.pattern === undefined) throw new Error(`${SCHEMA_FILES[kind]} has no pattern for an extension's name`);
  const pattern = new RegExp(name.pattern, 'u');
  return { allows: (text) => pattern.test(text), rule: name.patternErrorMessage ?? `it must match ${name.pattern}` };
}

/** The fields an import sets, in the order a report lists their changes (the schema's). */
const PRODUCT_FIELDS = [
  'product_type',
  'arm',
  'wave_min_ang',
  'wave_max_ang',
  'wave_step_ang',
  'spatial_sampling_arcsec',
  'dimensions',
  'flux_unit',
] as const satisfies readonly (keyof ProductFields)[];

/** Sets a product's fields from a file, keeping what the curator wrote that the file does not say; returns what changed. */
function updateProduct(doc: Document, item: YAMLMap, fields: ProductFields): string[] {
  const before = item.toJSON() as Record<string, unknown>;
  const changes: string[] = [];
  for (const key of PRODUCT_FIELDS) {
    const value = fields[key];
    if (value === undefined || JSON.stringify(value) === JSON.stringify(before[key] ?? null)) continue;
    // A unit the curator has put in VOUnit form is the same unit as the BUNIT it came from.
    if (key === 'flux_unit' && typeof value === 'string' && typeof before[key] === 'string' && before[key] === voUnitFor(value)) continue;
    if (value === null) item.delete(key);
    else item.set(key, doc.createNode(value));
    changes.push(`${key} ${shown(before[key])} → ${shown(value)}`);
  }
  // Extensions follow the file; an HDU the product lists already keeps what the curator said it holds.
  const list = item.get('extensions', true);
  const old = isSeq(list) ? list.items.filter(isMap) : [];
  const used = new Set<YAMLMap>();
  const items = fields.extensions.map((e) => {
    const kept = old.find((m) => m.get('name') === e.name && !used.has(m));
    if (!kept) return doc.createNode({ name: e.name, holds: e.holds ?? e.shape });
    used.add(kept);
    const holds = kept.get('holds');
    if (typeof holds !== 'string' || holds === '') kept.set('holds', e.holds ?? e.shape);
    return kept;
  });
  const names = (maps: YAMLMap[]) => maps.map((m) => String(m.get('name')));
  const wasNames = names(old);
  const nowNames = names(items);
  if (JSON.stringify(wasNames) !== JSON.stringify(nowNames)) {
    const dropped = wasNames.filter((n) => !nowNames.includes(n));
    changes.push(
      `extensions ${wasNames.join(', ') || 'none'} → ${nowNames.join(', ') || 'none'}` +
        (dropped.length > 0 ? ` (what ${dropped.join(', ')} held is gone with ${dropped.length === 1 ? 'it' : 'them'})` : ''),
    );
  }
  if (isSeq(list)) list.items = items;
  else item.set('extensions', doc.createNode(items));
  return changes;
}

/**
 * What the curator should look at in the product as written, each at its line: the import's own
 * notes (a unit assumed, an extension only its shape describes), and check's warnings on the product.
 */
function productNotes(
  t: { display: string; relative: string; kind: FileKind },
  text: string,
  index: number,
  imported: ImportedProduct,
  source: string,
): Diagnostic[] {
  const parsed = parseFile(t.display, text).file;
  const placed = classify(t.relative);
  if (!parsed || 'problem' in placed) return [];
  const data = parsed.data as { products?: { arm?: unknown; extensions?: { name?: unknown; holds?: unknown }[] }[] } | null;
  const products = data?.products ?? [];
  const product = products[index];
  const note = (at: PathSegment[], rule: string, message: string): Diagnostic => ({
    file: t.display,
    ...parsed.locate(['products', index, ...at], at[at.length - 1] === 'name' ? 'key' : 'value'),
    severity: 'warning',
    rule,
    message,
  });
  const notes = imported.notes.map((n) => note(n.at, n.rule, n.message));
  (product?.extensions ?? []).forEach((e, i) => {
    const from = imported.fields.extensions.find((x) => x.name === e.name);
    if (from && from.holds === undefined && e.holds === from.shape) {
      notes.push(
        note(
          ['extensions', i, 'holds'],
          'import/extension-holds',
          `extension "${from.name}": ${source} says only what it is ("${from.shape}"); write what it holds`,
        ),
      );
    }
  });
  const arms = [...new Set(products.flatMap((p, i) => (i !== index && typeof p.arm === 'string' ? [p.arm] : [])))];
  if (product && imported.fields.product_type !== 'map' && (product.arm === undefined || product.arm === null) && arms.length > 0) {
    notes.push(
      note(
        ['name'],
        'import/arm',
        `has no arm, while the facility's other products name theirs (${arms.join(', ')}); pass --arm if it comes from one arm`,
      ),
    );
  }
  const start = parsed.locate(['products', index]).line;
  const end = index + 1 < products.length ? parsed.locate(['products', index + 1]).line : Infinity;
  const warnings = validateFiles([{ ...parsed, relative: t.relative, kind: t.kind, placement: placed.placement }]).diagnostics.filter(
    (d) => d.severity === 'warning' && d.line >= start && d.line < end,
  );
  return [...notes, ...warnings];
}
