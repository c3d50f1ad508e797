// `ndfc build --taught <db>`: the trusted teachings of the NPC being built, folded into its IR.
import type { NpcIR } from "../ir/types.js";
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
  const result = applyTaught(ir, teachings);
  for (const { teaching, reason } of result.skipped) {
    io.stderr(`taught "${teaching.word}" means "${teaching.meaning}" skipped: ${reason}\n`);
  }
  io.stderr(`folded ${result.applied.length} trusted teaching(s) of ${npcKey(ir.config.name)}\n`);
  return result.ir;
}
