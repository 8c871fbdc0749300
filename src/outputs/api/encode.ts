// JSON as the API writes it.

/**
 * JSON as DRF's renderer writes it: compact, non-ASCII characters as themselves, and U+2028 and
 * U+2029 escaped (they end lines in JavaScript source).
 */
export function encodeJson(value: unknown): string {
  return escapeSeparators(JSON.stringify(value));
}

/** JSON indented by four spaces, as DRF's browsable pages show it. */
export function prettyJson(value: unknown): string {
  return escapeSeparators(JSON.stringify(value, null, 4));
}

function escapeSeparators(text: string): string {
  return text.replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
