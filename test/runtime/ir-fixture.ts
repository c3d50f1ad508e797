// Hand-built NpcIR for runtime and compiler tests: small invented NPCs, no corpus text.
import type { Intent, NpcIR, SourceLocation, TemplateNode, ToolCall } from "../../compiler/ir/types.js";

let offset = 0;
export function loc(file = "dataset/dataset_test.json"): SourceLocation {
  offset += 10;
  return { file, line: 1, column: 1, offset };
}

export interface IntentSpec {
  id: string;
  inputs?: string[];
  /** Template paths in a compact notation: "vocab_copy ?vocab_the file:filename rest:string". */
  paths?: string[];
  outputs?: string[];
  thinking?: string[];
  command?: string;
  permission?: "ask" | "yolo" | "auto";
  category?: string;
  context?: IntentSpec[];
  extra?: Record<string, unknown>;
  file?: string;
}

function node(spec: string): TemplateNode {
  const required = !spec.startsWith("?");
  const body = required ? spec : spec.slice(1);
  const [tagPart, type] = body.includes(":") ? body.split(":") : [body, "vocab"];
  return { tags: tagPart!.split("|"), type: type!, required, loc: loc() };
}

export function intent(spec: IntentSpec): Intent {
  const file = spec.file ?? "dataset/dataset_test.json";
  const tools: ToolCall[] = spec.command
    ? [
        {
          name: "run_in_terminal",
          arguments: { command: spec.command },
          raw: { name: "run_in_terminal", arguments: { command: spec.command } },
          loc: loc(file),
        },
      ]
    : [];
  return {
    id: spec.id,
    kind: spec.paths ? "template" : "entry",
    loc: loc(file),
    inputs: (spec.inputs ?? []).map((value) => ({ value, loc: loc(file) })),
    paths: (spec.paths ?? []).map((p) => ({ nodes: p.split(" ").map(node), loc: loc(file) })),
    outputs: (spec.outputs ?? []).map((value) => ({ value, loc: loc(file) })),
    thinking: (spec.thinking ?? []).map((value) => ({ value, loc: loc(file) })),
    tools,
    permission: spec.permission ?? "ask",
    permissionExplicit: spec.permission !== undefined,
    ...(spec.category ? { category: spec.category } : {}),
    ...(spec.context ? { context: spec.context.map(intent) } : {}),
    extra: spec.extra ?? {},
    keyLocs: {},
  };
}

export interface NpcSpec {
  intents: IntentSpec[];
  synonyms?: Record<string, string[]>;
  types?: Record<string, string>;
  lists?: Record<string, string[]>;
  config?: Partial<NpcIR["config"]>;
}

export function npcIr(spec: NpcSpec): NpcIR {
  return {
    config: { name: "Testy", connectives: [], extra: {}, creator: "The Testers", ...spec.config },
    intents: spec.intents.map(intent),
    synonyms: Object.entries(spec.synonyms ?? {}).map(([tag, words]) => ({ tag, words, loc: loc() })),
    types: Object.entries(spec.types ?? {}).map(([name, pattern]) => ({ name, pattern, flags: "", loc: loc() })),
    wordLists: Object.entries(spec.lists ?? {}).map(([name, words]) => ({ name, words, loc: loc() })),
    lists: [],
    sources: [{ path: "dataset/dataset_test.json", sha256: "0".repeat(64) }],
  };
}

/** A small shell assistant exercising every stage. */
export function shellNpc(): NpcIR {
  return npcIr({
    config: { suggestions: 3 },
    synonyms: {
      vocab_copy: ["copy", "duplicate"],
      vocab_delete: ["delete", "remove", "erase"],
      vocab_file: ["file", "document"],
      vocab_to: ["to", "into"],
      vocab_say: ["say", "tell me"],
      vocab_show: ["show", "display"],
    },
    types: { filename: "^[\\w\\-]+\\.[a-z0-9]{1,4}$", number: "^\\d+$", path: "^(?:/?(?:[\\w.-]+)+/?)+$" },
    lists: {
      stop_words: ["the", "a", "please"],
      expletives: ["darn", "dang it"],
      interjection: ["hmm", "wipe"],
      thanking_words: ["thanks", "thank you"],
      encouraging_words: ["great"],
      discouraging_words: ["awful"],
      completion: ["Done, <||username||>.", "Finished."],
      unknown: ["What do you mean, <||username||>?"],
      related: ["Did you mean one of these?"],
    },
    intents: [
      { id: "list_files", inputs: ["list files", "show me the files", "What's in this folder"], outputs: ["<||completion||>"], command: "ls -la", permission: "yolo", category: "files" },
      { id: "disk_usage", inputs: ["show disk usage", "how full is my disk"], outputs: ["Disk usage on <||computer_name||>:"], command: "df -h", permission: "yolo", category: "system" },
      { id: "wipe_screen", inputs: ["wipe screen"], outputs: ["Wiped."], command: "clear", permission: "yolo" },
      {
        id: "copy_file",
        paths: ["vocab_copy ?vocab_file src:filename ?vocab_to dst:filename"],
        outputs: ["Copying <||src||> to <||dst||>."],
        command: "cp -- '<||src||>' '<||dst||>'",
      },
      { id: "delete_file", paths: ["vocab_delete ?vocab_file target:filename"], outputs: ["Deleting <||target||>."], command: "rm -- '<||target||>'" },
      { id: "delete_anything", paths: ["vocab_delete what:string"], outputs: ["Deleting <||what||>?"], command: "rm -r -- '<||what||>'" },
      { id: "echo_text", paths: ["vocab_say text:string"], outputs: ["<||text||>"], command: "echo '<||text||>'", permission: "yolo" },
      { id: "repeat_n", paths: ["repeat n:number vocab_times"], outputs: ["<||n||> times, <||flavour||>"], extra: { flavour: "vanilla" }, permission: "yolo" },
      {
        id: "ask_coffee",
        inputs: ["do you like coffee"],
        outputs: ["Yes."],
        permission: "yolo",
        context: [
          { id: "why_coffee", inputs: ["why"], outputs: ["It smells good."], permission: "yolo" },
          { id: "end_coffee", inputs: ["stop it"], outputs: ["Fine."], permission: "yolo", context: [] },
        ],
      },
      { id: "greet", inputs: ["hello"], outputs: ["Hi <||username||>, I am <||npc_name||> by <||creator||>.", "Hello <||username||>!"], thinking: ["A greeting from <||username||>."], permission: "yolo" },
    ],
  });
}
