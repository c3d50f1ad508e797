// Transform stage: the NPC's trusted teachings (ndfc build --taught, or a library caller's
// `teachings`) folded into the IR before anything is computed: synonyms and rules into its synonym
// sets (applyTaught), then learned inputs into its intents (applyLearned, which reads the taught IR).
import type { NpcIR } from "../ir/types.js";
import { applyLearned, type LearnedInput } from "./apply-learned.js";
import { applyTaught, type TaughtSynonym } from "./apply-taught.js";

export interface Teachings {
  synonyms: readonly TaughtSynonym[];
  inputs: readonly LearnedInput[];
}

export interface FoldedTeachings {
  ir: NpcIR;
  synonyms: number;
  inputs: number;
  /** One sentence per teaching left out, saying why. */
  skipped: string[];
}

export function foldTeachings(ir: NpcIR, teachings: Teachings): FoldedTeachings {
  const taught = applyTaught(ir, teachings.synonyms);
  const learned = applyLearned(taught.ir, teachings.inputs);
  return {
    ir: learned.ir,
    synonyms: taught.applied.length,
    inputs: learned.applied.length,
    skipped: [
      ...taught.skipped.map(({ teaching, reason }) => `taught "${teaching.word}" means "${teaching.meaning}" skipped: ${reason}`),
      ...learned.skipped.map(({ lesson, reason }) => `learned "${lesson.input}" as ${lesson.intent} skipped: ${reason}`),
    ],
  };
}
