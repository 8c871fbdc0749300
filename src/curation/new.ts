// `new`: scaffolds a survey, release, catalogue group or imaging facility file in its place in
// the tree, with the next free id, the current time, the parent's contact and the schema comment
// editors use; the curator fills in what only a person knows.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Document, isMap, isScalar } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';
import type { ContactYaml, ReleaseYaml } from '../kinds/data.ts';
import { KINDS, KIND_TYPES, childrenOf, classify, fileOf } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { nextIds } from '../pipeline/assemble.ts';
import { loadMetadata, parseFile } from '../pipeline/parse.ts';
import type { MetadataFile } from '../pipeline/parse.ts';
import { SCHEMA_FILES, validateFiles } from '../pipeline/validate.ts';
import { RewriteError, exists, printCanonical, writeAtomically } from './rewrite.ts';

/** The word after `new` for each kind that has a scaffold: survey, release, group, facility. */
export const SCAFFOLDS = new Map(
  KIND_TYPES.flatMap((type) => {
    const command = KINDS[type].scaffold?.command;
    return command && KINDS[type].file ? [[command, type] as const] : [];
  }),
);

export interface ScaffoldOptions {
  metadataDir: string;
  displayRoot: string;
  now: string;
  /** Values given on the command line; anything left out is left for the curator. */
  fields: {
    prettyName?: string;
    title?: string;
    description?: string;
    pi?: string;
    website?: string;
    contact?: string;
    version?: string;
  };
}

export interface ScaffoldResult {
  file: string;
  id?: number;
  /** What the curator still has to fill in: check's errors for the new file. */
  todo: Diagnostic[];
}

/** `Name <email>` or a bare address, as curators and the old ingestion files write contacts. */
export function parseContact(text: string): ContactYaml {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  if (m) return { name: m[1] ?? '', email: m[2] ?? '' };
  return { name: '', email: text.trim() };
}

/** The names a kind's path argument gives, in order: survey, then release, then the file's own name. */
function namesIn(path: readonly string[]): string[] {
  return path.flatMap((part) => /\{(\w+)\}/.exec(part)?.slice(1, 2) ?? []);
}

/** What the file starts with; the keys a person must fill in are left empty or out. */
type Starter = (names: { survey: string; release: string; name: string }, context: StarterContext) => Record<string, unknown>;

interface StarterContext {
  fields: ScaffoldOptions['fields'];
  now: string;
  contact: ContactYaml;
  ids: Record<KindType, number>;
  loaded: MetadataFile[];
}

const SURVEY: Starter = ({ survey }, { fields: f, contact, ids }) => ({
  id: ids.Survey,
  name: survey,
  pretty_name: f.prettyName ?? survey.toUpperCase(),
  title: f.title ?? '',
  description: f.description ?? '',
  pi: f.pi ?? '',
  contact,
  website: f.website ?? '',
  active: true,
});

const RELEASE: Starter = ({ survey, release }, { fields: f, contact, now, loaded }) => {
  const numbered = /^dr(\d+)$/i.exec(release);
  const taken = loaded
    .filter((x) => x.kind === 'DataRelease' && x.placement.survey === survey)
    .map((x) => (x.data as ReleaseYaml | null)?.data_release_number)
    .filter((n): n is number => typeof n === 'number');
  const number = numbered ? Number(numbered[1]) : Math.max(0, ...taken) + 1;
  if (f.version !== undefined && !Number.isFinite(Number(f.version))) {
    throw new RewriteError(`--version ${f.version}: a release's version is a number, for example 2.1`);
  }
  return {
    name: release,
    pretty_name: f.prettyName ?? (numbered ? `Data Release ${number}` : release),
    version: f.version !== undefined ? Number(f.version) : number,
    data_release_number: number,
    contact,
    created: now,
    updated: now,
  };
};

/** A release's file of one data type (a catalogue group, an imaging facility): the same for every kind of them. */
function rootStarter(kind: KindType): Starter {
  return ({ name }, { fields: f, contact, now, ids }) => ({
    id: ids[kind],
    name,
    ...(f.prettyName !== undefined ? { pretty_name: f.prettyName } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
    ...(f.version !== undefined ? { version: f.version } : {}),
    contact,
    created: now,
    updated: now,
    ...Object.fromEntries(childrenOf(kind).map((child) => [child.key, []])),
  });
}

function starterFor(kind: KindType): Starter {
  if (kind === 'Survey') return SURVEY;
  if (kind === 'DataRelease') return RELEASE;
  return rootStarter(kind);
}

export async function scaffold(command: string, target: string, options: ScaffoldOptions): Promise<ScaffoldResult> {
  const kind = SCAFFOLDS.get(command);
  const declared = kind ? KINDS[kind] : undefined;
  if (!kind || !declared?.file || !declared.scaffold)
    throw new RewriteError(`there is no scaffold for "${command}"; new takes ${[...SCAFFOLDS.keys()].join(', ')}`);
  const wanted = namesIn(declared.file.path);
  const parts = target.split('/').filter(Boolean);
  if (parts.length !== wanted.length) {
    const shape = wanted.map((n) => (n === 'name' ? declared.label : n).toUpperCase()).join('/');
    throw new RewriteError(`new ${command} takes ${shape}, for example ${declared.scaffold.example}; got "${target}"`);
  }
  const named = Object.fromEntries(wanted.map((n, i) => [n, parts[i] ?? '']));
  const names = { survey: named.survey ?? '', release: named.release ?? '', name: named.name ?? parts[parts.length - 1] ?? '' };
  const root = path.resolve(options.metadataDir);
  const relative = fileOf(kind, names);
  const file = path.join(root, relative);
  const display = path.relative(options.displayRoot, file).split(path.sep).join('/');
  if (await exists(file)) throw new RewriteError(`${display} already exists; edit it instead`);

  const loaded = await loadMetadata(root, { displayRoot: options.displayRoot });
  const find = (rel: string): MetadataFile | undefined => loaded.files.find((f) => f.relative === rel);
  const survey = find(fileOf('Survey', { survey: names.survey, name: names.survey }));
  const release = find(fileOf('DataRelease', { survey: names.survey, release: names.release, name: names.release }));
  if (kind !== 'Survey' && !survey) {
    throw new RewriteError(
      `there is no survey ${names.survey} (${names.survey}/survey.yaml); create it first with: archive-schema new survey ${names.survey}`,
    );
  }
  if (kind !== 'Survey' && kind !== 'DataRelease' && !release) {
    throw new RewriteError(
      `there is no release ${names.survey}/${names.release}; create it first with: archive-schema new release ${names.survey}/${names.release}`,
    );
  }
  const f = options.fields;
  // The parent's contact: a release takes its survey's, anything in a release the release's.
  const parent = kind === 'DataRelease' ? survey : release;
  const contact =
    f.contact !== undefined
      ? parseContact(f.contact)
      : ((parent?.data as { contact?: ContactYaml } | undefined)?.contact ?? { name: '', email: '' });
  const ids = nextIds(loaded.files);
  const data = starterFor(kind)(names, { fields: f, now: options.now, contact, ids, loaded: loaded.files });
  const id = declared.ids ? ids[kind] : undefined;
  const placed = classify(relative);
  if ('problem' in placed) throw new RewriteError(`${display}: ${placed.problem}`);
  const doc = new Document(data);
  const depth = relative.split('/').length - 1;
  // On the first key rather than the document, so no blank line follows it (as in every file).
  const first = isMap(doc.contents) ? doc.contents.items[0] : undefined;
  if (first && isScalar(first.key))
    first.key.commentBefore = ` yaml-language-server: $schema=${'../'.repeat(depth + 1)}schemas/${SCHEMA_FILES[kind]}`;
  const text = printCanonical(doc, kind, display);

  // Names must be usable before anything is written; values left empty are the curator's to-do.
  const parsed = parseFile(display, text);
  if (!parsed.file)
    throw new RewriteError(`${display}: the scaffold would not parse; nothing was written. This is a bug in archive-schema.`);
  const todo = validateFiles([{ ...parsed.file, relative, kind, placement: placed.placement }]).diagnostics;
  const badName = todo.find((d) => d.message.startsWith('name '));
  if (badName) throw new RewriteError(`${display}: ${badName.message}; nothing was written`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, text, display);
  return { file: display, ...(id !== undefined ? { id } : {}), todo };
}
