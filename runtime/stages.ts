// The optional stages: code that only some bundles use, each a chunk of its own that loadNpc
// imports while the bundle's hash is checked, and only for a bundle that uses it, so a host
// answering with bundles without templates never loads the template matcher.
// The session calls a stage through the forwarder below, which has the real one's signature: no
// call site knows whether its stage is a chunk, and `process` stays synchronous. A stage's module
// is registered once per process (modules are singletons), and an Npc refuses a payload whose
// stages are not registered (requireStages), so a bundle never answers without one.

import type { BundlePayload } from "./bundle/bundle-types.js";
import type { NpcModel } from "./bundle/model.js";
import type { AtEnd, TemplateHit } from "./match/match-template.js";
import type { Token } from "./text/normalize.js";
import type { WordResolver } from "./text/word-resolver.js";

interface Registry {
  templates: typeof import("./match/match-template.js") | null;
}

const registry: Registry = { templates: null };

/** Whether the payload has template paths: the automaton is more than a root without paths (edges only lead to later states). */
const usesTemplates = ({ automaton }: BundlePayload) => automaton.length > 1 || (automaton[0]?.accept.length ?? 0) > 0;

/**
 * Imports and registers the chunks of the stages `payload` uses that are not registered yet, and
 * lays out the automaton's rule calls, which refuses a hostile shape with InvalidBundleError
 * (automaton-frames.ts; in the template chunk, not the core).
 */
export async function loadStages(payload: BundlePayload): Promise<void> {
  if (!usesTemplates(payload)) return;
  registry.templates ??= await import("./match/match-template.js");
  registry.templates.framesOf(payload.automaton);
}

/** Throws when a stage `payload` uses is not registered: the NPC would answer without it. */
export function requireStages(payload: BundlePayload): void {
  if (usesTemplates(payload) && registry.templates === null) throw new Error("this bundle has templates, whose matcher is loaded apart: load it with loadNpc, or await loadStages(payload) first");
}

/** The template stage (match-template.ts); null for a bundle without templates, whose automaton matches nothing. */
export function matchTemplate(model: NpcModel, tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null = null, atEnd?: AtEnd): TemplateHit | null {
  return registry.templates === null ? null : registry.templates.matchTemplate(model, tokens, clean, words, activeContext, atEnd);
}
