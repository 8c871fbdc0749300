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

/**
 * The most problems of one kind listed for one file. Past a hundred, more of the same tell a reader
 * nothing new, and a hostile file can hold a million (a duplicate key on every line): describing,
 * sorting and printing each took minutes and gigabytes. The rest are counted, and one more
 * diagnostic, at the first of them, says how many were left out.
 */
export const LISTED_PER_KIND = 100;

/** Admits at most LISTED_PER_KIND items of each kind, and counts the rest, keeping the first left out. */
export class Quota<T> {
  private readonly admitted = new Map<string, number>();
  private readonly left = new Map<string, { first: T; count: number }>();

  admit(kind: string, item: T): boolean {
    const n = this.admitted.get(kind) ?? 0;
    if (n < LISTED_PER_KIND) {
      this.admitted.set(kind, n + 1);
      return true;
    }
    const left = this.left.get(kind);
    if (left) left.count++;
    else this.left.set(kind, { first: item, count: 1 });
    return false;
  }

  /** Each kind that went over its quota: the first item left out, and how many were. */
  leftOut(): { first: T; count: number }[] {
    return [...this.left.values()];
  }
}

/** The diagnostic that stands for those left out, at the first of them. */
export function leftOut(first: Diagnostic, count: number): Diagnostic {
  const more = count === 1 ? 'one more problem' : `${count.toLocaleString('en')} more problems`;
  return {
    ...first,
    message: `${more} of this kind [${first.rule}] from here on in this file, not listed one by one (the first ${LISTED_PER_KIND} are); fix those and check again`,
  };
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
 * Characters that would act on a terminal instead of showing (escape sequences, carriage returns,
 * bells) or reorder what it shows (bidirectional overrides): a file name or a value can hold them.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Text for a terminal or a CI log: line breaks and tabs kept, every other control character shown
 * as an escape (\u001B). GitHub's runner also takes `##[command]` anywhere in a line of a step's
 * output for a workflow command (its older syntax): its bracket is shown as an escape too.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escaped).replaceAll('##[', '##\\u005B');
}

/**
 * A value (a file name, a name, a message) as a part of one line of what a command prints: line
 * breaks and tabs shown as escapes too, so that no value can start a line of its own; and a value
 * at the start of a line cannot begin a GitHub workflow command (`::error …::`, which the runner
 * reads after leading spaces). Every command prints file names and values through this.
 */
export function shown(value: string): string {
  return printable(value)
    .replace(/[\n\t]/g, escaped)
    .replace(/^(\s*)::/, (_, space: string) => `${space}\\u003A:`);
}

export interface ReportOptions {
  /** Errors only: warnings are counted in the closing line, not listed. */
  quiet?: boolean;
}

/**
 * The readable report: warnings first, then errors, each grouped by file, each line starting with
 * `file:line:col` so editors and terminals can jump to it; then a closing count and what state
 * things were left in. Errors come last, just above the count, so that a few of them stay on the
 * screen after a backlog of hundreds of warnings (listed first, they scrolled away).
 */
export function formatReport(diagnostics: readonly Diagnostic[], outcome: string, options: ReportOptions = {}): string {
  const sorted = sortDiagnostics(diagnostics);
  const errors = sorted.filter((d) => d.severity === 'error');
  const warnings = sorted.filter((d) => d.severity === 'warning');
  const listed = options.quiet ? errors : [...warnings, ...errors];
  const lines: string[] = [];
  let current: string | undefined;
  for (const [i, d] of listed.entries()) {
    // A new group at each new file, and where the warnings start.
    if (d.file !== current || d.severity !== listed[i - 1]?.severity) {
      if (current !== undefined) lines.push('');
      lines.push(shown(d.file));
      current = d.file;
    }
    const where = d.line > 0 ? `${d.file}:${d.line}:${d.col}` : d.file;
    lines.push(`  ${shown(where)}  ${d.severity}  ${shown(d.message)}  [${d.rule}]`);
  }
  const files = new Set(sorted.map((d) => d.file)).size;
  if (lines.length > 0) lines.push('');
  if (listed.length === 0) lines.push(outcome);
  else if (options.quiet && warnings.length > 0)
    lines.push(
      `${plural(errors.length, 'error')} in ${plural(new Set(errors.map((d) => d.file)).size, 'file')}, and ${plural(warnings.length, 'warning')} not shown. ${outcome}`,
    );
  else lines.push(`${plural(errors.length, 'error')} and ${plural(warnings.length, 'warning')} in ${plural(files, 'file')}. ${outcome}`);
  return lines.join('\n') + '\n';
}

/** Warnings become errors, for `--strict`. */
export function strictly(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' } : d));
}

// GitHub Actions workflow commands: the message and property values are escaped as the Actions
// toolkit escapes them (@actions/core's escapeData and escapeProperty), so a message with a
// newline, a comma or a colon cannot end the command early.
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * One `::error title=…,file=…,line=…,col=…::message` line per diagnostic, for pull-request
 * checks; properties in the order the Actions toolkit writes them.
 */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return sortDiagnostics(diagnostics)
    .map((d) => {
      const properties = [`title=${escapeProperty(d.rule)}`, `file=${escapeProperty(d.file)}`];
      if (d.line > 0) properties.push(`line=${d.line}`, `col=${d.col}`);
      return `::${d.severity} ${properties.join(',')}::${escapeData(d.message)}\n`;
    })
    .join('');
}

/** The diagnostics as data, for other tools. */
export function formatJson(diagnostics: readonly Diagnostic[]): string {
  const sorted = sortDiagnostics(diagnostics);
  const { errors, warnings } = countBySeverity(sorted);
  return `${JSON.stringify({ errors, warnings, diagnostics: sorted }, null, 2)}\n`;
}
