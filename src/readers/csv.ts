// Reads the header row of a CSV or TSV file, with csv-parse's quoting rules, so `import columns`
// can name a table's columns from it; data rows are not read.

import { parse } from 'csv-parse/sync';

/** The column names in the first row, empty names left out. */
export function readCsvHeader(text: string, delimiter: ',' | '\t'): string[] {
  const rows = parse(text, { to_line: 1, delimiter, relax_column_count: true, trim: true });
  return (rows[0] ?? []).filter((name) => name !== '');
}
