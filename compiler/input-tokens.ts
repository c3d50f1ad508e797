// An input's tokens (runtime/text/normalize.ts tokenize), computed once per input and shared by the
// passes that read them: the lint's conflict checks, the exact tables, the lexicon, the matching
// index and the learned stage each tokenized every input again (Banking77: six times 10,003). Kept
// beside the input object, so they go when the IR goes; the text is compared on every read, so an
// input whose value was changed is tokenized again. Readers must not change the tokens.

import type { LocatedText } from "./ir/types.js";
import { keyOf, tokenize, type Token } from "../runtime/text/normalize.js";

const known = new WeakMap<LocatedText, { value: string; tokens: Token[] }>();

/** tokenize(input.value).tokens, shared. */
export function inputTokens(input: LocatedText): readonly Token[] {
  const found = known.get(input);
  if (found !== undefined && found.value === input.value) return found.tokens;
  const { tokens } = tokenize(input.value);
  known.set(input, { value: input.value, tokens });
  return tokens;
}

/** normalizeKey(input.value): the runtime's exact-table key. */
export function inputKey(input: LocatedText): string {
  return keyOf(inputTokens(input));
}

/** normalizeWords(input.value): its normalized words. */
export function inputWords(input: LocatedText): string[] {
  return inputTokens(input).map((t) => t.norm);
}
