// Asks the built NPC each sampled sentence, so an author sees which ones another intent answers
// (an earlier template, an exact input, the learned stage) instead of the intent that wrote them.
// A context follow-up is asked after its ancestors' first phrasings, as a user would reach it.
import { compileNpc } from "../compile.js";
import type { Intent, NpcIR } from "../ir/types.js";
import { computeIntentOrder } from "../passes/compute-intent-order.js";
import { loadNpc } from "../../runtime/index.js";

export interface Answered {
  /** The intent that answered, or null when the NPC rejected the sentence. */
  intent: string | null;
  status: string;
}

export interface SampleAnswerer {
  answer(intent: Intent, sentence: string): Answered;
}

/** Compiles `ir` once and answers sentences in fresh sessions (seed 0: the same answer every run). */
export async function sampleAnswerer(ir: NpcIR, firstSentence: (intent: Intent) => string | undefined): Promise<SampleAnswerer> {
  const npc = await loadNpc(compileNpc(ir).bytes);
  const ordered = computeIntentOrder(ir.intents);
  const position = new Map(ordered.map((o) => [o.intent, o]));
  /** The phrasings that make `intent` reachable: each ancestor's first sentence, outermost first. */
  const primers = (intent: Intent): string[] => {
    const chain: string[] = [];
    for (let o = position.get(intent); o && o.parent !== null; ) {
      const parent = ordered[o.parent]!;
      const primer = firstSentence(parent.intent);
      if (primer !== undefined) chain.unshift(primer);
      o = parent;
    }
    return chain;
  };
  return {
    answer(intent, sentence) {
      const session = npc.session({ seed: 0 });
      for (const primer of primers(intent)) session.process(primer);
      const response = session.process(sentence);
      return { intent: response.intent, status: response.status };
    },
  };
}
