// Lowering the NDF lookup tables: types.json, vocabulary/templates.json, vocabulary/vocabulary.json.
import type { SynonymSet, TypeDef, WordList } from "../../ir/types.js";
import { tagName } from "./entries.js";
import { locOf, membersOf, type JsonNode } from "./json-ast.js";

function stringMembers(root: JsonNode) {
  return root.type === "Object" ? membersOf(root) : [];
}

function strings(node: JsonNode): string[] {
  return node.type === "Array" ? node.elements.flatMap((e) => (e.value.type === "String" ? [e.value.value] : [])) : [];
}

export function lowerTypes(file: string, root: JsonNode): TypeDef[] {
  return stringMembers(root).flatMap(({ key, value, keyNode }) =>
    value.type === "String" ? [{ name: tagName(key), pattern: value.value, flags: "", loc: locOf(keyNode, file) }] : [],
  );
}

export function lowerSynonyms(file: string, root: JsonNode): SynonymSet[] {
  return stringMembers(root).map(({ key, value, keyNode }) => ({ tag: tagName(key), words: strings(value), loc: locOf(keyNode, file) }));
}

export function lowerWordLists(file: string, root: JsonNode): WordList[] {
  return stringMembers(root).map(({ key, value, keyNode }) => ({ name: key, words: strings(value), loc: locOf(keyNode, file) }));
}
