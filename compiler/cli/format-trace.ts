// The text of an explain trace (`ndfc ask --explain`, `/explain` in `ndfc chat`).
import type { TraceStep } from "../../runtime/index.js";

export function formatTrace(steps: readonly TraceStep[]): string {
  return steps
    .map((step) => {
      const head = `${step.part > 0 ? `[part ${step.part + 1}] ` : ""}${step.stage}: ${step.summary}`;
      return [head, ...step.lines.map((line) => `    ${line}`)].join("\n");
    })
    .join("\n");
}
