// The shape of an NPC as a graph, for `ndfc graph`: intents grouped by category (entries with their
// first inputs, templates with their paths and slot types), context flows (an entry → the
// follow-ups its answer makes reachable), and the relations the linter proved, read from its own
// diagnostics so graph and lint cannot disagree: CON004 (a path that never wins) and CON001 (one
// input given to two intents). Node ids are positions in the bundle's intent order: deterministic.
import type { Diagnostic } from "../diagnostics.js";
import { isChoice } from "../ir/template-parts.js";
import type { Intent, NpcIR, SourceLocation, TemplateNode, TemplatePart, TemplatePath } from "../ir/types.js";
import { computeIntentOrder } from "../passes/compute-intent-order.js";
import { CODES } from "../codes.js";
import { impliedWords } from "../passes/compute-vocab.js";

export type EdgeKind = "follow-up" | "shadows" | "same input";

export interface GraphNode {
  id: string;
  kind: "entry" | "template";
  /** The intent's id, then a few lines describing what it accepts. */
  caption: string[];
}

export interface GraphGroup {
  /** The category, or null for intents without one. */
  category: string | null;
  nodes: GraphNode[];
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface NpcGraph {
  name: string;
  groups: GraphGroup[];
  edges: GraphEdge[];
}

/** Lines of a caption beyond the intent's id; the rest is summarised as "+N more". */
const MAX_DETAIL_LINES = 3;
/** Synonyms shown per vocab node. */
const MAX_SYNONYMS = 3;

export function buildNpcGraph(ir: NpcIR, diagnostics: readonly Diagnostic[]): NpcGraph {
  const ordered = computeIntentOrder(ir.intents);
  const idOf = new Map<Intent, string>(ordered.map((o) => [o.intent, `n${o.index}`]));
  const synonyms = new Map<string, string[]>();
  for (const set of ir.synonyms) synonyms.set(set.tag, [...(synonyms.get(set.tag) ?? []), ...set.words]);

  const groups = new Map<string | null, GraphNode[]>();
  for (const { intent } of ordered) {
    const category = intent.category ?? null;
    let nodes = groups.get(category);
    if (!nodes) groups.set(category, (nodes = []));
    nodes.push({ id: idOf.get(intent)!, kind: intent.paths.length > 0 ? "template" : "entry", caption: [intent.id, ...details(intent, synonyms)] });
  }

  const edges: GraphEdge[] = [];
  for (const o of ordered) if (o.parent !== null) edges.push({ from: `n${o.parent}`, to: `n${o.index}`, kind: "follow-up" });
  edges.push(...provenEdges(ordered.map((o) => o.intent), idOf, diagnostics));
  return { name: ir.config.name, groups: [...groups].map(([category, nodes]) => ({ category, nodes })), edges: unique(edges) };
}

function details(intent: Intent, synonyms: ReadonlyMap<string, string[]>): string[] {
  const lines = intent.paths.length > 0 ? intent.paths.map((path) => pathCaption(path, synonyms)) : intent.inputs.map((input) => `“${input.value}”`);
  if (lines.length <= MAX_DETAIL_LINES) return lines;
  return [...lines.slice(0, MAX_DETAIL_LINES), `+${lines.length - MAX_DETAIL_LINES} more`];
}

/** `(delete|remove|erase…) [file] <file: path>`: words of vocab nodes, slot names with their types. */
function pathCaption(path: TemplatePath, synonyms: ReadonlyMap<string, string[]>): string {
  return partsCaption(path.nodes, synonyms);
}

/** Nodes in order, a choice as `(a b | c)` (an empty alternative shows as nothing). */
function partsCaption(parts: readonly TemplatePart[], synonyms: ReadonlyMap<string, string[]>): string {
  return parts
    .map((part) =>
      isChoice(part)
        ? `(${part.alternatives.map((alternative) => partsCaption(alternative, synonyms)).join(" | ")})`
        : part.required
          ? nodeCaption(part, synonyms)
          : `[${nodeCaption(part, synonyms)}]`,
    )
    .join(" ");
}

function nodeCaption(node: TemplateNode, synonyms: ReadonlyMap<string, string[]>): string {
  if (node.type !== "vocab") {
    const slot = node.tags[0] ?? node.type;
    const type = node.type === "list" ? `list ${node.list ?? "?"}` : node.type === "range" && node.range ? `${node.range.min}..${node.range.max}${node.range.unit}` : node.type;
    return `<${slot}: ${type}>`;
  }
  const words = [...new Set(node.tags.flatMap((tag) => synonyms.get(tag) ?? [impliedWords(tag)]))];
  const shown = words.slice(0, MAX_SYNONYMS).join("|") + (words.length > MAX_SYNONYMS ? "…" : "");
  return words.length > 1 ? `(${shown})` : shown;
}

/** Edges for the lint's CON004 and CON001 diagnostics: the winner (or first owner) → the other. */
function provenEdges(intents: readonly Intent[], idOf: ReadonlyMap<Intent, string>, diagnostics: readonly Diagnostic[]): GraphEdge[] {
  const owner = new Map<string, Intent>();
  const key = (loc: SourceLocation) => `${loc.file}\u0000${loc.offset}`;
  for (const intent of intents) {
    for (const path of intent.paths) owner.set(key(path.loc), intent);
    for (const input of intent.inputs) owner.set(key(input.loc), intent);
  }
  const kinds: Record<string, EdgeKind> = { [CODES.shadowedTemplate]: "shadows", [CODES.duplicateInput]: "same input" };
  const edges: GraphEdge[] = [];
  for (const d of diagnostics) {
    const kind = kinds[d.code];
    const related = d.related?.[0];
    if (kind === undefined || related === undefined) continue;
    const loser = owner.get(key(d.loc));
    const winner = owner.get(key(related.loc));
    if (loser && winner && loser !== winner) edges.push({ from: idOf.get(winner)!, to: idOf.get(loser)!, kind });
  }
  return edges;
}

function unique(edges: readonly GraphEdge[]): GraphEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const k = `${e.from} ${e.to} ${e.kind}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
