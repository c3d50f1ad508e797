// Typed-array sections of a 4.x bundle, shared by the reader (plain-msgpack.ts) and the writer
// (encode.ts). A payload field holding a typed array is written as a section: its little-endian
// bytes go to the section area after the msgpack part, and the msgpack part holds a reference,
// the extension SECTION_EXT with 9 bytes: kind (u8, an index into SECTION_KINDS), byte offset into
// the area (u32 LE) and byte length (u32 LE). The reader returns a view of the area (no copy).
// Sections follow each other in the order their references are met, each at a multiple of
// SECTION_ALIGN, so a view of any kind is aligned when the area is.

/** The typed arrays a section can hold; the index is the kind byte of a reference. */
export const SECTION_KINDS = [Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array] as const;

export type SectionArray = InstanceType<(typeof SECTION_KINDS)[number]>;

/** msgpack extension type of a section reference ("S"). */
export const SECTION_EXT = 0x53;
/**
 * msgpack extension type of a string table ("T", string-table.ts): two section references' data
 * one after the other, its UTF-8 bytes (a Uint8Array) then its offsets (a Uint32Array).
 */
export const STRINGS_EXT = 0x54;
/** Bytes of a reference's data: kind, offset, length. */
export const SECTION_REF_BYTES = 9;
/** Every section (and the area itself, from the file's start) begins at a multiple of this. */
export const SECTION_ALIGN = 8;

export const alignUp = (n: number): number => Math.ceil(n / SECTION_ALIGN) * SECTION_ALIGN;

/** Whether this host stores typed arrays little-endian (every current CPU; sections are LE). */
export const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
