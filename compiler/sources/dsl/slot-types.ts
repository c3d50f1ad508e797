// Slot typing across files. Within one DSL file a `:slot` named like one of its `types` is typed
// by the lowering; a type defined elsewhere in the NPC (types.json, another .rules file) is only
// known once the loader has merged every source, so the loader calls this at the end. A glued
// list slot `:area['s]` reads the list `area['s]`, derived here from `area` wherever it is defined.
import type { Intent, ListValue, TypeDef, ValueList } from "../../ir/types.js";
import { isDslFile } from "../ndf/files.js";
import { templateNodes } from "../../ir/template-parts.js";

/**
 * Resolves what each slot reads once every source is merged: a DSL slot lowered as a free
 * `string` gets the type of the same name when the NPC defines one, else the list of the same
 * name (a type wins, as within one file); a glued list slot of DSL or NDF (`"list": "area['s]"`)
 * gets its derived list.
 */
export function resolveSlotReferences(intents: readonly Intent[], types: readonly TypeDef[], lists: ValueList[]): void {
  const typeNames = new Set(types.map((type) => type.name));
  const listNames = new Set(lists.map((list) => list.name));
  const glued = new Map<string, ValueList>();
  const visit = (intent: Intent): void => {
    const dsl = isDslFile(intent.loc.file);
    for (const path of intent.paths) {
      for (const node of templateNodes(path.nodes)) {
        if (node.type === "list") {
          const gluing = GLUED_LIST.exec(node.list ?? "");
          if (gluing === null) continue;
          const base = gluing[1]!;
          // without its base list the slot is reported as an undefined list of the name written
          if (!listNames.has(base)) node.list = base;
          else if (!glued.has(node.list!)) glued.set(node.list!, gluedList(lists, base, gluing[2]!));
        } else if (dsl && node.type === "string" && node.tags.length === 1) {
          const name = node.tags[0]!;
          if (typeNames.has(name)) node.type = name;
          else if (listNames.has(name)) Object.assign(node, { type: "list", list: name });
        }
      }
    }
    intent.context?.forEach(visit);
  };
  intents.forEach(visit);
  lists.push(...glued.values());
}

/** `area['s]`: the name of list `area` with suffix `'s` glued (no list name can be written so). */
export function gluedListName(base: string, suffix: string): string {
  return `${base}[${suffix}]`;
}

const GLUED_LIST = /^([A-Za-z_][A-Za-z0-9_]*)\[(.+)\]$/;

/**
 * List `base` (all its parts, in source order) with each spoken form also glued: "living room"
 * gives "living room" and "living room's". A glued form that another value already speaks stays,
 * so check-lists.ts reports the clash; one that repeats its own value does not.
 */
function gluedList(lists: readonly ValueList[], base: string, suffix: string): ValueList {
  const parts = lists.filter((list) => list.name === base);
  const plain = parts.flatMap((list) => list.values);
  const valueOf = new Map<string, string>();
  for (const { spoken, value } of plain) if (!valueOf.has(spoken)) valueOf.set(spoken, value);
  const withSuffix: ListValue[] = [];
  for (const entry of plain) {
    const spoken = entry.spoken + suffix;
    if (valueOf.get(spoken) !== entry.value) withSuffix.push({ ...entry, spoken });
  }
  return { name: gluedListName(base, suffix), values: [...plain, ...withSuffix], loc: parts[0]!.loc };
}
