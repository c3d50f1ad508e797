// compiler/input-tokens.ts: the passes' shared tokenization of an input is the runtime's own, read
// after the input's text changes too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inputKey, inputTokens, inputWords } from "../../compiler/input-tokens.js";
import type { LocatedText } from "../../compiler/ir/types.js";
import { normalizeKey, normalizeWords, tokenize } from "../../runtime/text/normalize.js";

const located = (value: string): LocatedText => ({ value, loc: { file: "x.json", line: 1, column: 1, offset: 0 } });

describe("an input's shared tokens", () => {
  it("are tokenize's, its key normalizeKey's and its words normalizeWords', on every read and after the text changes", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (first, second) => {
        const input = located(first);
        for (const text of [first, first, second]) {
          input.value = text;
          expect(inputTokens(input)).toEqual(tokenize(text).tokens);
          expect(inputKey(input)).toBe(normalizeKey(text));
          expect(inputWords(input)).toEqual(normalizeWords(text));
        }
      }),
      { numRuns: 300 },
    );
  });
});
