// Typed arrays as the little-endian bytes a bundle stores them in (read back by runtime/fuzzy.ts
// readU32 and its neighbours).

/** Each value as 4 bytes, little-endian. */
export function u32Bytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]!, true);
  return out;
}

/** Each value as 2 bytes, little-endian. */
export function u16Bytes(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) view.setUint16(i * 2, values[i]!, true);
  return out;
}
