// Compute pass: marks intents whose tool commands destroy or change things beyond undo, judged by
// the TCS shell lexer (compiler/tcs/destructive.ts). The runtime never lets such an intent run
// without asking when it was reached by a guess (probabilistic match).

import type { ToolCall } from "../ir/types.js";
import { isDestructiveCommand } from "../tcs/destructive.js";

export function hasDestructiveTool(tools: readonly ToolCall[]): boolean {
  return tools.some((tool) => {
    const command = tool.arguments.command;
    return typeof command === "string" && isDestructiveCommand(command);
  });
}
