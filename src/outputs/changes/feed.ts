// The changelog as an Atom 1.0 feed (RFC 4287), /changes.atom: an entry per record, newest first,
// its id the record's address on the archive's changelog (the same every build), dated by the
// record, titled by its summary, its content what it changed and why each correction was made.
// Every address absolute, from the build's base URL, as the API's are.

import type { PublishedRecord } from '../../changes/published.ts';
import { placesOf as recordPlaces } from '../../changes/timeline.ts';
import { SITE_NAME } from '../browser/pages/shell.ts';
import { linkFrom } from '../browser/pages/html.ts';
import { FEED_FILE } from './documents.ts';
import { ARCHIVE_FOLDER, changelogHref, folderOf, recordId } from './places.ts';
import type { Places } from './places.ts';
import { recordBody } from './record.ts';
import type { SectionLink } from './record.ts';

/** Characters XML 1.0 does not allow, even escaped (C0 controls but tab and line breaks, lone surrogates, U+FFFE, U+FFFF). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- the control characters are what it matches, to replace them
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML character data or an attribute's value: what XML cannot hold replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** A record's address: its entry on the archive's changelog. */
export function recordAddress(baseUrl: string, record: Pick<PublishedRecord, 'name'>): string {
  return `${baseUrl}/${changelogHref([], ARCHIVE_FOLDER)}#${recordId(record)}`;
}

/** Section heads link to the survey's or release's page, absolutely, where the archive still has it. */
function absoluteLinks(baseUrl: string, places: Places): SectionLink {
  return ({ survey, release }) => {
    const name = places.surveyName(survey);
    if (name === undefined || (release !== undefined && !places.hasRelease(survey, release))) return undefined;
    return `${baseUrl}/${linkFrom([], folderOf(name, release))}`;
  };
}

function entry(record: PublishedRecord, baseUrl: string, places: Places): string {
  const address = xmlText(recordAddress(baseUrl, record));
  const where = recordPlaces(record);
  const categories = [...where.releases].map((place) => {
    const [survey = '', release = ''] = place.split(/\/(.*)/s);
    return `<category term="${xmlText(place)}" label="${xmlText(places.title(Number(survey), release))}"/>`;
  });
  const content = recordBody(record, {}, places, absoluteLinks(baseUrl, places)).text;
  return [
    '<entry>',
    `<id>${address}</id>`,
    `<title type="text">${xmlText(record.summary)}</title>`,
    `<updated>${xmlText(record.date)}</updated>`,
    `<link rel="alternate" type="text/html" href="${address}"/>`,
    ...categories,
    `<content type="html">${xmlText(content)}</content>`,
    '</entry>',
  ].join('\n');
}

/**
 * The feed of the records (oldest first, as given), updated when its latest record was; with no
 * records, when the archive last was (`latest`), its alternate the site's home page.
 */
export function feedText(records: readonly PublishedRecord[], baseUrl: string, places: Places, latest: string): string {
  const self = `${baseUrl}/${FEED_FILE}`;
  const alternate = records.length > 0 ? `${baseUrl}/${changelogHref([], ARCHIVE_FOLDER)}` : `${baseUrl}/`;
  const updated = records.at(-1)?.date ?? latest;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(self)}</id>`,
    `<title type="text">${xmlText(`${SITE_NAME}: changes`)}</title>`,
    `<subtitle type="text">What changed in the archive's schema, as its change records tell it.</subtitle>`,
    `<updated>${xmlText(updated)}</updated>`,
    `<link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>`,
    `<link rel="alternate" type="text/html" href="${xmlText(alternate)}"/>`,
    `<author><name>${xmlText(SITE_NAME)}</name></author>`,
    '<generator>archive-schema</generator>',
    ...[...records].reverse().map((record) => entry(record, baseUrl, places)),
    '</feed>',
    '',
  ].join('\n');
}
