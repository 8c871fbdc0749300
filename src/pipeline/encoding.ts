// A metadata file's bytes as text. Metadata files are UTF-8: a file in another encoding, or with
// bytes that are not UTF-8, is refused with the place of the first bad byte, never read with
// replacement characters that would be published as if the curator had written them.

import type { Diagnostic } from '../diagnostics.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Byte order marks of the encodings a text editor may save in instead of UTF-8. */
const OTHER_ENCODINGS: [number[], string][] = [
  [[0x00, 0x00, 0xfe, 0xff], 'UTF-32'],
  [[0xff, 0xfe, 0x00, 0x00], 'UTF-32'],
  [[0xfe, 0xff], 'UTF-16'],
  [[0xff, 0xfe], 'UTF-16'],
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** Line and column (1-based, in characters) of a byte offset in text that is UTF-8 up to it. */
function positionOf(bytes: Uint8Array, offset: number): { line: number; col: number } {
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, col: (lines[lines.length - 1]?.length ?? 0) + 1 };
}

/** Whether the first `n` bytes could begin a UTF-8 text (a character cut at the end is allowed). */
function validPrefix(bytes: Uint8Array, n: number): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The first byte at which the bytes stop being UTF-8, found by halving. */
function firstInvalidByte(bytes: Uint8Array): number {
  if (validPrefix(bytes, bytes.length)) {
    // Only the end is wrong: a character cut short. Its first byte is the last one not a continuation.
    let at = bytes.length - 1;
    while (at > 0 && ((bytes[at] ?? 0) & 0xc0) === 0x80) at--;
    return at;
  }
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (validPrefix(bytes, mid)) good = mid;
    else bad = mid;
  }
  // The byte the decoder stopped at may end a character begun before it (é in Latin-1 is E9,
  // which begins a three-byte UTF-8 character): the bad character starts at that byte.
  const at = bad - 1;
  for (let back = 1; back <= 3 && at - back >= 0; back++) {
    const lead = bytes[at - back] ?? 0;
    if ((lead & 0xc0) === 0x80) continue;
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return back < length ? at - back : at;
  }
  return at;
}

/** The file's text, or why it cannot be read as metadata (a diagnostic of the file). */
export function decodeMetadata(bytes: Uint8Array, file: string): { text: string } | { problem: Diagnostic } {
  const problem = (line: number, col: number, message: string): { problem: Diagnostic } => ({
    problem: { file, line, col, severity: 'error', rule: 'yaml/encoding', message },
  });
  const other = OTHER_ENCODINGS.find(([mark]) => startsWith(bytes, mark));
  if (other) return problem(1, 1, `is encoded as ${other[1]}; metadata files are UTF-8: save it with the encoding UTF-8`);
  const nul = bytes.indexOf(0);
  // Many NULs, as a UTF-16 text without a byte order mark has: the whole file is not UTF-8 text.
  const head = bytes.subarray(0, 4096);
  if (nul >= 0 && nul < 4096 && head.filter((b) => b === 0).length * 10 > head.length) {
    return problem(
      1,
      1,
      'holds NUL bytes, as a binary file or a UTF-16 text without a byte order mark does; metadata files are UTF-8 text: save it with the encoding UTF-8',
    );
  }
  try {
    // TextDecoder drops a UTF-8 byte order mark, which YAML allows at the start.
    const text = UTF8.decode(bytes);
    if (nul < 0) return { text };
    // A NUL character typed or pasted into a value: YAML does not allow it, and one parser would take it.
    const { line, col } = positionOf(bytes, nul);
    return problem(line, col, 'holds a NUL character, which metadata cannot publish; remove it');
  } catch {
    const at = firstInvalidByte(bytes);
    const { line, col } = positionOf(bytes, at);
    const shown = [...bytes.subarray(at, at + 4)].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
    return problem(
      line,
      col,
      `holds bytes that are not UTF-8 (${shown}); metadata files are UTF-8: save it with the encoding UTF-8, or retype the characters here`,
    );
  }
}
