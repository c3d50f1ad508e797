// Speed-ups of the probabilistic stage must change no answer: the answers on fixed messages
// (test/matching/answers.ts) are compared, digest by digest, with the recorded fixture.
// RECORD_ANSWERS=1 rewrites the fixture (only when an answer is meant to change); that run still
// compares with the answers recorded before it, so it fails listing what changed, and the next passes.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../compiler/write-atomic.js";
import { collectAnswers, type AnswerSet } from "./answers.js";
import { hasTermy } from "./support.js";

const fixtureFile = resolve(import.meta.dirname, "answers.json");

describe("probabilistic answers are those recorded", async () => {
  const current = await collectAnswers();

  const recorded: Record<string, AnswerSet> = existsSync(fixtureFile) ? JSON.parse(readFileSync(fixtureFile, "utf8")) : {};
  if (process.env.RECORD_ANSWERS === "1") {
    writeFileAtomic(fixtureFile, JSON.stringify({ ...recorded, ...current }, null, 1) + "\n");
  }

  // Every recorded set is declared; the corpus ones are skipped without the corpus (collectAnswers cannot build them).
  it.for(Object.keys(recorded))("%s", (name, { skip }) => {
    if (name.startsWith("corpus-") && !hasTermy) skip(`${name} needs the NPC-Forge corpus`);
    const now = current[name]!;
    const then = recorded[name]!;
    expect(now.messages, "the message list changed: re-record").toBe(then.messages);
    const at = (answers: string, i: number) => answers.slice(i * 6, i * 6 + 6);
    const changed: number[] = [];
    for (let i = 0; i * 6 < now.answers.length; i++) if (at(now.answers, i) !== at(then.answers, i)) changed.push(i);
    expect(changed, "indices of messages whose answer changed (the long session's follow the fresh ones)").toEqual([]);
    expect(now.answers.length).toBe(then.answers.length);
  });
});
