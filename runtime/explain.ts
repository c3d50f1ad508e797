// The explain trace: how an answer was reached, so a wrong answer can be traced to its cause.
// An optional module, outside the core entry (runtime/index.ts): the session only calls the
// hooks of a Tracer when one is passed, so a host that never explains does not ship this code.
//
//   import { explain } from "ndfc/runtime/explain";
//   const { trace } = session.process("copy a.txt b.txt", { explain });
//
// Each step names its stage, the clause it belongs to, a one-line summary and detail lines (the
// CLI prints them as they are). Template candidates are the automaton's paths that share a vocab
// word with the message, each replayed on its own against the message: it matches, or it fails
// at a named node (which word did not fit, or which required node the message lacks, or which
// words were left over).

import type { Clause } from "./conversation/clauses.js";
import { learnedEvidence } from "./match/learned-evidence.js";
import { lex } from "./text/lexer.js";
import type { ExactHit } from "./match/match-exact.js";
import type { LearnedScores } from "./match/match-learned.js";
import type { RankedIntent } from "./match/match-probabilistic.js";
import { listValuesAt, numbersAt, tagHitsAt, type TemplateHit } from "./match/match-template.js";
import type { NpcModel } from "./bundle/model.js";
import { inlinedAutomaton } from "./bundle/inlined-automaton.js";
import { typeMatchers } from "./match/type-matchers.js";
import type { Token } from "./text/normalize.js";
import { textOf } from "./text/token-text.js";
import { round4, type NpcResponse, type TraceStage, type TraceStep, type Witness, type WitnessItem } from "./response.js";
import type { Sanitized } from "./text/sanitized.js";
import type { SentimentHit } from "./text/sentiment.js";
import type { WordResolver } from "./text/word-resolver.js";

/** Features shown in a learned answer's witness, for the winner and for the runner-up. */
const WITNESS_FEATURES = 5;

/** What the session reports while it answers one message (runtime/conversation/session.ts calls these). */
export interface Tracer {
  /** Index of the clause being answered. */
  part: number;
  lexed(message: string, tokens: number): void;
  /** The message was refused unread: too long (characters or clauses), else an open quote. */
  refused(tooLong: NpcResponse["tooLong"]): void;
  clauses(clean: string, clauses: readonly Clause[]): void;
  sanitized(result: Sanitized): void;
  exact(keys: readonly string[], hit: ExactHit | null, activeContext: number | null): void;
  sentiment(hit: SentimentHit | null): void;
  template(tokens: readonly Token[], hit: TemplateHit | null, words: WordResolver, activeContext: number | null): void;
  /** The learned stage's scores (before the session reads them: the object is refilled by the next message). */
  learned(scores: LearnedScores): void;
  /** A learned answer's witness: the winner's and the runner-up's scores, each with the features adding most to it. */
  learnedWitness(tokens: readonly Token[], scores: LearnedScores): Witness[];
  probabilistic(ranking: readonly RankedIntent[], accepted: boolean): void;
  /** The last step; returns every step. */
  decision(response: NpcResponse): TraceStep[];
}

/** Makes the tracer of one message: pass it as `process(message, { explain })`. */
export type Explainer = (model: NpcModel) => Tracer;


class Trace implements Tracer {
  private readonly steps: TraceStep[] = [];
  part = 0;

  constructor(private readonly model: NpcModel) {}

  private add(stage: TraceStage, summary: string, lines: string[] = []): void {
    this.steps.push({ stage, part: this.part, summary, lines });
  }

  private intentId(intent: number): string {
    return this.model.payload.intents[intent]!.id;
  }

  lexed(message: string, tokens: number): void {
    // The typed lexemes (punctuation included) are only needed to show them.
    this.add("lex", `${tokens} tokens`, [lex(message).lexemes.map((l) => `${l.kind}:${JSON.stringify(l.text)}`).join(" ")]);
  }

  refused(tooLong: NpcResponse["tooLong"]): void {
    this.add(
      "limits",
      tooLong ? `${tooLong.length} ${tooLong.unit}: over the limit of ${tooLong.limit}, not read` : "an open quote: the message is not read until it is closed",
    );
  }

  clauses(clean: string, clauses: readonly Clause[]): void {
    if (clauses.length > 1) this.add("lex", `${clauses.length} clauses`, clauses.map((c) => clean.slice(c.start, c.end)));
  }

  sanitized(result: Sanitized): void {
    this.add(
      "sanitize",
      `kept "${textOf(result.kept)}"`,
      result.items.map((i) => `${i.kind === "noise" ? "removed" : "counted"} "${i.word}" (${i.matched})`),
    );
  }

  exact(keys: readonly string[], hit: ExactHit | null, activeContext: number | null): void {
    this.add("exact", hit ? `${hit.status}: "${hit.key}" → ${this.intentId(hit.intent)}` : "no exact key", [
      `keys tried: ${keys.map((k) => JSON.stringify(k)).join(", ")}`,
      `active context: ${activeContext === null ? "none" : this.intentId(activeContext)}`,
    ]);
  }

  sentiment(hit: SentimentHit | null): void {
    this.add("sentiment", hit ? `"${hit.key}" → ${this.intentId(hit.intent)}` : "no sentiment-only answer");
  }

  template(tokens: readonly Token[], hit: TemplateHit | null, words: WordResolver, activeContext: number | null): void {
    this.add(
      "template",
      hit ? `path ${hit.path} of ${this.intentId(hit.intent)}` : "no template path matches",
      explainTemplates(this.model, tokens, words, activeContext),
    );
  }

  learned(scores: LearnedScores): void {
    const name = (intent: number) => (intent < 0 ? "none of these" : this.intentId(intent));
    const { learnedThreshold } = this.model.payload.config;
    const verdict = scores.accepted ? "accepted" : scores.topIntent < 0 ? "none of these wins" : "abstains";
    this.add(
      "learned",
      `top ${name(scores.topIntent)} ${round4(scores.topScore)}, runner-up ${name(scores.runnerUpIntent)} ${round4(scores.runnerUpScore)}, margin ${round4(scores.margin)} (threshold ${learnedThreshold}): ${verdict}`,
      [`${scores.known} known features`],
    );
  }

  learnedWitness(tokens: readonly Token[], scores: LearnedScores): Witness[] {
    const name = (intent: number) => (intent < 0 ? "none of these" : this.intentId(intent));
    const { topClass, topIntent, runnerUpClass, runnerUpIntent, runnerUpScore } = scores;
    const items = (c: number, matched: string): WitnessItem[] =>
      learnedEvidence(this.model.learned!, tokens, c, WITNESS_FEATURES).map((e) => ({ word: e.feature, kind: "feature", matched, weight: e.weight }));
    const out: Witness[] = [{ stage: "learned", items: items(topClass, name(topIntent)), note: this.model.learned!.winnerNote(name(topIntent), scores) }];
    if (runnerUpClass >= 0) out.push({ stage: "learned", items: items(runnerUpClass, name(runnerUpIntent)), note: `runner-up ${name(runnerUpIntent)} ${round4(runnerUpScore)}` });
    return out;
  }

  probabilistic(ranking: readonly RankedIntent[], accepted: boolean): void {
    const { sentenceThreshold, margin } = this.model.payload.config;
    const [top, second] = ranking;
    const gap = top && second ? round4(top.score - second.score) : null;
    const summary = top
      ? `top ${this.intentId(top.intent)} ${round4(top.score)}${gap === null ? ", no runner-up" : `, margin ${gap}`} (threshold ${sentenceThreshold}, margin ${margin}): ${accepted ? "accepted" : "abstains"}`
      : "no candidate shares a word with the message";
    const lines = ranking.slice(0, 5).map((r) => {
      const intent = this.model.payload.intents[r.intent]!;
      return `${round4(r.score)} ${intent.id}${intent.parent !== null ? " (context)" : ""} via input ${r.input}${intent.example ? ` e.g. "${intent.example}"` : ""}`;
    });
    this.add("probabilistic", summary, lines);
  }

  decision(response: NpcResponse): TraceStep[] {
    this.part = 0;
    this.add("decision", `${response.status}${response.intent ? ` → ${response.intent}` : ""} (confidence ${response.confidence})`);
    return this.steps;
  }
}

/** The tracer factory the session calls once per message when asked to explain. */
export const explain: Explainer = (model) => new Trace(model);

type PathNode =
  | { kind: "vocab"; tags: number[]; optional: boolean }
  | { kind: "typed"; type: number; slot: string; optional: boolean }
  | { kind: "string"; slot: string; optional: boolean }
  | { kind: "list" | "range"; id: number; slot: string; optional: boolean };

interface AutomatonPath {
  intent: number;
  path: number;
  nodes: PathNode[];
}

/**
 * The automaton's paths, rebuilt from its states. Its edges point to later states
 * (automaton-store.ts), so one ascending pass gives each state its way in: its consuming edge, or
 * for a join state (where a choice's alternatives meet) the skips from its alternatives' ends. A
 * path's nodes are read back from its last state only when it is shown, so the cost stays linear
 * in the states; a template with choices is shown as its first few ways through (ROUTES_SHOWN).
 */
interface AutomatonPaths {
  /** Per state: the state its consuming edge comes from, or -1 (the start, or not reached by consuming edges). */
  from: Int32Array;
  /** Per join state (entered by skips only): every state a skip comes from, ascending. */
  joins: Map<number, number[]>;
  /** Per state: the node its edge stands for (null where `from` is -1, or for a join's skip). */
  node: (PathNode | null)[];
  /** Template paths ending at a state reached from the start, in (intent, path) order. */
  ends: { intent: number; path: number; state: number }[];
}

const pathCache = new WeakMap<NpcModel, AutomatonPaths>();

function automatonPaths(model: NpcModel): AutomatonPaths {
  const cached = pathCache.get(model);
  if (cached) return cached;
  // rules written out: a path through a rule shows the rule's nodes where the path calls it
  const states = inlinedAutomaton(model.payload.automaton);
  const from = new Int32Array(states.length).fill(-1);
  const node: (PathNode | null)[] = states.map(() => null);
  const ends: AutomatonPaths["ends"] = [];
  const joins: AutomatonPaths["joins"] = new Map();
  states.forEach((state, i) => {
    if (i !== 0 && from[i] === -1) return;
    for (const [intent, path] of state.accept) ends.push({ intent, path, state: i });
    const skips = new Set(state.skip);
    const enter = (child: number, spec: PathNode) => {
      from[child] = i;
      node[child] = spec;
    };
    for (const [tags, child] of state.vocab) enter(child, { kind: "vocab", tags, optional: skips.has(child) });
    for (const [type, slot, child] of state.typed) enter(child, { kind: "typed", type, slot, optional: skips.has(child) });
    for (const [slot, child] of state.strings) enter(child, { kind: "string", slot, optional: skips.has(child) });
    for (const [id, slot, child] of state.lists) enter(child, { kind: "list", id, slot, optional: skips.has(child) });
    for (const [id, slot, child] of state.ranges) enter(child, { kind: "range", id, slot, optional: skips.has(child) });
    for (const child of state.skip) {
      if (from[child] === -1) from[child] = i;
      if (node[child] !== null) continue; // an optional node's skip: its consuming edge is its way in
      const into = joins.get(child);
      if (into === undefined) joins.set(child, [i]);
      else into.push(i);
    }
  });
  ends.sort((a, b) => a.intent - b.intent || a.path - b.path);
  const paths = { from, node, ends, joins };
  pathCache.set(model, paths);
  return paths;
}

/** How many ways through one template's choices the trace shows. */
const ROUTES_SHOWN = 4;

/** The nodes from the start to `state`, one list per way through the joins on the way (at most `limit`). */
function routesTo(paths: AutomatonPaths, state: number, limit: number): PathNode[][] {
  const routes: PathNode[][] = [];
  // Ways back still to walk: a state and the nodes after it (shared tails, no copies per join).
  type Tail = { node: PathNode; next: Tail | null } | null;
  const pending: [number, Tail][] = [[state, null]];
  while (pending.length > 0 && routes.length < limit) {
    let [s, tail] = pending.pop()!;
    for (;;) {
      const join = paths.joins.get(s);
      if (join !== undefined) {
        for (let k = join.length - 1; k >= 1; k--) pending.push([join[k]!, tail]);
        s = join[0]!;
        continue;
      }
      if (s === 0 || paths.from[s]! === -1) break;
      tail = { node: paths.node[s]!, next: tail };
      s = paths.from[s]!;
    }
    if (s !== 0) continue;
    const nodes: PathNode[] = [];
    for (let t = tail; t !== null; t = t.next) nodes.push(t.node);
    routes.push(nodes);
  }
  return routes;
}

function label(model: NpcModel, node: PathNode): string {
  const mark = node.optional ? "?" : "";
  if (node.kind === "vocab") return node.tags.map((t) => `<||${model.payload.vocab.tags[t]}||>`).join("|") + mark;
  if (node.kind === "typed") return `<||${node.slot}||>:${model.payload.types[node.type]!.name}${mark}`;
  if (node.kind === "list") return `<||${node.slot}||>:list ${model.payload.lists[node.id]!.name}${mark}`;
  if (node.kind === "range") {
    const { min, max, unit } = model.payload.ranges[node.id]!;
    return `<||${node.slot}||>:${min}..${max}${unit}${mark}`;
  }
  return `<||${node.slot}||>:string${mark}`;
}

/** Replays one path on the message: "matches" or where and why it fails. */
function replay(model: NpcModel, path: AutomatonPath, tokens: readonly Token[], words: WordResolver): string {
  const n = path.nodes.length;
  const t = tokens.length;
  const seen = new Set<number>();
  const queue: [number, number][] = [[0, 0]];
  let deepest: [number, number] = [0, 0];
  const visit = (node: number, tok: number) => {
    const key = node * (t + 1) + tok;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([node, tok]);
  };
  seen.add(0);
  while (queue.length > 0) {
    const [node, tok] = queue.shift()!;
    if (node === n && tok === t) return "matches";
    if (tok > deepest[1] || (tok === deepest[1] && node > deepest[0])) deepest = [node, tok];
    const token = tokens[tok];
    if (token && token.kind !== "quoted" && model.stopWords.has(token.norm)) visit(node, tok + 1);
    if (node === n || !token) {
      if (node < n && path.nodes[node]!.optional) visit(node + 1, tok);
      continue;
    }
    const spec = path.nodes[node]!;
    if (spec.optional) visit(node + 1, tok);
    if (spec.kind === "vocab") {
      for (const { tag, length } of tagHitsAt(model, tokens, tok, words)) if (spec.tags.includes(tag)) visit(node + 1, tok + length);
    } else if (spec.kind === "typed") {
      if (typeMatchers(model)[spec.type]!.test(token.text)) visit(node + 1, tok + 1);
    } else if (spec.kind === "list") {
      for (const [, end] of listValuesAt(model, tokens, tok, spec.id)) visit(node + 1, end);
    } else if (spec.kind === "range") {
      for (const [, end] of numbersAt(model, tokens, tok, spec.id)) visit(node + 1, end);
    } else for (let end = tok + 1; end <= t; end++) visit(node + 1, end);
  }
  const [node, tok] = deepest;
  if (node === n) return `fails: words left over after the last node: "${textOf(tokens.slice(tok))}"`;
  const expected = label(model, path.nodes[node]!);
  if (tok === t) return `fails: the message ends before node ${node + 1} ${expected}`;
  return `fails at node ${node + 1} ${expected}: "${tokens[tok]!.text}" does not fit`;
}

/** Template paths sharing a vocab word with the message (at most `limit`), each replayed. */
function explainTemplates(model: NpcModel, tokens: readonly Token[], words: WordResolver, activeContext: number | null, limit = 8): string[] {
  const messageTags = new Set<number>();
  tokens.forEach((_, p) => tagHitsAt(model, tokens, p, words).forEach(({ tag }) => messageTags.add(tag)));
  const paths = automatonPaths(model);
  // Vocab nodes sharing a tag with the message, from the start to each state (a parent comes first).
  const shared = new Int32Array(paths.from.length);
  for (let s = 1; s < shared.length; s++) {
    const node = paths.node[s];
    if (paths.from[s]! === -1) continue;
    shared[s] = shared[paths.from[s]!]! + (node?.kind === "vocab" && node.tags.some((t) => messageTags.has(t)) ? 1 : 0);
  }
  const scored = paths.ends
    .filter(({ intent }) => {
      const parent = model.payload.intents[intent]!.parent;
      return parent === null || parent === activeContext;
    })
    .filter(({ state }) => shared[state]! > 0)
    .sort((a, b) => shared[b.state]! - shared[a.state]! || a.intent - b.intent || a.path - b.path)
    .slice(0, limit);
  return scored.flatMap(({ intent, path: index, state }) =>
    routesTo(paths, state, ROUTES_SHOWN).map((nodes) => {
      const path: AutomatonPath = { intent, path: index, nodes };
      return `${model.payload.intents[intent]!.id} path ${index} [${nodes.map((node) => label(model, node)).join(" ")}]: ${replay(model, path, tokens, words)}`;
    }),
  );
}
