// Lowering NDF entry files (dataset_*.json, templates_*.json, personality.json) into IR intents.
import { nearMiss, type DiagnosticBag } from "../../diagnostics.js";
import type { Intent, LocatedText, Permission, WordList } from "../../ir/types.js";
import { PERMISSIONS } from "../../ir/types.js";
import { NDF_CODES } from "./codes.js";
import { locOf, membersOf, toValue, type JsonNode, type ObjectNode } from "./json-ast.js";
import { KNOWN_ENTRY_KEYS } from "./schemas.js";
import { setOwn } from "../../own-property.js";
import { lowerStructurePaths, type NdfExpansions } from "./structure.js";
import { lowerTools } from "./tools.js";

export interface EntriesFragment {
  intents: Intent[];
  /** Blocks without input or structure whose values are all strings or lists of strings (`completion`, `unknown`…). */
  wordLists: WordList[];
}

export function lowerEntriesFile(relPath: string, root: JsonNode, bag: DiagnosticBag, expansions: NdfExpansions): EntriesFragment {
  const fragment: EntriesFragment = { intents: [], wordLists: [] };
  if (root.type !== "Array") return fragment; // the schema check already reported it
  root.elements.forEach((node, index) => {
    if (node.type !== "Object") return;
    const id = `${relPath}#${index}`;
    if (isWordListBlock(node)) {
      fragment.wordLists.push(...wordListsOf(node));
      return;
    }
    fragment.intents.push(lowerEntry(node, id, bag, expansions));
  });
  return fragment;
}

function isWordListBlock(node: ObjectNode): boolean {
  const members = membersOf(node);
  if (members.some((m) => m.key === "input" || m.key === "structure")) return false;
  return members.length > 0 && members.every((m) => isStringOrStrings(m.value));
}

function isStringOrStrings(node: JsonNode): boolean {
  return node.type === "String" || (node.type === "Array" && node.elements.every((e) => e.type === "String"));
}

function wordListsOf(node: ObjectNode): WordList[] {
  return membersOf(node).map((m) => ({ name: m.key, words: texts(m.value).map((t) => t.value), loc: locOf(m.keyNode) }));
}

function texts(node: JsonNode): LocatedText[] {
  if (node.type === "String") return [{ value: node.value, loc: locOf(node) }];
  if (node.type === "Array") {
    return node.elements.flatMap((e) => (e.type === "String" ? [{ value: e.value, loc: locOf(e) }] : []));
  }
  return [];
}

function lowerEntry(node: ObjectNode, id: string, bag: DiagnosticBag, expansions: NdfExpansions): Intent {
  const members = new Map(membersOf(node).map((m) => [m.key, m]));
  const keyLocs: Record<string, ReturnType<typeof locOf>> = {};
  for (const [key, m] of members) keyLocs[key] = locOf(m.keyNode);
  const value = (key: string) => members.get(key)?.value;
  const string = (key: string) => {
    const v = value(key);
    return v?.type === "String" ? v.value : undefined;
  };

  const permissionValue = string("permission");
  const permissionExplicit = permissionValue !== undefined && (PERMISSIONS as readonly string[]).includes(permissionValue);
  const structure = value("structure");
  const outputNode = value("output") ?? value("message");
  const descriptionNode = value("description");
  const intentName = string("intent");

  const intent: Intent = {
    id: intentName ?? id,
    kind: structure ? "template" : "entry",
    loc: locOf(node),
    inputs: value("input") ? texts(value("input")!) : [],
    paths: structure ? lowerStructurePaths(structure, bag, expansions) : [],
    outputs: outputNode ? texts(outputNode) : [],
    thinking: value("thinking") ? texts(value("thinking")!) : [],
    tools: value("tools") ? lowerTools(value("tools")!, bag) : [],
    permission: permissionExplicit ? (permissionValue as Permission) : "ask",
    permissionExplicit,
    extra: {},
    keyLocs,
  };
  if (descriptionNode?.type === "String") intent.description = { value: descriptionNode.value, loc: locOf(descriptionNode) };
  const category = string("category");
  if (category !== undefined) intent.category = category;

  const context = value("context");
  if (context) intent.context = lowerContext(context, intent.id, bag, expansions);
  const slots = value("slots");
  if (slots?.type === "Object") {
    intent.fixedSlots = Object.fromEntries(membersOf(slots).flatMap((m) => (m.value.type === "String" ? [[m.key, m.value.value]] : [])));
  }

  for (const [key, m] of members) {
    if (KNOWN_ENTRY_KEYS.includes(key)) continue;
    setOwn(intent.extra, key, toValue(m.value));
    reportLikelyTypo(key, locOf(m.keyNode), bag);
  }
  if (intent.inputs.length === 0 && intent.paths.length === 0) {
    bag.warning(NDF_CODES.unreachableEntry, "entry has neither `input` nor `structure`, so no message can reach it", intent.loc);
  }
  return intent;
}

function lowerContext(node: JsonNode, parentId: string, bag: DiagnosticBag, expansions: NdfExpansions): Intent[] {
  if (node.type !== "Array") return []; // NDF: a non-list context clears it (the schema check reports the shape)
  return node.elements.flatMap((element, index) =>
    element.type === "Object" ? [lowerEntry(element, `${parentId}/context#${index}`, bag, expansions)] : [],
  );
}

/** An unknown key close to a known one (`otuput`) is almost certainly a typo; others are custom tags. */
export function reportLikelyTypo(key: string, loc: ReturnType<typeof locOf>, bag: DiagnosticBag, known: readonly string[] = KNOWN_ENTRY_KEYS): void {
  if (key.length < 4) return;
  const guess = nearMiss(key, known);
  if (guess !== undefined) {
    bag.warning(NDF_CODES.unknownKey, `unknown key "${key}": did you mean "${guess}"? (as written it is only a custom <||${key}||> tag)`, loc);
  }
}
