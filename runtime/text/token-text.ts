// The typed text of tokens, for the stages that quote what was typed (sanitizer, templates,
// guards, explain). Apart from normalize.ts, which every host loads, so that it is loaded with them.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { Token } from "./normalize.js";

/** The typed text of consecutive tokens, each span once ("don't" is two tokens of one span). */
export const textOf = (function textOf(tokens: readonly Token[]): string {
  return tokens
    .filter((t, i) => i === 0 || t.start !== tokens[i - 1]!.start)
    .map((t) => t.text)
    .join(" ");
});
