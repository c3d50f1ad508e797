// References that nothing defines: vocab tags, node types, value lists, and <||tags||> in what the
// NPC says or runs; and expansion rules nested deeper than a thread's return stack may grow.
import type { DiagnosticBag } from "../diagnostics.js";
import type { Intent, NpcIR, SourceLocation } from "../ir/types.js";
import { allIntents, slotNames, tagReferences } from "../ir/walk.js";
import { CODES } from "../codes.js";
import { ruleNestedPast, templateNodes } from "../ir/template-parts.js";
import { MAX_CALL_DEPTH } from "../../runtime/bundle/automaton-frames.js";

/** Types every NPC has, whether or not types.json lists them. */
export const BUILTIN_TYPES = new Set(["vocab", "string", "list", "range"]);

/** Values the runtime fills from the session and the config, whatever the dataset says. */
export const SYSTEM_TAGS = new Set(["username", "computer_name", "npc_name", "creator", "creation_date", "related", "response_classes"]);

export function checkReferences(ir: NpcIR, bag: DiagnosticBag): void {
  const vocabTags = new Set(ir.synonyms.map((s) => s.tag));
  const types = new Set([...BUILTIN_TYPES, ...ir.types.map((t) => t.name)]);
  const lists = new Set(ir.lists.map((list) => list.name));
  const globalTags = globallyFillableTags(ir);

  for (const intent of allIntents(ir)) {
    for (const path of intent.paths) {
      const deep = ruleNestedPast(path.nodes, MAX_CALL_DEPTH);
      if (deep !== undefined) {
        bag.error(CODES.rulesTooDeep, `<${deep.rule}> is expansion rule ${MAX_CALL_DEPTH + 1} deep here (rules using rules): at most ${MAX_CALL_DEPTH} may nest, so this template is left out; write a level out`, deep.loc);
      }
      for (const node of templateNodes(path.nodes)) {
        if (node.type === "vocab") {
          for (const tag of node.tags) {
            if (!vocabTags.has(tag)) {
              bag.warning(CODES.undefinedVocabTag, `vocab tag <||${tag}||> is not defined in vocabulary/templates.json, so this node never matches; add "<||${tag}||>": [synonyms…]`, node.loc);
            }
          }
        } else if (node.type === "list" && !lists.has(node.list ?? "")) {
          bag.error(CODES.undefinedList, `list "${node.list}" is not defined, so this slot never matches; add list :${node.list}, "value", … (DSL) or "${node.list}" to vocabulary/lists.json (NDF)`, node.loc);
        } else if (!types.has(node.type)) {
          bag.warning(CODES.undefinedType, `type "${node.type}" is not defined in types.json, so this node never matches; add "<||${node.type}||>": "regex"`, node.loc);
        }
      }
    }
    checkRenderedTags(intent, globalTags, bag);
  }
}

/** Tags every intent can render: system values, word lists (also without `_words`), config keys. */
export function globallyFillableTags(ir: NpcIR): Set<string> {
  const tags = new Set(SYSTEM_TAGS);
  for (const list of ir.wordLists) {
    tags.add(list.name);
    if (list.name.endsWith("_words")) tags.add(list.name.slice(0, -"_words".length));
  }
  Object.keys(ir.config.extra).forEach((key) => tags.add(key));
  return tags;
}

/** An entry's own keys, which render as `<||key||>` for that entry only. */
export function ownKeys(intent: Intent): string[] {
  return [...Object.keys(intent.extra), ...Object.keys(intent.keyLocs)];
}

function checkRenderedTags(intent: Intent, globalTags: Set<string>, bag: DiagnosticBag): void {
  // The entry's own names, gathered only when a tag is not one every intent can fill.
  let own: Set<string> | undefined;
  const fillable = (name: string): boolean => {
    if (globalTags.has(name)) return true;
    if (own === undefined) {
      own = slotNames(intent);
      for (const key of ownKeys(intent)) own.add(key);
      if (own.has("string")) own.add("content"); // NDF fills <||content||> from the string slot
    }
    return own.has(name);
  };
  const reported = new Set<string>();
  const check = (text: string, loc: SourceLocation): void => {
    for (const ref of tagReferences(text)) {
      const key = `${loc.offset}|${ref.name}`;
      if (!fillable(ref.name) && !reported.has(key)) {
        reported.add(key);
        bag.warning(CODES.unfillableTag, `<||${ref.name}||> is filled by nothing (no slot, word list, system value or key of this entry), so it renders empty`, loc);
      }
    }
  };
  for (const text of intent.outputs) check(text.value, text.loc);
  for (const text of intent.thinking) check(text.value, text.loc);
  if (intent.description) check(intent.description.value, intent.description.loc);
  for (const tool of intent.tools) {
    const loc = tool.commandLoc ?? tool.loc;
    forEachString(tool.arguments, (text) => check(text, loc));
  }
}

/** Every string inside a JSON-like value, depth first in key order. */
function forEachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) forEachString(item, visit);
  else if (value && typeof value === "object") for (const item of Object.values(value)) forEachString(item, visit);
}
