// Rule patterns: `"[please] (show|display) disk space on :path"`.
//   word       a literal word, matched through its synonyms (lowercased; trailing ? ! , dropped)
//   :slot      a captured value
//   [ … ]      optional: every node inside becomes non-required
//   ( a | b )  alternatives; an empty alternative makes the group optional
// Offsets are indexes into the decoded pattern string; the lowering maps them to the source.

export type PatternItem =
  | { kind: "word"; word: string; offset: number }
  | { kind: "slot"; name: string; offset: number }
  | { kind: "optional"; items: PatternItem[]; offset: number }
  | { kind: "choice"; alternatives: PatternItem[][]; offset: number };

export interface PatternProblem {
  offset: number;
  length: number;
  message: string;
}

export interface ParsedPattern {
  items: PatternItem[];
  problems: PatternProblem[];
}

type PatternToken = { kind: "open" | "close" | "bar"; char: string; offset: number } | { kind: "word" | "slot"; text: string; offset: number };

const SLOT = /:([A-Za-z_][A-Za-z0-9_]*)/y;
/** A word runs up to a space, a bracket or a bar. */
const WORD = /[^\s[\]()|]+/y;
const SPACE = /\s/;
const TRAILING_PUNCTUATION = /[?!,]+$/;

function tokenizePattern(text: string): PatternToken[] {
  const tokens: PatternToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (SPACE.test(c)) {
      i++;
    } else if (c === "[" || c === "(") {
      tokens.push({ kind: "open", char: c, offset: i++ });
    } else if (c === "]" || c === ")") {
      tokens.push({ kind: "close", char: c, offset: i++ });
    } else if (c === "|") {
      tokens.push({ kind: "bar", char: c, offset: i++ });
    } else {
      SLOT.lastIndex = i;
      const slot = SLOT.exec(text);
      if (slot !== null) {
        tokens.push({ kind: "slot", text: slot[1]!, offset: i });
        i += slot[0].length;
        continue;
      }
      // c is none of the above, so the word has at least one character
      WORD.lastIndex = i;
      const start = i;
      i += WORD.exec(text)![0].length;
      const word = text.slice(start, i).replace(TRAILING_PUNCTUATION, "").toLowerCase();
      if (word.length > 0) tokens.push({ kind: "word", text: word, offset: start });
    }
  }
  return tokens;
}

/** Groups nest at most this deep in a pattern (the parser and the expansions are recursive). */
export const MAX_PATTERN_NESTING = 16;

export function parsePattern(text: string): ParsedPattern {
  const tokens = tokenizePattern(text);
  const problems: PatternProblem[] = [];
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
    for (let token = tokens[position]; token !== undefined && token.kind !== "close" && token.kind !== "bar"; token = tokens[position]) {
      position++;
      if (token.kind === "word") items.push({ kind: "word", word: token.text, offset: token.offset });
      else if (token.kind === "slot") items.push({ kind: "slot", name: token.text, offset: token.offset });
      else if (token.kind === "open") items.push(group(token));
    }
    return items;
  };

  const group = (open: { char: string; offset: number }): PatternItem => {
    const closer = open.char === "[" ? "]" : ")";
    const alternatives = [sequence()];
    while (tokens[position]?.kind === "bar") {
      position++;
      alternatives.push(sequence());
    }
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

/** One node of an expanded path: a word node (several words = alternatives) or a slot. */
export type PathNode =
  | { kind: "words"; words: string[]; required: boolean; offset: number }
  | { kind: "slot"; name: string; required: boolean; offset: number };

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

/**
 * Template paths of a pattern. A choice whose alternatives are all single words is one node with
 * alternative words (as NDF writes `"tag": [a, b]`); other choices multiply the paths. Optional
 * groups keep their nodes, marked not required.
 */
export function expandPaths(items: PatternItem[], cap: number): Expansion<PathNode[]> {
  let capped = false;
  const optionsOf = (item: PatternItem, required: boolean): PathNode[][] => {
    switch (item.kind) {
      case "word":
        return [[{ kind: "words", words: [item.word], required, offset: item.offset }]];
      case "slot":
        return [[{ kind: "slot", name: item.name, required, offset: item.offset }]];
      case "optional":
        return sequenceOptions(item.items, false);
      case "choice": {
        const nonEmpty = item.alternatives.filter((alternative) => alternative.length > 0);
        const nodeRequired = required && nonEmpty.length === item.alternatives.length;
        if (nonEmpty.every((alternative) => alternative.length === 1 && alternative[0]!.kind === "word")) {
          const words = [...new Set(nonEmpty.map((alternative) => (alternative[0] as { word: string }).word))];
          return [[{ kind: "words", words, required: nodeRequired, offset: item.offset }]];
        }
        // the empty alternative is its own (shorter) path; the others keep their words required
        const hasEmpty = nonEmpty.length < item.alternatives.length;
        return nonEmpty.flatMap((alternative) => sequenceOptions(alternative, required)).concat(hasEmpty ? [[]] : []);
      }
    }
  };
  const sequenceOptions = (list: PatternItem[], required: boolean): PathNode[][] => {
    const expansion = product(
      list.map((item) => optionsOf(item, required)),
      cap,
      (path) => JSON.stringify(path),
    );
    capped ||= expansion.capped;
    return expansion.results;
  };
  return { results: sequenceOptions(items, true), capped };
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
          return `:${item.name}`;
        case "optional":
          return `[${canonicalPattern(item.items)}]`;
        case "choice":
          return `(${item.alternatives.map(canonicalPattern).join("|")})`;
      }
    })
    .join(" ");
}
