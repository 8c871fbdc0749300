// The change records as JSON, /changes.json, for tools (a TAP service that wants to know which
// tables to reload): each record newest first, with its address on the changelog and every change
// as the record keeps it, fields old and new and the reason of a correction. Outside the API's
// paths: the API's answers do not change.

import type { PublishedRecord } from '../../changes/published.ts';
import { changeEntry } from '../../changes/report.ts';
import { FEED_FILE } from './documents.ts';
import { ARCHIVE_FOLDER, changelogHref } from './places.ts';
import { recordAddress } from './feed.ts';

/** The records (oldest first, as given) as JSON text: compact, keys in a fixed order. */
export function recordsJson(records: readonly PublishedRecord[], baseUrl: string): string {
  const listed = [...records].reverse().map((record) => ({
    name: record.name,
    url: recordAddress(baseUrl, record),
    date: record.date,
    summary: record.summary,
    ...(record.commit === undefined ? {} : { commit: record.commit }),
    changes: record.changes.map((change) => ({
      ...changeEntry(change),
      ...(change.correction ? { correction: { reason: change.correction.reason } } : {}),
    })),
  }));
  const document = {
    changelog: records.length > 0 ? `${baseUrl}/${changelogHref([], ARCHIVE_FOLDER)}` : null,
    feed: `${baseUrl}/${FEED_FILE}`,
    records: listed,
  };
  return `${JSON.stringify(document)}\n`;
}
