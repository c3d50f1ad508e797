// TCS over the real TERMy dataset (NPC-Forge): every finding kind at its exact file:line:col.
import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { lintSources } from "../../compiler/lint.js";
import { hasTermy, termyDir } from "../compile/termy-corpus.js";

const corpus = termyDir;
const corpusExists = hasTermy;

describe.skipIf(!corpusExists)("TCS on TERMy", () => {
  const { diagnostics, texts } = corpusExists ? lintSources([corpus]) : { diagnostics: [] as Diagnostic[], texts: new Map<string, string>() };
  const tcs = diagnostics.filter((d) => d.code.startsWith("TCS"));
  const at = (d: Diagnostic) => `${basename(d.loc.file)}:${d.loc.line}:${d.loc.column}`;
  const findings = (code: string) => tcs.filter((d) => d.code === code);
  /** The source text the diagnostic points at. */
  const pointed = (d: Diagnostic, length: number) => texts.get(d.loc.file)!.slice(d.loc.offset, d.loc.offset + length);

  it("counts each finding", () => {
    const counts = Object.fromEntries(["TCS001", "TCS002", "TCS003", "TCS004", "TCS005", "TCS006"].map((code) => [code, findings(code).length]));
    console.log("TERMy TCS findings:", counts, `(${tcs.filter((d) => d.fix).length} with a mechanical fix)`);
    expect(counts).toEqual({ TCS001: 36, TCS002: 1, TCS003: 22, TCS004: 0, TCS005: 25, TCS006: 1 });
  });

  it("TCS001: a bare placeholder, at the placeholder", () => {
    const d = tcs.find((x) => x.code === "TCS001" && at(x) === "templates_files.json:1826:38")!;
    expect(d.message).toMatch(/^<\|\|file\|\|> carries user input and is not quoted/);
    expect(pointed(d, 10)).toBe("<||file||>");
    expect(d.fix).toEqual([
      { file: d.loc.file, offset: d.loc.offset, endOffset: d.loc.offset, text: "'" },
      { file: d.loc.file, offset: d.loc.offset + 10, endOffset: d.loc.offset + 10, text: "'" },
    ]);
  });

  it("TCS001: a placeholder in double quotes, located past the JSON escapes and a non-ASCII character before it", () => {
    const d = tcs.find((x) => x.code === "TCS001" && at(x) === "templates_directories.json:46:243")!;
    expect(d.message).toMatch(/^<\|\|path\|\|> carries user input and sits inside double quotes/);
    expect(pointed(d, 10)).toBe("<||path||>");
    expect(d.fix?.[0]?.text).toBe(`\\"Listing contents of \\"'<||path||>'`);
  });

  it("TCS002: two placeholders joined into one argument, at the word", () => {
    const d = findings("TCS002")[0]!;
    expect(at(d)).toBe("templates_math.json:41:198");
    expect(pointed(d, 10)).toBe('\\"Letter <');
    expect(d.severity).toBe("warning");
  });

  it("TCS003: a native binary without -- before user input, at the placeholder", () => {
    const d = tcs.find((x) => x.code === "TCS003" && at(x) === "templates_files.json:79:38")!;
    expect(d.message).toMatch(/^cat receives <\|\|path\|\|>/);
    expect(pointed(d, 10)).toBe("<||path||>");
    expect(d.fix).toEqual([{ file: d.loc.file, offset: d.loc.offset - 1, endOffset: d.loc.offset - 1, text: "-- " }]);
  });

  it("TCS005: a destructive command under permission yolo, at the program, with the permission as related location", () => {
    const d = tcs.find((x) => x.code === "TCS005" && at(x) === "dataset_files.json:142:127")!;
    expect(d.message).toBe('destructive command (rm deletes files) runs without asking: its permission is "yolo"; make it "ask"');
    expect(pointed(d, 5)).toBe("rm -f");
    expect(d.related?.[0]?.message).toBe("permission set here");
  });

  it("TCS006: user input inside python -c code, at the placeholder", () => {
    const d = findings("TCS006")[0]!;
    expect(at(d)).toBe("templates_http.json:480:590");
    expect(d.message).toMatch(/^<\|\|word\|\|> carries user input and is run as code by python3 -c/);
    expect(pointed(d, 10)).toBe("<||word||>");
  });

  it("TCS005 points at the program or redirection that destroys (rm, find, >, mv, sudo, pkill, kill)", () => {
    const sites = findings("TCS005").map((d) => pointed(d, 2));
    expect(new Set(sites)).toEqual(new Set(["rm", "fi", "> ", "mv", "su", "pk", "ki"]));
  });
});
