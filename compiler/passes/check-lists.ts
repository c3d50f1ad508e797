// Value lists: a spoken form given twice in one list (several files may add to a list) can only
// ever capture its first value, as compute-lists.ts builds the table. Two values a typo apart
// (runtime/match/match-template.ts corrects list words within the strict word budget) get a note.
import { deletionVariants, osaDistance, wordEditBudget } from "../../runtime/text/fuzzy.js";
import type { DiagnosticBag } from "../diagnostics.js";
import type { ListValue, NpcIR } from "../ir/types.js";
import { CODES } from "../codes.js";

export function checkLists(ir: NpcIR, bag: DiagnosticBag): void {
  const firstByList = new Map<string, Map<string, ListValue>>();
  for (const list of ir.lists) {
    let first = firstByList.get(list.name);
    if (first === undefined) firstByList.set(list.name, (first = new Map()));
    for (const value of list.values) {
      const earlier = first.get(value.spoken);
      if (earlier === undefined) {
        first.set(value.spoken, value);
        continue;
      }
      const what = earlier.value === value.value ? `again (value "${value.value}"): remove this one` : `with the value "${earlier.value}" already, so "${value.value}" is never captured for it: keep one`;
      bag.warning(CODES.shadowedListValue, `"${value.spoken}" is in list :${list.name} ${what}`, value.loc, [{ message: "listed first here", loc: earlier.loc }]);
    }
  }
  for (const [name, first] of firstByList) reportCloseValues(name, [...first.values()], bag);
}

/**
 * Pairs of spoken forms with different values, alike but for one word that is within the strict
 * edit budget of the other's ("shut" / "shot"). Candidates share a deletion variant of that word
 * (symmetric delete), so a 5,000-value list is not compared pair by pair. Words with digits are
 * left out: the runtime corrects only word tokens.
 */
function reportCloseValues(name: string, values: readonly ListValue[], bag: DiagnosticBag): void {
  const buckets = new Map<string, number[]>();
  const reported = new Set<string>();
  values.forEach((entry, index) => {
    const words = entry.spoken.split(" ");
    words.forEach((word, position) => {
      if (/\d/.test(word)) return;
      const rest = [...words.slice(0, position), "", ...words.slice(position + 1)].join(" ");
      for (const variant of deletionVariants(word, wordEditBudget(word.length))) {
        const key = `${rest}\u0000${variant}`;
        const bucket = buckets.get(key) ?? [];
        buckets.set(key, bucket);
        for (const other of bucket) {
          const earlier = values[other]!;
          const otherWord = earlier.spoken.split(" ")[position]!;
          const limit = Math.min(wordEditBudget(word.length), wordEditBudget(otherWord.length));
          const pair = `${other} ${index}`;
          if (earlier.value === entry.value || reported.has(pair) || osaDistance(word, otherWord, limit) > limit) continue;
          reported.add(pair);
          bag.info(CODES.closeListValues, `"${entry.spoken}" (value "${entry.value}") and "${earlier.spoken}" (value "${earlier.value}") in list :${name} are a typo apart ("${word}" / "${otherWord}"): a misspelling may read as either, or as neither when equally close`, entry.loc, [{ message: "the other one", loc: earlier.loc }]);
        }
        bucket.push(index);
      }
    });
  });
}
