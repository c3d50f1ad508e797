// Lowering one plain node of an NDF structure path (`{tag, type, required}` and ndfc's `list` and
// `range`) into a TemplateNode; group nodes (choice, permutation, expansion) are structure.ts's.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { TemplateNode } from "../../ir/types.js";
import { NDF_CODES } from "./codes.js";
import { locOf, toValue, type JsonNode, type ObjectNode } from "./json-ast.js";
import { KNOWN_NODE_KEYS } from "./schemas.js";

/** Strips `<||` and `||>` from a tag. */
export function tagName(tag: string): string {
  return tag.startsWith("<||") && tag.endsWith("||>") ? tag.slice(3, -3) : tag;
}

/** The node, or nothing when it is malformed (the schema check reports it). */
export function lowerNode(node: ObjectNode, bag: DiagnosticBag): TemplateNode[] {
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
          bag.warning(NDF_CODES.unknownKey, `unknown key "${name.value}" in a template node: nodes have tag, type, required (and ndfc's list and range; or are a choice, permutation or expansion node); it is ignored`, locOf(name));
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
