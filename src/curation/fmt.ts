// `fmt`: every metadata file in the canonical form, so that diffs show content, not style.

import path from 'node:path';
import type { Diagnostic } from '../diagnostics.ts';
import { classify } from '../kinds/registry.ts';
import { listMetadata } from '../pipeline/scan.ts';
import { RewriteError, printCanonical, readForRewrite, writeAtomically } from './rewrite.ts';

export interface FormatResult {
  /** Files (as displayed) that were, or with `check` would be, rewritten. */
  changed: string[];
  /** How many files were already canonical. */
  unchanged: number;
  /** Files left alone because they cannot be rewritten safely. */
  refused: Diagnostic[];
}

export async function formatMetadata(metadataDir: string, displayRoot: string, options: { check: boolean }): Promise<FormatResult> {
  // The same listing every other command uses: a folder that is missing or unreadable is trouble.
  const { root, names: entries, display: shown, problems } = await listMetadata(metadataDir, { displayRoot });
  // Links and folders named like files are left alone, and said so.
  const result: FormatResult = { changed: [], unchanged: 0, refused: [...problems] };
  for (const relative of entries) {
    const placed = classify(relative);
    if ('problem' in placed) continue; // check reports files outside the layout
    const file = path.join(root, relative);
    const display = shown(relative);
    try {
      const { text, doc } = await readForRewrite(file, display);
      const formatted = printCanonical(doc, placed.kind, display);
      if (formatted === text) {
        result.unchanged++;
        continue;
      }
      // A file that cannot be written stops fmt (exit 2): the files before it are done.
      if (!options.check) await writeAtomically(file, formatted, display);
      result.changed.push(display);
    } catch (error) {
      if (!(error instanceof RewriteError)) throw error;
      const place = error.place ?? { file: display, line: 0, col: 0 };
      result.refused.push({ ...place, severity: 'error', rule: 'fmt/refused', message: error.detail });
    }
  }
  return result;
}
