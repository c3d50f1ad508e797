// Runtime safety guards: missing permission → ask, destructive guesses → ask, negated destructive
// requests never come back runnable.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { applyGuards, isNegated, type GuardedAnswer } from "../../runtime/match/guards.js";
import { loadNpc } from "../../runtime/index.js";
import type { Permission } from "../../runtime/bundle/bundle-types.js";
import { npcIr } from "../runtime/ir-fixture.js";

describe("negation", () => {
  it.each(["don't delete x", "Do not remove y", "never wipe the disk", "please DONT rm it", "I don’t want it deleted", "not the logs", "no, keep it", "can't you avoid deleting", "do   not remove y", "DOES\tNOT matter", "donʼt delete x", "won‘t you stop"])("%j is negated", (message) => {
    expect(isNegated(message)).toBe(true);
  });

  it.each(["delete x", "remove the notes file", "knot the rope", "nothing to see", "donate", "cannotbe", "don’tx", "x’not"])("%j is not negated", (message) => {
    expect(isNegated(message)).toBe(false);
  });
});

describe("applyGuards", () => {
  const answer = (status: GuardedAnswer["status"], permission: Permission = "yolo"): GuardedAnswer => ({ status, permission });

  it("makes a missing or unknown permission ask", () => {
    const a = answer("exact match");
    applyGuards(a, { permission: undefined, destructive: false }, "list files");
    expect(a.permission).toBe("ask");
    const b = answer("exact match");
    applyGuards(b, { permission: "sudo" as Permission, destructive: false }, "list files");
    expect(b.permission).toBe("ask");
  });

  it("asks before a destructive intent reached by a guess, not before an exact one", () => {
    const guess = answer("probabilistic match");
    applyGuards(guess, { permission: "yolo", destructive: true }, "delet teh file");
    expect(guess).toEqual({ status: "probabilistic match", permission: "ask" });
    const exact = answer("exact match");
    applyGuards(exact, { permission: "yolo", destructive: true }, "delete the file");
    expect(exact).toEqual({ status: "exact match", permission: "yolo" });
  });

  it("marks a negated destructive request and asks", () => {
    const a = answer("template match");
    applyGuards(a, { permission: "yolo", destructive: true }, "don't delete notes.txt");
    expect(a).toEqual({ status: "template match", permission: "ask", negated: true });
    const harmless = answer("template match");
    applyGuards(harmless, { permission: "yolo", destructive: false }, "don't list notes.txt");
    expect(harmless).toEqual({ status: "template match", permission: "yolo" });
  });
});

const npc = await loadNpc(
  compileNpc(npcIr({
      synonyms: { vocab_delete: ["delete", "remove", "erase"], vocab_file: ["file"] },
      types: { filename: "^[\\w\\-]+\\.[a-z0-9]{1,4}$" },
      // Negation words as noise: sanitizing strips them, so only the guard stands between them and rm.
    lists: { stop_words: ["the", "please", "my"], interjection: ["do", "not", "don't", "never"] },
      intents: [
        { id: "delete_file", paths: ["vocab_delete ?vocab_file target:filename"], inputs: ["delete the file"], outputs: ["Deleting."], command: "rm -- '<||target||>'", permission: "yolo" },
        { id: "list_files", inputs: ["list files"], outputs: ["Listing."], command: "ls -la", permission: "yolo" },
      ],
    })).bytes,
);

describe("a session never returns a runnable destructive call for a negated request", () => {
  it("for negations around exact, template and guessed requests", () => {
    const negations = fc.constantFrom("don't", "do not", "never", "please don't", "Don’t", "DO NOT");
    const requests = fc.constantFrom("delete the file", "delete notes.txt", "remove file a.md", "erase the fille", "delete teh file");
    fc.assert(
      fc.property(negations, requests, fc.boolean(), (negation, request, after) => {
        const message = after ? `${request}, ${negation}` : `${negation} ${request}`;
        const answer = npc.session().process(message);
        const runnable = answer.tools.length > 0 && answer.permission !== "ask";
        expect(runnable, `${message} → ${answer.status} ${answer.permission}`).toBe(false);
        if (answer.status !== "rejected") expect(answer.negated).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("marks what matched despite the negation and asks", () => {
    expect(npc.session().process("do not delete the file")).toMatchObject({ status: "exact match", permission: "ask", negated: true });
    expect(npc.session().process("never delete notes.txt")).toMatchObject({ status: "template match", permission: "ask", negated: true });
  });

  it("still runs the same request when it is not negated", () => {
    expect(npc.session().process("delete notes.txt")).toMatchObject({ status: "template match", permission: "yolo" });
    expect(npc.session().process("delete notes.txt").negated).toBeUndefined();
  });
});
