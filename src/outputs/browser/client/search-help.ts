// The search help's examples, taken from the archive the site was built from, so that each one
// finds something here: a piece of a column's name, the commonest UCD word, unit and datatype, a
// survey, and a kind other than catalogues. Chosen the same way from the same data every time.

import type { Index } from './search-index.ts';

export interface HelpExamples {
  /** Part of a column's name, and that name, which the part finds. */
  part?: { part: string; name: string };
  ucd?: string;
  /** As typed in the box: quoted when it has a space. */
  unit?: string;
  /** The commonest unit with a space, as it is written: quoted, or not. */
  spacedUnit?: string;
  type?: string;
  survey?: string;
  release?: string;
  kind?: string;
}

export function helpExamples(index: Index): HelpExamples {
  const columns = index.items.filter((i) => i.type === 'column');
  const examples: HelpExamples = {};
  // The first column whose name, after its first `_`, goes on for three or more characters: that end
  // finds it (as `r_err` finds `flux_r_err`).
  for (const c of columns) {
    const at = c.name.indexOf('_');
    if (at > 0 && c.name.length - at - 1 >= 3) {
      examples.part = { part: c.name.slice(at + 1), name: c.name };
      break;
    }
  }
  examples.ucd = commonest(columns.flatMap((c) => c.ucdKey.split(';').filter((w) => w !== '')));
  const units = columns.map((c) => c.unit.toLowerCase()).filter((u) => u !== '');
  const unit = commonest(units);
  if (unit !== undefined) examples.unit = /\s/.test(unit) ? `"${unit}"` : unit;
  examples.spacedUnit = commonest(units.filter((u) => /\s/.test(u)));
  examples.type = commonest(columns.map((c) => c.typeKey.trim().split(' ').pop() ?? '').filter((t) => t !== ''));
  examples.survey = index.surveys[0]?.name.toLowerCase();
  examples.release = index.surveys[0]?.releases[0]?.name.toLowerCase();
  examples.kind = index.items.find((i) => i.kind !== 'catalogues')?.kind;
  return examples;
}

/** The value given most often; of those given as often, the first given. */
function commonest(values: readonly string[]): string | undefined {
  // A map keeps its keys in the order they were first set.
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  let most = 0;
  for (const [v, n] of counts) {
    if (n > most) {
      best = v;
      most = n;
    }
  }
  return best;
}
