// The word lists as a bundle stores them (format 13.0, BundleWordLists): names in a sorted string
// table, every variant's segments one after the other in another, and two offset sections (each
// list's first variant, each variant's first segment). A load makes no string and no array of them
// (corpus TERMy's 920 strings in 916 arrays were about 4 ms of its load); a list is found by binary
// search and made into its Segments the first time a message renders it. A hostile table (unsorted
// names, segments shifted between variants) only finds less or renders other text: the validator
// has checked every offset, so no read goes out of bounds.

import type { BundleWordLists, Segments } from "./bundle-types.js";

export class WordLists {
  /** Lists made so far, by id; made on the first read. */
  #made: (Segments[] | undefined)[] | undefined;

  constructor(private readonly stored: BundleWordLists) {}

  /** The variants of list `name`, or undefined when there is no such list. */
  get(name: string): Segments[] | undefined {
    const id = this.stored.names.get(name);
    if (id === undefined) return undefined;
    const made = (this.#made ??= new Array<Segments[] | undefined>(this.stored.names.length));
    return (made[id] ??= this.#variants(id));
  }

  #variants(id: number): Segments[] {
    const { variants, starts, segments } = this.stored;
    const out: Segments[] = [];
    for (let v = variants[id]!; v < variants[id + 1]!; v++) {
      const variant: Segments = [];
      for (let k = starts[v]!; k < starts[v + 1]!; k++) variant.push(segments.at(k));
      out.push(variant);
    }
    return out;
  }
}
