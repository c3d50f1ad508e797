// `session.process(message, { explain })` and `ndfc ask --explain`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { explain } from "../../runtime/explain.js";
import type { Npc } from "../../runtime/index.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { loadShelly, writeShelly } from "./shelly.js";

let npc: Npc;
beforeAll(async () => {
  npc = await loadShelly();
});

describe("explain trace", () => {
  it("is absent unless asked for", () => {
    expect(npc.session().process("list files").trace).toBeUndefined();
    expect(npc.session().process("list files", { explain: false }).trace).toBeUndefined();
  });

  it("shows each stage tried, in order, ending with the decision", () => {
    const { trace } = npc.session().process("shwo dsik usage", { explain });
    expect(trace!.map((s) => s.stage)).toEqual(["lex", "sanitize", "exact", "sentiment", "template", "probabilistic", "decision"]);
    const exact = trace!.find((s) => s.stage === "exact")!;
    expect(exact.lines.join("\n")).toContain('"shwo dsik usage"');
    const probabilistic = trace!.find((s) => s.stage === "probabilistic")!;
    expect(probabilistic.summary).toMatch(/top disk_usage 0\.\d+, (margin 0\.\d+|no runner-up) \(threshold 0\.6, margin 0\.03\): accepted/);
    expect(probabilistic.lines[0]).toMatch(/disk_usage via input \d+ e\.g\. "show disk usage"/);
    expect(trace!.at(-1)!.summary).toMatch(/^probabilistic match → disk_usage/);
  });

  it("says why each template candidate matched or failed", () => {
    const { trace } = npc.session().process("copy a.txt b.txt", { explain });
    const template = trace!.find((s) => s.stage === "template")!;
    expect(template.summary).toBe("no template path matches");
    expect(template.lines).toContainEqual(expect.stringMatching(/^file_copy path 0 \[<\|\|vocab_copy\|\|> <\|\|source\|\|>:path <\|\|vocab_to\|\|> <\|\|destination\|\|>:path\]: fails at node 3 <\|\|vocab_to\|\|>: "b\.txt" does not fit$/));
    const ok = npc.session().process("copy a.txt to b.txt", { explain }).trace!.find((s) => s.stage === "template")!;
    expect(ok.summary).toBe("path 0 of file_copy");
    expect(ok.lines).toContainEqual(expect.stringMatching(/^file_copy path 0 .*: matches$/));
    const short = npc.session().process("copy a.txt to", { explain }).trace!.find((s) => s.stage === "template")!;
    expect(short.lines).toContainEqual(expect.stringMatching(/file_copy path 0 .*: fails: the message ends before node 4/));
  });

  it("explains each part of a composite message and the limits", () => {
    const { trace } = npc.session().process("delete old.log then list files", { explain });
    expect(trace!.filter((s) => s.stage === "exact").map((s) => s.part)).toEqual([0, 1]);
    expect(trace!.find((s) => s.stage === "lex" && s.summary === "2 clauses")!.lines).toEqual(["delete old.log", "list files"]);
    const long = npc.session().process("x".repeat(600), { explain }).trace!;
    expect(long.map((s) => s.stage)).toEqual(["limits", "decision"]);
  });
});

describe("ndfc ask --explain", () => {
  it("prints the answer, the trace and the witness words", async () => {
    const dir = tempDir("explain");
    const bundle = join(dir, "shelly.npc");
    const built = await runCaptured(["build", writeShelly(), "--output", bundle], dir);
    expect(built.code, built.err).toBe(0);
    expect(readFileSync(bundle).length).toBeGreaterThan(0);
    const run = await runCaptured(["ask", bundle, "--explain", "delete", "file", "notes.txt"], dir);
    expect(run.code).toBe(0);
    expect(run.out).toContain("Deleting notes.txt.");
    expect(run.out).toMatch(/^exact: no exact key$/m);
    expect(run.out).toMatch(/^template: path 0 of file_delete$/m);
    expect(run.out).toMatch(/^decision: template match → file_delete \(confidence 1\)$/m);
    expect(run.out).toMatch(/^witness template \(path 0\): delete=vocab:<\|\|vocab_delete\|\|> file=vocab:<\|\|vocab_file\|\|> notes\.txt=slot:file$/m);
    const plain = await runCaptured(["ask", bundle, "delete", "file", "notes.txt"], dir);
    expect(plain.out).not.toContain("decision:");
  });

  it("the compiled bundle and the in-memory one agree", async () => {
    const lint = lintSources([writeShelly()]);
    expect(compileNpc(lint.ir).payload.name).toBe(npc.name);
  });
});
