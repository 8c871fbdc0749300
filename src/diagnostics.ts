// The Diagnostic type every stage reports problems with, and the one formatter that prints them.
// Stages return diagnostics as data; only the CLI decides what to print and which exit code to set.

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  /** Path of the file, relative to the metadata folder's parent (as curators type it). */
  file: string;
  /** 1-based line and column; 0 when the problem concerns the whole file. */
  line: number;
  col: number;
  severity: Severity;
  /** Short rule id, e.g. `schema/type` or `ids/unique`. */
  rule: string;
  /** What happened and what to do, in one or two sentences. */
  message: string;
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}

/** Sorts by file, then position, then rule, so reports are stable from run to run. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareStrings(a.file, b.file) ||
      a.line - b.line ||
      a.col - b.col ||
      compareStrings(a.rule, b.rule) ||
      compareStrings(a.message, b.message),
  );
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The readable report: problems grouped by file, each line starting with `file:line:col` so
 * editors and terminals can jump to it, then a closing count and what state things were left in.
 */
export function formatReport(diagnostics: readonly Diagnostic[], outcome: string): string {
  const sorted = sortDiagnostics(diagnostics);
  const lines: string[] = [];
  let current: string | undefined;
  for (const d of sorted) {
    if (d.file !== current) {
      if (current !== undefined) lines.push('');
      lines.push(d.file);
      current = d.file;
    }
    const where = d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file;
    lines.push(`  ${where}  ${d.severity}  ${d.message}  [${d.rule}]`);
  }
  const { errors, warnings } = countBySeverity(sorted);
  const files = new Set(sorted.map((d) => d.file)).size;
  if (lines.length > 0) lines.push('');
  if (errors + warnings > 0) {
    lines.push(`${plural(errors, 'error')} and ${plural(warnings, 'warning')} in ${plural(files, 'file')}. ${outcome}`);
  } else {
    lines.push(outcome);
  }
  return lines.join('\n') + '\n';
}
