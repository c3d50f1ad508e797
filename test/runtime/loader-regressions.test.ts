// Issue 13, items 1 and 3: bundles with a valid SHA-256 that hung the loader, or loaded and then
// broke (process() threw, serve answered 500, --explain never finished). Each is built by hand
// from datasets/example's payload, so only the loader stands between it and the runtime.
import { describe, expect, it } from "vitest";
import { examplePayload, hostileBundle, sharedToolTree } from "../../bench/hostile-payloads.js";
import { RECORD_FIELDS, type BundlePayload } from "../../runtime/bundle/bundle-types.js";
import { explain } from "../../runtime/explain.js";
import { packPayload, storedIntents, storedPayload } from "../../runtime/bundle/encode.js";
import { loadNpc } from "../../runtime/index.js";
import { decodePlainMsgpack } from "../../runtime/bundle/plain-msgpack.js";
import { validateIntentRecord, validatePayload } from "../../runtime/bundle/validate-payload.js";
import { repoRoot } from "../support/repo-root.js";
import { refusalOf } from "../support/refusal.js";
import { clonePayload } from "../support/clone-payload.js";

const base = examplePayload(repoRoot);

function edited(edit: (payload: BundlePayload) => void): BundlePayload {
  const payload = clonePayload(base);
  edit(payload);
  return payload;
}

/** What answering with intent 0 (its first exact input) says, from a lazily loaded bundle. */
async function firstIntentAnswer(bytes: Uint8Array): Promise<{ status: string; notice?: string }> {
  const npc = await loadNpc(bytes);
  const input = base.exact.keys.at(base.exact.targets.indexOf(0));
  return npc.session().process(input);
}

describe("shared-reference payloads (item 1)", () => {
  it.each([22, 60])("refuses a tool tree sharing its child twice per level, depth %i, before walking it", async (depth) => {
    const whole = hostileBundle(edited((p) => void (p.intents[0]!.tools = [sharedToolTree(depth)])), "all");
    expect(whole.length).toBeLessThan(base.intents.length * 2_000); // a few bytes per level, for 2^depth leaves
    expect(await refusalOf(whole)).toMatch(/payload is not plain msgpack: byte \d+: msgpack extension 0x\w+: a bundle holds plain values and sections only/);
    // Shared inside the intent's record only: refused when the record is read, at load with verify "full".
    const inRecord = hostileBundle(edited((p) => void (p.intents[0]!.tools = [sharedToolTree(depth)])), "records");
    const reason = /intent "[^"]+" \(0\): its record is not plain msgpack: byte \d+: msgpack extension 0x69/;
    expect(await refusalOf(inRecord, { verify: "full" })).toMatch(reason);
    expect((await firstIntentAnswer(inRecord)).notice).toMatch(reason);
  });

  it("refuses a cycle", async () => {
    const looped = edited((p) => {
      const tree = { a: [] as unknown[] };
      tree.a.push(tree);
      p.intents[0]!.tools = [{ o: [["arguments", tree as never]] }];
    });
    expect(await refusalOf(hostileBundle(looped, "records"), { verify: "full" })).toMatch(/msgpack extension 0x69/);
  });

  it("the validator's walk stops once it has visited as many values as the payload has bytes", () => {
    const shared = edited((p) => void (p.intents[0]!.tools = [sharedToolTree(60)]));
    const intents = base.intents.length;
    const record = Object.fromEntries(RECORD_FIELDS.map((field) => [field, shared.intents[0]![field]]));
    expect(validateIntentRecord(record, 2_000, intents)).toMatch(/^tools\[0\]\.o\[1\]\[1\](\.a\[[01]\])+(\.a)?: more values than the payload's bytes can hold \(shared or cyclic references\)$/);
    // The real record and payload pass within their own bytes.
    const real = storedIntents(base.intents);
    const bytes = real.records.items.subarray(real.records.starts[0], real.records.starts[1]);
    expect(validateIntentRecord(decodePlainMsgpack(bytes, new Uint8Array(0)), bytes.length, intents)).toBeNull();
    expect(validatePayload(storedPayload(base), packPayload(storedPayload(base)).msgpack.length)).toBeNull();
  });
});

describe("bundles that loaded and then broke (item 3)", () => {
  it("refuses matching.wordStem = [] (the index-list fast path skipped the length check)", async () => {
    const bytes = hostileBundle(edited((p) => void (p.matching.wordStem = new Uint32Array(0))));
    expect(await refusalOf(bytes)).toMatch(/wrong shape: matching\.wordStem: length differs from lexicon\.words/);
  });

  it.each([
    ["matching", "weight"],
    ["matching", "postings"],
    ["matching", "concepts"],
    ["matching", "inputStems"],
    ["matching", "inputWords"],
    ["matching", "inputWeight"],
    ["lexicon", "tags"],
  ] as const)("refuses an emptied parallel list %s.%s", async (section, list) => {
    // A section (a typed array) is emptied into a section of its kind, rows (BundleRows) into no rows.
    const emptied = (value: unknown) =>
      ArrayBuffer.isView(value) ? new (value.constructor as new (length: number) => unknown)(0) : Array.isArray(value) ? [] : { starts: Uint32Array.of(0), items: new Uint32Array(0) };
    const bytes = hostileBundle(edited((p) => void ((p[section] as unknown as Record<string, unknown>)[list] = emptied((p[section] as unknown as Record<string, unknown>)[list]))));
    expect(await refusalOf(bytes)).toMatch(new RegExp(`${section}\\.${list}(: length differs from|\\.starts: not one per)`));
  });

  it.each([
    ["a null scalar", { v: null }, /expected a tool object/],
    ["a string", ["run"], /expected a tool object/],
    ["an array", { a: [] }, /expected a tool object/],
    ["a null", null, /expected a tool object/],
  ])("refuses a tool that is %s instead of an object (serve answered 500)", async (_, tool, reason) => {
    const bytes = hostileBundle(edited((p) => void (p.intents[0]!.tools = [tool as never])));
    const why = new RegExp(`intent "[^"]+" \\(0\\): its record has the wrong shape: tools\\[0\\]: ${reason.source}`);
    expect(await refusalOf(bytes, { verify: "full" })).toMatch(why);
    // Loaded lazily, answering with that intent is a rejection whose notice names it.
    const answer = await firstIntentAnswer(bytes);
    expect(answer.status).toBe("rejected");
    expect(answer.notice).toMatch(why);
  });

  it.each([
    ["o and sh", { o: [["name", ["run"]]], sh: { segments: 5 } }, "sh"],
    ["v and a", { v: 1, a: [] }, "a"],
    ["j and o", { j: ["x"], o: [] }, "o"],
  ])("refuses a tool value with two kinds of key (%s): a renderer must never meet a key the check skipped", async (_, tool, second) => {
    // A value inside a tool object's entries.
    const bytes = hostileBundle(edited((p) => void (p.intents[0]!.tools = [{ o: [["args", tool as never]] }])));
    const why = new RegExp(`tools\\[0\\]\\.o\\[0\\]\\[1\\]: a tool value has one key \\(o, sh, v, a or j\\), this one has ${second} too`);
    expect(await refusalOf(bytes, { verify: "full" })).toMatch(why);
    const answer = await firstIntentAnswer(bytes);
    expect(answer.status).toBe("rejected");
    expect(answer.notice).toMatch(why);
  });

  it("refuses a tool call (the top-level object) with a second kind of key", async () => {
    const bytes = hostileBundle(edited((p) => void (p.intents[0]!.tools = [{ o: [["name", ["run"]]], sh: { segments: 5 } } as never])));
    expect(await refusalOf(bytes, { verify: "full" })).toMatch(/tools\[0\]: a tool value has one key \(o, sh, v, a or j\), this one has sh too/);
  });

  const withState = base.automaton.findIndex((s) => s.vocab.length > 0);

  it("refuses two self-loop edges in the automaton (--explain never finished)", async () => {
    const looped = edited((p) => {
      const state = p.automaton[withState]!;
      state.vocab.push([[0], withState]);
      state.skip.push(withState);
    });
    expect(await refusalOf(hostileBundle(looped))).toMatch(
      new RegExp(`automaton\\[${withState}\\]\\.vocab\\[\\d+\\]: vocab edges must point to a later state`),
    );
  });

  it.each([
    ["vocab", (s: BundlePayload["automaton"][number], to: number) => s.vocab.push([[0], to])],
    ["typed", (s: BundlePayload["automaton"][number], to: number) => s.typed.push([0, "slot", to])],
    ["strings", (s: BundlePayload["automaton"][number], to: number) => s.strings.push(["slot", to])],
    ["skip", (s: BundlePayload["automaton"][number], to: number) => s.skip.push(to)],
  ])("refuses a back edge through %s edges, and loads a second way in (a join state)", async (kind, add) => {
    const last = base.automaton.length - 1;
    const back = edited((p) => {
      if (p.types.length === 0) p.types.push({ name: "t", unusable: null, classes: [], ops: [3, 0, 0] });
      add(p.automaton[last]!, 0);
    });
    expect(await refusalOf(hostileBundle(back))).toMatch(new RegExp(`automaton\\[${last}\\]\\.${kind}\\[\\d+\\]: ${kind} edges must point to a later state`));
    const diamond = edited((p) => {
      if (p.types.length === 0) p.types.push({ name: "t", unusable: null, classes: [], ops: [3, 0, 0] });
      add(p.automaton[0]!, last);
    });
    const npc = await loadNpc(hostileBundle(diamond), { verify: "full" });
    expect(npc.payload.automaton[0]!.skip.length + npc.payload.automaton[0]!.vocab.length).toBeGreaterThan(0);
  });

  it.each([
    ["a CHAR's class", [0, 5, 1, 6, 0, 0], /types\[\d+\]\.ops\[0\]: expected an index below 1/],
    ["a SPLIT's target", [1, 0, 9, 6, 0, 0], /types\[\d+\]\.ops\[0\]: expected an index below 2/],
    ["an opcode", [9, 0, 0], /types\[\d+\]\.ops\[0\]: unknown opcode/],
  ])("refuses a type program whose %s is out of range, naming the instruction", async (_, ops, reason) => {
    const typed = edited((p) => void p.types.push({ name: "zz-bad", unusable: null, classes: [[97, 97]], ops: ops as number[] }));
    expect(await refusalOf(hostileBundle(typed))).toMatch(reason);
  });

  it.each([
    ["typed", (s: BundlePayload["automaton"][number], to: number, p: BundlePayload) => s.typed.push([p.types.length, "slot", to])],
    ["lists", (s: BundlePayload["automaton"][number], to: number, p: BundlePayload) => s.lists.push([p.lists.length, "slot", to])],
    ["accept", (s: BundlePayload["automaton"][number], _: number, p: BundlePayload) => s.accept.push([p.intents.length, 0])],
  ])("refuses a %s edge indexing past its table, naming the edge", async (kind, add) => {
    const last = base.automaton.length - 1;
    const past = edited((p) => add(p.automaton[0]!, last, p));
    expect(await refusalOf(hostileBundle(past))).toMatch(new RegExp(`automaton\\[0\\]\\.${kind}\\[\\d+\\]: expected an index below \\d+`));
  });

  it("explains on a valid automaton 20,000 states deep (the trace rebuilt every path recursively, copying its nodes)", async () => {
    const depth = 20_000;
    const allTags = base.vocab.tags.map((_, tag) => tag);
    const chain = edited((p) => {
      p.automaton = Array.from({ length: depth + 1 }, (_, k) => ({
        vocab: k < depth ? [[allTags, k + 1] as [number[], number]] : [],
        typed: [],
        strings: [],
        lists: [],
        ranges: [],
        skip: [],
        accept: k === depth ? [[0, 0] as [number, number]] : [],
        calls: [],
        returns: [],
      }));
    });
    const npc = await loadNpc(hostileBundle(chain));
    const answer = npc.session().process("create folder demo", { explain });
    expect(answer.witness.map((w) => w.note ?? "")).not.toContainEqual(expect.stringMatching(/internal error/));
    const template = answer.trace!.find((step) => step.stage === "template")!;
    expect(template.lines).toHaveLength(1);
    // The one path, its 20,000 nodes listed, replayed to the node where the message stops fitting.
    expect(template.lines[0]!.match(/<\|\|vocab_create\|\|>/g)).toHaveLength(depth + 1); // and once more in the failing node
    expect(template.lines[0]).toMatch(/\]: fails at node 3 [^:]*: "demo" does not fit$/);
  });

  it("the real bundle still loads, answers and explains", async () => {
    const npc = await loadNpc(hostileBundle(base));
    const answer = npc.session().process("create folder demo", { explain });
    expect(answer.status).toBe("template match");
    expect(answer.trace!.some((step) => step.stage === "template" && step.lines.some((line) => line.endsWith(": matches")))).toBe(true);
  });
});
