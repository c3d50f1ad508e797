// compute-intents.ts on hand-built intents: one record per intent in bundle order, context links
// both ways (an empty context list kept apart from none); texts pre-split into literal and tag
// segments; tool commands with placeholders as shell templates; the destructive flag from the
// lexed command; renderable custom keys only, sorted; the first input as the example; fixed slots
// sorted by name.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Intent } from "../../compiler/ir/types.js";
import { computeIntentOrder } from "../../compiler/passes/compute-intent-order.js";
import { computeIntents } from "../../compiler/passes/compute-intents.js";
import type { ToolTree } from "../../runtime/bundle/bundle-types.js";
import { intent, loc } from "../runtime/ir-fixture.js";

const listed = (): Intent[] => [
  intent({
    id: "greet",
    inputs: ["Hello there", "hi"],
    outputs: ["Hi <||username||>!", "Hello."],
    thinking: ["<||username||> says hello"],
    permission: "yolo",
    category: "social",
    extra: { mood: "cheerful", replies: ["Sure.", "Of course, <||username||>."], level: 3, strict: false, nested: { a: 1 }, empty: [], mixed: ["a", 1] },
  }),
  {
    ...intent({ id: "delete_file", paths: ["vocab_delete target:filename"], outputs: ["Deleting <||target||>."], command: "rm -- '<||target||>'", context: [{ id: "confirm", inputs: ["yes"] }, { id: "cancel", inputs: ["no"], permission: "auto", context: [] }] }),
    description: { value: "Deletes <||target||> for good", loc: loc() },
    fixedSlots: { mode: "force", domain: "files" },
  },
  intent({ id: "echo_rm", inputs: ["say rm"], command: 'echo "rm -rf /"', permission: "yolo" }),
  intent({ id: "list", inputs: ["list files"], command: "ls -la", permission: "yolo" }),
];

const ordered = computeIntentOrder(listed());
const intents = computeIntents(ordered);
const byId = new Map(intents.map((i) => [i.id, i]));
const record = (id: string) => byId.get(id)!;

describe("computeIntents", () => {
  it("gives one record per intent, in bundle order, children linked to their parent and the parent to them; an empty context stays empty, not absent", () => {
    expect(intents.map((i) => i.id)).toEqual(ordered.map((o) => o.intent.id));
    expect(intents.map((i) => i.id)).toEqual(["greet", "delete_file", "echo_rm", "list", "confirm", "cancel"]);
    const index = (id: string) => intents.findIndex((i) => i.id === id);
    expect(record("delete_file").context).toEqual([index("confirm"), index("cancel")]);
    expect([record("confirm").parent, record("cancel").parent]).toEqual([index("delete_file"), index("delete_file")]);
    expect(record("cancel").context).toEqual([]);
    for (const id of ["greet", "echo_rm", "list", "confirm"]) expect(record(id).context, id).toBeNull();
    for (const id of ["greet", "delete_file", "echo_rm", "list"]) expect(record(id).parent, id).toBeNull();
  });

  it("splits outputs, thinking and the description into literal text and tag names", () => {
    expect(record("greet").outputs).toEqual([["Hi ", "username", "!"], ["Hello."]]);
    expect(record("greet").thinking).toEqual([["", "username", " says hello"]]);
    expect(record("delete_file").description).toEqual(["Deletes ", "target", " for good"]);
    expect(record("greet").description).toBeNull();
  });

  it("marks as destructive only an intent whose command runs a destructive program", () => {
    expect(intents.map((i) => [i.id, i.destructive])).toEqual([
      ["greet", false],
      ["delete_file", true],
      ["echo_rm", false],
      ["list", false],
      ["confirm", false],
      ["cancel", false],
    ]);
  });

  it("keeps a command without placeholders as text and makes one with placeholders a shell template", () => {
    const command = (tree: ToolTree | undefined): ToolTree | undefined => {
      const args = tree && "o" in tree ? tree.o.find(([key]) => key === "arguments")?.[1] : undefined;
      return args && "o" in args ? args.o.find(([key]) => key === "command")?.[1] : undefined;
    };
    expect(record("list").tools).toHaveLength(1);
    expect(command(record("list").tools[0])).toEqual(["ls -la"]);
    const template = command(record("delete_file").tools[0]);
    if (template === undefined || !("sh" in template)) throw new Error(`not a shell template: ${JSON.stringify(template)}`);
    expect(template.sh.segments.filter((_, i) => i % 2 === 1)).toEqual(["target"]);
    expect(template.sh.unsafe).toBeNull();
    expect(record("greet").tools).toEqual([]);
  });

  it("keeps the custom keys that can be rendered, sorted by name, scalars as their text", () => {
    expect(record("greet").extra).toEqual([
      ["level", [["3"]]],
      ["mood", [["cheerful"]]],
      ["replies", [["Sure."], ["Of course, ", "username", "."]]],
      ["strict", [["false"]]],
    ]);
  });

  it("takes the first input as the example (none for a template), fixed slots sorted by name, and permission and category as written", () => {
    expect(intents.map((i) => i.example)).toEqual(["Hello there", null, "say rm", "list files", "yes", "no"]);
    expect(record("delete_file").slots).toEqual([
      ["domain", "files"],
      ["mode", "force"],
    ]);
    expect(record("greet").slots).toEqual([]);
    expect(intents.map((i) => [i.permission, i.category])).toEqual([
      ["yolo", "social"],
      ["ask", null],
      ["yolo", null],
      ["yolo", null],
      ["ask", null],
      ["auto", null],
    ]);
  });

  it("gives the same records whatever order the loader listed the intents in", () => {
    const intentsListed = listed();
    const reference = computeIntents(computeIntentOrder(intentsListed));
    fc.assert(
      fc.property(fc.shuffledSubarray(intentsListed, { minLength: intentsListed.length, maxLength: intentsListed.length }), (shuffled) => {
        expect(computeIntents(computeIntentOrder(shuffled))).toEqual(reference);
      }),
    );
  });
});
