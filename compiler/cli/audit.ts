// `ndfc audit`: what users asked that the NPC did not understand (rejected, or a low-confidence
// guess), grouped by normalized input, most frequent first: what to add to the dataset next.
// With --tier, what one tier answered instead ("escalated": what the model had to answer).
import { InvalidArgumentError } from "commander";
import { DEFAULT_LOW_CONFIDENCE, type AuditGroup } from "../store/store.js";
import { fractionParser } from "./parse-options.js";
import type { RegisterCommand } from "./io.js";
import { npcKey, openStoreForCli, storePath } from "./store-options.js";

interface AuditOptions {
  npc?: string;
  rejected?: boolean;
  since?: string;
  below: number;
  tier?: string;
  json?: boolean;
  store?: string;
}

function parseSince(value: string): string {
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) {
    throw new InvalidArgumentError("expected a date such as 2026-11-29 or 2026-11-29T15:00:00Z");
  }
  return new Date(time).toISOString();
}

const parseConfidence = fractionParser("expected a number between 0 and 1");

const TIERS = ["exact", "context", "template", "probabilistic", "learned", "escalated", "rejected", "composite", "control"];

function parseTier(value: string): string {
  if (!TIERS.includes(value)) throw new InvalidArgumentError(`expected one of ${TIERS.join(", ")}`);
  return value;
}

/** The groups as a table; `latency` adds the mean milliseconds (for --tier: how long that tier took). */
function formatAuditGroups(groups: readonly AuditGroup[], latency: boolean): string {
  const ms = (g: AuditGroup) => (latency ? [g.latencyMs === null ? "-" : g.latencyMs.toFixed(1)] : []);
  const rows = groups.map((g) => [String(g.count), g.firstSeen.slice(0, 19).replace("T", " "), g.lastSeen.slice(0, 19).replace("T", " "), ...ms(g), g.npc, g.example, g.statuses.join(", ")]);
  const header = ["count", "first seen", "last seen", ...(latency ? ["ms"] : []), "npc", "input", "status"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || (latency && i === 3) ? cell.padStart(widths[i]!) : i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ") + "\n";
  return line(header) + rows.map(line).join("");
}

export const registerAudit: RegisterCommand = (program, io) => {
  program
    .command("audit")
    .description("show what users asked that was not understood, most frequent first (from the serve/chat audit log)")
    .option("--npc <name>", "only this NPC")
    .option("--rejected", "only rejected messages (not low-confidence guesses)")
    .option("--since <date>", "only messages at or after this date", parseSince)
    .option("--below <confidence>", "a guess under this confidence counts as not understood", parseConfidence, DEFAULT_LOW_CONFIDENCE)
    .option("--tier <tier>", `only messages this tier answered, whatever their status (${TIERS.join(", ")}); escalated: what the model was asked`, parseTier)
    .option("--json", "print the groups as JSON")
    .option("--store <file>", "the store to read (default: the user's data directory)")
    .addHelpText(
      "after",
      `
Messages are grouped by their normalized form ("Zap  notes.txt!" and "zap notes.txt" are one group).

Examples:
  ndfc audit --npc termy
  ndfc audit --rejected --since 2026-11-01 --json
  ndfc audit --tier escalated      what the model had to answer (status escalated, or rejected when it could not)`,
    )
    .action((options: AuditOptions) => {
      const store = openStoreForCli(storePath(options.store, io.cwd), true);
      try {
        const groups = store.notUnderstood({
          npc: options.npc === undefined ? undefined : npcKey(options.npc),
          rejectedOnly: options.rejected ?? false,
          since: options.since,
          below: options.below,
          tier: options.tier,
        });
        if (options.json) io.stdout(`${JSON.stringify(groups, null, 2)}\n`);
        else if (groups.length === 0) {
          const what = options.tier === undefined ? "nothing misunderstood" : `nothing answered by the ${options.tier} tier`;
          io.stdout(`${what} among ${store.auditCount()} logged message(s)\n`);
        }
        else io.stdout(formatAuditGroups(groups, options.tier !== undefined));
      } finally {
        store.close();
      }
    });
};
