// Issue 13: 100,000 hostile messages (bench/hostile-inputs.ts, fixed seed) against TERMy, and
// 20,000 against datasets/termy: none throws, none is answered through the internal-error
// fallback, and every answer is well formed. Timing is bench/hostile-messages.ts's job; here the
// messages run in chunks so no single test nears the per-test timeout on a busy machine.
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { hostileMessages } from "../../bench/hostile-inputs.js";
import { messageStuff } from "../../bench/hostile-messages.js";
import { loadNpc, type Npc, type NpcResponse } from "../../runtime/index.js";
import { RENDER_LIMITS } from "../../runtime/render/render.js";
import { hasTermy, termyDir } from "../compile/termy-corpus.js";
import { datasetNpc } from "../support/datasets.js";

const SEED = 13;
const CHUNK = 10_000;
const SESSION_LENGTH = 50;
const STATUSES = new Set(["exact match", "context match", "template match", "probabilistic match", "rejected"]);
const PERMISSIONS = new Set(["ask", "yolo", "auto"]);

/** What is wrong with an answer to `message` (empty when it is well formed). */
function problemsOf(answer: NpcResponse, message: string, limit: number): string[] {
  const problems: string[] = [];
  const statuses = answer.status.split(", ");
  if (!statuses.every((s) => STATUSES.has(s))) problems.push(`status ${JSON.stringify(answer.status)}`);
  if (typeof answer.response !== "string" || answer.response.length > RENDER_LIMITS.chars * (answer.parts?.length ?? 1)) problems.push("response");
  if (typeof answer.thinking !== "string") problems.push("thinking");
  if (!Number.isFinite(answer.confidence) || answer.confidence < 0 || answer.confidence > 1) problems.push(`confidence ${answer.confidence}`);
  if (!PERMISSIONS.has(answer.permission)) problems.push(`permission ${answer.permission}`);
  if ((answer.intent === null) !== (answer.status === "rejected")) problems.push("intent and status disagree");
  if (!Array.isArray(answer.tools) || (answer.status === "rejected" && answer.tools.length > 0)) problems.push("tools");
  if (answer.negated && answer.permission !== "ask") problems.push("a negated request that does not ask");
  if (answer.tooLong?.unit === "characters" && message.length <= limit) problems.push("refused as too long within the limit");
  if (answer.tooLong === undefined && message.length > limit) problems.push("read past the length limit");
  if (answer.witness.some((w) => w.note?.startsWith("internal error"))) problems.push(`internal error: ${answer.witness.map((w) => w.note).join("; ")}`);
  for (const part of answer.parts ?? []) problems.push(...problemsOf(part, "", limit).map((p) => `part: ${p}`));
  try {
    JSON.stringify(answer);
  } catch (error) {
    problems.push(`not serializable: ${String(error)}`);
  }
  return problems;
}

/** Answers `messages` in sessions of SESSION_LENGTH; returns the first problems found. */
function answerAll(npc: Npc, messages: readonly string[], first: number): string[] {
  const limit = npc.payload.config.maxMessageChars;
  const found: string[] = [];
  let session = npc.session();
  messages.forEach((message, i) => {
    if ((first + i) % SESSION_LENGTH === 0) session = npc.session({ seed: first + i });
    try {
      const problems = problemsOf(session.process(message), message, limit);
      if (problems.length > 0 && found.length < 5) found.push(`${JSON.stringify(message.slice(0, 120))}: ${problems.join(", ")}`);
    } catch (error) {
      if (found.length < 5) found.push(`${JSON.stringify(message.slice(0, 120))} threw ${String(error)}`);
    }
  });
  return found;
}

function fuzz(name: string, load: () => Promise<Npc>, count: number): void {
  describe(`${count} hostile messages against ${name}`, () => {
    let npc: Npc;
    let messages: string[];
    beforeAll(async () => {
      npc = await load();
      messages = hostileMessages(messageStuff(npc), count, SEED);
    });

    for (let first = 0; first < count; first += CHUNK) {
      it(`messages ${first + 1}–${first + CHUNK}: no throw, every answer well formed`, () => {
        expect(answerAll(npc, messages.slice(first, first + CHUNK), first)).toEqual([]);
      });
    }
  });
}

describe.skipIf(!hasTermy)("TERMy (NPC-Forge corpus)", () => {
  fuzz("TERMy", async () => loadNpc(compileNpc(lintSources([termyDir]).ir).bytes), 100_000);
});

fuzz("datasets/termy", () => datasetNpc("termy"), 20_000);
