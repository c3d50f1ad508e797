// Lowering an NDF `structure` into template paths, with ndfc's group nodes: `choice` (alternative
// node sequences), `permutation` (sequences in any order) and `expansion` (a named sequence of
// vocabulary/expansions.json). Groups become TemplateChoice parts, as the DSL's do, so the
// automaton branches and joins instead of multiplying paths; an expansion's use is a choice named
// after it (TemplateChoice.rule), which the automaton lowers once and calls. Limits and orderings are the DSL's
// (../template-groups.ts).
import type { DiagnosticBag } from "../../diagnostics.js";
import type { SourceLocation, TemplatePart, TemplatePath } from "../../ir/types.js";
import { LazyDefinitions, MAX_PATTERN_SIZE, MAX_PERMUTATION_PARTS, orderings, patternTooLarge, tooManyPermutationParts } from "../template-groups.js";
import { isChoice } from "../../ir/template-parts.js";
import { NDF_CODES } from "./codes.js";
import { locOf, memberValue, membersOf, type JsonNode, type ObjectNode } from "./json-ast.js";
import { lowerNode } from "./node.js";

/** Lowered nodes and how many plain nodes they hold in every alternative (the size bound's measure). */
interface Lowered {
  parts: TemplatePart[];
  size: number;
}

const NOTHING: Lowered = { parts: [], size: 0 };

/** The expansions of vocabulary/expansions.json files, each lowered once, on first use. */
export class NdfExpansions {
  private readonly sources = new Map<string, JsonNode>();
  private readonly definitions: LazyDefinitions<JsonNode, Lowered>;
  /** The reference being resolved, where a cycle is reported. */
  private reference: JsonNode | undefined;

  constructor(private readonly bag: DiagnosticBag) {
    const lowering = new StructureLowering(bag, this);
    this.definitions = new LazyDefinitions(
      this.sources,
      (source, name) => lowering.bounded(source.type === "Array" ? source.elements : [], locOf(source), `expansion "${name}"`),
      (name, source) =>
        bag.error(NDF_CODES.recursiveExpansion, `expansion "${name}" uses itself: an expansion cannot refer back to itself, directly or through others`, locOf(this.reference ?? source), [
          { message: `"${name}" is defined here`, loc: locOf(source) },
        ]),
      NOTHING,
    );
  }

  declare(root: JsonNode): void {
    if (root.type !== "Object") return; // the schema check reported it
    for (const { key, keyNode, value } of membersOf(root)) {
      const previous = this.sources.get(key);
      if (previous !== undefined) {
        this.bag.error(NDF_CODES.schema, `expansion "${key}" is already defined; this one is ignored`, locOf(keyNode), [{ message: "defined here first", loc: locOf(previous) }]);
      } else this.sources.set(key, value);
    }
  }

  /** The lowered nodes of `name` (used at `reference`), or undefined when nothing defines it. */
  resolve(name: string, reference: JsonNode): Lowered | undefined {
    const outer = this.reference;
    this.reference = reference;
    const lowered = this.definitions.resolve(name);
    this.reference = outer;
    return lowered;
  }
}

/** Lowers the paths of one `structure` value. */
export function lowerStructurePaths(node: JsonNode, bag: DiagnosticBag, expansions: NdfExpansions): TemplatePath[] {
  if (node.type !== "Array") return [];
  const lowering = new StructureLowering(bag, expansions);
  return node.elements.flatMap((path) => {
    if (path.type !== "Array") return [];
    const loc = locOf(path);
    const { parts } = lowering.bounded(path.elements, loc, "this structure path");
    return parts.length > 0 ? [{ nodes: parts, loc }] : [];
  });
}

class StructureLowering {
  constructor(
    private readonly bag: DiagnosticBag,
    private readonly expansions: NdfExpansions,
  ) {}

  /** A sequence held to the size bound: past it, the diagnostic and nothing. */
  bounded(elements: readonly JsonNode[], loc: SourceLocation, what: string): Lowered {
    const lowered = this.sequence(elements);
    if (lowered.size <= MAX_PATTERN_SIZE) return lowered;
    this.bag.error(NDF_CODES.templateTooLarge, patternTooLarge(lowered.size, what, "templates"), loc);
    return NOTHING;
  }

  private sequence(elements: readonly JsonNode[]): Lowered {
    const parts: TemplatePart[] = [];
    let size = 0;
    for (const element of elements) {
      if (element.type !== "Object") continue; // the schema check reported it
      const lowered = this.element(element);
      for (const part of lowered.parts) parts.push(part);
      size += lowered.size;
    }
    return { parts, size };
  }

  private element(node: ObjectNode): Lowered {
    const group = groupKey(node);
    if (group === undefined) {
      const plain = lowerNode(node, this.bag);
      return { parts: plain, size: plain.length };
    }
    const required = memberValue(node, "required");
    const optional = required?.type === "Boolean" && !required.value;
    const loc = locOf(node);
    switch (group.key) {
      case "choice":
        return choice(sequences(group.value).map((alternative) => this.sequence(alternative)), optional, loc);
      case "permutation":
        return this.permutation(sequences(group.value).map((part) => this.sequence(part)), optional, node);
      case "expansion":
        return this.expansion(group.value, optional, loc);
    }
  }

  private permutation(parts: Lowered[], optional: boolean, node: ObjectNode): Lowered {
    if (parts.length > MAX_PERMUTATION_PARTS) {
      this.bag.error(NDF_CODES.templateTooLarge, tooManyPermutationParts(parts.length), locOf(node));
      return NOTHING;
    }
    const partSize = parts.reduce((n, part) => n + part.size, 0);
    const alternatives = orderings(parts.map((part) => part.parts)).map((parts) => ({ parts, size: partSize }));
    return choice(alternatives, optional, locOf(node));
  }

  private expansion(value: JsonNode, optional: boolean, loc: SourceLocation): Lowered {
    if (value.type !== "String") return NOTHING; // the schema check reported it
    const lowered = this.expansions.resolve(value.value, value);
    if (lowered === undefined) {
      this.bag.error(NDF_CODES.undefinedExpansion, `expansion "${value.value}" is not defined: add "${value.value}": [nodes…] to dataset/vocabulary/expansions.json`, locOf(value));
      return NOTHING;
    }
    // a rule of one node is that node: a call would share nothing
    const use = lowered.parts.length <= 1 && !lowered.parts.some(isChoice) ? lowered : { parts: [{ alternatives: [lowered.parts], loc, rule: value.value }], size: lowered.size };
    return optional ? choice([use], true, loc) : use;
  }
}

type GroupKey = "choice" | "permutation" | "expansion";

/** The group key of a node, if it is a group node (the schema allows only one of them). */
function groupKey(node: ObjectNode): { key: GroupKey; value: JsonNode } | undefined {
  for (const { name, value } of node.members) {
    if (name.value === "choice" || name.value === "permutation" || name.value === "expansion") return { key: name.value, value };
  }
  return undefined;
}

/** A group's node sequences: its value as a list of lists of nodes. */
function sequences(value: JsonNode): JsonNode[][] {
  return value.type === "Array" ? value.elements.flatMap((e) => (e.type === "Array" ? [e.elements] : [])) : [];
}

/**
 * A choice of `alternatives`. An empty alternative stays where it was written (once); `required:
 * false` without one adds it last, as the DSL's optional groups do.
 */
function choice(alternatives: Lowered[], optional: boolean, loc: SourceLocation): Lowered {
  const parts: TemplatePart[][] = [];
  let size = 0;
  let hasEmpty = false;
  for (const alternative of alternatives) {
    if (alternative.parts.length === 0) {
      if (!hasEmpty) parts.push([]);
      hasEmpty = true;
      continue;
    }
    parts.push(alternative.parts);
    size += alternative.size;
  }
  if (optional && !hasEmpty) parts.push([]);
  if (parts.length === (hasEmpty || optional ? 1 : 0)) return NOTHING;
  // a required group of one sequence is that sequence
  if (parts.length === 1) return { parts: parts[0]!, size };
  return { parts: [{ alternatives: parts, loc }], size };
}
