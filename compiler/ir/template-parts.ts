// Reading templates whose parts may branch (TemplateChoice, types.ts): every node they hold, and
// the node sequences they stand for. The sequences multiply with the choices, so they are made
// lazily and callers take a bounded number: for lint and tooling only. The automaton lowers the
// choices themselves (passes/compute-automaton.ts) and never depends on this enumeration.
import type { TemplateChoice, TemplateNode, TemplatePart } from "./types.js";

export function isChoice(part: TemplatePart): part is TemplateChoice {
  return "alternatives" in part;
}

/** The first use of an expansion rule in `parts` nested more than `limit` rules deep (`depth` around them already). */
export function ruleNestedPast(parts: readonly TemplatePart[], limit: number, depth = 0): TemplateChoice | undefined {
  for (const part of parts) {
    if (!isChoice(part)) continue;
    const inner = depth + (part.rule === undefined ? 0 : 1);
    if (inner > limit) return part;
    for (const alternative of part.alternatives) {
      const deep = ruleNestedPast(alternative, limit, inner);
      if (deep !== undefined) return deep;
    }
  }
  return undefined;
}

/** Every node of `parts`, in every alternative, in written order. */
export function templateNodes(parts: readonly TemplatePart[]): TemplateNode[] {
  if (!parts.some(isChoice)) return parts as TemplateNode[];
  const nodes: TemplateNode[] = [];
  const visit = (list: readonly TemplatePart[]): void => {
    for (const part of list) {
      if (isChoice(part)) part.alternatives.forEach(visit);
      else nodes.push(part);
    }
  };
  visit(parts);
  return nodes;
}

export interface TemplateSequences {
  /** The first sequences in written order (the first alternative first), without repeats. */
  sequences: TemplateNode[][];
  /** Whether these are all of them. */
  complete: boolean;
}

const REPEATS_PER_SEQUENCE = 8;

/** At most `limit` node sequences of `parts`; a template without choices is its one sequence. */
export function templateSequences(parts: readonly TemplatePart[], limit: number): TemplateSequences {
  const sequences: TemplateNode[][] = [];
  const seen = new Set<string>();
  // repeats (a permutation of equal parts) are skipped, but only so many: they are visited too
  let visits = 0;
  for (const sequence of eachTemplateSequence(parts)) {
    if (++visits > limit * REPEATS_PER_SEQUENCE) return { sequences, complete: false };
    const key = JSON.stringify(sequence.map(({ tags, type, required, list, range }) => [tags, type, required, list, range]));
    if (seen.has(key)) continue;
    if (sequences.length === limit) return { sequences, complete: false };
    seen.add(key);
    sequences.push(sequence);
  }
  return { sequences, complete: true };
}

/** The node sequences of `parts` one at a time, in written order (repeats included): take only what you need. */
export function eachTemplateSequence(parts: readonly TemplatePart[]): Iterable<TemplateNode[]> {
  return parts.some(isChoice) ? sequencesFrom(parts, 0) : [parts as TemplateNode[]];
}

function* sequencesFrom(parts: readonly TemplatePart[], index: number): Generator<TemplateNode[]> {
  if (index === parts.length) {
    yield [];
    return;
  }
  const part = parts[index]!;
  if (!isChoice(part)) {
    for (const rest of sequencesFrom(parts, index + 1)) yield [part, ...rest];
    return;
  }
  for (const alternative of part.alternatives) {
    for (const head of sequencesFrom(alternative, 0)) for (const rest of sequencesFrom(parts, index + 1)) yield head.concat(rest);
  }
}
