// Value lists: a spoken form given twice in one list (several files may add to a list) can only
// ever capture its first value, as compute-lists.ts builds the table.
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
}
