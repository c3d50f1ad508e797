// Provable shadowing between template paths: a path that can never win because a path written
// before it matches every message it matches, with the same priority. A path here is one node
// sequence of a template (a template with choices stands for several, see ir/template-parts.ts);
// they are enumerated for this check only, at most MAX_SEQUENCES_CHECKED per template.
//
// Paths are compared node by node (same length). Path A covers path B when at every position the
// nodes have the same type, A's vocab words include B's, and A may skip a node wherever B may.
// Then any message B matches, A matches with the same alignment: the same vocab words and the same
// slots, so the runtime's priority (more vocab words, fewer free-string slots, then source order)
// falls to source order, and the earlier path wins every time. Paths of one intent are not
// reported (whichever wins, the answer is the same).
//
// Near-linear in the number of paths (a 16k-rule file used to take minutes): paths are grouped by
// their node types, and within a group each word at each position lists the paths accepting it.
// A path that covers B accepts every word of B at every position, so it is in each of those
// lists; only the shortest one is searched, and only the paths in it are compared with B.
import type { DiagnosticBag } from "../diagnostics.js";
import { templateSequences } from "../ir/template-parts.js";
import type { Intent, NpcIR, TemplateNode, TemplatePath } from "../ir/types.js";
import { CODES } from "../codes.js";
import { normalizeKey } from "../../runtime/text/normalize.js";
import { computeIntentOrder } from "./compute-intent-order.js";
import { impliedWords } from "./compute-vocab.js";

/** The node sequences of one template that the check compares (the first ones, in written order). */
export const MAX_SEQUENCES_CHECKED = 64;

interface RankedPath {
  intent: Intent;
  /** The template, and the node sequence of it compared here. */
  path: TemplatePath;
  nodes: TemplateNode[];
  /** The words each node accepts (vocab) or its type name (typed nodes). */
  accepts: Set<string>[];
}

export interface ShadowedPath {
  intent: Intent;
  path: TemplatePath;
  /** The earliest path of another intent that covers it. */
  winner: { intent: Intent; path: TemplatePath };
}

export interface ShadowingResult {
  /** Group by group (paths of the same node types), each group in the order its paths were written. */
  shadowed: ShadowedPath[];
  /** How many pairs of paths were compared node by node: the work the check did. */
  comparisons: number;
}

export function checkShadowing(ir: NpcIR, bag: DiagnosticBag): void {
  const reported = new Set<TemplatePath>();
  for (const { intent, path, winner } of findShadowedPaths(ir).shadowed) {
    // one report per template, at its first shadowed sequence
    if (reported.has(path)) continue;
    reported.add(path);
    bag.warning(
      CODES.shadowedTemplate,
      `this template path of "${intent.id}" never wins: every message it matches is matched first, with the same priority, by a path of "${winner.intent.id}" written before it — make one of them more specific or merge them`,
      path.loc,
      [{ message: `the path of "${winner.intent.id}" that wins`, loc: winner.path.loc }],
    );
  }
}

/** Every top-level template path that an earlier path of another intent covers. */
export function findShadowedPaths(ir: NpcIR): ShadowingResult {
  // Words as the compiled vocab table holds them: normalized, an undefined tag standing for its name.
  const synonyms = new Map(ir.synonyms.map((set) => [set.tag, set.words.map(normalizeKey)]));
  const wordsOf = (tag: string) => synonyms.get(tag) ?? [normalizeKey(impliedWords(tag))];
  // Nodes with the same tags (or type) accept the same words: one read-only set for all of them.
  // Most vocab nodes have one tag, looked up as it is, without building a key.
  const acceptSets = new Map<string, Set<string>>();
  const singleTagSets = new Map<string, Set<string>>();
  const acceptsOf = (node: TemplateNode): Set<string> => {
    const single = node.type === "vocab" && node.tags.length === 1 ? node.tags[0]! : undefined;
    let words = single === undefined ? undefined : singleTagSets.get(single);
    if (words) return words;
    const key = node.type === "vocab" ? `\u0000${node.tags.join("\u0000")}` : `type:${nodeKind(node)}`;
    words = acceptSets.get(key);
    if (!words) acceptSets.set(key, (words = new Set(node.type === "vocab" ? node.tags.flatMap(wordsOf) : [key])));
    if (single !== undefined) singleTagSets.set(single, words);
    return words;
  };

  // Only paths with the same length and node types can cover each other.
  const groups = new Map<string, RankedPath[]>();
  for (const { intent, parent } of computeIntentOrder(ir.intents)) {
    if (parent !== null) continue;
    for (const path of intent.paths) {
      for (const nodes of templateSequences(path.nodes, MAX_SEQUENCES_CHECKED).sequences) {
        const key = nodes.map(nodeKind).join("\u0000");
        let group = groups.get(key);
        if (!group) groups.set(key, (group = []));
        group.push({ intent, path, nodes, accepts: nodes.map(acceptsOf) });
      }
    }
  }
  const result: ShadowingResult = { shadowed: [], comparisons: 0 };
  for (const group of groups.values()) searchGroup(group, result);
  return result;
}

/** For each path of one group, in order, the first earlier path of another intent that covers it. */
function searchGroup(group: readonly RankedPath[], result: ShadowingResult): void {
  // Per position: word → the paths seen so far that accept that word there, in order.
  const accepting = group[0]!.accepts.map(() => new Map<string, RankedPath[]>());
  const seen: RankedPath[] = [];
  for (const later of group) {
    const candidates = narrowestList(later, accepting) ?? seen;
    for (const earlier of candidates) {
      if (earlier.intent === later.intent) continue;
      result.comparisons++;
      if (covers(earlier, later)) {
        result.shadowed.push({ intent: later.intent, path: later.path, winner: { intent: earlier.intent, path: earlier.path } });
        break;
      }
    }
    later.accepts.forEach((words, position) => {
      const lists = accepting[position]!;
      for (const word of words) {
        const list = lists.get(word);
        if (list) list.push(later);
        else lists.set(word, [later]);
      }
    });
    seen.push(later);
  }
}

/** The shortest list of earlier paths accepting one of `path`'s words at its position (undefined when it has no word). */
function narrowestList(path: RankedPath, accepting: readonly ReadonlyMap<string, RankedPath[]>[]): RankedPath[] | undefined {
  let narrowest: RankedPath[] | undefined;
  for (let position = 0; position < path.accepts.length; position++) {
    for (const word of path.accepts[position]!) {
      const list = accepting[position]!.get(word) ?? [];
      if (!narrowest || list.length < narrowest.length) narrowest = list;
      if (narrowest.length === 0) return narrowest;
    }
  }
  return narrowest;
}

function covers(a: RankedPath, b: RankedPath): boolean {
  const nodes = b.nodes;
  for (let i = 0; i < nodes.length; i++) {
    if (!nodes[i]!.required && a.nodes[i]!.required) return false;
    const wider = a.accepts[i]!;
    const words = b.accepts[i]!;
    if (words === wider) continue; // nodes of the same tags share one set (acceptsOf)
    for (const word of words) if (!wider.has(word)) return false;
  }
  return true;
}

/** What a node accepts beyond its words: its type, with the list or the range for those slots. */
function nodeKind(node: TemplateNode): string {
  if (node.type === "list") return `list:${node.list}`;
  if (node.type === "range" && node.range) return `range:${node.range.min}..${node.range.max}${node.range.unit}`;
  return node.type;
}
