// ISO 8601 instants as curators write them (any zone, extended or basic form, any fraction)
// and as the API publishes them: UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ, always six fractional digits.

export interface Instant {
  /** Milliseconds since the epoch, whole. */
  epochMs: number;
  /** Microseconds within the millisecond, 0 to 999. */
  micro: number;
}

const EXTENDED = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;
const BASIC = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(?:(\d{2})(?:(\d{2})(?:[.,](\d+))?)?)?([Zz]|[+-]\d{2}(?:\d{2})?)$/;

/** Parses an instant; returns a reason instead when the text is not a real ISO 8601 instant. */
export function parseInstant(text: string): Instant | { problem: string } {
  const m = EXTENDED.exec(text) ?? BASIC.exec(text);
  if (!m) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      return { problem: `has a date but no time and zone; write ${text}T00:00:00Z for midnight UTC` };
    }
    if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) {
      return { problem: 'has no zone; add Z for UTC or an offset such as +10:00' };
    }
    return { problem: 'is not an ISO 8601 instant; write it like 2020-07-01T00:00:00Z' };
  }
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi ?? '0');
  const second = Number(s ?? '0');
  if (month < 1 || month > 12) return { problem: `has month ${mo}, which does not exist` };
  if (day < 1 || day > daysInMonth(year, month)) return { problem: `has day ${d}, which month ${mo} of ${y} does not have` };
  if (hour > 23) return { problem: `has hour ${h}; hours run from 00 to 23` };
  if (minute > 59) return { problem: `has minute ${mi}; minutes run from 00 to 59` };
  if (second > 59) return { problem: `has second ${s}; seconds run from 00 to 59` };
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4) || '0');
    if (oh > 23 || om > 59) return { problem: `has the zone offset ${zone}, which does not exist` };
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Digits beyond the microsecond are dropped, as Python's datetime does.
  const padded = (fraction ?? '').padEnd(6, '0').slice(0, 6);
  const ms = Number(padded.slice(0, 3));
  const micro = Number(padded.slice(3, 6));
  // setUTCFullYear, unlike Date.UTC, does not read years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  const epochMs = date.getTime() - offsetMinutes * 60_000;
  const utcYear = new Date(epochMs).getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return { problem: 'falls outside the years 0000 to 9999 once converted to UTC' };
  return { epochMs, micro };
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** The API's form: 2020-07-01T00:00:00.000000Z. */
export function formatInstant(instant: Instant): string {
  const iso = new Date(instant.epochMs).toISOString(); // 2020-07-01T00:00:00.000Z
  // An offset can carry 0000-01-01T00:30+01:00 into year -1, which the API's form cannot show.
  if (!/^\d{4}-/.test(iso)) throw new RangeError(`the instant ${iso} is outside years 0000 to 9999`);
  return `${iso.slice(0, 23)}${String(instant.micro).padStart(3, '0')}Z`;
}

export function compareInstants(a: Instant, b: Instant): number {
  return a.epochMs - b.epochMs || a.micro - b.micro;
}

export function isInstant(value: Instant | { problem: string }): value is Instant {
  return 'epochMs' in value;
}
