// Traversals of the IR shared by passes.
import type { Intent, NpcIR } from "./types.js";
import { templateNodes } from "./template-parts.js";

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
    for (const node of templateNodes(path.nodes)) {
      if (node.type !== "vocab") node.tags.forEach((tag) => names.add(tag));
    }
  }
  Object.keys(intent.fixedSlots ?? {}).forEach((name) => names.add(name));
  return names;
}

export interface TagReference {
  /** The tag's name, trimmed (`<|| username ||>` is `username`, as the runtime renders it). */
  name: string;
  /** Offset of `<||` in the string, and the length up to and including `||>`. */
  index: number;
  length: number;
}

/** `<||name||>` references in a string: the one scanner for lint and for compiled segments. */
export function tagReferences(text: string): TagReference[] {
  const refs: TagReference[] = [];
  if (!text.includes("<||")) return refs; // most texts: no regex run at all
  TAG_REFERENCE.lastIndex = 0;
  for (let match = TAG_REFERENCE.exec(text); match !== null; match = TAG_REFERENCE.exec(text)) {
    refs.push({ name: match[1]!.trim(), index: match.index, length: match[0].length });
  }
  return refs;
}

/** One shared regex (its lastIndex is reset on each use; the scan above never yields mid-way). */
const TAG_REFERENCE = /<\|\|(.*?)\|\|>/g;

/** The text with each `<||tag||>` reference replaced by a space (what it renders to is unknown here). */
export function withoutTagReferences(text: string): string {
  let out = "";
  let at = 0;
  for (const ref of tagReferences(text)) {
    out += `${text.slice(at, ref.index)} `;
    at = ref.index + ref.length;
  }
  return out + text.slice(at);
}

/** Segments split at build time (even: text, odd: tag names) written back as text with `<||tag||>`s. */
export function joinSegments(segments: readonly string[]): string {
  return segments.map((part, i) => (i % 2 === 0 ? part : `<||${part}||>`)).join("");
}
