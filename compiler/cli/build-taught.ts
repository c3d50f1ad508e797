// `ndfc build --taught <db>`: the trusted teachings of the NPC being built, folded into its IR:
// synonyms and rules into its synonym sets (applyTaught), learned inputs into its intents (applyLearned).
import type { NpcIR } from "../ir/types.js";
import { applyLearned } from "../passes/apply-learned.js";
import { applyTaught } from "../passes/apply-taught.js";
import type { CliIO } from "./io.js";
import { npcKey, openStoreForCli } from "./store-options.js";
import { resolve } from "node:path";

export function foldTaught(ir: NpcIR, storeFile: string, io: CliIO): NpcIR {
  const store = openStoreForCli(resolve(io.cwd, storeFile), true);
  let teachings;
  try {
    teachings = store.trustedTeachings(npcKey(ir.config.name));
  } finally {
    store.close();
  }
  const taught = applyTaught(ir, teachings.filter((t) => t.kind !== "input"));
  for (const { teaching, reason } of taught.skipped) {
    io.stderr(`taught "${teaching.word}" means "${teaching.meaning}" skipped: ${reason}\n`);
  }
  const learned = applyLearned(taught.ir, teachings.filter((t) => t.kind === "input").map((t) => ({ input: t.word, intent: t.meaning })));
  for (const { lesson, reason } of learned.skipped) io.stderr(`learned "${lesson.input}" as ${lesson.intent} skipped: ${reason}\n`);
  const lessons = learned.applied.length > 0 ? ` and ${learned.applied.length} learned input(s)` : "";
  io.stderr(`folded ${taught.applied.length} trusted teaching(s)${lessons} of ${npcKey(ir.config.name)}\n`);
  return learned.ir;
}
