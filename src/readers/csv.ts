// Reads the header row of a CSV or TSV file, with csv-parse's quoting rules, so `import columns`
// can name a table's columns from it. Only the header row is read: the scan stops at its first
// line break outside quotes, so the data rows cost nothing however many there are.

import { CsvError as ParseError, parse } from 'csv-parse/sync';

export class CsvError extends Error {
  override name = 'CsvError';
}

/** The longest header row read: 100,000 columns of 100-character names fit in it. */
export const MAX_HEADER_CHARS = 16_000_000;

/**
 * The text of the first record: everything up to its first line break outside quotes, with
 * csv-parse's rules for quotes: one opens a field only at its start (spaces before it allowed),
 * and a doubled quote inside a quoted field is a quote character.
 */
export function firstRecord(chunks: Iterable<string>, delimiter: ',' | '\t'): string {
  const DELIMITER = delimiter.charCodeAt(0);
  let kept = '';
  let quoted = false;
  let justClosed = false;
  let fieldStart = true;
  let openedAt = 0;
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (quoted) {
        if (code === 0x22) {
          quoted = false;
          justClosed = true;
        }
        continue;
      }
      if (justClosed && code === 0x22) {
        // "" inside a quoted field: one quote, and the field goes on.
        quoted = true;
        justClosed = false;
        continue;
      }
      justClosed = false;
      if (code === 0x0a || code === 0x0d) return kept + chunk.slice(0, i);
      if (code === 0x22 && fieldStart) {
        quoted = true;
        openedAt = kept.length + i;
      } else if (code === DELIMITER) {
        fieldStart = true;
        continue;
      }
      if (code !== 0x20 && code !== 0x09) fieldStart = false;
    }
    kept += chunk;
    if (kept.length > MAX_HEADER_CHARS) {
      throw new CsvError(
        `the header row is longer than ${MAX_HEADER_CHARS.toLocaleString('en')} characters${quoted ? `, inside a quote opened at character ${openedAt + 1}` : ''}; is this a CSV file with a header row?`,
      );
    }
  }
  if (quoted) {
    throw new CsvError(
      `the quote (") at character ${openedAt + 1} of the header row is never closed, so the whole file would be one column name; close the quote or remove it`,
    );
  }
  return kept;
}

/**
 * The column names in a header row. An empty name is refused, at its position: the column it
 * heads would be left out, or take another's place in the table.
 */
export function readCsvHeader(record: string, delimiter: ',' | '\t'): string[] {
  let names: string[];
  try {
    const rows = parse(record, { delimiter, relax_column_count: true, trim: true });
    names = rows[0] ?? [];
  } catch (error) {
    if (error instanceof ParseError) throw new CsvError(`the header row is not valid CSV: ${error.message}`);
    throw error;
  }
  // A row with nothing in it is no header at all; the caller says so.
  if (names.every((name) => name === '')) return [];
  const empty = names.flatMap((name, i) => (name === '' ? [i] : []));
  if (empty.length > 0) {
    const where = empty.slice(0, 5).map((i) => `column ${i + 1}${i > 0 && names[i - 1] !== '' ? ` (after "${names[i - 1] ?? ''}")` : ''}`);
    const more = empty.length > where.length ? ` and ${empty.length - where.length} more` : '';
    const separator = delimiter === ',' ? 'commas' : 'tabs';
    throw new CsvError(`the header row has no name for ${where.join(', ')}${more}; name every column, or remove the extra ${separator}`);
  }
  return names;
}
