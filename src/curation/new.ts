// `new`: scaffolds a survey, release, catalogue group or imaging facility file in its place in
// the tree, with the next free id, the current time, the parent's contact and the schema comment
// editors use; the curator fills in what only a person knows.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Document, isMap, isScalar } from 'yaml';
import type { Diagnostic } from '../diagnostics.ts';
import { classify, loadMetadata, parseFile } from '../pipeline/load.ts';
import type { FileKind, MetadataFile } from '../pipeline/load.ts';
import { RewriteError, printCanonical, writeAtomically } from './rewrite.ts';
import { nextIds } from '../pipeline/assemble.ts';
import type { ContactYaml, ReleaseYaml, SurveyYaml } from '../pipeline/assemble.ts';
import { SCHEMA_FILES, validateFiles } from '../pipeline/validate.ts';
import { exists } from '../destination/write.ts';

export type ScaffoldKind = 'survey' | 'release' | 'group' | 'facility';

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

const KIND_OF: Record<ScaffoldKind, FileKind> = {
  survey: 'survey',
  release: 'release',
  group: 'catalogue-group',
  facility: 'imaging-facility',
};

const PARTS: Record<ScaffoldKind, number> = { survey: 1, release: 2, group: 3, facility: 3 };

/** `Name <email>` or a bare address, as curators and the old ingestion files write contacts. */
export function parseContact(text: string): ContactYaml {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  if (m) return { name: m[1] ?? '', email: m[2] ?? '' };
  return { name: '', email: text.trim() };
}

function relativeFor(kind: ScaffoldKind, parts: string[]): string {
  const [survey, release, name] = parts;
  if (kind === 'survey') return `${survey}/survey.yaml`;
  if (kind === 'release') return `${survey}/${release}/release.yaml`;
  return `${survey}/${release}/${kind === 'group' ? 'catalogues' : 'imaging'}/${name}.yaml`;
}

export async function scaffold(kind: ScaffoldKind, target: string, options: ScaffoldOptions): Promise<ScaffoldResult> {
  const parts = target.split('/').filter(Boolean);
  if (parts.length !== PARTS[kind]) {
    const shapes: Record<ScaffoldKind, string> = { survey: 'SURVEY', release: 'SURVEY/RELEASE', group: 'SURVEY/RELEASE/GROUP', facility: 'SURVEY/RELEASE/FACILITY' };
    throw new RewriteError(`new ${kind} takes ${shapes[kind]}, for example ${{ survey: 'gama', release: 'gama/dr5', group: 'gama/dr5/SpecCat', facility: 'gama/dr5/VST' }[kind]}; got "${target}"`);
  }
  const root = path.resolve(options.metadataDir);
  const relative = relativeFor(kind, parts);
  const file = path.join(root, relative);
  const display = path.relative(options.displayRoot, file).split(path.sep).join('/');
  if (await exists(file)) throw new RewriteError(`${display} already exists; edit it instead`);

  const loaded = await loadMetadata(root, { displayRoot: options.displayRoot });
  const find = (rel: string): MetadataFile | undefined => loaded.files.find((f) => f.relative === rel);
  const [surveyName = '', releaseName = '', name = ''] = parts;
  const survey = find(`${surveyName}/survey.yaml`);
  const release = find(`${surveyName}/${releaseName}/release.yaml`);
  if (kind !== 'survey' && !survey) {
    throw new RewriteError(`there is no survey ${surveyName} (${surveyName}/survey.yaml); create it first with: archive-schema new survey ${surveyName}`);
  }
  if ((kind === 'group' || kind === 'facility') && !release) {
    throw new RewriteError(`there is no release ${surveyName}/${releaseName}; create it first with: archive-schema new release ${surveyName}/${releaseName}`);
  }
  const ids = nextIds(loaded.files);
  const f = options.fields;
  const contact = f.contact !== undefined
    ? parseContact(f.contact)
    : ((kind === 'release' ? (survey?.data as SurveyYaml | undefined)?.contact : (release?.data as ReleaseYaml | undefined)?.contact) ?? { name: '', email: '' });
  let data: Record<string, unknown>;
  let id: number | undefined;
  if (kind === 'survey') {
    id = ids.Survey;
    data = {
      id,
      name: surveyName,
      pretty_name: f.prettyName ?? surveyName.toUpperCase(),
      title: f.title ?? '',
      description: f.description ?? '',
      pi: f.pi ?? '',
      contact,
      website: f.website ?? '',
      active: true,
    };
  } else if (kind === 'release') {
    const numbered = /^dr(\d+)$/i.exec(releaseName);
    const taken = loaded.files
      .filter((x) => x.kind === 'release' && x.placement.survey === surveyName)
      .map((x) => (x.data as ReleaseYaml | null)?.data_release_number)
      .filter((n): n is number => typeof n === 'number');
    const number = numbered ? Number(numbered[1]) : Math.max(0, ...taken) + 1;
    if (f.version !== undefined && !Number.isFinite(Number(f.version))) {
      throw new RewriteError(`--version ${f.version}: a release's version is a number, for example 2.1`);
    }
    data = {
      name: releaseName,
      pretty_name: f.prettyName ?? (numbered ? `Data Release ${number}` : releaseName),
      version: f.version !== undefined ? Number(f.version) : number,
      data_release_number: number,
      contact,
      created: options.now,
      updated: options.now,
    };
  } else {
    id = kind === 'group' ? ids.CatalogueGroup : ids.ImagingFacility;
    data = {
      id,
      name,
      ...(f.prettyName !== undefined ? { pretty_name: f.prettyName } : {}),
      ...(f.description !== undefined ? { description: f.description } : {}),
      ...(f.version !== undefined ? { version: f.version } : {}),
      contact,
      created: options.now,
      updated: options.now,
      [kind === 'group' ? 'tables' : 'bands']: [],
    };
  }
  const fileKind = KIND_OF[kind];
  const placed = classify(relative);
  if ('problem' in placed) throw new RewriteError(`${display}: ${placed.problem}`);
  const doc = new Document(data);
  const depth = relative.split('/').length - 1;
  // On the first key rather than the document, so no blank line follows it (as in every file).
  const first = isMap(doc.contents) ? doc.contents.items[0] : undefined;
  if (first && isScalar(first.key)) first.key.commentBefore = ` yaml-language-server: $schema=${'../'.repeat(depth + 1)}schemas/${SCHEMA_FILES[fileKind]}`;
  const text = printCanonical(doc, fileKind, display);

  // Names must be usable before anything is written; values left empty are the curator's to-do.
  const parsed = parseFile(display, text);
  if (!parsed.file) throw new RewriteError(`${display}: the scaffold would not parse; nothing was written. This is a bug in archive-schema.`);
  const todo = validateFiles([{ ...parsed.file, relative, kind: fileKind, placement: placed.placement }]).diagnostics;
  const badName = todo.find((d) => d.message.startsWith('name '));
  if (badName) throw new RewriteError(`${display}: ${badName.message}; nothing was written`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, text);
  return { file: display, ...(id !== undefined ? { id } : {}), todo };
}
