// Context (NDF rules): a non-empty `context` list replaces the active context, `[]` clears it, an
// absent key keeps it; context entries are tried first, exactly, fuzzily and as templates.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { lintSources } from "../../compiler/lint.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { loadShelly } from "./shelly.js";

let shelly: Npc;
beforeAll(async () => {
  shelly = await loadShelly();
});

describe("context rules", () => {
  it("a non-empty context list replaces the active context", () => {
    const s = shelly.session();
    expect(s.process("create folder demo")).toMatchObject({ status: "template match", intent: "folder_create" });
    expect(s.context).toBe("folder_create");
    expect(s.process("go into it")).toMatchObject({ status: "context match", intent: "it_enter" });
    expect(s.context).toBe("it_enter");
    // The nested context replaced the outer one: its follow-ups are gone, the inner ones answer.
    expect(s.process("what is in here")).toMatchObject({ status: "context match", intent: "it_inside_list" });
    expect(s.process("delete it").intent).not.toBe("it_delete");
  });

  it("[] clears the context", () => {
    const s = shelly.session();
    s.process("create folder demo");
    expect(s.process("delete it")).toMatchObject({ status: "context match", intent: "it_delete" });
    expect(s.context).toBeNull();
    const again = s.process("delete it");
    expect(again.intent).not.toBe("it_delete");
    expect(again.status).not.toBe("context match");
  });

  it("an entry without a context key keeps the active context", () => {
    const s = shelly.session();
    s.process("create folder demo");
    expect(s.process("list files")).toMatchObject({ status: "exact match", intent: "files_list" });
    expect(s.context).toBe("folder_create");
    expect(s.process("move it to /tmp")).toMatchObject({ status: "context match", intent: "it_move" });
    expect(s.context).toBe("folder_create"); // it_move has no context key either
    expect(s.process("delete it").intent).toBe("it_delete");
  });

  it("a rejection keeps the context", () => {
    const s = shelly.session();
    s.process("create folder demo");
    expect(s.process("zzz qqq").status).toBe("rejected");
    expect(s.context).toBe("folder_create");
  });

  it("context entries are never reachable without their parent", () => {
    const s = shelly.session();
    expect(s.process("go into it").status).not.toBe("context match");
    expect(s.process("move it to /tmp").intent).not.toBe("it_move");
    expect(s.process("what is in here").intent).not.toBe("it_inside_list");
  });
});

describe("context entries are tried first", () => {
  it("template entries inside a context are compiled and matched, and outrank top-level templates", () => {
    const s = shelly.session();
    s.process("create folder demo");
    const move = s.process("move it to ~/archive");
    expect(move).toMatchObject({ status: "context match", intent: "it_move", slots: { destination: "~/archive" }, response: "Moving it to ~/archive." });
    expect(move.tools[0]).toMatchObject({ arguments: { command: "mv -n -- \"$IT\" '~/archive'" } });
    expect(move.witness.map((w) => w.stage)).toContain("context");
  });

  it("fuzzily: a typo of a follow-up reaches it while its parent is active, without crashing", () => {
    const s = shelly.session();
    s.process("create folder demo");
    const typo = s.process("delet it");
    expect(typo).toMatchObject({ status: "probabilistic match", intent: "it_delete", permission: "ask" });
    expect(typo.witness.find((w) => w.stage === "context")).toBeDefined();
    expect(s.context).toBeNull();
    expect(shelly.session().process("delet it").intent).not.toBe("it_delete");
  });

  it("a top-level template matched word for word outranks a fuzzy follow-up", () => {
    const s = shelly.session();
    s.process("create folder demo");
    expect(s.process("delete old.log")).toMatchObject({ status: "template match", intent: "file_delete", slots: { file: "old.log" } });
    expect(s.context).toBe("folder_create");
  });

  it("the create → move → delete flow, and composite follow-ups in one message", () => {
    const s = shelly.session();
    expect(s.process("create folder build").tools[0]).toMatchObject({ arguments: { command: "mkdir -p -- 'build'" } });
    expect(s.process("move it to /tmp").intent).toBe("it_move");
    expect(s.process("delete it").intent).toBe("it_delete");
    const one = shelly.session().process("create folder x then move it to ~/y and then delete it");
    expect(one.parts?.map((p) => p.intent)).toEqual(["folder_create", "it_move", "it_delete"]);
    expect(one.status).toBe("template match, context match");
  });
});

const corpus = resolve(import.meta.dirname, "../../datasets/termy");
describe.skipIf(!existsSync(corpus))("TERMy's follow-ups (NDFC_IT convention)", () => {
  it("create a folder, move it, delete it; the second delete is not a follow-up", async () => {
    const termy = await loadNpc(compileNpc(lintSources([corpus]).ir).bytes);
    const s = termy.session();
    const created = s.process("create a folder demo");
    expect(created).toMatchObject({ intent: "dirs_create", slots: { directory: "demo" } });
    expect(String((created.tools[0]!.arguments as { command: string }).command)).toContain("NDFC_IT='demo'");
    expect(s.process("move it to /tmp")).toMatchObject({ intent: "it_move", permission: "ask" });
    expect(s.process("delete it")).toMatchObject({ status: "context match", permission: "ask" });
    expect(s.context).toBeNull();
    expect(s.process("delete it").status).not.toBe("context match");
  });
});
