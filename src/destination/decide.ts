// Deciding what a build does to its output, without touching the disk: for every path, keep the
// previous output's file, link a file of the same bytes, write it, or remove it, each with the
// reason. `build --dry-run` prints this decision, `build --explain PATH` one step of it, and
// execute.ts carries it out.

import { sourcesOf } from '../site/plan.ts';
import type { Plan } from '../site/plan.ts';
import { proves } from './state.ts';
import type { FileRecord, PreviousOutput } from './state.ts';

/** What a build is made from: compared with the previous build's, they say why a file changed. */
export interface BuildInputs {
  /** Of the code, its schemas and the runtime (pipeline/cache.ts, pipelineFingerprint). */
  fingerprint: string;
  baseUrl: string;
  /** Each metadata file's digest key, by its path relative to the metadata folder. */
  files: Readonly<Record<string, string>>;
}

export type Step =
  /** The previous output's file at this path holds these bytes: linked into the new output. */
  | { action: 'keep'; path: string; reason: string; plan: Plan }
  /** Another file holds these bytes: this build's (`from`, written first), or the previous output's. */
  | { action: 'link'; path: string; reason: string; plan: Plan; from: string; fromPrevious: boolean }
  | { action: 'write'; path: string; reason: string; plan: Plan }
  /** In the previous output, and not in the new one. */
  | { action: 'remove'; path: string; reason: string };

export interface Decision {
  /** The plans' steps in the plans' order, then the removals by path. */
  steps: Step[];
}

/**
 * Decides each plan's step. A file of the previous output is used only when the build that wrote it
 * recorded its content key, and it still has the size and modification time recorded then: files
 * are never written over in place, so a file that kept both is the file written for that key.
 * `name` says what a metadata file is, for reasons ("catalogue group gama/dr4/StellarMasses").
 */
export function decide(
  plans: readonly Plan[],
  previous: PreviousOutput | undefined,
  inputs: BuildInputs,
  name: (relative: string) => string,
): Decision {
  const proven = provenFiles(previous);
  // Paths of this build's new output by content key, and of the previous output's proven files.
  const inNew = new Map<string, string>();
  const inPrevious = new Map<string, string>();
  for (const [file, record] of proven) if (!inPrevious.has(record.key)) inPrevious.set(record.key, file);
  const why = reasons(previous, inputs, name);
  const steps: Step[] = plans.map((plan) => {
    const step = stepOf(plan, proven.get(plan.path), inNew.get(plan.key), inPrevious.get(plan.key), why);
    if (!inNew.has(plan.key)) inNew.set(plan.key, plan.path);
    return step;
  });
  const planned = new Set(plans.map((plan) => plan.path));
  const removed = [...(previous?.present.keys() ?? [])].filter((file) => !planned.has(file)).sort();
  for (const file of removed) steps.push({ action: 'remove', path: file, reason: 'no longer built' });
  return { steps };
}

function stepOf(
  plan: Plan,
  before: FileRecord | undefined,
  twin: string | undefined,
  elsewhere: string | undefined,
  why: (plan: Plan) => string,
): Step {
  const { path } = plan;
  if (before?.key === plan.key) return { action: 'keep', path, reason: 'unchanged since the last build', plan };
  if (twin !== undefined) return { action: 'link', path, reason: `same bytes as ${twin}`, plan, from: twin, fromPrevious: false };
  if (elsewhere !== undefined) {
    const reason = `same bytes as ${elsewhere} in the previous output`;
    return { action: 'link', path, reason, plan, from: elsewhere, fromPrevious: true };
  }
  return { action: 'write', path, reason: why(plan), plan };
}

/** The previous output's files whose record proves what they hold, by path. */
function provenFiles(previous: PreviousOutput | undefined): Map<string, FileRecord> {
  const proven = new Map<string, FileRecord>();
  for (const [file, record] of Object.entries(previous?.manifest?.files ?? {}))
    if (proves(record, previous?.present.get(file))) proven.set(file, record);
  return proven;
}

/** Why a plan is written: what about the previous output, or about the inputs, makes it new. */
function reasons(previous: PreviousOutput | undefined, inputs: BuildInputs, name: (relative: string) => string): (plan: Plan) => string {
  const manifest = previous?.manifest;
  if (!previous) return () => 'no previous output';
  if (!manifest) return () => previous.unrecorded ?? 'no record of the previous output';
  const changed = changedInputs(manifest.inputs, inputs.files);
  return (plan) => {
    const record = manifest.files[plan.path];
    if (!record) return 'new file';
    const found = previous.present.get(plan.path);
    if (!found) return 'missing from the previous output';
    if (!proves(record, found)) return 'changed in the previous output since it was written';
    if (manifest.fingerprint !== inputs.fingerprint) return 'code changed (the program, its schemas or Node.js)';
    if (manifest.baseUrl !== inputs.baseUrl) return `base URL changed from ${manifest.baseUrl} to ${inputs.baseUrl}`;
    const own = sourcesOf(plan).filter((source) => changed.has(source));
    if (own.length > 0) return listed(own.map((source) => `${name(source)} ${changed.get(source) ?? 'changed'}`));
    const others = [...changed].map(([source, how]) => `${name(source)} ${how}`);
    return others.length > 0 ? `its text changed (since the last build: ${listed(others)})` : 'its text changed';
  };
}

/** The metadata files added, changed or removed between two builds' inputs, each with which. */
function changedInputs(before: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): Map<string, string> {
  const changed = new Map<string, string>();
  for (const [file, key] of Object.entries(now)) {
    if (before[file] === undefined) changed.set(file, 'added');
    else if (before[file] !== key) changed.set(file, 'changed');
  }
  for (const file of Object.keys(before)) if (now[file] === undefined) changed.set(file, 'removed');
  return new Map([...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** "a", "a and b", or "a, b and 3 more". */
function listed(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, 2).join(', ')} and ${items.length - 2} more`;
}
