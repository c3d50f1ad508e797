// The shape every check pass has: it reads the IR and reports into the bag. Apart from the pass
// list (index.ts) so that passes can name it without importing the list that imports them.
import type { DiagnosticBag } from "../diagnostics.js";
import type { NpcIR } from "../ir/types.js";

export interface CheckContext {
  /** Absolute file path → source text, for passes that locate things inside strings. */
  texts: Map<string, string>;
}

export type CheckPass = (ir: NpcIR, bag: DiagnosticBag, ctx: CheckContext) => void;
