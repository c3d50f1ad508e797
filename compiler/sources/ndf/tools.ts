// Lowering an entry's `tools` into IR tool calls. Two shapes are accepted: NDF's own
// `{name, arguments}` and OpenAI's `{type: "function", function: {name, arguments}}` (the shape of
// the OpenAI API and VS Code, which NPC-Forge's engine also reads; its `arguments` is usually a
// JSON string). Both lower to the same `name` and `arguments` object, so every pass reads one
// shape; `shape` remembers how the call was written so answers give it back that way.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { SourceLocation, ToolCall } from "../../ir/types.js";
import { NDF_CODES } from "./codes.js";
import { locOf, memberValue, toValue, type JsonNode, type ObjectNode } from "./json-ast.js";

export function lowerTools(node: JsonNode, bag: DiagnosticBag): ToolCall[] {
  if (node.type !== "Array") return [];
  return node.elements.flatMap((element) => (element.type === "Object" ? [lowerTool(element, bag)] : []));
}

function lowerTool(tool: ObjectNode, bag: DiagnosticBag): ToolCall {
  const raw = toValue(tool) as Record<string, unknown>;
  const fn = memberValue(tool, "function");
  const openAi = fn?.type === "Object";
  const holder = openAi ? fn : tool;
  const name = memberValue(holder, "name");
  const argsNode = memberValue(holder, "arguments");
  const call: ToolCall = { name: name?.type === "String" ? name.value : "", arguments: {}, raw, loc: locOf(tool) };
  if (openAi) call.shape = { kind: "openai", argumentsAsJson: argsNode?.type === "String" };
  if (argsNode?.type === "Object") {
    call.arguments = toValue(argsNode) as Record<string, unknown>;
    const command = memberValue(argsNode, "command");
    if (command?.type === "String") call.commandLoc = locOf(command);
  } else if (openAi && argsNode?.type === "String") {
    call.arguments = argumentsFromJson(argsNode.value, locOf(argsNode), bag);
  }
  return call;
}

/** OpenAI's `arguments` string: a JSON object, or a diagnostic at the string saying why not. */
function argumentsFromJson(text: string, loc: SourceLocation, bag: DiagnosticBag): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    bag.error(NDF_CODES.schema, `"function.arguments" must be a JSON object written as a string: ${(error as Error).message}`, loc);
    return {};
  }
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  bag.error(NDF_CODES.schema, `"function.arguments" must be a JSON object written as a string, not ${JSON.stringify(parsed)}`, loc);
  return {};
}
