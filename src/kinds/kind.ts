// The shape of a kind's declaration: what the project knows about one kind of metadata, in one
// place, for every stage to read (kinds/registry.ts lists them).

import type { DataType } from '../site/routes.ts';

/** Every kind, named as the API's `type` field names it. */
export type KindType =
  | 'Survey'
  | 'DataRelease'
  | 'CatalogueGroup'
  | 'CatalogueTable'
  | 'CatalogueColumn'
  | 'ImagingFacility'
  | 'ImagingBand'
  | 'ImagingRegion'
  | 'IFSFacility'
  | 'IFSDataProduct'
  | 'SpectraFacility'
  | 'SpectraDataProduct';

/** The kinds of metadata file: a kind with a file of its own, or the list of retired ids. */
export type FileKind = KindType | 'Retired';

/** An API object, its keys in the order the API writes them. */
export type ApiObject = Record<string, unknown>;

/** What a kind's API fields are made from, besides the item's own data. */
export interface ApiContext {
  /** The fields every catalogue and imaging node has, in the API's order, ending with `contact`. */
  common(): ApiObject;
  /** The API objects of the item's children kept under `key`, in the order they are written. */
  children(key: string): ApiObject[];
  /** Names from the survey down to the item: survey, release, facility, band. */
  names: readonly string[];
}

export interface Kind {
  type: KindType;
  /** The kind in messages: `catalogue table "SpecObj"`. */
  word: string;
  /** An item of the kind in a place inside a file: `table "SpecObj" > column "Z"`. */
  label: string;
  /** Whether its items have ids, unique among the kind's items across the archive. */
  ids: boolean;
  /** The JSON Schema of its keys: a file in schemas/ and where in it the item's object is. */
  schema: { file: string; pointer: readonly string[] };
  /** Its own file, for a kind whose items each have one. */
  file?: KindFile;
  /** Where its items are listed in their parent's data, for a kind kept inside another's file. */
  nested?: { parent: KindType; key: string };
  /**
   * Its API object (for a survey and a release, see outputs/api.ts), or for a catalogue or imaging
   * node its fields after the common ones. Children lists sit where the API writes them.
   */
  api?: (item: never, context: ApiContext) => ApiObject;
  /**
   * Fields the outputs beyond the API read (the VO tables), which the API never publishes: kept
   * on the item's API object under a symbol key (outputs/api/objects.ts), which no JSON writes.
   */
  beyondApi?: (item: never) => object;
  /** What `new` needs to scaffold one of its files. */
  scaffold?: Scaffold;
}

export interface KindFile {
  /**
   * Where the file sits below the metadata folder, folder by folder: `{survey}` and `{release}` are
   * the names of the survey and release it belongs to, `{name}` its own name; a kind without
   * `{name}` is named after its last folder.
   */
  path: readonly string[];
  /** For a release's data: the data type it is, and the key of its list in the API. */
  section?: { dataType: DataType; key: string };
  /** The kind in a message about the whole file: "a catalogue group file". */
  described: string;
}

export interface Scaffold {
  /** The word after `new`: `new group`. */
  command: string;
  /** Its path argument, by names: `gama/dr5/SpecCat`. */
  example: string;
}
