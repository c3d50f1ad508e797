// compute-type-programs.ts on hand-built types: one program per type name, sorted by name (a type
// id is its index) whatever the listing order, the first definition of a name kept; a pattern the
// VM cannot run marked unusable with where it failed, beside the others; programs as straight-line
// Pike VM code, case-insensitive classes stored once. (What the programs match is
// test/runtime/regex-vm.test.ts's business.)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TypeDef } from "../../compiler/ir/types.js";
import { compileTypeRegex, computeTypePrograms } from "../../compiler/passes/compute-type-programs.js";
import { OP_BOL, OP_CHAR, OP_EOL, OP_JMP, OP_MATCH, OP_SPLIT, SET_DIGIT } from "../../runtime/text/regex-vm.js";
import { loc } from "../runtime/ir-fixture.js";

const type = (name: string, pattern: string, flags = ""): TypeDef => ({ name, pattern, flags, loc: loc() });

/** The program's instructions as [op, a, b] triples. */
const instructions = (ops: readonly number[]): number[][] => Array.from({ length: ops.length / 3 }, (_, pc) => ops.slice(pc * 3, pc * 3 + 3));

describe("computeTypePrograms", () => {
  const types = [type("number", "^\\d+$"), type("filename", "^\\w+\\.txt$"), type("backref", "(a)\\1"), type("colour", "red|blue")];

  it("gives one program per type, sorted by name, whatever order the types are listed in", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(types, { minLength: types.length, maxLength: types.length }), (listed) => {
        const programs = computeTypePrograms(listed);
        expect(programs.map((p) => p.name)).toEqual(["backref", "colour", "filename", "number"]);
        expect(programs).toEqual(computeTypePrograms(types));
      }),
    );
  });

  it("keeps the first definition of a name and drops the later ones", () => {
    const programs = computeTypePrograms([type("code", "^x$"), type("code", "(?=y)"), type("code", "^z+$")]);
    expect(programs).toHaveLength(1);
    expect(programs[0]).toEqual(compileTypeRegex("code", "^x$", ""));
    expect(programs[0]!.unusable).toBeNull();
  });

  it("marks a pattern the VM cannot run as unusable, with no code, and still compiles the others", () => {
    const programs = computeTypePrograms(types);
    const byName = new Map(programs.map((p) => [p.name, p]));
    expect(byName.get("backref")).toEqual({ name: "backref", unusable: "backreferences are not supported (at character 5 of the pattern)", classes: [], ops: [] });
    for (const name of ["colour", "filename", "number"]) {
      expect(byName.get(name)!.unusable, name).toBeNull();
      expect(byName.get(name)!.ops.length, name).toBeGreaterThan(0);
    }
    expect(programs.filter((p) => p.unusable !== null).map((p) => p.name)).toEqual(["backref"]);
  });
});

describe("compileTypeRegex", () => {
  it("compiles a literal into one class per letter holding both cases, then MATCH", () => {
    const program = compileTypeRegex("t", "ab", "");
    expect(program.classes).toEqual([
      [0, 0, 97, 97, 65, 65],
      [0, 0, 98, 98, 66, 66],
    ]);
    expect(instructions(program.ops)).toEqual([
      [OP_CHAR, 0, 1],
      [OP_CHAR, 1, 2],
      [OP_MATCH, 0, 0],
    ]);
  });

  it("stores a class once however often the pattern uses it", () => {
    const program = compileTypeRegex("t", "^\\d{3}-[0-9a-f]\\d$", "");
    expect(program.classes).toEqual([
      [0, SET_DIGIT],
      [0, 0, 45, 45],
      [0, 0, 48, 57, 97, 102, 65, 70],
    ]);
    const used = instructions(program.ops)
      .filter(([op]) => op === OP_CHAR)
      .map(([, cls]) => cls);
    expect(used).toEqual([0, 0, 0, 1, 2, 0]);
    expect(instructions(program.ops)[0]).toEqual([OP_BOL, 1, 0]);
    expect(instructions(program.ops).at(-2)?.[0]).toBe(OP_EOL);
  });

  it("compiles an unbounded repetition as a SPLIT that loops back, and an alternation as SPLIT and JMP to one end", () => {
    const star = instructions(compileTypeRegex("t", "a*", "").ops);
    expect(star).toEqual([
      [OP_SPLIT, 1, 3],
      [OP_CHAR, 0, 2],
      [OP_JMP, 0, 0],
      [OP_MATCH, 0, 0],
    ]);
    const alt = instructions(compileTypeRegex("t", "a|b|c", "").ops);
    expect(alt).toEqual([
      [OP_SPLIT, 1, 3],
      [OP_CHAR, 0, 2],
      [OP_JMP, 7, 0],
      [OP_SPLIT, 4, 6],
      [OP_CHAR, 1, 5],
      [OP_JMP, 7, 0],
      [OP_CHAR, 2, 7],
      [OP_MATCH, 0, 0],
    ]);
  });

  it("refuses unknown flags and programs past 20,000 instructions as unusable, never throwing", () => {
    expect(compileTypeRegex("t", "^a$", "x")).toEqual({ name: "t", unusable: 'unknown regex flags "x"', classes: [], ops: [] });
    expect(compileTypeRegex("t", "^a$", "i").unusable).toBeNull();
    expect(compileTypeRegex("t", "a{19999}", "").unusable).toBeNull();
    expect(compileTypeRegex("t", "a{20000}", "").unusable).toBe("the compiled program exceeds 20000 instructions");
  });
});
