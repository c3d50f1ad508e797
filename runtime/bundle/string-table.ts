// A bundle's sorted string list (format 7.0: exact-table keys, lexicon words, stems, action words;
// format 10.0 stores the intent ids so too, in intent order, read by index only):
// the strings' UTF-8 bytes one after another in one section, and in a u32 section where each
// starts (one more than there are strings: the last is the byte count). A load makes no JS string
// of them: its check is one typed pass over the offsets and one native UTF-8 check of the bytes
// (problem, below). A string is decoded the first time it is read and then kept, and a lookup is
// a binary search that decodes only what it compares (about log2 n strings, the same few at the top
// of every search). The compiler sorts the strings in code-unit order (the order of `<`); a hostile
// bundle's unsorted list only finds less.

/** Decodes one string (BOM kept: it is a character of the string, not a marker). */
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
/** Checks the whole of a table's bytes at load, so that no later decode can fail. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The UTF-8 text of bytes[start, end): short ASCII (most words) by hand, which beats TextDecoder's call. */
export function utf8Text(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < 16) {
    let out = "";
    for (let i = start; i < end; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) return utf8.decode(bytes.subarray(start, end));
      out += String.fromCharCode(c);
    }
    return out;
  }
  return utf8.decode(bytes.subarray(start, end));
}

export class StringTable {
  /** Strings decoded so far, by index; made on the first read. Private so a table compares by its bytes. */
  #decoded: (string | undefined)[] | undefined;

  /** `decoded`: the strings themselves, when the caller has them (the compiler). */
  constructor(
    readonly bytes: Uint8Array,
    readonly starts: Uint32Array,
    decoded?: string[],
  ) {
    this.#decoded = decoded;
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** The string at `index` (below length). */
  at(index: number): string {
    const decoded = (this.#decoded ??= new Array<string | undefined>(this.length));
    return (decoded[index] ??= utf8Text(this.bytes, this.starts[index]!, this.starts[index + 1]!));
  }

  /** The index of `key`, or undefined. */
  get(key: string): number | undefined {
    // at() only for a string not decoded yet: a lookup compares about log2 n strings, mostly the
    // same few, and under --jitless (small CPUs) a call per comparison was a tenth of an exact answer.
    const decoded = (this.#decoded ??= new Array<string | undefined>(this.length));
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = decoded[mid] ?? this.at(mid);
      if (at === key) return mid;
      if (at < key) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * Why the table is malformed (offsets from 0 to the byte count, ascending, each at the start of
   * a character; the bytes valid UTF-8), or null. Together these make every string valid UTF-8.
   */
  problem(): string | null {
    const { bytes, starts } = this;
    if (bytes.constructor !== Uint8Array || starts.constructor !== Uint32Array) return "expected a Uint8Array of UTF-8 and a Uint32Array of offsets";
    if (starts[0] !== 0) return "the first offset is not 0";
    for (let i = 1; i < starts.length; i++) {
      const at = starts[i]!;
      if (at > bytes.length) return `offset ${i} (${at}) is past the ${bytes.length} bytes of the strings`;
      if (at < starts[i - 1]!) return `offset ${i} (${at}) is below the one before it`;
      if ((bytes[at]! & 0xc0) === 0x80) return `offset ${i} (${at}) falls inside a UTF-8 character`;
    }
    if (starts[starts.length - 1] !== bytes.length) return `the last offset is not the end of the ${bytes.length} bytes of the strings`;
    try {
      strictUtf8.decode(bytes);
    } catch {
      return "the strings are not valid UTF-8";
    }
    return null;
  }
}

/** Every string of a table, in order (the compiler's and the tests' view; the runtime reads one at a time). */
export function stringsOf(table: StringTable): string[] {
  return Array.from({ length: table.length }, (_, i) => table.at(i));
}
