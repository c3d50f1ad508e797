// The lint finds every defect REFERENCE-ENGINE.md lists in the real TERMy and example datasets.
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../compiler/diagnostics.js";
import { lintSources } from "../../compiler/lint.js";
import { corpusDir, hasTermy, termyDir } from "../compile/termy-corpus.js";

const at = (d: Diagnostic) => `${relative(corpusDir, d.loc.file)}:${d.loc.line}:${d.loc.column}`;

describe.skipIf(!hasTermy)("lint on TERMy", () => {
  let diagnostics: Diagnostic[] = [];
  beforeAll(() => {
    diagnostics = lintSources([termyDir]).diagnostics;
  });
  const withCode = (code: string) => diagnostics.filter((d) => d.code === code);

  it("reports the 48 vocab tags used in templates but never defined", () => {
    const tags = new Set(withCode("REF001").map((d) => /<\|\|(.*?)\|\|>/.exec(d.message)![1]));
    expect(tags.size).toBe(48);
    expect(tags).toContain("vocab_if");
    expect(tags).toContain("vocab_dns");
    const make = withCode("REF001").find((d) => d.message.includes("<||vocab_make||>"))!;
    expect(at(make)).toBe("termy/dataset/templates_directories.json:199:17");
  });

  it("notes the <||path||> regex's exponential backtracking (other engines only: the runtime VM is linear), at its key in types.json", () => {
    const [redos] = withCode("RGX003");
    expect(withCode("RGX003")).toHaveLength(1);
    expect(redos!.severity).toBe("info");
    expect(redos!.message).toContain('type "path"');
    expect(at(redos!)).toBe("termy/dataset/types.json:5:5");
  });

  it("notes the Python (?i:…) inline flag of <||filesize||>, which the runtime VM runs but JavaScript's RegExp rejects", () => {
    expect(withCode("RGX001")).toEqual([]);
    const [flag] = withCode("RGX002");
    expect(flag!.severity).toBe("info");
    expect(flag!.message).toContain('type "filesize"');
    expect(flag!.message).toContain("(?i:");
    expect(at(flag!)).toBe("termy/dataset/types.json:6:5");
  });

  it("reports `clear` stripped from real inputs by the interjection list", () => {
    const clear = withCode("CON002").filter((d) => d.message.includes('contains "clear"'));
    expect(clear.map(at)).toEqual([
      "termy/dataset/dataset_files.json:464:13",
      "termy/dataset/dataset_system.json:276:13",
      "termy/dataset/dataset_system.json:277:13",
      "termy/dataset/dataset_system.json:279:13",
      "termy/dataset/dataset_system.json:280:13",
    ]);
    expect(clear[2]!.message).toContain('"clear terminal"');
  });

  it("reports the 26 duplicated inputs (21 across intents, 8 across categories; 5 repeats in one entry), plus those only the runtime's normalization merges", () => {
    // The reference counts lowercased, trimmed inputs. The lint compares the runtime's own keys, so it
    // also reports the repeats the runtime cannot tell apart ("how are you" / "how are you?"); the
    // pair differing only in shell symbols ("> and >>" / "' and \"") is two inputs since symbol
    // tokens are kept (issue 19).
    expect(withCode("CON001")).toHaveLength(21);
    expect(withCode("CON001").filter((d) => d.message.includes("difference between"))).toEqual([]);
    const crossCategory = withCode("CON001").filter((d) => d.message.includes("categories"));
    expect(crossCategory).toHaveLength(8);
    const listFiles = withCode("CON001").find((d) => d.message.includes('"list files"'))!;
    expect(at(listFiles)).toBe("termy/dataset/dataset_files.json:5:13");
    expect(listFiles.message).toContain('categories "linux_directories_folders" and "linux_files"');
    expect(relative(corpusDir, listFiles.related![0]!.loc.file)).toBe("termy/dataset/dataset_directories.json");
    expect(withCode("CON003")).toHaveLength(7);
    expect(withCode("CON003").some((d) => d.message.includes('"how are you?"'))).toBe(true);
  });

  it("reads tag names as the runtime does: <||    interjection||> is filled by the word list, not reported", () => {
    expect(withCode("REF003").filter((d) => d.message.includes("interjection"))).toEqual([]);
    expect(withCode("REF003").some((d) => d.message.includes("<||computer||>"))).toBe(true);
  });

  it("never loads eval.json as data", () => {
    expect(diagnostics.some((d) => d.loc.file.endsWith("eval.json"))).toBe(false);
    const { ir } = lintSources([termyDir]);
    expect(ir.sources.map((s) => s.path)).not.toContain("dataset/eval.json");
  });
});

describe.skipIf(!hasTermy)("lint on the example NPC", () => {
  it('reports "otuput" with "did you mean output" at its line and column', () => {
    const { diagnostics } = lintSources([join(corpusDir, "example")]);
    const typos = diagnostics.filter((d) => d.code === "NDF004");
    expect(typos.map(at)).toEqual([
      "example/dataset/templates_example.json:36:9",
      "example/dataset/templates_example.json:78:9",
      "example/dataset/templates_example.json:174:9",
      "example/dataset/templates_example.json:219:9",
    ]);
    expect(typos[0]!.message).toContain('did you mean "output"');
  });
});
