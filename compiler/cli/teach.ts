// `ndfc teach`: teach an NPC a synonym from the command line, and list what was taught (in
// conversation through serve/chat, or here) with each teaching's state.
import { CliError, EXIT_FAILED, EXIT_USAGE } from "./errors.js";
import { bundleConcepts } from "../store/bundle-concepts.js";
import { teachingGuard } from "../store/teach-guards.js";
import { TRUST_AFTER, TRUST_RULE, type Teaching } from "../store/store.js";
import { loadBundleFile } from "./read-bundle.js";
import type { RegisterCommand } from "./io.js";
import { npcKey, openStoreForCli, storePath } from "./store-options.js";

interface TeachSynonymOptions {
  npc?: string;
  bundle?: string;
  store?: string;
}

interface TeachListOptions {
  npc?: string;
  json?: boolean;
  store?: string;
}

function formatTeachings(teachings: readonly Teaching[]): string {
  if (teachings.length === 0) return "nothing taught yet\n";
  return teachings
    .map((t) => `${t.npc}  "${t.word}" means "${t.meaning}"  ${t.state} (${t.confirmations}/${TRUST_AFTER} confirmed, ${t.uses} uses, ${t.kind}, from ${t.source})\n`)
    .join("");
}

export const registerTeach: RegisterCommand = (program, io, exitCode) => {
  const teach = program
    .command("teach")
    .description("teach an NPC synonyms (provisional until confirmed in use, then trusted) and list teachings");

  teach
    .command("synonym")
    .description(`teach that WORD means MEANING for an NPC (provisional until ${TRUST_AFTER} confirmers, you the first)`)
    .argument("<word>", "the new word (or phrase)")
    .argument("<meaning>", "what it means: a word (or phrase) the NPC knows")
    .option("--npc <name>", "the NPC (default: the --bundle's NPC)")
    .option("--bundle <file>", "the NPC's .npc bundle: refuses a meaning it does not know, and a word that already means something else there")
    .option("--store <file>", "the store (default: the user's data directory)")
    .addHelpText(
      "after",
      `
A teaching is provisional, and ${TRUST_RULE}; here you (the operator) are its teacher.
A conflicting teaching (the word already taught another meaning, or already a synonym of another
concept in --bundle) is refused with both sides shown (exit 1), never overwritten. With --bundle, a
meaning the NPC does not know (no input or synonym of the bundle has its words) is refused too:
teaching "zorp" to mean "flibber" would give the NPC nothing to answer with.

Examples:
  ndfc teach synonym zap delete --npc termy
  ndfc teach synonym zap delete --bundle dist-npcs/termy.npc`,
    )
    .action(async (word: string, meaning: string, options: TeachSynonymOptions) => {
      const bundle = options.bundle === undefined ? undefined : (await loadBundleFile(options.bundle, io.cwd)).npc;
      const name = options.npc ?? bundle?.name;
      if (name === undefined) throw new CliError("say which NPC: --npc NAME (or --bundle FILE)", EXIT_USAGE);
      const npc = npcKey(name);
      if (bundle && npcKey(bundle.name) !== npc) throw new CliError(`--bundle is ${bundle.name}, not ${name}`, EXIT_USAGE);
      const store = openStoreForCli(storePath(options.store, io.cwd), false);
      try {
        const outcome = store.teachSynonym({ npc, word, meaning, source: "cli", known: bundle && bundleConcepts(bundle.payload), guard: bundle && teachingGuard(bundle.payload) });
        if (outcome.kind === "refused") {
          io.stderr(`ndfc teach: refused: ${outcome.message}\n`);
          exitCode.value = EXIT_FAILED;
          return;
        }
        const t = outcome.teaching;
        io.stdout(outcome.kind === "added" ? `taught ${npc}: "${t.word}" means "${t.meaning}" (provisional)\n` : `already taught: "${t.word}" means "${t.meaning}" (${t.state})\n`);
      } finally {
        store.close();
      }
    });

  teach
    .command("confirm")
    .description(`confirm a teaching by hand: the operator's confirmation towards trust (${TRUST_AFTER} make it trusted), counted once`)
    .argument("<word>", "the taught word (or phrase)")
    .requiredOption("--npc <name>", "the NPC it was taught for")
    .option("--store <file>", "the store (default: the user's data directory)")
    .addHelpText("after", `\nA teaching is ${TRUST_RULE}; the operator is one confirmer.\n\nExample:\n  ndfc teach confirm zap --npc termy      (after "teach: zap means delete" in ndfc chat)`)
    .action((word: string, options: { npc: string; store?: string }) => {
      const npc = npcKey(options.npc);
      const store = openStoreForCli(storePath(options.store, io.cwd), false);
      try {
        const confirmed = store.confirmByOperator(npc, word);
        if (confirmed === null) {
          io.stderr(`ndfc teach: nothing is taught as "${word}" for ${npc} (see ndfc teach list --npc ${npc})\n`);
          exitCode.value = EXIT_FAILED;
          return;
        }
        const t = confirmed.teaching;
        const how = confirmed.counted ? "confirmed" : "already confirmed by hand";
        io.stdout(`${how}: "${t.word}" means "${t.meaning}" (${t.state}, ${t.confirmations}/${TRUST_AFTER} confirmations)\n`);
      } finally {
        store.close();
      }
    });

  teach
    .command("list")
    .description("list teachings and their states")
    .option("--npc <name>", "only this NPC")
    .option("--json", "print JSON")
    .option("--store <file>", "the store (default: the user's data directory)")
    .action((options: TeachListOptions) => {
      const store = openStoreForCli(storePath(options.store, io.cwd), true);
      try {
        const teachings = store.teachings(options.npc === undefined ? undefined : npcKey(options.npc));
        io.stdout(options.json ? `${JSON.stringify(teachings, null, 2)}\n` : formatTeachings(teachings));
      } finally {
        store.close();
      }
    });
};
