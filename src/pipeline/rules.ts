// Cross-file rules that a JSON Schema cannot express: names that match their files, ids unique
// per kind across the archive, sibling names unique, timestamps in order (a node may inherit
// created or updated from its parent). Checks of single values live in the schema pass.
// Each rule is a small function named as the assertion it makes, pushing into one list.

import { Quota, leftOut } from '../diagnostics.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { compareInstants, isInstant, parseInstant } from '../vocabularies/instant.ts';
import type { MetadataFile, PathSegment } from './parse.ts';
import { KINDS, namedBy } from '../kinds/registry.ts';
import type { KindType } from '../kinds/registry.ts';
import { walkNodes } from './assemble.ts';
import type { Archive, NodeVisit } from './assemble.ts';

type Report = (file: MetadataFile, pointer: readonly PathSegment[], rule: string, message: string, at?: 'key' | 'value') => void;

export function checkRules(archive: Archive, files: readonly MetadataFile[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  // A hundred of each rule in each file are located and listed; the rest are counted.
  const quota = new Quota<() => Diagnostic>();
  const report: Report = (file, pointer, rule, message, at = 'value') => {
    const describe = (): Diagnostic => ({ file: file.display, ...file.locate(pointer, at), severity: 'error', rule, message });
    if (quota.admit(`${file.display}\0${rule}`, describe)) diagnostics.push(describe());
  };
  const nodes = [...walkNodes(archive)];
  namesMatchTheirFiles(files, report);
  surveyIdsAreUnique(archive, report);
  nodeIdsAreUniquePerKind(nodes, report);
  siblingNamesAreUnique(archive, nodes, report);
  releaseNumbersAreUniquePerSurvey(archive, report);
  updatedIsNotBeforeCreated(archive, nodes, report);
  retiredIdsAreNeverReused(archive, nodes, report);
  for (const { first, count } of quota.leftOut()) diagnostics.push(leftOut(first(), count));
  return diagnostics;
}

function namesMatchTheirFiles(files: readonly MetadataFile[], report: Report): void {
  for (const file of files) {
    const declared = file.kind === 'Retired' ? undefined : KINDS[file.kind];
    const expected = file.placement.name;
    const name = (file.data as { name: string }).name;
    if (!declared?.file || expected === undefined || name === expected) continue;
    const message =
      namedBy(declared.file) === 'folder'
        ? `${declared.word} name "${name}" differs from its folder "${expected}"; rename the folder or the name so they agree`
        : `${declared.word} name "${name}" differs from its file name "${expected}.yaml"; rename the file to ${name}.yaml or change the name`;
    report(file, ['name'], 'layout/name-mismatch', message);
  }
}

function surveyIdsAreUnique(archive: Archive, report: Report): void {
  const first = new Map<number, MetadataFile>();
  const next = Math.max(0, ...archive.surveys.map((s) => s.data.id)) + 1;
  for (const survey of archive.surveys) {
    const seen = first.get(survey.data.id);
    if (seen) {
      report(
        survey.file,
        ['id'],
        'ids/unique',
        `survey id ${survey.data.id} is already used by ${seen.display}; survey ids are unique across the archive (the next free one is ${next})`,
      );
    } else {
      first.set(survey.data.id, survey.file);
    }
  }
}

function nodeIdsAreUniquePerKind(nodes: readonly NodeVisit[], report: Report): void {
  // A map per kind keyed by the number: no key strings for a hundred thousand columns.
  const first = new Map<KindType, Map<number, NodeVisit>>();
  const highest = new Map<KindType, number>();
  for (const n of nodes) highest.set(n.kind, Math.max(highest.get(n.kind) ?? 0, n.node.id));
  for (const n of nodes) {
    let ids = first.get(n.kind);
    if (!ids) first.set(n.kind, (ids = new Map<number, NodeVisit>()));
    const seen = ids.get(n.node.id);
    if (!seen) {
      ids.set(n.node.id, n);
      continue;
    }
    const where = `${seen.file.display}:${seen.file.locate([...seen.pointer, 'id']).line}`;
    const word = KINDS[n.kind].word;
    report(
      n.file,
      [...n.pointer, 'id'],
      'ids/unique',
      `${word} id ${n.node.id} is already used by ${word} "${seen.node.name}" (${where}); ids are unique per kind across the archive (the next free one is ${(highest.get(n.kind) ?? 0) + 1})`,
    );
  }
}

function siblingNamesAreUnique(archive: Archive, nodes: readonly NodeVisit[], report: Report): void {
  // Names are compared within their parent: a map of names per parent object (the parent node,
  // or for groups and facilities their release and kind), holding where each name first stood.
  // Places are kept as they came (a node's pointer is worked out only if it is reported).
  interface Place {
    file: MetadataFile;
    pointer: readonly PathSegment[];
  }
  const scopes = new Map<object, Map<string, { place: Place; name: string }>>();
  // Names of files (surveys, releases, groups, facilities) are compared without regard to case: two
  // files named so collide on macOS and Windows, and VO table names (which hold a group's) ignore case.
  const check = (scope: object, place: Place, name: string, what: string, isFile = false) => {
    let names = scopes.get(scope);
    if (!names) scopes.set(scope, (names = new Map<string, { place: Place; name: string }>()));
    const key = isFile ? name.toLowerCase() : name;
    const seen = names.get(key);
    if (seen !== undefined) {
      const previous = seen.place;
      const where = `${previous.file.display}:${previous.file.locate([...previous.pointer, 'name']).line}`;
      const used = seen.name === name ? `is already used by a sibling` : `differs only in case from its sibling "${seen.name}"`;
      report(
        place.file,
        [...place.pointer, 'name'],
        'names/unique',
        `${what} name "${name}" ${used} (${where}); names are unique within their parent${isFile ? ', whatever their case' : ''}`,
      );
    } else {
      names.set(key, { place, name });
    }
  };
  const surveys = {};
  for (const survey of archive.surveys) {
    check(surveys, { file: survey.file, pointer: [] }, survey.data.name, KINDS.Survey.word, true);
    for (const release of survey.releases)
      check(survey, { file: release.file, pointer: [] }, release.data.name, KINDS.DataRelease.word, true);
  }
  // A release's files of one kind are siblings: each kind's list of the release is its scope.
  for (const n of nodes) check(n.parent ?? n.release.roots[n.kind] ?? n.release, n, n.node.name, KINDS[n.kind].word, !n.parent);
}

function releaseNumbersAreUniquePerSurvey(archive: Archive, report: Report): void {
  for (const survey of archive.surveys) {
    const seen = new Map<number, string>();
    for (const release of survey.releases) {
      const number = release.data.data_release_number;
      const previous = seen.get(number);
      if (previous !== undefined) {
        report(
          release.file,
          ['data_release_number'],
          'names/unique',
          `data_release_number ${number} is already used by release "${previous}" of survey "${survey.data.name}"; give each release its own number`,
        );
      } else {
        seen.set(number, release.data.name);
      }
    }
  }
}

function updatedIsNotBeforeCreated(archive: Archive, nodes: readonly NodeVisit[], report: Report): void {
  const inOrder = (
    file: MetadataFile,
    pointer: readonly PathSegment[],
    created: string,
    updated: string,
    ownCreated: boolean,
    ownUpdated: boolean,
    label: string,
  ) => {
    // Only where one of the two is written here: an inherited pair was checked on the parent.
    if (!ownCreated && !ownUpdated) return;
    const c = parseInstant(created);
    const u = parseInstant(updated);
    if (isInstant(c) && isInstant(u) && compareInstants(u, c) < 0) {
      const at = ownUpdated ? [...pointer, 'updated'] : [...pointer, 'created'];
      report(
        file,
        at,
        'timestamps/order',
        `${label} is updated ${updated}, before it was created ${created}; updated must not be earlier than created`,
      );
    }
  };
  for (const survey of archive.surveys) {
    for (const release of survey.releases) {
      inOrder(release.file, [], release.data.created, release.data.updated, true, true, `${KINDS.DataRelease.word} "${release.data.name}"`);
    }
  }
  for (const n of nodes) {
    inOrder(
      n.file,
      n.pointer,
      n.created,
      n.updated,
      n.node.created !== undefined,
      n.node.updated !== undefined,
      `${KINDS[n.kind].word} "${n.node.name}"`,
    );
  }
}

function retiredIdsAreNeverReused(archive: Archive, nodes: readonly NodeVisit[], report: Report): void {
  const retired = archive.retired;
  if (!retired) return;
  const listed = new Map<string, number>();
  retired.entries.forEach((entry, index) => {
    const key = `${entry.kind}:${entry.id}`;
    const previous = listed.get(key);
    if (previous !== undefined) {
      report(
        retired.file,
        ['retired', index, 'id'],
        'ids/retired',
        `${entry.kind} ${entry.id} is listed twice (also entry ${previous + 1}); keep one entry`,
      );
    } else {
      listed.set(key, index);
    }
  });
  const where = (key: string) => `${retired.file.display}:${retired.file.locate(['retired', listed.get(key) ?? 0]).line}`;
  for (const survey of archive.surveys) {
    const key = `Survey:${survey.data.id}`;
    if (listed.has(key)) {
      report(
        survey.file,
        ['id'],
        'ids/retired',
        `survey id ${survey.data.id} was retired (${where(key)}) and is never used again; choose a new id`,
      );
    }
  }
  for (const n of nodes) {
    const key = `${n.kind}:${n.node.id}`;
    if (listed.has(key)) {
      report(
        n.file,
        [...n.pointer, 'id'],
        'ids/retired',
        `${KINDS[n.kind].word} id ${n.node.id} was retired (${where(key)}) and is never used again; choose a new id`,
      );
    }
  }
}
