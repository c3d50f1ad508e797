// Compute pass: the value lists of list slots, as the runtime looks them up (by first word), and
// the number words of number slots. Lists of one name from several files merge; a spoken form
// keeps its first value (check-lists.ts reports the others), so the table is deterministic.

import type { ValueList } from "../ir/types.js";
import type { BundleList } from "../../runtime/bundle/bundle-types.js";
import { compareStrings } from "../order.js";

export interface ListsResult {
  lists: BundleList[];
  /** List name → index in `lists`. */
  ids: Map<string, number>;
}

export function computeLists(valueLists: readonly ValueList[]): ListsResult {
  const merged = new Map<string, BundleList>();
  const seen = new Map<string, Set<string>>();
  for (const list of valueLists) {
    let out = merged.get(list.name);
    if (out === undefined) merged.set(list.name, (out = { name: list.name, phrases: [], values: [] }));
    const spokenSeen = seen.get(list.name) ?? new Set<string>();
    seen.set(list.name, spokenSeen);
    for (const { spoken, value } of list.values) {
      if (spokenSeen.has(spoken)) continue;
      spokenSeen.add(spoken);
      let valueId = out.values.indexOf(value);
      if (valueId === -1) valueId = out.values.push(value) - 1;
      out.phrases.push([spoken.split(" "), valueId]);
    }
  }
  const lists = [...merged.values()].sort((a, b) => compareStrings(a.name, b.name));
  return { lists, ids: new Map(lists.map((list, id) => [list.name, id])) };
}

/** English number words: units and tens add, `hundred` multiplies (runtime/match/match-template.ts). */
const NUMBER_WORDS: [string, number][] = [
  ..."zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
    .split(" ")
    .map((word, n): [string, number] => [word, n]),
  ..."twenty thirty forty fifty sixty seventy eighty ninety".split(" ").map((word, k): [string, number] => [word, 20 + 10 * k]),
  ["hundred", 100],
  ["a", 1], // "in a minute", "a hundred"
];

/** The number-word table, shipped only when some slot reads numbers. */
export function computeNumberWords(rangeCount: number): [string, number][] {
  return rangeCount === 0 ? [] : NUMBER_WORDS;
}
