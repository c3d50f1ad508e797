// Slot typing across files. Within one DSL file a `:slot` named like one of its `types` is typed
// by the lowering; a type defined elsewhere in the NPC (types.json, another .rules file) is only
// known once the loader has merged every source, so the loader calls this at the end.
import type { Intent, TypeDef, ValueList } from "../../ir/types.js";
import { isDslFile } from "../ndf/files.js";

/**
 * Gives each DSL slot lowered as a free `string` the type of the same name, when the NPC defines
 * one, else the list of the same name (a type wins, as within one file).
 */
export function typeDslSlots(intents: readonly Intent[], types: readonly TypeDef[], lists: readonly ValueList[]): void {
  const typeNames = new Set(types.map((type) => type.name));
  const listNames = new Set(lists.map((list) => list.name));
  const visit = (intent: Intent): void => {
    if (isDslFile(intent.loc.file)) {
      for (const path of intent.paths) {
        for (const node of path.nodes) {
          const [name] = node.tags;
          if (node.type !== "string" || node.tags.length !== 1 || name === undefined) continue;
          if (typeNames.has(name)) node.type = name;
          else if (listNames.has(name)) Object.assign(node, { type: "list", list: name });
        }
      }
    }
    intent.context?.forEach(visit);
  };
  intents.forEach(visit);
}
