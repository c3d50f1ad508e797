// Compute pass: the order of intents in the bundle. Top-level intents are sorted by where they
// were written (file path, then offset), so enumeration order never changes a bundle; context
// children follow, each list in its written order. An intent's index is its position here.

import type { Intent } from "../ir/types.js";
import { compareStrings } from "../order.js";

export interface OrderedIntent {
  intent: Intent;
  index: number;
  /** Index of the intent whose context lists this one, or null for a top-level intent. */
  parent: number | null;
}

function compareBySource(a: Intent, b: Intent): number {
  if (a.loc.file !== b.loc.file) return compareStrings(a.loc.file, b.loc.file);
  if (a.loc.offset !== b.loc.offset) return a.loc.offset - b.loc.offset;
  return compareStrings(a.id, b.id);
}

export function computeIntentOrder(intents: readonly Intent[]): OrderedIntent[] {
  const ordered: OrderedIntent[] = [...intents]
    .sort(compareBySource)
    .map((intent, index) => ({ intent, index, parent: null }));
  // Breadth-first over context children: a parent is always placed before its children.
  for (let i = 0; i < ordered.length; i++) {
    for (const child of ordered[i]!.intent.context ?? []) {
      ordered.push({ intent: child, index: ordered.length, parent: i });
    }
  }
  return ordered;
}

/** Indices of each intent's context children (null when the intent says nothing about context). */
export function contextChildren(ordered: readonly OrderedIntent[]): (number[] | null)[] {
  const children: (number[] | null)[] = ordered.map((o) => (o.intent.context === undefined ? null : []));
  for (const o of ordered) if (o.parent !== null) children[o.parent]!.push(o.index);
  return children;
}
