// References that nothing defines: vocab tags, node types, and <||tags||> in what the NPC says or runs.
import type { DiagnosticBag } from "../diagnostics.js";
import type { Intent, NpcIR, SourceLocation } from "../ir/types.js";
import { allIntents, slotNames, tagReferences } from "../ir/walk.js";
import { CODES } from "./codes.js";

/** Types every NPC has, whether or not types.json lists them. */
export const BUILTIN_TYPES = new Set(["vocab", "string"]);

/** Values the runtime fills from the session and the config, whatever the dataset says. */
export const SYSTEM_TAGS = new Set(["username", "computer_name", "npc_name", "creator", "creation_date", "related", "response_classes"]);

export function checkReferences(ir: NpcIR, bag: DiagnosticBag): void {
  const vocabTags = new Set(ir.synonyms.map((s) => s.tag));
  const types = new Set([...BUILTIN_TYPES, ...ir.types.map((t) => t.name)]);
  const globalTags = globallyFillableTags(ir);

  for (const intent of allIntents(ir)) {
    for (const path of intent.paths) {
      for (const node of path.nodes) {
        if (node.type === "vocab") {
          for (const tag of node.tags) {
            if (!vocabTags.has(tag)) {
              bag.warning(CODES.undefinedVocabTag, `vocab tag <||${tag}||> is not defined in vocabulary/templates.json, so this node never matches; add "<||${tag}||>": [synonyms…]`, node.loc);
            }
          }
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
  const own = new Set([...slotNames(intent), ...ownKeys(intent)]);
  if (own.has("string")) own.add("content"); // NDF fills <||content||> from the string slot
  const fillable = (name: string) => own.has(name) || globalTags.has(name);
  const texts: { text: string; loc: SourceLocation }[] = [
    ...intent.outputs.map((t) => ({ text: t.value, loc: t.loc })),
    ...intent.thinking.map((t) => ({ text: t.value, loc: t.loc })),
    ...(intent.description ? [{ text: intent.description.value, loc: intent.description.loc }] : []),
    ...intent.tools.flatMap((tool) => stringsIn(tool.arguments).map((text) => ({ text, loc: tool.commandLoc ?? tool.loc }))),
  ];
  const reported = new Set<string>();
  for (const { text, loc } of texts) {
    for (const ref of tagReferences(text)) {
      const key = `${loc.offset}|${ref.name}`;
      if (!fillable(ref.name) && !reported.has(key)) {
        reported.add(key);
        bag.warning(CODES.unfillableTag, `<||${ref.name}||> is filled by nothing (no slot, word list, system value or key of this entry), so it renders empty`, loc);
      }
    }
  }
}

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}
