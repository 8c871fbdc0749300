// JSON as the API writes it: compact, as DRF's renderer writes it, non-ASCII characters as
// themselves, and U+2028 and U+2029 escaped (they end lines in JavaScript source).

export function encodeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
