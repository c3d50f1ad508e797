// The text of an explain trace (`ndfc ask --explain`, `/explain` in `ndfc chat`).
import type { NpcResponse, TraceStep } from "../../runtime/index.js";

function formatTrace(steps: readonly TraceStep[]): string {
  return steps
    .map((step) => {
      const head = `${step.part > 0 ? `[part ${step.part + 1}] ` : ""}${step.stage}: ${step.summary}`;
      return [head, ...step.lines.map((line) => `    ${line}`)].join("\n");
    })
    .join("\n");
}

/** The witness words: which word of the message matched what, stage by stage. */
function formatWitness(answer: NpcResponse): string {
  const lines = answer.witness.map((w) => `witness ${w.stage}${w.note ? ` (${w.note})` : ""}: ${w.items.map((i) => `${i.word}=${i.kind}${i.matched ? `:${i.matched}` : ""}`).join(" ")}`);
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/** The explain trace of an answer and its witness words; "" for an answer without a trace. */
export function formatExplanation(answer: NpcResponse): string {
  return answer.trace ? `${formatTrace(answer.trace)}\n${formatWitness(answer)}` : "";
}
