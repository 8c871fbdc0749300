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

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(text: string): Set<string> {
  const outsideCode = text.replace(/^```[\s\S]*?^```/gm, '');
  const headings = [...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1] ?? '');
  return new Set(
    headings.map((heading) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

test.each(documents)('every link in %s leads to a file in the repository, and to a heading in it', (document) => {
  const text = readFileSync(path.join(PROJECT, document), 'utf8');
  const internal = [...text.matchAll(/\]\((#[^)\s]+)\)/g)].map((m) => m[1] ?? '');
  for (const target of [...targets(text), ...internal]) {
    const [name = '', anchor] = target.split('#');
    const file = name === '' ? path.join(PROJECT, document) : path.resolve(path.dirname(path.join(PROJECT, document)), name);
    expect(path.relative(PROJECT, file).startsWith('..'), `${document}: ${target} leaves the repository`).toBe(false);
    expect(existsSync(file), `${document}: ${target} does not exist`).toBe(true);
    if (anchor && file.endsWith('.md')) {
      expect(anchorsOf(readFileSync(file, 'utf8')).has(anchor), `${document}: ${target} names no heading of ${name || document}`).toBe(
        true,
      );
    }
  }
});

test('the README links to the API reference', () => {
  expect(targets(readFileSync(path.join(PROJECT, 'README.md'), 'utf8'))).toContain('docs/api.md');
});
