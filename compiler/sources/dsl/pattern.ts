// Rule patterns: `"[please] (show|display) disk space on :path"`.
//   word        a literal word, matched through its synonyms (lowercased; trailing ? ! , dropped)
//   word[s]     sub-word gluing: `light[s]` is (light|lights)
//   :slot['s]   a list slot whose last word may carry the suffix glued ("the kitchen's lights")
//   :slot       a captured value (a list slot when a list of that name exists, see slot-types.ts)
//   :slot(list) a slot restricted to the values of a named list
//   :slot(0..100)%  a number in a range, in digits or words, optionally with a glued unit
//   <name>      an expansion rule (`expansion :name, "…"`): its pattern, kept as a rule choice
//               (the automaton lowers each rule once and calls it from every use)
//   [ … ]       optional: every node inside becomes non-required (all or nothing with a slot inside)
//   ( a | b )   alternatives; an empty alternative makes the group optional
//   ( a ; b )   permutation: the parts in any order
// Offsets are indexes into the decoded pattern string; the lowering maps them to the source.
import type { NumberRange } from "../../ir/types.js";
import { MAX_PATTERN_SIZE, MAX_PERMUTATION_PARTS, orderings, patternTooLarge, tooManyPermutationParts } from "../template-groups.js";

export interface SlotItem {
  kind: "slot";
  name: string;
  offset: number;
  /** `:name(list)`: the list the slot is restricted to. */
  list?: string;
  /** `:name(0..100)`: the numbers it accepts. */
  range?: NumberRange;
  /** `:name['s]`: a suffix the list value's last word may carry glued. */
  suffix?: string;
  /** Characters of `:name(…)` as written, for locations. */
  length: number;
}

export type PatternItem =
  | { kind: "word"; word: string; offset: number }
  | SlotItem
  | { kind: "optional"; items: PatternItem[]; offset: number }
  | { kind: "choice"; alternatives: PatternItem[][]; offset: number; rule?: string };

export interface PatternProblem {
  offset: number;
  length: number;
  message: string;
}

export interface ParsedPattern {
  items: PatternItem[];
  problems: PatternProblem[];
}

/** Patterns of expansion rules by name (their items, already parsed). */
export type ExpansionLookup = (name: string) => PatternItem[] | undefined;

type PatternToken =
  | { kind: "open" | "close" | "bar" | "semi"; char: string; offset: number }
  | { kind: "word"; text: string; offset: number; suffix?: string }
  | { kind: "slot"; item: SlotItem; offset: number }
  | { kind: "rule"; text: string; offset: number };

const SLOT = /:([A-Za-z_][A-Za-z0-9_]*)/y;
/** `(list)` or `(min..max)` right after a slot name, then an optional glued unit. */
const SLOT_SPEC = /\((?:([A-Za-z_][A-Za-z0-9_]*)|(-?\d+)\.\.(-?\d+))\)([%°]?)/y;
const RULE_REFERENCE = /<([A-Za-z_][A-Za-z0-9_]*)>/y;
/** A word runs up to a space, a bracket, a bar or a semicolon. */
const WORD = /[^\s[\]()|;]+/y;
/** `[s]` glued to the end of a word. */
const GLUED_SUFFIX = /\[([^\s[\]()|;]+)\]/y;
const SPACE = /\s/;
const TRAILING_PUNCTUATION = /[?!,]+$/;

function tokenizePattern(text: string, problems: PatternProblem[]): PatternToken[] {
  const tokens: PatternToken[] = [];
  let i = 0;
  const sticky = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = i;
    return re.exec(text);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (SPACE.test(c)) {
      i++;
    } else if (c === "[" || c === "(") {
      tokens.push({ kind: "open", char: c, offset: i++ });
    } else if (c === "]" || c === ")") {
      tokens.push({ kind: "close", char: c, offset: i++ });
    } else if (c === "|" || c === ";") {
      tokens.push({ kind: c === "|" ? "bar" : "semi", char: c, offset: i++ });
    } else {
      const slot = sticky(SLOT);
      if (slot !== null) {
        const start = i;
        i += slot[0].length;
        const item: SlotItem = { kind: "slot", name: slot[1]!, offset: start, length: 0 };
        const spec = sticky(SLOT_SPEC);
        if (spec !== null) {
          i += spec[0].length;
          if (spec[1] !== undefined) item.list = spec[1];
          else {
            item.range = { min: Number(spec[2]), max: Number(spec[3]), unit: spec[4]! };
            if (item.range.min > item.range.max) problems.push({ offset: start, length: i - start, message: `the range ${spec[2]}..${spec[3]} is inverted: write the smaller number first` });
          }
        }
        const glued = sticky(GLUED_SUFFIX);
        if (glued !== null) {
          i += glued[0].length;
          if (item.range) problems.push({ offset: start, length: i - start, message: `a number slot takes its unit glued after the range (:${item.name}(${item.range.min}..${item.range.max})${item.range.unit || "%"}), not a [suffix]` });
          else item.suffix = glued[1]!.toLowerCase();
        }
        item.length = i - start;
        tokens.push({ kind: "slot", item, offset: start });
        continue;
      }
      const rule = sticky(RULE_REFERENCE);
      if (rule !== null) {
        tokens.push({ kind: "rule", text: rule[1]!, offset: i });
        i += rule[0].length;
        continue;
      }
      // c is none of the above, so the word has at least one character
      const start = i;
      i += sticky(WORD)![0].length;
      const word = text.slice(start, i).replace(TRAILING_PUNCTUATION, "").toLowerCase();
      const glued = sticky(GLUED_SUFFIX);
      if (glued !== null) i += glued[0].length;
      if (word.length > 0) tokens.push({ kind: "word", text: word, offset: start, ...(glued ? { suffix: glued[1]!.toLowerCase() } : {}) });
    }
  }
  return tokens;
}

/** Groups nest at most this deep in a pattern (the parser and the expansions are recursive). */
export const MAX_PATTERN_NESTING = 16;

export function parsePattern(text: string, expansions: ExpansionLookup = () => undefined): ParsedPattern {
  const problems: PatternProblem[] = [];
  const tokens = tokenizePattern(text, problems);
  let depth = 0;
  for (const token of tokens) {
    depth += token.kind === "open" ? 1 : token.kind === "close" ? -1 : 0;
    if (depth > MAX_PATTERN_NESTING) {
      problems.push({ offset: token.offset, length: 1, message: `groups nest more than ${MAX_PATTERN_NESTING} levels deep in the pattern` });
      return { items: [], problems };
    }
  }
  let position = 0;

  // sequence := item* ; stops at a closer or bar (the caller decides whether that is legal)
  const sequence = (): PatternItem[] => {
    const items: PatternItem[] = [];
    for (let token = tokens[position]; token !== undefined && token.kind !== "close" && token.kind !== "bar" && token.kind !== "semi"; token = tokens[position]) {
      position++;
      if (token.kind === "word") items.push(wordItem(token.text, token.offset, token.suffix));
      else if (token.kind === "slot") items.push(token.item);
      else if (token.kind === "rule") items.push(...expansion(token.text, token.offset));
      else if (token.kind === "open") items.push(group(token));
    }
    return items;
  };

  const expansion = (name: string, offset: number): PatternItem[] => {
    const items = expansions(name);
    if (items === undefined) {
      problems.push({ offset, length: name.length + 2, message: `<${name}> is not defined: add expansion :${name}, "…" to the rule set` });
      return [];
    }
    // the expansion's items point at the reference, where the user wrote them into this pattern;
    // a choice of one alternative, named, so that the rule stays visible down to the automaton
    return items.length === 0 ? [] : [{ kind: "choice", alternatives: [relocate(items, offset)], offset, rule: name }];
  };

  const group = (open: { char: string; offset: number }): PatternItem => {
    const closer = open.char === "[" ? "]" : ")";
    let alternatives = [sequence()];
    let separator: "bar" | "semi" | undefined;
    for (let next = tokens[position]; next?.kind === "bar" || next?.kind === "semi"; next = tokens[position]) {
      if (separator !== undefined && next.kind !== separator) problems.push({ offset: next.offset, length: 1, message: "a group mixes '|' and ';': put the alternatives of a permutation part in their own (a|b)" });
      separator ??= next.kind;
      position++;
      alternatives.push(sequence());
    }
    if (separator === "semi") alternatives = permutations(alternatives, open.offset, problems);
    const close = tokens[position];
    if (close?.kind === "close" && close.char === closer) position++;
    else problems.push({ offset: open.offset, length: 1, message: `'${open.char}' is never closed: expected '${closer}' in the pattern` });
    if (open.char === "[") {
      const items: PatternItem[] = alternatives.length === 1 ? alternatives[0]! : [{ kind: "choice", alternatives, offset: open.offset }];
      if (items.length === 0) problems.push({ offset: open.offset, length: 2, message: "empty optional group '[]' in the pattern" });
      return { kind: "optional", items, offset: open.offset };
    }
    if (alternatives.every((alternative) => alternative.length === 0)) {
      problems.push({ offset: open.offset, length: 2, message: "empty alternative group '()' in the pattern" });
    }
    return { kind: "choice", alternatives, offset: open.offset };
  };

  const items = sequence();
  while (position < tokens.length) {
    const token = tokens[position++]!;
    const message =
      token.kind === "bar"
        ? "'|' outside a group: write alternatives as (a|b)"
        : `'${"char" in token ? token.char : ""}' has no matching opening bracket in the pattern`;
    problems.push({ offset: token.offset, length: 1, message });
    items.push(...sequence());
  }
  if (items.length === 0 && problems.length === 0) problems.push({ offset: 0, length: 0, message: "empty pattern: a rule needs at least one word or :slot" });
  const size = patternSize(items);
  if (size > MAX_PATTERN_SIZE) {
    problems.push({ offset: 0, length: text.length, message: patternTooLarge(size, "this pattern", "rules") });
    return { items: [], problems };
  }
  reportRepeatedSlots(items, problems);
  return { items, problems };
}

function reportRepeatedSlots(items: PatternItem[], problems: PatternProblem[]): void {
  const seen = new Set<string>();
  const visit = (list: PatternItem[]): void => {
    for (const item of list) {
      if (item.kind === "slot") {
        if (seen.has(item.name)) problems.push({ offset: item.offset, length: item.name.length + 1, message: `slot :${item.name} appears twice in the pattern` });
        seen.add(item.name);
      } else if (item.kind === "optional") visit(item.items);
      else if (item.kind === "choice") {
        // each alternative may capture the same slot; only a repeat within one path is wrong
        const before = new Set(seen);
        const after = new Set(seen);
        for (const alternative of item.alternatives) {
          seen.clear();
          for (const name of before) seen.add(name);
          visit(alternative);
          for (const name of seen) after.add(name);
        }
        seen.clear();
        for (const name of after) seen.add(name);
      }
    }
  };
  visit(items);
}

/** `word` with a glued suffix is the choice of the word with and without it. */
function wordItem(word: string, offset: number, suffix: string | undefined): PatternItem {
  if (suffix === undefined) return { kind: "word", word, offset };
  return { kind: "choice", alternatives: [[{ kind: "word", word, offset }], [{ kind: "word", word: word + suffix, offset }]], offset };
}

/** Every ordering of a permutation's parts, as alternatives. */
function permutations(parts: PatternItem[][], offset: number, problems: PatternProblem[]): PatternItem[][] {
  if (parts.length <= MAX_PERMUTATION_PARTS) return orderings(parts);
  problems.push({ offset, length: 1, message: tooManyPermutationParts(parts.length) });
  return [parts.flat()];
}

/** Copies of `items` located at `offset` (an expansion's items where the rule references it). */
function relocate(items: PatternItem[], offset: number): PatternItem[] {
  return items.map((item): PatternItem => {
    switch (item.kind) {
      case "word":
      case "slot":
        return { ...item, offset };
      case "optional":
        return { ...item, offset, items: relocate(item.items, offset) };
      case "choice":
        return { ...item, offset, alternatives: item.alternatives.map((alternative) => relocate(alternative, offset)) };
    }
  });
}

/** How many words and slots `items` holds, in every alternative. */
function patternSize(items: PatternItem[]): number {
  let size = 0;
  for (const item of items) {
    if (item.kind === "optional") size += patternSize(item.items);
    else if (item.kind === "choice") for (const alternative of item.alternatives) size += patternSize(alternative);
    else size++;
  }
  return size;
}

/** Whether a slot sits anywhere in `items`. */
function hasSlot(items: PatternItem[]): boolean {
  return items.some((item) => item.kind === "slot" || (item.kind === "optional" && hasSlot(item.items)) || (item.kind === "choice" && item.alternatives.some(hasSlot)));
}

/** Every slot name the pattern can capture, in order of first appearance. */
export function slotsOf(items: PatternItem[]): string[] {
  const names: string[] = [];
  const visit = (list: PatternItem[]): void => {
    for (const item of list) {
      if (item.kind === "slot" && !names.includes(item.name)) names.push(item.name);
      else if (item.kind === "optional") visit(item.items);
      else if (item.kind === "choice") item.alternatives.forEach(visit);
    }
  };
  visit(items);
  return names;
}

/** The word `alternative` is, written or as a rule of one word; undefined when it is more or other. */
function oneWord(alternative: PatternItem[]): string | undefined {
  const [item] = alternative;
  if (alternative.length !== 1) return undefined;
  if (item!.kind === "word") return item!.word;
  return item!.kind === "choice" && item!.rule !== undefined ? oneWord(item!.alternatives[0]!) : undefined;
}

/** One node of a template: a word node (several words = alternatives) or a slot. */
export type PathNode =
  | { kind: "words"; words: string[]; required: boolean; offset: number }
  | { kind: "slot"; slot: SlotItem; required: boolean; offset: number };

/**
 * A node, or a choice between sequences (the automaton branches and joins again: no product). A
 * rule's use is a choice of its one body, named as TemplateChoice.rule says.
 */
export type PathPart = PathNode | { kind: "choice"; alternatives: PathPart[][]; offset: number; rule?: string };

/**
 * The template of a pattern, its groups kept as choices. A choice whose alternatives are all single
 * words is one node with alternative words (as NDF writes `"tag": [a, b]`). An optional group
 * without a slot keeps its nodes, marked not required; with a slot inside it is all or nothing (a
 * choice with an empty alternative), so "[in :area]" never matches "in" alone.
 */
export function templateParts(items: PatternItem[], required = true): PathPart[] {
  return items.flatMap((item): PathPart[] => {
    switch (item.kind) {
      case "word":
        return [{ kind: "words", words: [item.word], required, offset: item.offset }];
      case "slot":
        return [{ kind: "slot", slot: item, required, offset: item.offset }];
      case "optional":
        return hasSlot(item.items) ? [{ kind: "choice", alternatives: [[], templateParts(item.items, required)], offset: item.offset }] : templateParts(item.items, false);
      case "choice": {
        if (item.rule !== undefined) {
          const body = templateParts(item.alternatives[0]!, required);
          // a rule of one node is that node: a call would share nothing
          if (body.length <= 1 && body[0]?.kind !== "choice") return body;
          return [{ kind: "choice", alternatives: [body], offset: item.offset, rule: item.rule }];
        }
        const nonEmpty = item.alternatives.filter((alternative) => alternative.length > 0);
        const hasEmpty = nonEmpty.length < item.alternatives.length;
        const single = nonEmpty.map(oneWord);
        if (single.every((word): word is string => word !== undefined)) {
          const words = [...new Set(single)];
          return [{ kind: "words", words, required: required && !hasEmpty, offset: item.offset }];
        }
        // a group of one sequence is that sequence; the empty alternative stays last, as written
        if (nonEmpty.length === 1 && !hasEmpty) return templateParts(nonEmpty[0]!, required);
        const alternatives = nonEmpty.map((alternative) => templateParts(alternative, required));
        return [{ kind: "choice", alternatives: hasEmpty ? [...alternatives, []] : alternatives, offset: item.offset }];
      }
    }
  });
}

export interface Expansion<T> {
  results: T[];
  /** True when the cap cut the expansion short. */
  capped: boolean;
}

/**
 * Cartesian product of per-item expansions without duplicates (by `keyOf`), stopping at `cap`
 * distinct results, so duplicates never use up the cap. An item with one expansion (a word, a
 * slot, a choice of single words) is appended to every result in place, without any key: the
 * same items after distinct results leave them distinct. Most patterns have only such items.
 */
function product<T>(parts: T[][][], cap: number, keyOf: (sequence: T[]) => string): Expansion<T[]> {
  let results: T[][] = [[]];
  let capped = false;
  for (const options of parts) {
    if (options.length === 1 && results.length <= cap) {
      // every result array was built by this call, so it may grow in place
      const option = options[0]!;
      for (const prefix of results) for (const item of option) prefix.push(item);
      continue;
    }
    const next = new Map<string, T[]>();
    for (const prefix of results) {
      for (const option of options) {
        const sequence = prefix.concat(option);
        const key = keyOf(sequence);
        if (next.has(key)) continue;
        if (next.size >= cap) {
          capped = true;
          break;
        }
        next.set(key, sequence);
      }
    }
    results = [...next.values()];
  }
  return { results, capped };
}

/** Every phrasing (list of words) of a slot-free pattern, for exact entries. */
export function expandPhrasings(items: PatternItem[], cap: number): Expansion<string> {
  let capped = false;
  const optionsOf = (item: PatternItem): string[][] => {
    switch (item.kind) {
      case "word":
        return [[item.word]];
      case "slot":
        return [[`:${item.name}`]];
      case "optional":
        return [[], ...sequenceOptions(item.items)];
      case "choice":
        return item.alternatives.flatMap(sequenceOptions);
    }
  };
  const sequenceOptions = (list: PatternItem[]): string[][] => {
    const expansion = product(list.map(optionsOf), cap, (words) => words.join(" "));
    capped ||= expansion.capped;
    return expansion.results;
  };
  const phrasings = sequenceOptions(items).map((words) => words.join(" ")).filter((phrase) => phrase.length > 0);
  return { results: [...new Set(phrasings)], capped };
}

/** A canonical text of a pattern (lowercase, single spaces, no offsets), for duplicate detection. */
export function canonicalPattern(items: PatternItem[]): string {
  return items
    .map((item): string => {
      switch (item.kind) {
        case "word":
          return item.word;
        case "slot":
          return `:${item.name}${item.list !== undefined ? `(${item.list})` : item.range ? `(${item.range.min}..${item.range.max})${item.range.unit}` : ""}${item.suffix !== undefined ? `[${item.suffix}]` : ""}`;
        case "optional":
          return `[${canonicalPattern(item.items)}]`;
        case "choice":
          // a rule's use reads as its pattern written out
          return item.rule !== undefined ? canonicalPattern(item.alternatives[0]!) : `(${item.alternatives.map(canonicalPattern).join("|")})`;
      }
    })
    .join(" ");
}
