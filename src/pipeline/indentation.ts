// Finds the first line whose indentation fits no block around it, to report one clear error
// instead of the parser's words. A line indented one space too far reads to YAML as a nested
// mapping where none may start ("Nested mappings are not allowed in compact mappings"), and a few
// spaces too far can give dozens of errors further down. Used only on a file that failed to parse.

export interface IndentationProblem {
  /** 1-based. */
  line: number;
  col: number;
  message: string;
}

/** An open block: the column its keys or items start at, which they are, and the last line seen in it. */
interface Level {
  indent: number;
  kind: 'keys' | 'items';
  line: number;
}

const KEY = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{[\]},&*!|>%@`][^#]*?):(?:\s|$)/;

const isItem = (content: string) => content === '-' || content.startsWith('- ');

/** What follows a key's colon or an item's dash: nothing (a block follows), a block scalar, or a value. */
function opens(rest: string): 'block' | 'scalar' | 'value' {
  const value = rest.replace(/\s+#.*$/, '').trim();
  if (value === '') return 'block';
  if (/^[|>][+-]?\d*$/.test(value)) return 'scalar';
  return 'value';
}

/** Whether a flow collection or a quoted string begun on this line is still open at its end. */
function unclosed(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if (c === quote) {
        if (quote === "'" && text[i + 1] === "'") i++;
        else quote = undefined;
      }
    } else if (c === '"' || c === "'") {
      // A quote opens a string only where a value starts.
      if (i === 0 || /[\s:[{,]/.test(text[i - 1] ?? '')) quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      break;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth > 0 || quote !== undefined;
}

const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;
const indentIt = (n: number) => (n === 0 ? 'start it at the beginning of the line' : `indent it by ${spaces(n)}`);

export function indentationProblem(text: string): IndentationProblem | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const levels: Level[] = [];
  /** After a key or item with nothing after it: the next line may start a block further in. */
  let open: { indent: number; line: number } | undefined;
  /** Inside a block scalar, or a flow collection or string over several lines: lines further in than this are its. */
  let skipAbove: number | undefined;
  let previous = 0;
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const content = raw.trimStart();
    if (content === '' || content.startsWith('#') || /^(---|\.\.\.)(\s|$)/.test(content)) continue;
    const indent = raw.length - content.length;
    if (raw.slice(0, indent).includes('\t')) return { line, col: 1, message: 'is indented with a tab; YAML indents with spaces only' };
    if (skipAbove !== undefined) {
      if (indent > skipAbove) continue;
      skipAbove = undefined;
    }
    const kind = isItem(content) ? 'items' : 'keys';
    const top = levels[levels.length - 1];
    // A new block: further in than the key that opened it, or a list at its key's own indentation.
    const starts = open !== undefined && (indent > open.indent || (indent === open.indent && kind === 'items' && top?.kind === 'keys'));
    if (!top || starts) {
      levels.push({ indent, kind, line });
    } else if (indent > top.indent) {
      // Further in than its block, after a line that opened nothing: a key or item is out of place.
      if (KEY.test(content) || kind === 'items') {
        return {
          line,
          col: 1,
          message: `is indented by ${spaces(indent)}, but its siblings use ${top.indent} (line ${top.line}) and line ${previous} opens no block to nest it in; ${indentIt(top.indent)}`,
        };
      }
      // A plain value continued on the next line.
      continue;
    } else {
      // Back out to the block this line lines up with.
      let current = top;
      let inner: Level | undefined;
      const backOut = () => {
        inner = levels.pop();
        current = levels[levels.length - 1] ?? current;
      };
      while (levels.length > 1 && indent < current.indent) backOut();
      // A list at its key's indentation ends where the keys go on.
      if (indent === current.indent && current.kind === 'items' && kind === 'keys' && levels[levels.length - 2]?.indent === indent)
        backOut();
      if (indent !== current.indent) {
        const between = inner
          ? ` the blocks it falls between use ${spaces(inner.indent)} (line ${inner.line}) and ${spaces(current.indent)} (line ${current.line});`
          : '';
        return {
          line,
          col: 1,
          message: `is indented by ${spaces(indent)}, which lines up with no block around it:${between} indent it as one of them`,
        };
      }
      if (kind !== current.kind) {
        const list = [...levels].reverse().find((l) => l.kind === 'items' && l.indent < indent);
        return {
          line,
          col: 1,
          message:
            kind === 'items'
              ? `is a list item indented by ${spaces(indent)}, as the keys around it are (line ${current.line}); ${list ? `the list's items use ${spaces(list.indent)} (line ${list.line}), so ${indentIt(list.indent)}` : 'put it under a key that ends with ":"'}`
              : `is a key indented by ${spaces(indent)}, as the list items around it are (line ${current.line}); move it into an item, or ${indentIt(Math.max(0, indent - 2))} if it belongs to the block above the list`,
        };
      }
      current.line = line;
    }
    previous = line;
    open = undefined;
    // A list item's own keys start after its dash: `- id: 1` opens keys at the dash + 2.
    let rest = content;
    let at = indent;
    while (isItem(rest)) {
      const inner = rest.slice(1).trimStart();
      if (inner === '' || inner.startsWith('#')) {
        open = { indent: at, line };
        rest = '';
        break;
      }
      at += rest.length - inner.length;
      levels.push({ indent: at, kind: isItem(inner) ? 'items' : 'keys', line });
      rest = inner;
    }
    if (rest === '') continue;
    const key = KEY.exec(rest);
    const after = key ? rest.slice(key[0].length) : rest;
    const value = key ? opens(after) : 'value';
    if (value === 'block') open = { indent: at, line };
    else if (value === 'scalar' || unclosed(after)) skipAbove = at;
  }
  return undefined;
}
