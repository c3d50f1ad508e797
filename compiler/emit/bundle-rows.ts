// Lists of ids in the bundle's two-section form (runtime/bundle/bundle-types.ts BundleRows): row i is
// items[starts[i]] up to (without) items[starts[i + 1]].
import type { BundleRows } from "../../runtime/bundle/bundle-types.js";

export function rowsOf(lists: readonly (readonly number[])[]): BundleRows {
  const starts = new Uint32Array(lists.length + 1);
  lists.forEach((list, i) => (starts[i + 1] = starts[i]! + list.length));
  return { starts, items: Uint32Array.from(lists.flat()) };
}
