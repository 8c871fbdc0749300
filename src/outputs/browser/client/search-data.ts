// The search data, `browse/search-data.js`: a script that sets `self.archiveSearch` (its shape is
// described where it is written, outputs/browser/search.ts). It is loaded with a script element,
// which works from the offline download opened from disk, where fetching a file is refused.

/** A table: name, label, description, then its columns' names, UCDs, units, descriptions and types. */
export type TableEntry = [string, string, string, string[], string[], string[], string[], string[]];
/** A data product or a region: name, label, description. */
export type ItemEntry = [string, string, string];
/** An imaging band: name, label, description and its regions. */
export type BandEntry = [string, string, string, ItemEntry[]];
/** A group's or facility's file: its kind, survey, release, name and label, and what it holds. */
export type FileEntry = [string, string, string, string, string, (TableEntry | BandEntry | ItemEntry)[]];

export interface SearchData {
  /** Each survey's name and label, with its releases' names and labels. */
  surveys: [string, string, [string, string][]][];
  files: FileEntry[];
}

declare global {
  /** Set by browse/search-data.js once it has run. */
  var archiveSearch: SearchData | undefined;
}

/** The search data, read by adding its script to the page. */
export function loadSearchData(root: string): Promise<SearchData> {
  return new Promise<SearchData>((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = `${root}browse/search-data.js`;
    tag.async = true;
    tag.onload = () => {
      const data = globalThis.archiveSearch;
      if (data) resolve(data);
      else reject(new Error('the search data did not load'));
    };
    tag.onerror = () => {
      reject(new Error('the search data could not be loaded'));
    };
    document.head.appendChild(tag);
  });
}
