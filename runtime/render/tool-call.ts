// Reading a rendered tool call whichever shape its NPC wrote it in: NDF's `{name, arguments}` or
// OpenAI's `{type: "function", function: {name, arguments}}` (arguments an object or a JSON
// string). Answers keep the written shape; hosts (CLI, server, chat page) read names and commands
// through this. Not part of the runtime core: only hosts import it.

export interface ToolCallParts {
  name: string | null;
  arguments: Record<string, unknown> | null;
  /** OpenAI's `arguments` exactly as rendered (a JSON string), when the call was written that way. */
  argumentsJson: string | null;
}

export function toolCallParts(tool: Readonly<Record<string, unknown>>): ToolCallParts {
  const fn = tool["function"];
  const holder = isRecord(fn) ? fn : tool;
  const name = typeof holder["name"] === "string" ? holder["name"] : null;
  const args = holder["arguments"];
  if (typeof args !== "string" || !isRecord(fn)) return { name, arguments: isRecord(args) ? args : null, argumentsJson: null };
  return { name, arguments: parsedObject(args), argumentsJson: args };
}

/** `arguments.command` of a call, when it has one. */
export function toolCommand(tool: Readonly<Record<string, unknown>>): string | null {
  const command = toolCallParts(tool).arguments?.["command"];
  return typeof command === "string" ? command : null;
}

function parsedObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
