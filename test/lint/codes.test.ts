// The code tables: each code written once, the catalogue and the names derived from the same rows.
import { describe, expect, it } from "vitest";
import { CATALOGUE, CODES } from "../../compiler/codes.js";
import { codeArea } from "../../compiler/diagnostics.js";
import { DSL_CODES } from "../../compiler/sources/dsl/codes.js";
import { TCS_CODES } from "../../compiler/tcs/codes.js";

describe("code tables", () => {
  it("give every code one catalogue entry, and every name a code of the catalogue", () => {
    const codes = CATALOGUE.map((info) => info.code);
    expect(new Set(codes).size).toBe(codes.length);
    const named = [...Object.values(CODES), ...Object.values(DSL_CODES), ...Object.values(TCS_CODES)];
    expect([...named].sort()).toEqual([...codes].sort());
  });

  it("derives names and entries from one table, in its order", () => {
    const area = codeArea({ second: { code: "X002", severity: "info", title: "b" }, first: { code: "X001", severity: "error", title: "a" } });
    expect(area.codes).toEqual({ second: "X002", first: "X001" });
    expect(area.catalogue.map((info) => info.code)).toEqual(["X002", "X001"]);
  });

  it("refuses a table with a misspelled severity", () => {
    expect(() => codeArea({ bad: { code: "X001", severity: "warn", title: "a" } })).toThrow(/X001 \(bad\): severity "warn"/);
  });
});
