// Compute pass: compiles each type regex (types.json, DSL `types`) into a Pike VM program for
// runtime/text/regex-vm.ts. Python spellings are translated ((?i:…), (?P<name>…), \A, \Z). Patterns
// using what a linear-time matcher cannot do (backreferences, lookaround, \b) are marked
// unusable with the reason, never thrown: the lint reports them, the build goes on.
// Matching is case-insensitive, as in NDF's engine (re.search(pattern, token, re.I)).

import type { TypeDef } from "../ir/types.js";
import type { BundleTypeProgram } from "../../runtime/bundle/bundle-types.js";
import {
  OP_ANY,
  OP_BOL,
  OP_CHAR,
  OP_EOL,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
  SET_DIGIT,
  SET_NOT_DIGIT,
  SET_NOT_SPACE,
  SET_NOT_WORD,
  SET_SPACE,
  SET_WORD,
} from "../../runtime/text/regex-vm.js";

/** Programs larger than this (counted repetitions expand) are refused. */
const MAX_OPS = 20_000;

interface CharClass {
  negated: boolean;
  sets: number;
  ranges: [number, number][];
}

type Node =
  | { kind: "class"; cls: CharClass }
  | { kind: "any" }
  | { kind: "bol" }
  | { kind: "eol" }
  | { kind: "concat"; items: Node[] }
  | { kind: "alt"; items: Node[] }
  | { kind: "repeat"; item: Node; min: number; max: number /* Infinity for unbounded */ };

/** What the VM cannot run; `at` is the offset in the pattern where the parser stood, when known. */
class Unsupported extends Error {
  constructor(
    message: string,
    readonly at?: number,
  ) {
    super(message);
  }
}

class RegexParser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private ignoreCase: boolean,
  ) {}

  parse(): Node {
    if (this.src.startsWith("(?i)")) {
      this.ignoreCase = true;
      this.pos = 4;
    }
    try {
      const node = this.alternation();
      if (this.pos < this.src.length) throw new Unsupported(`unexpected "${this.src[this.pos]}"`);
      return node;
    } catch (error) {
      if (error instanceof Unsupported && error.at === undefined) throw new Unsupported(error.message, Math.min(this.pos, this.src.length));
      throw error;
    }
  }

  private alternation(): Node {
    const items = [this.concatenation()];
    while (this.src[this.pos] === "|") {
      this.pos++;
      items.push(this.concatenation());
    }
    return items.length === 1 ? items[0]! : { kind: "alt", items };
  }

  private concatenation(): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") {
      items.push(this.quantified(this.atom()));
    }
    return { kind: "concat", items };
  }

  private quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const ch = this.src[this.pos];
      let min: number;
      let max: number;
      if (ch === "*") [min, max] = [0, Infinity];
      else if (ch === "+") [min, max] = [1, Infinity];
      else if (ch === "?") [min, max] = [0, 1];
      else if (ch === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
        if (!m) return node; // a literal "{", as in Python
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
        if (max < min) throw new Unsupported(`repetition {${min},${max}} has max below min`);
        this.pos += m[0].length - 1;
      } else return node;
      this.pos++;
      if (this.src[this.pos] === "?") this.pos++; // lazy: same language
      else if (this.src[this.pos] === "+") throw new Unsupported("possessive quantifiers are not supported");
      node = { kind: "repeat", item: node, min, max };
    }
  }

  private atom(): Node {
    const ch = this.src[this.pos]!;
    if (ch === "(") return this.group();
    if (ch === "[") return { kind: "class", cls: this.charClass() };
    this.pos++;
    if (ch === ".") return { kind: "any" };
    if (ch === "^") return { kind: "bol" };
    if (ch === "$") return { kind: "eol" };
    if (ch === "\\") return this.escape();
    if (ch === "*" || ch === "+" || ch === "?") {
      this.pos--;
      throw new Unsupported(`nothing to repeat`);
    }
    return this.literal(this.codeAt(this.pos - 1));
  }

  private codeAt(at: number): number {
    const code = this.src.codePointAt(at)!;
    if (code > 0xffff) this.pos++;
    return code;
  }

  private group(): Node {
    this.pos++;
    const savedCase = this.ignoreCase;
    const rest = this.src.slice(this.pos);
    if (rest.startsWith("?:")) this.pos += 2;
    else if (rest.startsWith("?i:")) {
      this.pos += 3;
      this.ignoreCase = true;
    } else if (/^\?P?<[A-Za-z_]\w*>/.test(rest)) this.pos = this.src.indexOf(">", this.pos) + 1;
    else if (rest.startsWith("?")) throw new Unsupported(`group "(${rest.slice(0, 3)}" (lookaround, inline flags or backreference) is not supported`);
    const inner = this.alternation();
    if (this.src[this.pos] !== ")") throw new Unsupported("missing )");
    this.pos++;
    this.ignoreCase = savedCase;
    return inner;
  }

  private escape(): Node {
    const ch = this.src[this.pos];
    if (ch === undefined) throw new Unsupported("pattern ends with a backslash");
    if (ch === "A") {
      this.pos++;
      return { kind: "bol" };
    }
    if (ch === "Z" || ch === "z") {
      this.pos++;
      return { kind: "eol" };
    }
    const set = this.namedSet(ch);
    if (set !== 0) {
      this.pos++;
      return { kind: "class", cls: { negated: false, sets: set, ranges: [] } };
    }
    return this.literal(this.escapedCode());
  }

  private namedSet(ch: string): number {
    const sets: Record<string, number> = {
      w: SET_WORD,
      d: SET_DIGIT,
      s: SET_SPACE,
      W: SET_NOT_WORD,
      D: SET_NOT_DIGIT,
      S: SET_NOT_SPACE,
    };
    return sets[ch] ?? 0;
  }

  /** The code point of an escape (after the backslash); advances past it. */
  private escapedCode(): number {
    const ch = this.src[this.pos]!;
    const simple: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, "0": 0 };
    if (ch in simple) {
      this.pos++;
      return simple[ch]!;
    }
    if (ch === "x" || ch === "u") {
      const digits = ch === "x" ? 2 : 4;
      const hex = this.src.slice(this.pos + 1, this.pos + 1 + digits);
      if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) throw new Unsupported(`bad \\${ch} escape`);
      this.pos += 1 + digits;
      return parseInt(hex, 16);
    }
    if (/[1-9]/.test(ch)) throw new Unsupported("backreferences are not supported");
    if (/[bBkpPcG]/.test(ch)) throw new Unsupported(`escape \\${ch} is not supported`);
    this.pos++;
    return this.codeAt(this.pos - 1);
  }

  private literal(code: number): Node {
    return { kind: "class", cls: { negated: false, sets: 0, ranges: this.withCase([[code, code]]) } };
  }

  private charClass(): CharClass {
    this.pos++;
    const cls: CharClass = { negated: false, sets: 0, ranges: [] };
    if (this.src[this.pos] === "^") {
      cls.negated = true;
      this.pos++;
    }
    let first = true;
    while (this.pos < this.src.length && (this.src[this.pos] !== "]" || first)) {
      first = false;
      const lo = this.classAtom(cls);
      if (lo === null) continue;
      if (this.src[this.pos] === "-" && this.src[this.pos + 1] !== "]" && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.classAtom(cls);
        if (hi === null) throw new Unsupported("a range cannot end with a class escape");
        if (hi < lo) throw new Unsupported("character range out of order");
        cls.ranges.push([lo, hi]);
      } else cls.ranges.push([lo, lo]);
    }
    if (this.src[this.pos] !== "]") throw new Unsupported("missing ]");
    this.pos++;
    cls.ranges = this.withCase(cls.ranges);
    return cls;
  }

  /** One member of a class: a code point, or null after adding a named set (\w, \d…). */
  private classAtom(cls: CharClass): number | null {
    const ch = this.src[this.pos]!;
    this.pos++;
    if (ch !== "\\") return this.codeAt(this.pos - 1);
    const next = this.src[this.pos];
    if (next === undefined) throw new Unsupported("pattern ends with a backslash");
    const set = this.namedSet(next);
    if (set !== 0) {
      this.pos++;
      cls.sets |= set;
      return null;
    }
    if (next === "b") {
      this.pos++;
      return 8;
    }
    return this.escapedCode();
  }

  /** Adds the other case of ASCII letters (and of single non-ASCII letters) when ignoring case. */
  private withCase(ranges: [number, number][]): [number, number][] {
    if (!this.ignoreCase) return ranges;
    const out = [...ranges];
    for (const [lo, hi] of ranges) {
      for (const [a, z, shift] of [[65, 90, 32], [97, 122, -32]] as const) {
        const from = Math.max(lo, a);
        const to = Math.min(hi, z);
        if (from <= to) out.push([from + shift, to + shift]);
      }
      if (lo === hi && lo > 127) {
        const ch = String.fromCodePoint(lo);
        for (const other of [ch.toLowerCase(), ch.toUpperCase()]) {
          const code = other.codePointAt(0)!;
          if ([...other].length === 1 && code !== lo) out.push([code, code]);
        }
      }
    }
    return out;
  }
}

class ProgramBuilder {
  readonly ops: number[] = [];
  readonly classes: number[][] = [];
  private readonly classIndex = new Map<string, number>();

  private emit(op: number, a = 0, b = 0): number {
    if (this.ops.length / 3 >= MAX_OPS) throw new Unsupported(`the compiled program exceeds ${MAX_OPS} instructions`);
    this.ops.push(op, a, b);
    return this.ops.length / 3 - 1;
  }

  private patch(pc: number, slot: 1 | 2, value: number): void {
    this.ops[pc * 3 + slot] = value;
  }

  private get pc(): number {
    return this.ops.length / 3;
  }

  private classId(cls: CharClass): number {
    const encoded = [cls.negated ? 1 : 0, cls.sets, ...cls.ranges.flat()];
    const key = encoded.join(",");
    let id = this.classIndex.get(key);
    if (id === undefined) {
      id = this.classes.length;
      this.classes.push(encoded);
      this.classIndex.set(key, id);
    }
    return id;
  }

  /** Emits `node`; every emitted instruction continues at the next pc unless it jumps. */
  compile(node: Node): void {
    switch (node.kind) {
      case "class": {
        const pc = this.emit(OP_CHAR, this.classId(node.cls));
        this.patch(pc, 2, pc + 1);
        return;
      }
      case "any":
        this.emit(OP_ANY, this.pc + 1);
        return;
      case "bol":
        this.emit(OP_BOL, this.pc + 1);
        return;
      case "eol":
        this.emit(OP_EOL, this.pc + 1);
        return;
      case "concat":
        for (const item of node.items) this.compile(item);
        return;
      case "alt": {
        const jumpsToEnd: number[] = [];
        node.items.forEach((item, i) => {
          if (i < node.items.length - 1) {
            const split = this.emit(OP_SPLIT, this.pc + 1);
            this.compile(item);
            jumpsToEnd.push(this.emit(OP_JMP));
            this.patch(split, 2, this.pc);
          } else this.compile(item);
        });
        for (const jump of jumpsToEnd) this.patch(jump, 1, this.pc);
        return;
      }
      case "repeat": {
        for (let i = 0; i < node.min; i++) this.compile(node.item);
        if (node.max === Infinity) {
          const split = this.emit(OP_SPLIT, this.pc + 1);
          this.compile(node.item);
          this.emit(OP_JMP, split);
          this.patch(split, 2, this.pc);
          return;
        }
        const skips: number[] = [];
        for (let i = node.min; i < node.max; i++) {
          skips.push(this.emit(OP_SPLIT, this.pc + 1));
          this.compile(node.item);
        }
        for (const split of skips) this.patch(split, 2, this.pc);
        return;
      }
    }
  }

  finish(): void {
    this.emit(OP_MATCH);
  }
}

/** Compiles one regex source (with flags) into a program, or says why it cannot be used. */
export function compileTypeRegex(name: string, pattern: string, flags: string): BundleTypeProgram {
  try {
    if (/[^imsuvgy]/.test(flags)) throw new Unsupported(`unknown regex flags "${flags}"`);
    const ast = new RegexParser(pattern, true).parse();
    const builder = new ProgramBuilder();
    builder.compile(ast);
    builder.finish();
    return { name, unusable: null, classes: builder.classes, ops: builder.ops };
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const where = error.at === undefined ? "" : ` (at character ${error.at + 1} of the pattern)`;
    return { name, unusable: error.message + where, classes: [], ops: [] };
  }
}

/** Programs for every type of the IR, sorted by name (a type id is an index here). */
export function computeTypePrograms(types: readonly TypeDef[]): BundleTypeProgram[] {
  const byName = new Map<string, TypeDef>();
  for (const type of types) if (!byName.has(type.name)) byName.set(type.name, type);
  return [...byName.keys()].sort().map((name) => {
    const type = byName.get(name)!;
    return compileTypeRegex(name, type.pattern, type.flags);
  });
}
