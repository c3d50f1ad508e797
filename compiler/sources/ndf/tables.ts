// Lowering the NDF lookup tables: types.json, vocabulary/templates.json, vocabulary/vocabulary.json,
// and ndfc's extension vocabulary/lists.json.
import type { SynonymSet, TypeDef, ValueList, WordList } from "../../ir/types.js";
import { normalizeKey } from "../../../runtime/text/normalize.js";
import { tagName } from "./node.js";
import { locOf, membersOf, type JsonNode } from "./json-ast.js";

function stringMembers(root: JsonNode) {
  return root.type === "Object" ? membersOf(root) : [];
}

function strings(node: JsonNode): string[] {
  return node.type === "Array" ? node.elements.flatMap((e) => (e.type === "String" ? [e.value] : [])) : [];
}

export function lowerTypes(root: JsonNode): TypeDef[] {
  return stringMembers(root).flatMap(({ key, value, keyNode }) =>
    value.type === "String" ? [{ name: tagName(key), pattern: value.value, flags: "", loc: locOf(keyNode) }] : [],
  );
}

export function lowerSynonyms(root: JsonNode): SynonymSet[] {
  return stringMembers(root).map(({ key, value, keyNode }) => ({ tag: tagName(key), words: strings(value), loc: locOf(keyNode) }));
}

export function lowerWordLists(root: JsonNode): WordList[] {
  return stringMembers(root).map(({ key, value, keyNode }) => ({ name: key, words: strings(value), loc: locOf(keyNode) }));
}

/** `{"area": {"living room": "living_room", …}}`: each list's spoken forms and their values. */
export function lowerValueLists(root: JsonNode): ValueList[] {
  return stringMembers(root).map(({ key, value, keyNode }) => ({
    name: key,
    values: stringMembers(value).flatMap((m) => {
      const spoken = normalizeKey(m.key);
      return m.value.type === "String" && spoken.length > 0 ? [{ spoken, value: m.value.value, loc: locOf(m.keyNode) }] : [];
    }),
    loc: locOf(keyNode),
  }));
}
