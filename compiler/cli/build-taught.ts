// `ndfc build --taught <db>`: the trusted teachings of the NPC being built, read from the store for
// compileNpc's transform stage (passes/fold-teachings.ts), and what it folded, told on stderr.
import { resolve } from "node:path";
import type { CompileResult } from "../compile.js";
import type { Teachings } from "../passes/fold-teachings.js";
import type { CliIO } from "./io.js";
import { npcKey, openStoreForCli } from "./store-options.js";

export function readTeachings(npcName: string, storeFile: string, io: CliIO): Teachings {
  const store = openStoreForCli(resolve(io.cwd, storeFile), true);
  try {
    const teachings = store.trustedTeachings(npcKey(npcName));
    return {
      synonyms: teachings.filter((t) => t.kind !== "input"),
      inputs: teachings.filter((t) => t.kind === "input").map((t) => ({ input: t.word, intent: t.meaning })),
    };
  } finally {
    store.close();
  }
}

export function reportFolded(folded: NonNullable<CompileResult["folded"]>, npcName: string, io: CliIO): void {
  for (const line of folded.skipped) io.stderr(`${line}\n`);
  const lessons = folded.inputs > 0 ? ` and ${folded.inputs} learned input(s)` : "";
  io.stderr(`folded ${folded.synonyms} trusted teaching(s)${lessons} of ${npcKey(npcName)}\n`);
}
