// UCD syntax: '-' for undefined, or words of dot-separated atoms joined by ';'
// (the lexical rules of the IVOA UCD1+ list, as astropy and ucidy implement them).

const ATOM = '[A-Za-z0-9][A-Za-z0-9_-]*';
const WORD = new RegExp(`^(?:${ATOM}:)?${ATOM}(?:\\.${ATOM})*$`);

/** Returns undefined when the UCD is well formed, else what is wrong with it. */
export function ucdSyntaxProblem(ucd: string): string | undefined {
  if (ucd === '-') return undefined;
  if (/\s/.test(ucd)) return 'contains white space; join words with ";" and atoms with "." and no spaces';
  if (ucd.includes(',')) return `joins words with ","; use ";" instead (${ucd.replaceAll(',', ';')})`;
  const words = ucd.split(';');
  for (const [index, word] of words.entries()) {
    if (word === '') return `has an empty word at position ${index + 1}; remove the extra ";"`;
    if (!WORD.test(word)) {
      return `has the malformed word "${word}"; a word is atoms of letters, digits, "_" or "-" joined by "."`;
    }
  }
  return undefined;
}
