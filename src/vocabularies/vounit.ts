// Column units must be VOUnits (IVOA REC 1.1, 2023-12-15) for TAP clients and VOTable readers to use them;
// this tells curators which free-text units will not parse, and what to write instead when that is plain.

import { closest, distance } from 'fastest-levenshtein';

/** Which prefixes a known unit takes: the 's' and 'b' flags of the VOUnits column of known-units.csv. */
type Prefixing = 'none' | 'si' | 'si-and-binary';

// The VOUnits known units (VOUnits.tex, known-units table; Unity 1.1 known-units.csv). Deprecated ones
// (Angstrom, angstrom, Ba, barn, erg, G, ta) are still known, and readers must understand them, so they pass.
// Sun is commented out of the CSV but listed among the "Miscellaneous VOUnits" of section 2, so it is kept,
// without prefixes. dex, uas, jupiterMass and geoMass are not VOUnits known units.
const KNOWN_UNITS: ReadonlyMap<string, Prefixing> = new Map([
  ...words('% Angstrom angstrom AU au Ba dB mas ta Sun').map((unit) => [unit, 'none'] as const),
  ...words('bit byte B').map((unit) => [unit, 'si-and-binary'] as const),
  ...words(
    'A a adu arcmin arcsec barn beam bin C cd chan count ct d D deg erg eV F g G H h Hz J Jy K lm lx lyr m mag ' +
      'min mol N Ohm Pa pc ph photon pix pixel R rad Ry s S solLum solMass solRad sr T u V voxel W Wb yr',
  ).map((unit) => [unit, 'si'] as const),
]);
const KNOWN_SYMBOLS = [...KNOWN_UNITS.keys()];

// VOUnits 1.1 lists the 20 SI prefixes of the 2019 SI brochure; ronna, quetta, ronto and quecto (R Q r q)
// came later and are not VOUnits prefixes. 'da' comes first so that "dam" is read as deca-metre, which the
// spec then forbids ("data providers must not use the da prefix").
const SI_PREFIXES = words('da h k M G T P E Z Y d c m u n p f a z y');
const BINARY_PREFIXES = words('Ki Mi Gi Ti Pi Ei Zi Yi');
const FUNCTIONS = new Set(words('log ln exp sqrt'));

/** The spec's VOUFLOAT: 0.123, 1.5e+11, 25 (a leading zero is only allowed before the point). */
const SCALE_NUMBER = /(?:0\.[0-9]+|[1-9][0-9]*(?:\.[0-9]+)?)(?:[eE][+-]?[0-9]+)?/y;

/** Common non-VOUnit spellings, keyed in lower case without "_" or "-". */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ...aliasesOf('solMass', 'msun msol msolar solarmass'),
  ...aliasesOf('solLum', 'lsun lsol lsolar solarluminosity'),
  ...aliasesOf('solRad', 'rsun rsol rsolar solarradius'),
  ...aliasesOf('deg', 'degree degrees'),
  ...aliasesOf('arcsec', 'arcsecond arcseconds asec'),
  ...aliasesOf('arcmin', 'arcminute arcminutes amin'),
  ...aliasesOf('mas', 'milliarcsec milliarcsecond milliarcseconds'),
  // The spec has no microarcsecond symbol and says to write uarcsec.
  ...aliasesOf('uarcsec', 'uas muas'),
  ...aliasesOf('s', 'sec secs second seconds'),
  ...aliasesOf('min', 'mins minute minutes'),
  ...aliasesOf('h', 'hr hrs hour hours'),
  ...aliasesOf('d', 'day days'),
  ...aliasesOf('yr', 'year years'),
  ...aliasesOf('Jy', 'jansky janskys'),
  ...aliasesOf('Angstrom', 'angstroms ang angs'),
  ...aliasesOf('um', 'micron microns'),
  ...aliasesOf('lyr', 'ly lightyear lightyears'),
  ...aliasesOf('pc', 'parsec parsecs'),
  ...aliasesOf('%', 'percent'),
  ...aliasesOf('km/s', 'kms'),
  ...aliasesOf('deg**2', 'sqdeg'),
]);

const PREFIX_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    yocto: 'y',
    zepto: 'z',
    atto: 'a',
    femto: 'f',
    pico: 'p',
    nano: 'n',
    micro: 'u',
    milli: 'm',
    centi: 'c',
    deci: 'd',
    hecto: 'h',
    kilo: 'k',
    mega: 'M',
    giga: 'G',
    tera: 'T',
    peta: 'P',
    exa: 'E',
    zetta: 'Z',
    yotta: 'Y',
  }),
);

// Not units at all: the spec leaves calendar and sexagesimal strings and time scales such as MJD out of VOUnits.
const FORMAT = /^(?:iso[-_ ]?8601|hms|dms|[hd]{2}:mm:ss(?:\.s+)?|yyyy-mm-dd(?:thh:mm:ss(?:\.s+)?)?)$/i;
const TIME_SCALE = /^(?:MJD|JD)$/;
const NO_UNIT = /^(?:none|null|n\/a|dimensionless|unitless)$/i;

/** undefined when the unit is fine; otherwise what is wrong, in one sentence, with the VOUnit form to write when there is an obvious one. */
/**
 * What makes a value no unit at all, whatever the vocabulary: a length or a nesting of
 * parentheses no unit has. Every other check reads a unit symbol by symbol, naming each it does
 * not know, and its parser descends into each group: a megabyte was seconds and a message of
 * megabytes, and thousands of parentheses ran it out of stack.
 */
export function unitRefusal(unit: string): string | undefined {
  if (unit.length > MAX_UNIT_CHARS)
    return `is ${unit.length.toLocaleString('en')} characters long, where a unit is a few; write the unit alone`;
  let depth = 0;
  for (const char of unit) {
    if (char === ')') depth -= 1;
    else if (char === '(' && ++depth > MAX_GROUPS)
      return `has parentheses nested more than ${MAX_GROUPS} deep, where a unit nests one or two; write the unit plainly`;
  }
  return undefined;
}

export function unitProblem(unit: string): string | undefined {
  // '-' and 'None' are this archive's spellings of "no unit"; unknown/UNKNOWN are the spec's reserved words
  // for a unit that has been lost, which the spec says to check for before parsing.
  if (unit === '-' || unit === 'None' || unit === 'unknown' || unit === 'UNKNOWN') return undefined;
  if (unit === '') return "is empty; write '-' for no unit";
  const refused = unitRefusal(unit);
  if (refused) return refused;
  const trimmed = unit.trim();
  if (NO_UNIT.test(trimmed)) return "means no unit; write '-'";
  if (FORMAT.test(trimmed)) return "names a format, not a unit; VOUnits have none for dates or sexagesimal angles, so write '-'";
  if (TIME_SCALE.test(trimmed)) return 'names a time scale, not a unit; write d for days';
  if (isCleanVOUnit(unit)) return undefined;

  const repair = rewrite(unit);
  const fixed = repair.text !== unit && isCleanVOUnit(repair.text) ? repair.text : undefined;
  const write = fixed === undefined ? '' : ` (write ${fixed})`;
  // With nothing better to offer, say how to keep an unknown unit on purpose: quoting it (see symbolFindings).
  const custom = fixed === undefined ? customUnit(repair.findings) : undefined;

  // The syntax is at fault unless replacing unknown symbols alone makes the unit parse (M_solar → solMass).
  const syntax = syntaxProblem(unit);
  const faults = repair.problems.length > 0 ? repair.problems : syntax && syntaxProblem(repair.text) ? [syntax] : [];
  if (faults.length > 0) {
    const phrases = [...faults, ...repair.findings.map(findingPhrase)];
    return `is not a VOUnit: ${englishList(phrases)}${write}${custom ? `; quote a custom unit as '${custom}'` : ''}`;
  }
  const [only, ...others] = repair.findings;
  if (only?.kind === 'unknown' && only.symbol === unit && others.length === 0) {
    return `is not a known VOUnit${write}${custom ? `; write '-' for no unit, or quote a custom unit as '${custom}'` : ''}`;
  }
  return `${usesSentence(repair.findings)}${write}${custom ? `; quote a custom unit as '${custom}'` : ''}`;
}

/**
 * The VOUnit to write for a unit that is not one, where that is plain: the form unitProblem's
 * "(write …)" gives. undefined for a unit that is fine, or that has no plain VOUnit form.
 */
export function voUnitFor(unit: string): string | undefined {
  if (unitProblem(unit) === undefined) return undefined;
  const repair = rewrite(unit);
  return repair.text !== unit && isCleanVOUnit(repair.text) ? repair.text : undefined;
}

/** The first unknown symbol with no replacement that could be written as a quoted unit (letters only). */
function customUnit(findings: Finding[]): string | undefined {
  return findings.find((finding) => finding.kind === 'unknown' && !finding.replacement && /^[A-Za-z]+$/.test(finding.symbol))?.symbol;
}

// ---------------------------------------------------------------------------------------------------------
// Strict checking: the normative grammar (appendix of VOUnits.tex; unity-grammars/unity-vounits.txt, 1.1),
// then every symbol against the known units.

/** A unit the archive can publish as it is: it parses and uses only known units, prefixes and functions. */
function isCleanVOUnit(text: string): boolean {
  return syntaxProblem(text) === undefined && symbolFindings(text).length === 0;
}

class GrammarError extends Error {}

/** What breaks the grammar, as a clause that can follow "is not a VOUnit: ", or undefined when it parses. */
function syntaxProblem(text: string): string | undefined {
  try {
    new Parser(text).input();
    return undefined;
  } catch (error) {
    if (error instanceof GrammarError) return error.message;
    throw error;
  }
}

/** The longest unit read: the longest in use (erg.cm**-2.s**-1.Angstrom**-1) is a fifth of it. */
const MAX_UNIT_CHARS = 200;

/** The deepest nesting of parentheses a unit may have. */
const MAX_GROUPS = 16;

/**
 * Recursive descent over the VOUnits grammar. The grammar is written for a lexer, but its terminals never
 * overlap where the parser has a choice, so each production reads characters directly:
 *
 *   input              := '1' | [scalefactor] complete_expression
 *   scalefactor        := '10' '**' numeric_power | VOUFLOAT
 *   complete_expression:= product_of_units ['/' unit_expression]
 *   product_of_units   := unit_expression ('.' unit_expression)*
 *   unit_expression    := unit ['**' numeric_power] | STRING '(' [scalefactor] complete_expression ')'
 *                       | '(' complete_expression ')'
 *   unit               := STRING | QUOTED_STRING | STRING QUOTED_STRING | '%'
 *   numeric_power      := integer | '(' integer ')' | '(' FLOAT ')' | '(' integer '/' UNSIGNED_INTEGER ')'
 *
 * So m**-2, m**+2 and m**(-2) are all fine (an integer power may be signed without parentheses), but m**0.5,
 * (m/s)**2, 10**-7.W and km/s.Mpc are not.
 */
class Parser {
  private pos = 0;
  /** Groups open at this point: each is a few frames of the call stack. */
  private depth = 0;

  constructor(private readonly text: string) {}

  input(): void {
    if (this.text === '1') return;
    if (this.isDigit()) {
      this.scaleFactor();
      if (this.peek() === '.') this.fail('a scale factor is written directly before the unit');
      if (this.atEnd()) this.fail('a scale factor must be followed by a unit');
    }
    this.completeExpression();
    if (!this.atEnd()) this.unexpected();
  }

  private completeExpression(): void {
    this.productOfUnits();
    if (this.peek() !== '/') return;
    this.pos += 1;
    this.unitExpression();
    if (this.peek() === '/') this.fail('only one "/" is allowed');
    if (this.peek() === '.') this.fail('several units after "/" go in parentheses');
  }

  private productOfUnits(): void {
    this.unitExpression();
    while (this.peek() === '.') {
      this.pos += 1;
      this.unitExpression();
    }
  }

  private unitExpression(): void {
    const char = this.peek();
    if (char === '(') {
      this.group(() => this.completeExpression());
      this.refusePowerOnGroup();
    } else if (char !== undefined && /[A-Za-z]/.test(char)) {
      this.match(/[A-Za-z]+/y);
      if (this.peek() === '(') {
        this.group(() => {
          if (this.isDigit()) this.scaleFactor();
          this.completeExpression();
        });
        this.refusePowerOnGroup();
        return;
      }
      if (this.peek() === "'") this.quoted();
      this.power();
    } else if (char === "'") {
      this.quoted();
      this.power();
    } else if (char === '%') {
      this.pos += 1;
      this.power();
    } else if (this.atEnd()) {
      this.fail('it ends where a unit is expected');
    } else if (char === ')') {
      this.fail(`a unit is missing before the ")" at position ${this.pos + 1}`);
    } else {
      this.unexpected();
    }
  }

  private group(inside: () => void): void {
    const open = this.pos;
    // Units nest a group or two; thousands of parentheses would run the parser out of stack.
    if (++this.depth > MAX_GROUPS) this.fail(`parentheses are nested more than ${MAX_GROUPS} deep at position ${open + 1}`);
    this.pos += 1;
    inside();
    this.depth -= 1;
    if (this.peek() !== ')') {
      if (this.atEnd()) this.fail(`the "(" at position ${open + 1} is never closed`);
      this.unexpected();
    }
    this.pos += 1;
  }

  private refusePowerOnGroup(): void {
    if (this.text.startsWith('**', this.pos)) this.fail('a power can follow only a single unit, not a group or function');
  }

  private quoted(): void {
    const quote = this.pos;
    this.pos += 1;
    if (!this.match(/[A-Za-z]+'/y)) {
      if (!this.text.includes("'", quote + 1)) this.fail(`the quote at position ${quote + 1} is never closed`);
      this.fail('a quoted unit is letters only');
    }
  }

  private power(): void {
    if (!this.text.startsWith('**', this.pos)) return;
    this.pos += 2;
    this.numericPower();
  }

  private numericPower(): void {
    if (this.peek() === '(') {
      this.pos += 1;
      const fine =
        (this.match(/[+-]?[0-9]+\.[0-9]+\)/y) ?? this.match(/[+-]?[0-9]+\)/y) ?? this.match(/[+-]?[0-9]+\/[0-9]+\)/y)) !== undefined;
      if (!fine) this.fail('a power in parentheses is an integer, a decimal or a fraction such as (1/2)');
      return;
    }
    if (this.match(/[+-]?[0-9]+\.[0-9]/y)) this.fail('a fractional power goes in parentheses');
    if (!this.match(/[+-]?[0-9]+/y)) this.fail('"**" must be followed by a number');
  }

  private scaleFactor(): void {
    if (this.match(/10\*\*/y)) this.numericPower();
    else if (!this.match(SCALE_NUMBER)) this.fail('a scale factor is written like 1.5, 1e-17 or 10**-17');
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.pos += found.length;
    return found;
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  private isDigit(): boolean {
    return /[0-9]/.test(this.peek() ?? '');
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private unexpected(): never {
    const char = this.peek() ?? '';
    if (char === ')') this.fail(`the ")" at position ${this.pos + 1} has no matching "("`);
    if (/[0-9+-]/.test(char)) this.fail('powers are written with "**"');
    if (/\s/.test(char)) this.fail('VOUnits have no spaces');
    this.fail(`"${char}" at position ${this.pos + 1} is not allowed there`);
  }

  private fail(message: string): never {
    throw new GrammarError(message);
  }
}

type Finding =
  | { kind: 'unknown'; symbol: string; replacement?: string }
  | { kind: 'unprefixable' | 'binary' | 'deca' | 'quote-prefix'; symbol: string; base: string }
  | { kind: 'function'; symbol: string }
  | { kind: 'quoted-known'; symbol: string };

/**
 * The unit symbols, functions and quoted units of a string that are not what the spec lists. Runs on any
 * string, parsed or not, so that a message can name unknown units even when the syntax is wrong too.
 */
function symbolFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  // Numbers go first so that the e of 1e-17 is not read as a unit.
  const token = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|([A-Za-z_]*)'([^']*)'|[A-Za-z_]+/g;
  for (const found of text.matchAll(token)) {
    const [whole, prefix, quoted] = found;
    if (/^[0-9]/.test(whole)) continue;
    if (quoted !== undefined) {
      // The spec: quoted units are unknown units "not further examined", and let a provider label data with a
      // unit of its own and stay conformant; so they pass. Only a quoted known unit, which then no longer
      // means the known unit, and a prefix that is not an SI prefix, are reported.
      if (prefix && (!SI_PREFIXES.includes(prefix) || prefix === 'da'))
        findings.push({ kind: 'quote-prefix', symbol: prefix, base: quoted });
      else if (!prefix && KNOWN_UNITS.has(quoted)) findings.push({ kind: 'quoted-known', symbol: quoted });
      continue;
    }
    if (text[found.index + whole.length] === '(') {
      // The spec asks parsers to accept unknown functions; a curator is still better told.
      if (!FUNCTIONS.has(whole)) findings.push({ kind: 'function', symbol: whole });
      continue;
    }
    const finding = symbolFinding(whole);
    if (finding) findings.push(finding);
  }
  return findings;
}

/**
 * Reads a symbol as the spec says: a known unit first (so Pa is the pascal, not a peta-year), then a prefix
 * on a known unit. The spec asks libraries to report, rather than reject, prefixes on units that take none;
 * here that report is the warning.
 */
function symbolFinding(symbol: string): Finding | undefined {
  if (KNOWN_UNITS.has(symbol)) return undefined;
  let refusal: Finding | undefined;
  for (const prefix of SI_PREFIXES) {
    const base = symbol.slice(prefix.length);
    const prefixing = symbol.startsWith(prefix) ? KNOWN_UNITS.get(base) : undefined;
    if (prefixing === undefined) continue;
    if (prefixing === 'none') refusal ??= { kind: 'unprefixable', symbol, base };
    else if (prefix === 'da') refusal ??= { kind: 'deca', symbol, base };
    else return undefined;
  }
  for (const prefix of BINARY_PREFIXES) {
    const base = symbol.slice(prefix.length);
    const prefixing = symbol.startsWith(prefix) ? KNOWN_UNITS.get(base) : undefined;
    if (prefixing === 'si-and-binary') return undefined;
    if (prefixing !== undefined) refusal ??= { kind: 'binary', symbol, base };
  }
  return refusal ?? { kind: 'unknown', symbol };
}

// ---------------------------------------------------------------------------------------------------------
// Repair: rewrite the usual non-VOUnit spellings, noting each kind of fault. The result is offered to the
// curator only when it is itself a clean VOUnit, so a step that guesses wrong costs nothing but the offer.

interface Rewrite {
  text: string;
  /** Clauses naming what was wrong with the syntax, in a fixed order. */
  problems: string[];
  /** Unknown units (with their replacements when there is an obvious one) and refused prefixes or functions. */
  findings: Finding[];
}

const PROBLEM_ORDER = [
  'VOUnits are plain ASCII',
  'VOUnits have no spaces',
  'units are joined with "."',
  'powers are written with "**"',
  'a fractional power goes in parentheses',
  'a scale factor is written directly before the unit',
  'logarithms are written log(…)',
  'only one "/" is allowed',
  'several units after "/" go in parentheses',
];

const NON_ASCII: readonly [RegExp, string][] = [
  [/[µμ]/g, 'u'],
  [/Å/g, 'Angstrom'],
  [/°/g, 'deg'],
  [/″/g, 'arcsec'],
  [/′/g, 'arcmin'],
  [/²/g, '**2'],
  [/³/g, '**3'],
];

/** A leading scale factor as people write it: 10**-17, 10**(-17), 10^-17, CDS's 10-17, 1e-17, 1.5. */
const LEADING_NUMBER = /^(?:10(?:\*\*|\^)\(?[+-]?[0-9]+\)?|10[+-][0-9]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/;

function rewrite(unit: string): Rewrite {
  const problems = new Set<string>();
  const change = (before: string, after: string, problem: string): string => {
    if (after !== before) problems.add(problem);
    return after;
  };

  let text = change(unit, unit.trim(), 'VOUnits have no spaces');
  let ascii = text;
  for (const [pattern, replacement] of NON_ASCII) ascii = ascii.replace(pattern, replacement);
  text = change(text, ascii, 'VOUnits are plain ASCII');

  const lead = LEADING_NUMBER.exec(text)?.[0] ?? '';
  let scale = change(lead, lead.replace('^', '**'), 'powers are written with "**"');
  scale = change(scale, scale.replace(/^10([+-][0-9]+)$/, '10**$1'), 'powers are written with "**"');
  let body = text.slice(lead.length);
  if (scale) body = change(body, body.replace(/^(?:\s+|\.|\*(?!\*))/, ''), 'a scale factor is written directly before the unit');

  body = change(body, body.replace(/\s*(?<!\*)\*(?!\*)\s*/g, '.'), 'units are joined with "."');
  const squeezed = body
    .replace(/\s*(\/|\*\*|\^|\.)\s*/g, '$1')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')');
  body = change(body, squeezed, 'VOUnits have no spaces');
  body = change(body, body.replace(/\s+/g, '.'), 'units are joined with "."');
  body = change(body, body.replaceAll('^', '**'), 'powers are written with "**"');
  // FITS allows m(2) for m**2.
  body = change(body, body.replace(/([A-Za-z])\(([+-]?[0-9]+)\)/g, '$1**$2'), 'powers are written with "**"');
  // CDS and FITS write m2 and s-1; VOUnits need m**2 and s**-1.
  // Not inside quotes, and not after a digit, which would make 1e-17 into 1e**-17.
  const powered = body.replace(/('[^']*'|(?<![0-9])[A-Za-z]+|%)([+-]?[0-9]+)?/g, (whole, unit: string, power?: string) =>
    power === undefined ? whole : `${unit}**${power}`,
  );
  body = change(body, powered, 'powers are written with "**"');
  body = change(
    body,
    body.replace(/\*\*([+-]?[0-9]+\.[0-9]+|[+-]?[0-9]+\/[0-9]+)(?![0-9])/g, '**($1)'),
    'a fractional power goes in parentheses',
  );
  body = change(body, body.replace(/\[([^\][-][^\]]*)\]/g, 'log($1)'), 'logarithms are written log(…)');

  const findings = symbolFindings(body).map((finding) =>
    finding.kind === 'unknown' ? { ...finding, replacement: suggestionFor(finding.symbol) } : finding,
  );
  body = replaceSymbols(body, findings);
  body = oneDivision(body, (problem) => problems.add(problem));

  return {
    text: scale + body,
    problems: PROBLEM_ORDER.filter((problem) => problems.has(problem)),
    findings,
  };
}

function replaceSymbols(body: string, findings: Finding[]): string {
  const replacements = new Map<string, string>();
  for (const finding of findings) {
    if (finding.kind === 'unknown' && finding.replacement) replacements.set(finding.symbol, finding.replacement);
    if (finding.kind === 'quoted-known') replacements.set(`'${finding.symbol}'`, finding.symbol);
  }
  if (replacements.size === 0) return body;
  return body.replace(/'[^']*'|[A-Za-z_]+/g, (word) => replacements.get(word) ?? word);
}

/** a/b/c and a/b.c become a/(b.c): the grammar allows one top-level "/" with a single unit after it. */
function oneDivision(body: string, problem: (text: string) => void): string {
  const parts = splitTopLevel(body, '/');
  if (parts.length < 2 || parts.some((part) => part === '')) return body;
  const [numerator, ...denominators] = parts;
  const denominator = denominators.join('.');
  if (denominators.length > 1) problem('only one "/" is allowed');
  else if (splitTopLevel(denominator, '.').length > 1) problem('several units after "/" go in parentheses');
  else return body;
  return `${numerator}/(${denominator})`;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === separator && depth === 0 && !(separator === '.' && /[0-9]/.test(text[index + 1] ?? ''))) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The known unit an unknown symbol most plausibly means, or undefined when nothing is close enough. */
function suggestionFor(symbol: string, depth = 0): string | undefined {
  const alias = ALIASES.get(symbol.toLowerCase().replace(/[_-]/g, ''));
  if (alias) return alias;
  const sameLetters = KNOWN_SYMBOLS.filter((known) => known.toLowerCase() === symbol.toLowerCase());
  if (sameLetters.length === 1) return sameLetters[0];
  // Unit symbols are singular: counts, pixels, arcsecs, Mpcs.
  if (symbol.endsWith('s') && symbol.length > 2 && symbolFinding(symbol.slice(0, -1)) === undefined) {
    return symbol.slice(0, -1);
  }
  for (const [word, prefix] of PREFIX_WORDS) {
    if (depth > 0 || !symbol.toLowerCase().startsWith(word) || symbol.length === word.length) continue;
    const rest = symbol.slice(word.length);
    const base = KNOWN_UNITS.has(rest) ? rest : suggestionFor(rest, depth + 1);
    if (base !== undefined && KNOWN_UNITS.get(base) !== undefined && KNOWN_UNITS.get(base) !== 'none') return prefix + base;
  }
  // Typos: only a near miss on a long enough symbol, since short ones collide (dex is one letter from deg).
  const nearest = closest(symbol, KNOWN_SYMBOLS);
  const apart = distance(symbol, nearest);
  if ((apart === 1 && symbol.length >= 4) || (apart === 2 && symbol.length >= 7)) return nearest;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Wording.

function findingPhrase(finding: Finding): string {
  switch (finding.kind) {
    case 'unknown':
      return `"${finding.symbol}" is not a known unit`;
    case 'unprefixable':
      return `"${finding.symbol}" puts a prefix on ${finding.base}, which takes none`;
    case 'deca':
      return `"${finding.symbol}" uses the prefix da, which VOUnits forbid`;
    case 'binary':
      return `"${finding.symbol}" uses a binary prefix, which only bit, byte and B take`;
    case 'function':
      return `"${finding.symbol}" is not a VOUnits function (log, ln, exp, sqrt)`;
    case 'quoted-known':
      return `'${finding.symbol}' in quotes is an unknown unit, not the known ${finding.symbol}`;
    case 'quote-prefix':
      return `"${finding.symbol}" before '${finding.base}' is not an SI prefix`;
  }
}

/** For a unit that parses: "uses "Msun", which is not a known VOUnit", and so on. */
function usesSentence(findings: Finding[]): string {
  const unknown = findings.filter((finding) => finding.kind === 'unknown').map((finding) => `"${finding.symbol}"`);
  const clauses: string[] = [];
  if (unknown.length === 1) clauses.push(`uses ${unknown[0]}, which is not a known VOUnit`);
  if (unknown.length > 1) clauses.push(`uses ${englishList(unknown)}, which are not known VOUnits`);
  for (const finding of findings) {
    if (finding.kind === 'unprefixable')
      clauses.push(`puts a prefix on ${finding.base} in "${finding.symbol}", but ${finding.base} takes none`);
    if (finding.kind === 'deca') clauses.push(`uses the prefix da in "${finding.symbol}", which VOUnits forbid`);
    if (finding.kind === 'binary')
      clauses.push(`puts a binary prefix on ${finding.base} in "${finding.symbol}", but only bit, byte and B take them`);
    if (finding.kind === 'function') clauses.push(`applies "${finding.symbol}", which is not a VOUnits function (log, ln, exp, sqrt)`);
    if (finding.kind === 'quote-prefix')
      clauses.push(`puts "${finding.symbol}" before '${finding.base}', but only an SI prefix may go there`);
    if (finding.kind === 'quoted-known') clauses.push(`quotes ${finding.symbol}, which makes it an unknown unit rather than the known one`);
  }
  return englishList(clauses);
}

function englishList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function words(list: string): string[] {
  return list.split(' ');
}

function aliasesOf(unit: string, spellings: string): [string, string][] {
  return words(spellings).map((spelling) => [spelling, unit]);
}
