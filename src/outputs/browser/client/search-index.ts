// Everything a search can find, as one flat list made once from the search data: each column,
// table, group, band, facility and data product with what it is matched on, lower-cased once, and
// its names and descriptions joined into two long texts that a keystroke's search scans whole.

import { loadSearchData } from './search-data.ts';
import type { BandEntry, FileEntry, ItemEntry, SearchData, TableEntry } from './search-data.ts';
import { pageHref } from './pages.ts';

export interface Survey {
  name: string;
  label: string;
  releases: { name: string; label: string }[];
}

/** A thing a search can find, with what it is matched on, lower-cased once. */
export interface Found {
  type: 'column' | 'table' | 'group' | 'band' | 'region' | 'facility' | 'product';
  name: string;
  lower: string;
  description: string;
  words: string;
  ucd: string;
  unit: string;
  /** A column's VOTable type (`double`, `char[*]`), empty where none is recorded or for others. */
  datatype: string;
  /** The UCD's words after a `;` each, and the unit's words between spaces, lower-cased. */
  ucdKey: string;
  unitKey: string;
  /** The type and its datatype alone, each between spaces, lower-cased: ` char[*] char `. */
  typeKey: string;
  kind: string;
  survey: string;
  release: string;
  /** The dotted address, and the page (from the site's root) with its anchor. */
  address: string;
  href: string;
  /** Where it is, for people: survey, release, group, table. */
  where: string;
}

export interface Index {
  surveys: Survey[];
  items: Found[];
  /** Every item's lower-cased name, one per line, and where each starts: scanned whole per keystroke. */
  names: string;
  nameAt: Int32Array;
  /** Every item's lower-cased description after a space, one per line, and where each starts. */
  texts: string;
  textAt: Int32Array;
  /** Every unit the items have, lower-cased: a unit with spaces in a query is read as the longest of them. */
  units: Set<string>;
}

/** An item as the data gives it, before what it is matched on is worked out. */
type Given = Omit<Found, 'lower' | 'words' | 'ucdKey' | 'unitKey' | 'typeKey'>;

let loading: Promise<Index> | undefined;

/** The index, made from the search data the first time it is asked for (the search box, a deep link). */
export function loadIndex(root: string): Promise<Index> {
  loading ??= loadSearchData(root).then(indexOf);
  return loading;
}

export function indexOf(data: SearchData): Index {
  const surveys: Survey[] = data.surveys.map(([name, label, releases]) => ({
    name,
    label,
    releases: releases.map(([r, l]) => ({ name: r, label: l })),
  }));
  const labels = releaseLabels(surveys);
  const items: Found[] = [];
  const add = (given: Given): void => {
    items.push(found(given));
  };
  for (const file of data.files) addFile(file, labels, add);
  const names = joined(items.map((i) => i.lower));
  const texts = joined(items.map((i) => i.words));
  const units = new Set(items.map((i) => i.unit.toLowerCase()).filter((u) => u !== ''));
  return { surveys, items, names: names.text, nameAt: names.at, texts: texts.text, textAt: texts.at, units };
}

/** Each release's label for people, by `survey.release`: its survey's label and its own. */
function releaseLabels(surveys: readonly Survey[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const s of surveys) {
    labels.set(s.name, s.label || s.name);
    for (const r of s.releases) labels.set(`${s.name}.${r.name}`, `${s.label || s.name} ${r.label || r.name}`);
  }
  return labels;
}

function found(given: Given): Found {
  const unit = given.unit.toLowerCase();
  return {
    ...given,
    lower: given.name.toLowerCase(),
    // Words after any mark that is not part of one (a bracket, a comma) count as words.
    words: ` ${given.description.toLowerCase().replace(/[^\p{L}\p{N}_.+-]+/gu, ' ')}`,
    ucdKey: given.ucd
      .toLowerCase()
      .split(';')
      .map((w) => `;${w.trim().replace(/^ivoa:/, '')}`)
      .join(''),
    unitKey: unit === '' ? '' : ` ${unit} ${unit.split(/[^a-z0-9]+/).join(' ')} `,
    typeKey: given.datatype === '' ? '' : ` ${given.datatype.toLowerCase()} ${given.datatype.toLowerCase().replace(/\[.*$/, '')} `,
  };
}

/** A group's or facility's file: itself, then each table with its columns, each band, or each product. */
function addFile(file: FileEntry, labels: ReadonlyMap<string, string>, add: (given: Given) => void): void {
  const [kind, survey, release, parent, parentLabel, children] = file;
  const base = [survey, release, kind, parent];
  const releaseLabel = labels.get(`${survey}.${release}`) ?? `${survey} ${release}`;
  const common = { kind, survey, release, ucd: '', unit: '', datatype: '' };
  add({
    ...common,
    type: kind === 'catalogues' ? 'group' : 'facility',
    name: parent,
    description: parentLabel,
    address: base.join('.'),
    href: pageHref(['browse', ...base]),
    where: `${releaseLabel} · ${kind}`,
  });
  const where = `${releaseLabel} · ${parentLabel || parent}`;
  for (const child of children) {
    if (kind === 'catalogues') addTable(child as TableEntry, { ...common, base, where }, add);
    else add(childOf(child as ItemEntry, { ...common, base, where }));
    if (kind === 'imaging') addRegions(child as BandEntry, { ...common, base, where }, add);
  }
}

/** What the items of one file share: its kind, survey and release, its address, and where it is. */
interface InFile {
  kind: string;
  survey: string;
  release: string;
  ucd: string;
  unit: string;
  datatype: string;
  base: string[];
  where: string;
}

function addTable(table: TableEntry, file: InFile, add: (given: Given) => void): void {
  const [name, label, description, names, ucds, units, descriptions, types] = table;
  const { base, where, ...common } = file;
  const tableHref = pageHref(['browse', ...base, name]);
  add({
    ...common,
    type: 'table',
    name,
    description: label ? `${label}. ${description}` : description,
    address: [...base, name].join('.'),
    href: tableHref,
    where,
  });
  const at = `${where} · ${label || name}`;
  names.forEach((column, i) => {
    add({
      ...common,
      type: 'column',
      name: column,
      description: descriptions[i] ?? '',
      ucd: ucds[i] ?? '',
      unit: units[i] ?? '',
      datatype: types[i] ?? '',
      address: [...base, name, column].join('.'),
      href: `${tableHref}#col-${encodeURIComponent(column)}`,
      where: at,
    });
  });
}

/** An imaging band, with a page of its own, or an IFS or spectra product, a row of its facility's page. */
function childOf(child: ItemEntry, file: InFile): Given {
  const [name, label, description] = child;
  const { base, where, ...common } = file;
  const band = file.kind === 'imaging';
  return {
    ...common,
    type: band ? 'band' : 'product',
    name,
    description: label ? `${label}. ${description}` : description,
    address: [...base, name].join('.'),
    href: band ? pageHref(['browse', ...base, name]) : `${pageHref(['browse', ...base])}#product-${encodeURIComponent(name)}`,
    where,
  };
}

/** A band's regions, each a card on the band's page (a region's name, G09, is shared by the bands that image it). */
function addRegions(band: BandEntry, file: InFile, add: (given: Given) => void): void {
  const [bandName, bandLabel, , regions] = band;
  const { base, where, ...common } = file;
  const bandHref = pageHref(['browse', ...base, bandName]);
  for (const [name, label, description] of regions) {
    add({
      ...common,
      type: 'region',
      name,
      description: label ? `${label}. ${description}` : description,
      address: [...base, bandName, name].join('.'),
      href: `${bandHref}#region-${encodeURIComponent(name)}`,
      where: `${where} · ${bandLabel || bandName}`,
    });
  }
}

/** Texts joined one a line, and where each starts. */
function joined(texts: readonly string[]): { text: string; at: Int32Array } {
  const at = new Int32Array(texts.length);
  let offset = 0;
  texts.forEach((t, i) => {
    at[i] = offset;
    offset += t.length + 1;
  });
  return { text: texts.join('\n'), at };
}
