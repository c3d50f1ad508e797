// Stage exact: match of the normalized message, the active context's children first.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { NpcModel } from "../bundle/model.js";

export interface ExactHit {
  intent: number;
  status: "exact match" | "context match";
  key: string;
}

/** Tries each key (e.g. the message as typed, then without noise) in the context table, then the main one. */
export const matchExact = (function matchExact(model: NpcModel, keys: readonly string[], activeContext: number | null): ExactHit | null {
  const context = activeContext === null ? undefined : model.contextExact.get(activeContext);
  if (context) {
    for (const key of keys) {
      const intent = context.get(key);
      if (intent !== undefined) return { intent, status: "context match", key };
    }
  }
  for (const key of keys) {
    const intent = model.exact.get(key);
    if (intent !== undefined) return { intent, status: "exact match", key };
  }
  return null;
});
