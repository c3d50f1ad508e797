// Traversals of the IR shared by passes.
import type { Intent, NpcIR } from "./types.js";

/** Every intent, context children included (depth-first, parents before children). */
export function allIntents(ir: NpcIR): Intent[] {
  const out: Intent[] = [];
  const visit = (intent: Intent) => {
    out.push(intent);
    for (const child of intent.context ?? []) visit(child);
  };
  ir.intents.forEach(visit);
  return out;
}

/** Slot names an intent's templates capture: tags of its typed (non-vocab) nodes. */
export function slotNames(intent: Intent): Set<string> {
  const names = new Set<string>();
  for (const path of intent.paths) {
    for (const node of path.nodes) {
      if (node.type !== "vocab") node.tags.forEach((tag) => names.add(tag));
    }
  }
  return names;
}

/** `<||name||>` references in a string, with their offsets in it. */
export function tagReferences(text: string): { name: string; index: number }[] {
  const refs: { name: string; index: number }[] = [];
  for (const match of text.matchAll(/<\|\|(.*?)\|\|>/g)) refs.push({ name: match[1]!, index: match.index });
  return refs;
}
