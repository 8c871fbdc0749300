// The node each page of the schema browser shows, as the notes of other outputs see it (PageNode):
// its kind, id and place, and what its page lists, each with its link from the page (a column's row
// on its table's page, a table's own page from its group's). Made from the archive's skeleton
// (ids, names and nesting), only when some output has something to note.

import { childrenOf } from '../../kinds/registry.ts';
import type { KindType } from '../../kinds/registry.ts';
import type { PageNode, PageRow } from '../output.ts';
import { columnId, linkFrom } from './pages/html.ts';
import type { PagePath } from './pages/html.ts';
import { regionId } from './pages/imaging.ts';
import { productId } from './pages/products.ts';

/** The anchors of what a page lists in rows of its own (what has no page of its own). */
const ANCHORS: Partial<Record<KindType, (name: string) => string>> = {
  CatalogueColumn: columnId,
  ImagingRegion: regionId,
  IFSDataProduct: productId,
  SpectraDataProduct: productId,
};

/** A node as the skeleton holds it: id, name and its lists of children. */
export type SkeletonNode = { id?: unknown; name?: unknown } & Record<string, unknown>;

/** Where a page's node is: its survey, its release and the names above it below the release. */
export interface NodePlace {
  survey: { id: number; name: string };
  release: string;
  /** The names of what holds it below the release (a table's group). */
  above: readonly string[];
}

/**
 * The node of the page at `from`, with its first list of children as rows: each at its anchor on
 * the page, or (`pageOf`) on a page of its own.
 */
export function pageNode(
  kind: KindType,
  node: SkeletonNode,
  place: NodePlace,
  from: PagePath,
  pageOf?: (name: string) => PagePath,
): PageNode {
  const name = String(node.name);
  const path = [place.survey.name, place.release, ...place.above, name].join('/');
  const rows: PageRow[] = [];
  const list = childrenOf(kind)[0];
  const items = list ? node[list.key] : undefined;
  if (list && Array.isArray(items)) {
    const anchor = ANCHORS[list.kind];
    for (const item of items as SkeletonNode[]) {
      if (typeof item.id !== 'number') continue;
      const child = String(item.name);
      const href = anchor ? `#${anchor(child)}` : pageOf ? linkFrom(from, pageOf(child)) : undefined;
      if (href !== undefined) rows.push({ kind: list.kind, id: item.id, name: child, href });
    }
  }
  return {
    kind,
    ...(typeof node.id === 'number' ? { id: node.id } : {}),
    survey: place.survey,
    release: place.release,
    path,
    rows,
  };
}
