// Compute pass: normalized input → intent index. Top-level intents share one table; the children
// of each context-bearing intent get their own, looked up first while that intent is active.
// When two intents share an input the first in bundle order keeps it (the lint reports the clash).

import type { BundleContextTable, BundleExactTable } from "../../runtime/bundle/bundle-types.js";
import { inputKey } from "../input-tokens.js";
import { stringTableOf } from "../../runtime/bundle/encode.js";
import { contextChildren, type OrderedIntent } from "./compute-intent-order.js";

function tableOf(members: readonly OrderedIntent[]): BundleExactTable {
  const map = new Map<string, number>();
  for (const { intent, index } of members) {
    for (const input of intent.inputs) {
      const key = inputKey(input);
      if (key !== "" && !map.has(key)) map.set(key, index);
    }
  }
  const keys = [...map.keys()].sort();
  return { keys: stringTableOf(keys), targets: Uint32Array.from(keys, (key) => map.get(key)!) };
}

export function computeExactTables(ordered: readonly OrderedIntent[]): {
  exact: BundleExactTable;
  contextExact: BundleContextTable[];
} {
  const contextExact = contextChildren(ordered).flatMap((children, parent) =>
    children !== null && children.length > 0 ? [{ parent, ...tableOf(children.map((i) => ordered[i]!)) }] : [],
  );
  return { exact: tableOf(ordered.filter((o) => o.parent === null)), contextExact };
}
