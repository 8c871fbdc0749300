// The report formats of `check`: readable text, GitHub Actions annotations (byte for byte what the
// Actions toolkit writes, and parseable as GitHub documents them) and JSON; and --strict.

import * as core from '@actions/core';
import { describe, expect, test, vi } from 'vitest';
import { formatGithub, formatReport } from '../src/diagnostics.ts';
import type { Diagnostic } from '../src/diagnostics.ts';
import { cli, testdir } from './helpers.ts';

const tricky: Diagnostic = {
  file: 'metadata/a,b/c:d.yaml',
  line: 12,
  col: 5,
  severity: 'error',
  rule: 'schema/type',
  message: 'ra_c must be a string, found 100% the number 1,5: see\nline two\r',
};

/** What @actions/core prints for the same annotation. */
function toolkit(d: Diagnostic): string {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const props = { title: d.rule, file: d.file, ...(d.line > 0 ? { startLine: d.line, startColumn: d.col } : {}) };
  if (d.severity === 'error') core.error(d.message, props);
  else core.warning(d.message, props);
  spy.mockRestore();
  return out;
}

/** Parses a workflow command line as GitHub's documentation describes it. */
function parseCommand(line: string): { command: string; properties: Record<string, string>; message: string } {
  const m = /^::([a-z]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescape = (s: string) =>
    s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
  const properties: Record<string, string> = {};
  for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
  }
  return { command: m[1] ?? '', properties, message: unescape(m[3] ?? '') };
}

describe('GitHub annotations', () => {
  test.each([
    tricky,
    { ...tricky, severity: 'warning' as const, message: 'unknown UCD word "mata.code.qual"; did you mean "meta.code.qual"?' },
    { ...tricky, line: 0, col: 0, rule: 'layout/unexpected-file', message: 'unexpected file' },
  ])('are what the Actions toolkit writes: $severity $rule', (d) => {
    expect(formatGithub([d])).toBe(toolkit(d));
  });

  test('parse back to the file, position, rule and message', () => {
    const parsed = parseCommand(formatGithub([tricky]).trimEnd());
    expect(parsed).toEqual({
      command: 'error',
      properties: { title: 'schema/type', file: 'metadata/a,b/c:d.yaml', line: '12', col: '5' },
      message: tricky.message,
    });
  });

  test('check --format github prints one annotation per problem on stdout and exits 1', async () => {
    const dir = await testdir({ 'gamma/survey.yaml': 'id: 0\nname: gamma\n' });
    const result = await cli(['check', '--format', 'github'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    const required = (key: string) => ({
      command: 'error',
      properties: { title: 'schema/required', file: 'metadata/gamma/survey.yaml', line: '1', col: '1' },
      message: `the file is missing the required key "${key}"; add it`,
    });
    // Sorted by position, then rule, then message.
    expect(lines.map((l) => parseCommand(l))).toEqual([
      ...['active', 'contact', 'description', 'pi', 'pretty_name', 'title', 'website'].map(required),
      {
        command: 'error',
        properties: { title: 'schema/minimum', file: 'metadata/gamma/survey.yaml', line: '1', col: '5' },
        message: 'id must be at least 1, found the number 0',
      },
    ]);
    expect(result.stderr).toBe('');
  });

  test('a valid archive prints no annotation and exits 0', async () => {
    const result = await cli(['check', '--format', 'github'], await testdir());
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('check --format json', () => {
  test('prints the diagnostics as data', async () => {
    const dir = await testdir({
      'gamma/survey.yaml':
        "id: 3\nname: gamma\npretty_name: G\ntitle: G\ndescription: ''\npi: P\ncontact: {name: A, email: a@example.org}\nwebsite: https://g.example.org/\nactive: yes\n",
    });
    const result = await cli(['check', '--format', 'json'], dir);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      errors: 1,
      warnings: 0,
      diagnostics: [
        {
          file: 'metadata/gamma/survey.yaml',
          line: 9,
          col: 9,
          severity: 'error',
          rule: 'schema/type',
          message: 'active must be true or false, found the string "yes"',
        },
      ],
    });
  });
});

// A check of a real archive listed some 990 lines, its errors first and scrolled away above the
// warnings: now the errors come last, just above the closing count.
describe('the readable report with many warnings', () => {
  const at = (file: string, line: number, severity: Diagnostic['severity']): Diagnostic => ({
    file: `metadata/${file}.yaml`,
    line,
    col: 3,
    severity,
    rule: severity === 'error' ? 'schema/type' : 'datatypes/missing',
    message: `${severity} at ${line}`,
  });
  // Warnings in files before, between and after the errors' files.
  const diagnostics = [
    ...Array.from({ length: 300 }, (_, i) => at(`w${String(i % 7)}`, i + 1, 'warning')),
    at('b', 9, 'error'),
    at('z', 4, 'error'),
    at('b', 2, 'warning'),
  ];
  const outcome = 'The metadata is invalid; fix the errors above.';

  test.each([
    ['everything', false, 301],
    ['--quiet', true, 0],
  ] as const)('%s: the errors are the last lines before the count', (_, quiet, warnings) => {
    const lines = formatReport(diagnostics, outcome, { quiet }).trimEnd().split('\n');
    const listed = lines.filter((l) => l.startsWith('  '));
    expect(listed.filter((l) => l.includes('  warning  '))).toHaveLength(warnings);
    expect(listed.slice(-2)).toEqual([
      '  metadata/b.yaml:9:3  error  error at 9  [schema/type]',
      '  metadata/z.yaml:4:3  error  error at 4  [schema/type]',
    ]);
    // Grouped by file: the errors under their files' names.
    expect(lines.slice(-7, -1)).toEqual([
      'metadata/b.yaml',
      '  metadata/b.yaml:9:3  error  error at 9  [schema/type]',
      '',
      'metadata/z.yaml',
      '  metadata/z.yaml:4:3  error  error at 4  [schema/type]',
      '',
    ]);
    expect(lines.at(-1)).toBe(
      quiet ? `2 errors in 2 files, and 301 warnings not shown. ${outcome}` : `2 errors and 301 warnings in 9 files. ${outcome}`,
    );
  });
});
