// Invariants of the DSL front end over arbitrary and generated input: it never throws, every
// diagnostic points inside the file, and the same text always lowers to the same fragment.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { generateRuleFile } from "../../bench/dsl-parse.js";
import { CATALOGUE } from "../../compiler/codes.js";
import { DSL_CODES } from "../../compiler/sources/dsl/codes.js";
import { lower } from "./helpers.js";

const VALID = [
  `RuleSet.define "p" do`,
  `  types n: /\\d+/, p: %r{[\\w/]+}i`,
  `  synonym "wipe", means: "delete"`,
  `  rule("delete :p") { command "rm -- '<||p||>'"; permission :ask }`,
  `  chain "a :n" do`,
  `    step :x, v: :n, h: {k: [1, "s", nil]}`,
  `    step :y, v: :prev_result`,
  `  end`,
  `  query("where is :t") { resolve :r, t: :t }`,
  `end`,
].join("\n");

/** Characters that matter to the lexer and parser, so random text hits the interesting paths. */
const dslCharacter = fc.constantFrom(..."abcdewRS :_'\"/\\%r{}()[]|,.=>#\n do end 0123456789<|>".split(""));

function expectWellFormed(text: string): void {
  const { diagnostics } = lower(text);
  for (const d of diagnostics) {
    expect(d.loc.offset).toBeGreaterThanOrEqual(0);
    expect(d.loc.offset).toBeLessThanOrEqual(text.length);
    expect(d.loc.line).toBeGreaterThanOrEqual(1);
    expect(d.loc.column).toBeGreaterThanOrEqual(1);
    expect(d.message.length).toBeGreaterThan(0);
  }
}

describe("DSL front-end invariants", () => {
  test("arbitrary text never throws and every diagnostic is located inside it", () => {
    fc.assert(fc.property(fc.string({ unit: dslCharacter, maxLength: 200 }), expectWellFormed), { numRuns: 400 });
  });

  test("any single edit of a valid file never throws", () => {
    fc.assert(
      fc.property(fc.nat(VALID.length), fc.nat(4), fc.string({ unit: dslCharacter, maxLength: 3 }), (at, removed, inserted) => {
        expectWellFormed(VALID.slice(0, at) + inserted + VALID.slice(at + removed));
      }),
      { numRuns: 400 },
    );
  });

  test("the same text lowers to the same fragment and diagnostics", () => {
    fc.assert(
      fc.property(fc.string({ unit: dslCharacter, maxLength: 120 }), (text) => {
        expect(lower(VALID + "\n" + text)).toEqual(lower(VALID + "\n" + text));
      }),
      { numRuns: 100 },
    );
  });

  test("the valid sample lowers clean", () => {
    expect(lower(VALID).diagnostics).toEqual([]);
  });

  test("the benchmark's generated file lowers clean, one intent per rule", () => {
    const { fragment, diagnostics } = lower(generateRuleFile(100, 5));
    expect(diagnostics).toEqual([]);
    expect(fragment.intents).toHaveLength(100);
    expect(fragment.intents.filter((intent) => intent.context !== undefined)).toHaveLength(20);
  });
});

describe("the lint catalogue", () => {
  test("lists every DSL code once, with the severity the DSL reports it at", () => {
    const dsl = CATALOGUE.filter((info) => info.code.startsWith("DSL"));
    expect(dsl.map((info) => info.code).sort()).toEqual(Object.values(DSL_CODES).sort());
    expect(dsl.filter((info) => info.severity === "warning").map((info) => info.code)).toEqual([DSL_CODES.duplicateSetting, DSL_CODES.constantSymbol]);
  });
});

describe("nesting limits (the parser is recursive; no input may exhaust the stack)", () => {
  test("64 levels parse; deeper nesting is one DSL008 error, whatever the depth", () => {
    expect(lower(`connectives ${"[".repeat(63)}"a"${"]".repeat(63)}`).diagnostics.map((d) => d.code)).toEqual(["DSL107"]);
    for (const depth of [65, 100_000]) {
      const { diagnostics } = lower(`types t: /x/\nf ${"[".repeat(depth)}${"]".repeat(depth)}`);
      expect(diagnostics.map((d) => `${d.loc.line}:${d.loc.column} ${d.code}`)).toEqual(["2:67 DSL008"]);
    }
    expect(lower("rule 'a' do\n  context do\n".repeat(40_000)).diagnostics.map((d) => d.code)).toEqual(["DSL008"]);
  });

  test("deeply nested pattern groups are a pattern error, not a crash", () => {
    const { diagnostics } = lower(`rule "${"(".repeat(5000)}a${")".repeat(5000)}"`);
    expect(diagnostics.map((d) => `${d.loc.column} ${d.code}`)).toEqual(["23 DSL108"]);
  });
});
