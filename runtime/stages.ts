// The optional stages: code that only some bundles use, imported on demand (the packaged runtime
// puts them in one chunk: scripts/build-runtime-package.ts says why) while the bundle's hash is
// checked, and registered only for a bundle that uses each, so a host answering with bundles that
// use none of them never loads their code. A load decides which from the stored payload,
// once, as soon as its msgpack part is decoded, and starts every import then, before it reads the
// intents and the automaton (bundle/format.ts records the answer for the decoded payload).
// The session calls a stage through the forwarders below, which have the real ones' signatures: no
// call site knows whether its stage is a chunk, and `process` stays synchronous. A stage's module
// is registered once per process (modules are singletons), and an Npc refuses a payload whose
// stages are not registered (requireStages), so a bundle never answers without one. A forwarder
// of a stage not registered answers as the stage does for a bundle that does not use it.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundlePayload, ShellTemplate, StoredPayload } from "./bundle/bundle-types.js";
import type { EDGE_KINDS } from "./bundle/automaton-store.js";
import { mayRenderShell } from "./bundle/intent-records.js";
import { hasInputs, useMatchIndex, type NpcModel } from "./bundle/model.js";
import type { ContextGuess } from "./conversation/context.js";
import type { GuardedAnswer, GuardedIntent } from "./match/guards.js";
import { UnsafeSlotValueError } from "./render/shell-escape.js";
import type { TagValues } from "./render/shell-render.js";
import type { ProbabilisticResult, RankedIntent } from "./match/match-probabilistic.js";
import type { AtEnd, TemplateHit } from "./match/match-template.js";
import type { Sentiment } from "./response.js";
import type { Token } from "./text/normalize.js";
import { unsanitized, type Sanitized } from "./text/sanitized.js";
import type { SentimentHit } from "./text/sentiment.js";
import type { WordResolver } from "./text/word-resolver.js";

interface Modules {
  probabilistic: typeof import("./match/probabilistic-stage.js");
  templates: typeof import("./match/match-template.js");
  context: typeof import("./conversation/context.js");
  sanitizer: typeof import("./text/sanitizer-stage.js");
  shell: typeof import("./render/shell-stage.js");
}
type Stage = keyof Modules;

/**
 * A payload as a load has it before reading its intents and automaton (stored), or decoded: a
 * stage's use is decided from the stored one at a load, from the decoded one only for a payload
 * the runtime did not decode (made or changed by hand).
 */
type AnyPayload = StoredPayload | BundlePayload;

interface StageChunk<S extends Stage> {
  /** What the payload has that the stage reads, named in requireStages' error. */
  what: string;
  uses(payload: AnyPayload): boolean;
  load(): Promise<Modules[S]>;
}

/** Starts of a stored automaton of one state: a row per edge kind (automaton-store.ts), and one more. */
const ROOT_STARTS: [...typeof EDGE_KINDS, 0]["length"] = 10;

/**
 * Whether a payload needs the template chunk, which reads its automaton and type programs: an
 * automaton more than a root without edges, or a type. Stored, any root edge counts (only accept
 * edges may stay in the root, the others lead to later states: a hostile bundle's, which the chunk
 * refuses). bundle/format.ts asks it to import the chunk for a decode.
 */
export function hasTemplates({ automaton, types }: AnyPayload): boolean {
  if (types.length > 0) return true;
  if (Array.isArray(automaton)) return automaton.length > 1 || (automaton[0]?.accept.length ?? 0) > 0;
  return automaton.edges.starts.length !== ROOT_STARTS || automaton.edges.items.length > 0 || automaton.vocabTags.starts.length > 1;
}

/** An intent in another's context; stored, one typed pass (a stored intent without a parent holds the number of intents). */
function hasContextChildren({ intents }: AnyPayload): boolean {
  return Array.isArray(intents) ? intents.some((intent) => intent.parent !== null) : intents.parent.some((parent) => parent !== intents.ids.length);
}

/** A destructive intent or a tool that may render a shell command; stored, one typed pass and a search of the records' bytes. */
function hasShellWork({ intents }: AnyPayload): boolean {
  return (Array.isArray(intents) ? intents.some((intent) => intent.destructive) : intents.destructive.includes(1)) || mayRenderShell(intents);
}

const STAGES: { [S in Stage]: StageChunk<S> } = {
  // Inputs (phrasings and entries' describing text): without them no intent is ever found, and the ranking is empty.
  probabilistic: { what: "inputs", uses: hasInputs, load: () => import("./match/probabilistic-stage.js").then((stage) => (useMatchIndex(stage.MatchIndex), stage)) },
  // Template paths: without them the automaton matches nothing.
  templates: { what: "templates", uses: hasTemplates, load: () => import("./match/match-template.js") },
  // Context children: without them no context is active but one restored from a snapshot, which has no child to pick.
  context: { what: "context children", uses: hasContextChildren, load: () => import("./conversation/context.js") },
  // Sanitizer phrases (noise, and sentiment: thanking, encouraging, discouraging): without them sanitize finds nothing in any clause, and sentimentMatch nothing.
  sanitizer: { what: "sanitizer phrases", uses: ({ sanitizer }) => sanitizer.kinds.length > 0, load: () => import("./text/sanitizer-stage.js") },
  // Destructive intents or shell commands: without them no guard changes an answer (guards.ts), and no tool renders a shell command.
  shell: { what: "destructive intents or shell commands", uses: hasShellWork, load: () => import("./render/shell-stage.js") },
};

const registry: { [S in Stage]?: Modules[S] } = {};

const used = new WeakMap<AnyPayload, Stage[]>();

/**
 * The optional stages `payload` uses, by name (bench/runtime-size.ts reports what a host of it
 * loads); found once per payload (a load, loadStages and requireStages all ask).
 */
export function usedStages(payload: AnyPayload): Stage[] {
  let stages = used.get(payload);
  if (!stages) used.set(payload, (stages = (Object.keys(STAGES) as Stage[]).filter((stage) => STAGES[stage].uses(payload))));
  return stages;
}

/** Records that `decoded`, read from `stored`, uses the stages `stored` does: one decision per load (bundle/format.ts). */
export function decodedFrom(decoded: BundlePayload, stored: StoredPayload): BundlePayload {
  used.set(decoded, usedStages(stored));
  return decoded;
}

async function register<S extends Stage>(stage: S): Promise<void> {
  registry[stage] ??= await STAGES[stage].load();
}

/**
 * Imports and registers the chunks of the stages `payload` uses that are not registered yet. A
 * load passes the stored payload (its automaton's rule calls are laid out and checked as the
 * template chunk reads it: bundle/template-store.ts); a decoded payload made by hand has them
 * laid out on its first template walk.
 */
export async function loadStages(payload: AnyPayload): Promise<void> {
  await Promise.all(usedStages(payload).map(register));
}

/** Throws when a stage `payload` uses is not registered: the NPC would answer without it. */
export function requireStages(payload: BundlePayload): void {
  const missing = usedStages(payload).find((stage) => registry[stage] === undefined);
  if (missing) throw new Error(`this bundle has ${STAGES[missing].what}, whose code is loaded apart: load it with loadNpc, or await loadStages(payload) first`);
}

/** match-probabilistic.ts matchProbabilistic; no hit and an empty ranking for a bundle without inputs (no intent could be found). */
export function matchProbabilistic(model: NpcModel, tokens: readonly Token[], limit: number, words: WordResolver, activeContext: number | null): ProbabilisticResult {
  return hasInputs(model.payload) ? registry.probabilistic!.matchProbabilistic(model, tokens, limit, words, activeContext) : { hit: null, ranking: [] };
}

/** The template stage (match-template.ts); null for a bundle without templates, whose automaton matches nothing. */
export const matchTemplate = (function matchTemplate(model: NpcModel, tokens: readonly Token[], clean: string, words: WordResolver, activeContext: number | null = null, atEnd?: AtEnd): TemplateHit | null {
  return registry.templates?.matchTemplate(model, tokens, clean, words, activeContext, atEnd) ?? null;
});

/** context.ts mayMatchChild; false without context children (no child could answer). */
export function mayMatchChild(model: NpcModel, activeContext: number, query: readonly Token[], words: WordResolver): boolean {
  return registry.context?.mayMatchChild(model, activeContext, query, words) ?? false;
}

/** context.ts pickContextChild; null without context children. */
export const pickContextChild = (function pickContextChild(model: NpcModel, ranking: readonly RankedIntent[], activeContext: number | null, query: readonly Token[]): ContextGuess | null {
  return registry.context?.pickContextChild(model, ranking, activeContext, query) ?? null;
});

/** sentiment.ts sentimentMatch; null without sanitizer phrases (no clause counts a sentiment phrase). */
export const sentimentMatch = (function sentimentMatch(model: NpcModel, counts: Readonly<Sentiment>, phrases: readonly string[], content: readonly Token[]): SentimentHit | null {
  return registry.sanitizer?.sentimentMatch(model, counts, phrases, content) ?? null;
});

/** sanitize.ts sanitize; the clause as it is without sanitizer phrases (none could be found). */
export const sanitize = (function sanitize(model: NpcModel, tokens: Token[]): Sanitized {
  return registry.sanitizer?.sanitize(model, tokens) ?? unsanitized(tokens);
});

/** guards.ts applyGuards; nothing for a bundle without destructive intents (its permissions are PERMISSIONS: no guard changes its answers). */
export const applyGuards = (function applyGuards(answer: GuardedAnswer, intent: GuardedIntent, message: string): void {
  registry.shell?.applyGuards(answer, intent, message);
});

/** guards.ts refusesGuess, for a guess of a destructive intent (only a bundle with some makes one). */
export const guessRefusal = (function guessRefusal(query: readonly Token[], context: number | null, nameless: ReadonlySet<string>): string | null {
  return registry.shell?.refusesGuess(query, context, nameless) ?? null;
});

/** shell-render.ts renderShellTemplate; no bundle without shell commands renders one (a payload changed by hand after its load: refused). */
export const renderShellTemplate = (function renderShellTemplate(template: ShellTemplate, valueOf: TagValues): string {
  if (!registry.shell) throw new UnsafeSlotValueError("command", "the shell renderer is not loaded for this bundle");
  return registry.shell.renderShellTemplate(template, valueOf);
});
