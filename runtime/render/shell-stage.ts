// The shell stage's chunk (runtime/stages.ts): the guards of destructive intents and the renderer
// of shell commands, loaded only for bundles with destructive intents or shell commands (one
// chunk: a destructive intent runs a command, and a bundle with either has tools that run).

export { applyGuards, refusesGuess } from "../match/guards.js";
export { renderShellTemplate } from "./shell-render.js";
