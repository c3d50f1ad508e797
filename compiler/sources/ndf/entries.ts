// Lowering NDF entry files (dataset_*.json, templates_*.json, personality.json) into IR intents.
import { nearMiss, type DiagnosticBag } from "../../diagnostics.js";
import type { Intent, LocatedText, Permission, TemplateNode, TemplatePath, WordList } from "../../ir/types.js";
import { PERMISSIONS } from "../../ir/types.js";
import { NDF_CODES } from "./codes.js";
import { locOf, membersOf, toValue, type JsonNode, type ObjectNode } from "./json-ast.js";
import { KNOWN_ENTRY_KEYS, KNOWN_NODE_KEYS } from "./schemas.js";
import { setOwn } from "../../own-property.js";
import { lowerTools } from "./tools.js";

export interface EntriesFragment {
  intents: Intent[];
  /** Blocks without input or structure whose values are all strings or lists of strings (`completion`, `unknown`…). */
  wordLists: WordList[];
}

export function lowerEntriesFile(relPath: string, root: JsonNode, bag: DiagnosticBag): EntriesFragment {
  const fragment: EntriesFragment = { intents: [], wordLists: [] };
  if (root.type !== "Array") return fragment; // the schema check already reported it
  root.elements.forEach((node, index) => {
    if (node.type !== "Object") return;
    const id = `${relPath}#${index}`;
    if (isWordListBlock(node)) {
      fragment.wordLists.push(...wordListsOf(node));
      return;
    }
    fragment.intents.push(lowerEntry(node, id, bag));
  });
  return fragment;
}

/** Strips `<||` and `||>` from a tag. */
export function tagName(tag: string): string {
  return tag.startsWith("<||") && tag.endsWith("||>") ? tag.slice(3, -3) : tag;
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

function lowerEntry(node: ObjectNode, id: string, bag: DiagnosticBag): Intent {
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
    paths: structure ? lowerStructure(structure, bag) : [],
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
  if (context) intent.context = lowerContext(context, intent.id, bag);
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

function lowerContext(node: JsonNode, parentId: string, bag: DiagnosticBag): Intent[] {
  if (node.type !== "Array") return []; // NDF: a non-list context clears it (the schema check reports the shape)
  return node.elements.flatMap((element, index) =>
    element.type === "Object" ? [lowerEntry(element, `${parentId}/context#${index}`, bag)] : [],
  );
}

function lowerStructure(node: JsonNode, bag: DiagnosticBag): TemplatePath[] {
  if (node.type !== "Array") return [];
  return node.elements.flatMap((path) => {
    if (path.type !== "Array") return [];
    const nodes = path.elements.flatMap((e) => (e.type === "Object" ? lowerNode(e, bag) : []));
    return nodes.length > 0 ? [{ nodes, loc: locOf(path) }] : [];
  });
}

function lowerNode(node: ObjectNode, bag: DiagnosticBag): TemplateNode[] {
  // One pass over the members, no map: a big templates file has tens of thousands of nodes.
  let tag: JsonNode | undefined;
  let type: JsonNode | undefined;
  let required: JsonNode | undefined;
  let list: JsonNode | undefined;
  let range: JsonNode | undefined;
  for (const { name, value } of node.members) {
    switch (name.value) {
      case "tag":
        tag = value;
        break;
      case "type":
        type = value;
        break;
      case "required":
        required = value;
        break;
      case "list":
        list = value;
        break;
      case "range":
        range = value;
        break;
      default:
        if (!KNOWN_NODE_KEYS.includes(name.value)) {
          bag.warning(NDF_CODES.unknownKey, `unknown key "${name.value}" in a template node: nodes have tag, type, required (and ndfc's list and range); it is ignored`, locOf(name));
        }
    }
  }
  const tags = tag ? tagNames(tag) : [];
  if (tags.length === 0 || type?.type !== "String") return []; // reported by the schema check
  const lowered: TemplateNode = { tags, type: type.value, required: required?.type === "Boolean" ? required.value : true, loc: locOf(node) };
  if (type.value === "list" && list?.type === "String") lowered.list = list.value;
  if (type.value === "range" && range !== undefined) {
    const bounds = toValue(range) as { min?: unknown; max?: unknown; unit?: unknown };
    if (typeof bounds.min === "number" && typeof bounds.max === "number") {
      lowered.range = { min: bounds.min, max: bounds.max, unit: typeof bounds.unit === "string" ? bounds.unit : "" };
      if (bounds.min > bounds.max) bag.error(NDF_CODES.schema, `the range ${bounds.min}..${bounds.max} is inverted: write the smaller number as min`, locOf(range));
    }
  }
  return [lowered];
}

/** The tag names of a node's `tag` (a string or a list of strings); no location is needed for them. */
function tagNames(node: JsonNode): string[] {
  if (node.type === "String") return [tagName(node.value)];
  if (node.type !== "Array") return [];
  return node.elements.flatMap((e) => (e.type === "String" ? [tagName(e.value)] : []));
}

/** An unknown key close to a known one (`otuput`) is almost certainly a typo; others are custom tags. */
export function reportLikelyTypo(key: string, loc: ReturnType<typeof locOf>, bag: DiagnosticBag, known: readonly string[] = KNOWN_ENTRY_KEYS): void {
  if (key.length < 4) return;
  const guess = nearMiss(key, known);
  if (guess !== undefined) {
    bag.warning(NDF_CODES.unknownKey, `unknown key "${key}": did you mean "${guess}"? (as written it is only a custom <||${key}||> tag)`, loc);
  }
}
