// A deep copy of a bundle payload for tests that edit one: structuredClone, except that a
// StringTable (runtime/bundle/string-table.ts), which structuredClone turns into a plain object,
// is copied as a StringTable.
import type { BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { StringTable } from "../../runtime/bundle/string-table.js";

function copy(value: unknown): unknown {
  if (value instanceof StringTable) return new StringTable(value.bytes.slice(), value.starts.slice());
  if (Array.isArray(value)) return value.map(copy);
  if (ArrayBuffer.isView(value) || typeof value !== "object" || value === null) return structuredClone(value);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
}

export function clonePayload(payload: BundlePayload): BundlePayload {
  return copy(payload) as BundlePayload;
}
