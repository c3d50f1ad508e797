// Runs a type regex compiled at build time (compiler/passes/compute-type-programs.ts) as a Pike VM:
// time linear in the input whatever the pattern, so no message can make a type check backtrack
// exponentially (TERMy's `path` regex hangs a backtracking engine on 30 characters).
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleTypeProgram } from "../bundle/bundle-types.js";
import { characters } from "./fuzzy.js";

export const OP_CHAR = 0; // [0, class, next]: consume one character of the class
export const OP_SPLIT = 1; // [1, x, y]: continue at x and at y
export const OP_JMP = 2; // [2, x, _]
export const OP_MATCH = 3; // [3, _, _]
export const OP_BOL = 4; // [4, next, _]: only at the start of the input
export const OP_EOL = 5; // [5, next, _]: only at the end of the input
export const OP_ANY = 6; // [6, next, _]: any character but a newline

// Named sets of a class (bitmask), with their negations.
export const SET_WORD = 1;
export const SET_DIGIT = 2;
export const SET_SPACE = 4;
export const SET_NOT_WORD = 8;
export const SET_NOT_DIGIT = 16;
export const SET_NOT_SPACE = 32;

/** Longest text a type regex ever sees; longer tokens do not match any type. */
export const MAX_TYPED_TOKEN = 256;

/**
 * Word characters beyond ASCII, made on first use: a Unicode-property class costs V8 about 0.5 ms
 * to build (and a literal is checked when the chunk is parsed), which a load with templates paid.
 */
let wordChar: RegExp | undefined;
const SPACE_CHAR = /\s/u;

const inNamedSets = (function inNamedSets(bits: number, code: number): boolean {
  if (bits === 0) return false;
  const isDigit = code >= 48 && code <= 57;
  // A string only for a character beyond ASCII (rare in a token), for the Unicode regexes.
  const ch = code < 128 ? "" : String.fromCodePoint(code);
  const letter = code | 32; // A-Z read as a-z
  const isWord = code < 128 ? (letter >= 97 && letter <= 122) || isDigit || code === 95 : (wordChar ??= new RegExp("[\\p{L}\\p{N}\\p{M}_]", "u")).test(ch);
  const isSpace = code === 32 || (code < 128 ? code >= 9 && code <= 13 : SPACE_CHAR.test(ch));
  // The sets the character is in, each named or negated: the class holds it if it names one of them.
  const sets = (isWord ? SET_WORD : SET_NOT_WORD) | (isDigit ? SET_DIGIT : SET_NOT_DIGIT) | (isSpace ? SET_SPACE : SET_NOT_SPACE);
  return (bits & sets) !== 0;
});

const inClass = (function inClass(cls: readonly number[], code: number): boolean {
  let hit = inNamedSets(cls[1]!, code);
  for (let i = 2; !hit && i < cls.length; i += 2) hit = code >= cls[i]! && code <= cls[i + 1]!;
  return cls[0] === 1 ? !hit : hit;
});

/** A type ready to test tokens: `test` says whether the regex finds a match anywhere in `text`. */
export class TypeMatcher {
  private readonly ops: Int32Array;
  /** Whether the compiler could translate the regex (a type it could not translate never matches). */
  readonly usable: boolean;
  private readonly marks: Int32Array;
  private current: Int32Array;
  private next: Int32Array;
  /**
   * addThread's work list, reused by every test: an op pushes at most two and is expanded once per
   * step, so twice the ops and one more always fit. Typed, not an array: push and pop grow and trim
   * an array's store, which the first tests (before V8 optimizes them) paid in allocation.
   */
  private readonly stack: Int32Array;
  private generation = 0;

  constructor(private readonly program: BundleTypeProgram) {
    this.ops = Int32Array.from(program.ops);
    this.usable = program.unusable === null && this.ops.length > 0;
    const size = program.ops.length / 3;
    this.marks = new Int32Array(size);
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    this.stack = new Int32Array(2 * size + 1);
  }


  test(text: string): boolean {
    if (!this.usable || text.length > MAX_TYPED_TOKEN) return false;
    // Positions count code points, as the compiler's regex does (no array of characters is made).
    const n = characters(text);
    let currentCount = 0;
    for (let i = 0, unit = 0; i <= n; i++) {
      this.generation++;
      // Re-mark the threads carried over from the previous step, then start a new attempt here.
      const carried = currentCount;
      currentCount = 0;
      const list = this.current;
      for (let t = 0; t < carried; t++) currentCount = this.addThread(list, currentCount, list[t]!, i, n, true);
      currentCount = this.addThread(list, currentCount, 0, i, n, false);
      let nextCount = 0;
      this.generation++;
      const code = text.codePointAt(unit) ?? -1; // -1: past the end
      unit += code > 0xffff ? 2 : 1;
      for (let t = 0; t < currentCount; t++) {
        const pc = list[t]!;
        const op = this.ops[pc * 3]!;
        if (op === OP_MATCH) return true;
        if (code === -1) continue;
        if (op === OP_CHAR) {
          if (inClass(this.program.classes[this.ops[pc * 3 + 1]!]!, code)) {
            nextCount = this.addThread(this.next, nextCount, this.ops[pc * 3 + 2]!, i + 1, n, false);
          }
        } else if (op === OP_ANY && code !== 10) {
          nextCount = this.addThread(this.next, nextCount, this.ops[pc * 3 + 1]!, i + 1, n, false);
        }
      }
      const swap = this.current;
      this.current = this.next;
      this.next = swap;
      currentCount = nextCount;
    }
    return false;
  }

  /**
   * Adds `pc` and everything reachable from it without consuming input. `settled` threads were
   * already expanded in the previous step: they are only re-marked and kept in place.
   */
  private addThread(list: Int32Array, count: number, pc: number, at: number, n: number, settled: boolean): number {
    if (settled) {
      this.marks[pc] = this.generation;
      list[count] = pc;
      return count + 1;
    }
    const { stack } = this;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const p = stack[--top]!;
      if (this.marks[p] === this.generation) continue;
      this.marks[p] = this.generation;
      const op = this.ops[p * 3]!;
      const a = this.ops[p * 3 + 1]!;
      if (op === OP_JMP) stack[top++] = a;
      else if (op === OP_SPLIT) {
        stack[top++] = this.ops[p * 3 + 2]!;
        stack[top++] = a;
      } else if (op === OP_BOL) {
        if (at === 0) stack[top++] = a;
      } else if (op === OP_EOL) {
        if (at === n) stack[top++] = a;
      } else list[count++] = p;
    }
    return count;
  }
}
