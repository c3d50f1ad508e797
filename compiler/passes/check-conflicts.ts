// Inputs that cannot answer as written: one phrase given to two intents, and phrases that
// sanitizing changes because they contain a word of the noise lists.
import type { DiagnosticBag } from "../diagnostics.js";
import type { Intent, LocatedText, NpcIR } from "../ir/types.js";
import { allIntents } from "../ir/walk.js";
import { inputKey, inputWords } from "../input-tokens.js";
import { CODES } from "../codes.js";
import { computeSanitizer } from "./compute-word-tables.js";

/** Sanitizer kinds that are stripped from messages (runtime/text/sanitize.ts), and how to name them. */
const NOISE_KIND_NAMES = ["expletives", "interjection"];

export function checkConflicts(ir: NpcIR, bag: DiagnosticBag): void {
  reportDuplicateInputs(ir.intents, bag);
  reportSanitizedInputs(ir, bag);
}


/** Within one list of sibling intents (top level, or one context list), an input belongs to one intent. */
function reportDuplicateInputs(siblings: Intent[], bag: DiagnosticBag): void {
  const owner = new Map<string, { intent: Intent; input: LocatedText }>();
  for (const intent of siblings) {
    for (const input of intent.inputs) {
      // The runtime's own key: two inputs it cannot tell apart are one input.
      const key = inputKey(input);
      const first = owner.get(key);
      if (!first) {
        owner.set(key, { intent, input });
        continue;
      }
      if (first.intent === intent) {
        bag.info(CODES.repeatedInput, `input "${input.value}" is listed twice in this entry${sameOnceNormalized(first.input, input)}`, input.loc, [{ message: "first listed here", loc: first.input.loc }]);
        continue;
      }
      const categories =
        first.intent.category !== intent.category
          ? ` (categories "${first.intent.category ?? "none"}" and "${intent.category ?? "none"}")`
          : "";
      bag.warning(
        CODES.duplicateInput,
        `input "${input.value}" is also an input of intent "${first.intent.id}"${sameOnceNormalized(first.input, input)}${categories}; only the first one answers it — remove one or reword it`,
        input.loc,
        [{ message: `first given to "${first.intent.id}" here`, loc: first.input.loc }],
      );
    }
  }
  for (const intent of siblings) if (intent.context) reportDuplicateInputs(intent.context, bag);
}

function reportSanitizedInputs(ir: NpcIR, bag: DiagnosticBag): void {
  // Noise phrase → the list it comes from: the very table the runtime's sanitizer strips with.
  const noise = new Map<string, string>();
  for (const [words, kind] of computeSanitizer(ir.wordLists).phrases) {
    if (kind < NOISE_KIND_NAMES.length) noise.set(words.join(" "), NOISE_KIND_NAMES[kind]!);
  }
  if (noise.size === 0) return;
  const longest = Math.max(...[...noise.keys()].map((phrase) => phrase.split(" ").length));
  for (const intent of allIntents(ir)) {
    for (const input of intent.inputs) {
      const hit = findPhrase(inputWords(input), noise, longest);
      if (hit) {
        bag.warning(
          CODES.sanitizedInput,
          `input "${input.value}" contains "${hit.phrase}", which is in the ${hit.list} list; sanitizing strips it from messages, so this phrase is matched without it — remove the word from ${hit.list} or reword the input`,
          input.loc,
        );
      }
    }
  }
}


function findPhrase(words: string[], phrases: Map<string, string>, longest: number): { phrase: string; list: string } | undefined {
  for (let start = 0; start < words.length; start++) {
    for (let length = 1; length <= longest && start + length <= words.length; length++) {
      const phrase = words.slice(start, start + length).join(" ");
      const list = phrases.get(phrase);
      if (list) return { phrase, list };
    }
  }
  return undefined;
}

/** Names the other spelling when two inputs differ only in what normalization removes. */
function sameOnceNormalized(first: LocatedText, input: LocatedText): string {
  return first.value === input.value ? "" : ` (as "${first.value}", the same once normalized)`;
}
