// The documentation a clone carries: every link in the README and in docs/ leads to a file in the
// repository (the README once linked to a description outside it, dead in any clone).

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { PROJECT } from './helpers.ts';

const documents = ['README.md', ...readdirSync(path.join(PROJECT, 'docs')).map((name) => `docs/${name}`)].filter((f) => f.endsWith('.md'));

/** Each Markdown link's target, and each path in backticks that names a Markdown file. */
function targets(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
  const named = [...text.matchAll(/`([^`\s]+\.md)`/g)].map((m) => m[1] ?? '');
  return [...links, ...named].filter((t) => !/^(https?:|mailto:|#)/.test(t));
}

test.each(documents)('every link in %s leads to a file in the repository', (document) => {
  const text = readFileSync(path.join(PROJECT, document), 'utf8');
  for (const target of targets(text)) {
    const file = path.resolve(path.dirname(path.join(PROJECT, document)), target.split('#')[0] ?? '');
    expect(path.relative(PROJECT, file).startsWith('..'), `${document}: ${target} leaves the repository`).toBe(false);
    expect(existsSync(file), `${document}: ${target} does not exist`).toBe(true);
  }
});

test('the README links to the API reference', () => {
  expect(targets(readFileSync(path.join(PROJECT, 'README.md'), 'utf8'))).toContain('docs/api.md');
});
