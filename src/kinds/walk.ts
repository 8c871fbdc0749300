// The one walk over items nested inside a file (a group's tables and columns, a facility's bands
// and regions): every traversal of the nesting goes through it, whatever it makes on the way.

import { childrenOf } from './registry.ts';
import type { KindType } from './registry.ts';

/** An item as found in a file: whatever its schema says, it is some object. */
export type Item = Record<string, unknown>;

/**
 * Called for each item, parents before children, in the order they are written. It gets the
 * item's kind, the item, what its parent's call returned, and its index in its parent's list (the
 * list's key is the kind's `nested.key`). It returns what the item's children get as their parent,
 * or undefined to skip them.
 */
export type Enter<P> = (kind: KindType, item: Item, parent: P, index: number) => P | undefined;

/**
 * Visits `item` of kind `kind` and everything nested in it. Anything that is not an object, and a
 * list that is not a list, is passed over: a file that failed its schema is walked as far as it goes.
 */
export function walk<P>(kind: KindType, item: unknown, parent: P, enter: Enter<P>, index = 0): void {
  // A plain recursion: a hundred thousand columns through generators would cost more than the
  // work done on them.
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
  const self = enter(kind, item as Item, parent, index);
  if (self === undefined) return;
  for (const child of childrenOf(kind)) {
    const list = (item as Item)[child.key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) walk(child.kind, list[i], self, enter, i);
  }
}
