// archive.json: the whole archive in one document, every survey as its own route gives it (the
// same bytes), inside an envelope with the schema version, the instant the data was last updated
// and the number of nodes of each kind; and archive.json.gz, the same text as gzip members.

import { createHash } from 'node:crypto';
import { detailFile } from '../../site/routes.ts';
import { KIND_TYPES, SECTIONS } from '../../kinds/registry.ts';
import { rootsOf } from '../../pipeline/assemble.ts';
import type { Archive } from '../../pipeline/assemble.ts';
import { jsonParts } from '../api/plan.ts';
import type { JsonPart } from '../api/plan.ts';
import { encodeJson } from '../api/encode.ts';
import { compactPiece, textPiece } from '../../site/fragment.ts';
import type { Fragment } from '../../site/fragment.ts';
import { instant } from '../api/objects.ts';
import type { Piece } from '../../site/plan.ts';
import type { PlanInput } from '../output.ts';
import { gzipMember } from '../../site/compression.ts';

/** The version of archive.json's envelope; the survey objects are the API's own. */
export const ARCHIVE_SCHEMA_VERSION = '1.0';

/** A survey route's text: strings and the fragments spliced between them. */
export type Part = JsonPart;

/** The envelope's fields before the surveys, from the archive and its files' censuses. */
function envelopeHead(archive: Archive, censuses: readonly Pick<Fragment, 'counts' | 'latest'>[]): string {
  const counts: Record<string, number> = Object.fromEntries(KIND_TYPES.map((type) => [type, 0]));
  let latest = '';
  const later = (updated: string) => {
    if (updated > latest) latest = updated;
  };
  for (const survey of archive.surveys) {
    counts.Survey = (counts.Survey ?? 0) + 1;
    for (const release of survey.releases) {
      counts.DataRelease = (counts.DataRelease ?? 0) + 1;
      later(instant(release.data.updated));
    }
  }
  for (const census of censuses) {
    for (const [type, n] of Object.entries(census.counts)) counts[type] = (counts[type] ?? 0) + n;
    later(census.latest);
  }
  const head = encodeJson({ schema_version: ARCHIVE_SCHEMA_VERSION, generated: latest || null, counts, surveys: [] });
  // Up to the surveys' list, which the parts open.
  return head.slice(0, -3);
}

/**
 * The parts of archive.json: the envelope, then each survey's route text (detail, no data type,
 * no format), its groups and facilities as their fragments.
 */
export function archiveParts(input: PlanInput): Part[] {
  const { archive, fragments } = input;
  const answers = jsonParts(input);
  const surveys = archive.surveys.map((s) => {
    const parts = answers.get(detailFile(s.data.id, null, null));
    if (!parts) throw new Error(`no route planned for survey ${s.data.id}`);
    return parts;
  });
  const censuses = archive.surveys.flatMap((survey) =>
    survey.releases.flatMap((release) =>
      SECTIONS.flatMap((section) => rootsOf(release, section.kind).flatMap((entry) => fragments.get(entry.file.relative) ?? [])),
    ),
  );
  const parts: Part[] = [envelopeHead(archive, censuses), '['];
  surveys.forEach((survey, i) => parts.push(...(i > 0 ? [','] : []), ...survey));
  parts.push(']}\n');
  return merged(parts);
}

/** Adjacent strings joined, empty ones dropped: each string run is one gzip member. */
function merged(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part;
    else if (part !== '') out.push(part);
  }
  return out;
}

/** archive.json's pieces. */
export function archiveJsonPieces(parts: readonly Part[]): Piece[] {
  return parts.map((part) => (typeof part === 'string' ? part : compactPiece(part)));
}

/** archive.json.gz's pieces: a member per string run (compressed here) and per fragment (cached). */
export function archiveGzipPieces(parts: readonly Part[]): Piece[] {
  return parts.map((part) => {
    if (typeof part !== 'string') return textPiece(part, 'json.gz');
    const bytes = gzipMember(Buffer.from(part, 'utf8'));
    return { bytes, key: `gz:${createHash('sha256').update(part).digest('hex')}`, shift: 0, breaks: 0 };
  });
}
