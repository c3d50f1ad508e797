// Provable shadowing between template paths: a path that can never win because a path written
// before it matches every message it matches, with the same priority.
//
// Paths are compared node by node (same length). Path A covers path B when at every position the
// nodes have the same type, A's vocab words include B's, and A may skip a node wherever B may.
// Then any message B matches, A matches with the same alignment: the same vocab words and the same
// slots, so the runtime's priority (more vocab words, fewer free-string slots, then source order)
// falls to source order, and the earlier path wins every time. Paths of one intent are not
// reported (whichever wins, the answer is the same).
import type { DiagnosticBag } from "../diagnostics.js";
import type { Intent, NpcIR, TemplateNode, TemplatePath } from "../ir/types.js";
import { CODES } from "./codes.js";
import { normalizeKey } from "../../runtime/normalize.js";
import { computeIntentOrder } from "./compute-intent-order.js";
import { impliedWords } from "./compute-vocab.js";

interface RankedPath {
  intent: Intent;
  path: TemplatePath;
  /** The words each node accepts (vocab) or its type name (typed nodes). */
  accepts: Set<string>[];
}

export function checkShadowing(ir: NpcIR, bag: DiagnosticBag): void {
  // Words as the compiled vocab table holds them: normalized, an undefined tag standing for its name.
  const synonyms = new Map(ir.synonyms.map((set) => [set.tag, set.words.map(normalizeKey)]));
  const wordsOf = (tag: string) => synonyms.get(tag) ?? [normalizeKey(impliedWords(tag))];
  const acceptsOf = (node: TemplateNode) => new Set(node.type === "vocab" ? node.tags.flatMap(wordsOf) : [`type:${node.type}`]);

  const ranked: RankedPath[] = computeIntentOrder(ir.intents)
    .filter((o) => o.parent === null)
    .flatMap(({ intent }) => intent.paths.map((path) => ({ intent, path, accepts: path.nodes.map(acceptsOf) })));

  // Only paths with the same length and node types can cover each other.
  const groups = new Map<string, RankedPath[]>();
  for (const entry of ranked) {
    const key = entry.path.nodes.map((n) => n.type).join("\u0000");
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  for (const group of groups.values()) {
    group.forEach((later, j) => {
      const winner = group.slice(0, j).find((earlier) => earlier.intent !== later.intent && covers(earlier, later));
      if (!winner) return;
      bag.warning(
        CODES.shadowedTemplate,
        `this template path of "${later.intent.id}" never wins: every message it matches is matched first, with the same priority, by a path of "${winner.intent.id}" written before it — make one of them more specific or merge them`,
        later.path.loc,
        [{ message: `the path of "${winner.intent.id}" that wins`, loc: winner.path.loc }],
      );
    });
  }
}

function covers(a: RankedPath, b: RankedPath): boolean {
  return b.path.nodes.every((node, i) => {
    const other = a.path.nodes[i]!;
    if (!node.required && other.required) return false;
    const wider = a.accepts[i]!;
    for (const word of b.accepts[i]!) if (!wider.has(word)) return false;
    return true;
  });
}
