// Every output the build writes, one record each (output.ts), in the order they are planned: an
// output that needs another's files comes after it. Adding an output is a folder holding its record
// and one line here (docs/architecture.md shows one added).

import type { KindType } from '../kinds/registry.ts';
import type { Plan } from '../site/plan.ts';
import { joinHtml } from './html.ts';
import { api } from './api/index.ts';
import { browsable } from './browsable/index.ts';
import { browser } from './browser/index.ts';
import { browserZip } from './browser-zip/index.ts';
import { changes } from './changes/index.ts';
import { checksums } from './checksums/index.ts';
import { download } from './download/index.ts';
import { openapi } from './openapi/index.ts';
import { EARLIER_OUTPUTS } from './output.ts';
import type { Output, OutputFiles, PageNode, PageNotes, PlanInput, ReferenceInput, UnitTextDeclaration } from './output.ts';

export const OUTPUTS: readonly Output[] = [api, browser, changes, browserZip, browsable, download, openapi, checksums];

/** The texts every output declares for a kind of file, rendered once per file in the digest step. */
export function unitTextsOf(kind: KindType): UnitTextDeclaration[] {
  return OUTPUTS.flatMap((output) => output.texts ?? []).filter((text) => text.kinds.includes(kind));
}

/** The names of the outputs an output needs, EARLIER_OUTPUTS standing for every output before it. */
function needsOf(output: Output): string[] {
  const before = OUTPUTS.slice(0, OUTPUTS.indexOf(output)).map((o) => o.name);
  return (output.needs ?? []).flatMap((name) => (name === EARLIER_OUTPUTS ? before : [name]));
}

/** The files of the outputs needed, by name, EARLIER_OUTPUTS giving every earlier output's in the registry's order. */
function neededFrom<T>(output: Output, files: (name: string) => readonly T[]): (name: string) => readonly T[] {
  return (name) => (name === EARLIER_OUTPUTS ? needsOf(output).flatMap(files) : files(name));
}

/** What every output adds to the browser's pages, together; undefined when none adds anything. */
function pageNotesOf(input: ReferenceInput): PageNotes | undefined {
  const all = OUTPUTS.flatMap((output) => output.pageNotes?.(input) ?? []);
  if (all.length === 0) return undefined;
  if (all.length === 1) return all[0];
  return {
    links: all.flatMap((notes) => notes.links),
    note: (node: PageNode, from: readonly string[]) =>
      joinHtml(
        all.map((notes) => notes.note(node, from)),
        '',
      ),
  };
}

/**
 * Every output's plans, in the registry's order: each planned as soon as the outputs it needs are,
 * so that one whose planning waits on other work (the zip's members, deflated on the thread pool)
 * goes on while the next are planned. `each` may add to an output's plans (its precompressed copies).
 * Every planner is given what the outputs add to the browser's pages (pageNotes).
 */
export async function planOutputs(given: PlanInput, each: (plans: Plan[]) => Plan[] = (plans) => plans): Promise<Plan[]> {
  const pageNotes = pageNotesOf(given);
  const input = pageNotes ? { ...given, pageNotes } : given;
  const planned = new Map<string, Promise<Plan[]>>();
  const done = new Map<string, Plan[]>();
  for (const output of OUTPUTS) {
    const needs = needsOf(output);
    for (const name of needs) if (!planned.has(name)) throw new Error(`${output.name} needs ${name}, which is not planned before it`);
    const needed = neededFrom(output, (name) => done.get(name) ?? []);
    const run = (): Promise<Plan[]> => {
      const made = output.plan(input, needed);
      if (Array.isArray(made)) {
        done.set(output.name, made);
        return Promise.resolve(made);
      }
      return made.then((plans) => {
        done.set(output.name, plans);
        return plans;
      });
    };
    // Planned now when what it needs is planned already: its first work starts before the next output's.
    const waits = needs.map((name) => planned.get(name) ?? Promise.resolve([]));
    const plans = needs.every((name) => done.has(name)) ? run() : Promise.all(waits).then(run);
    // A failure is reported where the plans are awaited, below.
    plans.catch(() => undefined);
    planned.set(output.name, plans);
  }
  const all = await Promise.all(OUTPUTS.map((output) => planned.get(output.name) ?? Promise.resolve([])));
  return all.flatMap(each);
}

/** Every output's files made the straightforward way, in the registry's order. */
export function referenceOutputs(given: ReferenceInput): OutputFiles {
  const pageNotes = pageNotesOf(given);
  const input = pageNotes ? { ...given, pageNotes } : given;
  const made = new Map<string, [string, string | Uint8Array][]>();
  for (const output of OUTPUTS)
    made.set(output.name, [
      ...output.reference(
        input,
        neededFrom(output, (name) => made.get(name) ?? []),
      ),
    ]);
  return new Map(OUTPUTS.flatMap((output) => made.get(output.name) ?? []));
}
