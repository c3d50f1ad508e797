// The runtime as `npm install ndfc` ships it (issue 15): package.json `exports` point the four
// runtime entries at one multi-entry rolldown build (scripts/build-runtime-package.ts). Built here
// from the current sources (the CLI compiled for this run), installed as node_modules/ndfc of a
// throwaway host, imported by their package names in a fresh Node process, and checked against
// tsc's per-file modules of the same sources: the same answers, explain traces, conversation turns
// and lexemes; each runtime module bundled once, so a class has one identity across entries; and
// the typings resolving for a TypeScript host.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRuntimePackage, type BundledFile } from "../../scripts/build-runtime-package.js";
import { BUNDLED_RUNTIME_DIR, runtimeEntries } from "../../scripts/runtime-entries.js";
import { builtCli } from "../support/built-cli.js";
import { tempDir } from "../support/cli.js";
import { datasetBundle } from "../support/datasets.js";
import { repoRoot } from "../support/repo-root.js";

/** A host script answering every message four ways; `from(entry)` names the module it imports for an entry. */
function hostScript(from: (entry: "index" | "explain" | "conversation" | "lexer") => string): string {
  return `import { readFileSync } from "node:fs";
import { loadNpc } from ${JSON.stringify(from("index"))};
import { explain } from ${JSON.stringify(from("explain"))};
import { conversation } from ${JSON.stringify(from("conversation"))};
import { lex } from ${JSON.stringify(from("lexer"))};
const [bundle, messagesFile] = process.argv.slice(2);
const messages = JSON.parse(readFileSync(messagesFile, "utf8"));
const npc = await loadNpc(new Uint8Array(readFileSync(bundle)));
const plain = npc.session({ seed: 3 });
const talk = npc.session({ seed: 3, conversation });
process.stdout.write(JSON.stringify({
  answers: messages.map((m) => plain.process(m, { explain })),
  turns: messages.map((m) => talk.process(m)),
  lexemes: messages.map((m) => lex(m).lexemes),
}));
`;
}

/** Eval phrasings of datasets/termy (every stage), follow-ups the conversation entry reads, an open quote. */
function messages(): string[] {
  const evalInputs = readFileSync(join(repoRoot, "datasets/termy/eval.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { input: string }).input);
  return ["create a folder demo", "go into it", "delete", "old.log", "and new.log too", "no, the other one", 'grep "unclosed', ...evalInputs.filter((_, i) => i % 4 === 0)];
}

function runHost(script: string, cwd: string, args: string[]): string {
  const run = spawnSync(process.execPath, [script, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

describe("the packaged runtime entries (ndfc/runtime, /explain, /conversation, /lexer)", () => {
  let host: string;
  let compiled: string;
  let files: BundledFile[];

  beforeAll(async () => {
    compiled = resolve(builtCli(), "../../.."); // tsc's output of the current sources
    host = tempDir("runtime-host");
    const bundled = join(host, "bundled");
    files = await buildRuntimePackage(repoRoot, compiled, bundled);
    // node_modules/ndfc as npm installs it: package.json, and build/ with the typings and the bundled entries.
    const pkg = join(host, "node_modules/ndfc");
    mkdirSync(join(pkg, "build"), { recursive: true });
    copyFileSync(join(repoRoot, "package.json"), join(pkg, "package.json"));
    symlinkSync(join(compiled, "runtime"), join(pkg, "build/runtime"), "dir");
    symlinkSync(bundled, join(pkg, BUNDLED_RUNTIME_DIR), "dir");
    writeFileSync(join(host, "package.json"), '{ "type": "module" }\n');
  });

  it("bundles every runtime module into one file only, and a host resolves a handful of files", () => {
    const modules = files.flatMap((file) => file.modules);
    expect(modules.length).toBeGreaterThan(30);
    expect(new Set(modules).size).toBe(modules.length);
    expect(files.filter((file) => file.isEntry).map((file) => file.fileName).sort()).toEqual(runtimeEntries(repoRoot).map((entry) => `${entry.name}.js`).sort());
    // The four entries, one chunk of the optional stages (runtime/stages.ts), and the learned stage and sha256 loaded on demand.
    expect(readdirSync(join(host, "bundled")).length).toBeLessThanOrEqual(10);
  });

  it("puts every optional stage in one chunk, which the core does not import statically", () => {
    const holding = (module: string) => files.filter((file) => file.modules.some((id) => id.endsWith(module))).map((file) => file.fileName);
    const stageModules = ["match/probabilistic-stage.js", "match/match-template.js", "conversation/context.js", "text/sanitizer-stage.js", "render/shell-stage.js"];
    expect(new Set(stageModules.flatMap(holding))).toEqual(new Set(["chunk-stages.js"]));
    expect(holding("runtime/stages.js")).toEqual(["index.js"]);
    expect(readFileSync(join(host, "bundled/index.js"), "utf8")).not.toMatch(/^import[^(]*chunk-stages/m);
  });

  it("imports by package name in a fresh process and answers exactly as the per-file modules do", () => {
    writeFileSync(join(host, "messages.json"), JSON.stringify(messages()));
    writeFileSync(join(host, "termy.npc"), datasetBundle("termy"));
    const modules: Record<string, string> = { index: "index", explain: "explain", conversation: "conversation/conversation", lexer: "text/lexer" };
    writeFileSync(join(host, "packaged.mjs"), hostScript((entry) => (entry === "index" ? "ndfc/runtime" : `ndfc/runtime/${entry}`)));
    writeFileSync(join(host, "per-file.mjs"), hostScript((entry) => pathToFileURL(join(compiled, "runtime", `${modules[entry]}.js`)).href));
    const packaged = runHost("packaged.mjs", host, ["termy.npc", "messages.json"]);
    expect(packaged).toBe(runHost("per-file.mjs", host, ["termy.npc", "messages.json"]));
    const { answers, turns } = JSON.parse(packaged) as { answers: { status: string; trace?: unknown[] }[]; turns: { status: string }[] };
    // Every outcome is among them, explain traces included, and the conversation entry answered.
    expect(new Set(answers.map((a) => a.status.split(",")[0]))).toEqual(new Set(["exact match", "context match", "template match", "probabilistic match", "rejected"]));
    expect(answers.every((a) => (a.trace?.length ?? 0) > 0)).toBe(true);
    expect(turns.map((t) => t.status)).toContain("elicit");
  });

  it("resolves the typings of each entry for a TypeScript host (NodeNext)", () => {
    writeFileSync(
      join(host, "typed.ts"),
      `import { loadNpc, InvalidBundleError, type NpcResponse } from "ndfc/runtime";
import { explain } from "ndfc/runtime/explain";
import { conversation } from "ndfc/runtime/conversation";
import { lex } from "ndfc/runtime/lexer";
export async function answer(bytes: Uint8Array): Promise<string> {
  const session = (await loadNpc(bytes)).session({ seed: 1, conversation });
  const response: NpcResponse = session.process("list files", { explain });
  // @ts-expect-error: the status is a string, so the typings are really read (not any)
  const wrong: number = response.status;
  return [response.status, wrong, lex("a b").lexemes.length, new InvalidBundleError("x").message].join();
}
`,
    );
    // No Node types: the runtime's typings need none, as in a browser host.
    const compilerOptions = { noEmit: true, strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022"], types: [] };
    writeFileSync(join(host, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["typed.ts"] }));
    const tsc = spawnSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: host, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
