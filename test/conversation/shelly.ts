// "Shelly": a small invented NDF NPC for the conversation tests, written to a temp directory and
// compiled through the real loader: context follow-ups (an exact entry, a template, a nested
// context), sentiment lists, stop words, DSL-style connectives in the config, custom keys.
import { lintSources } from "../../compiler/lint.js";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc, type Npc } from "../../runtime/index.js";
import { tempDir, writeTree } from "../support/cli.js";

const run = (command: string) => [{ name: "run_in_terminal", arguments: { command, explanation: `Runs ${command.split(" ")[0]}.` } }];
const vocab = (tag: string, required = true) => ({ tag: `<||${tag}||>`, type: "vocab", required });
const slot = (tag: string, type: string) => ({ tag: `<||${tag}||>`, type, required: true });

export const SHELLY_FILES: Record<string, unknown> = {
  "config.json": { npc_name: "Shelly", creator: "the tests", sentence_threshold: 0.6, suggestions: 3 },
  "dataset/types.json": { "<||name||>": "^[A-Za-z0-9._-]+$", "<||path||>": "^[~./A-Za-z0-9_-]+$" },
  "dataset/vocabulary/templates.json": {
    "<||vocab_create||>": ["create", "make"],
    "<||vocab_folder||>": ["folder", "directory"],
    "<||vocab_move||>": ["move", "put"],
    "<||vocab_it||>": ["it"],
    "<||vocab_to||>": ["to", "into"],
    "<||vocab_delete||>": ["delete", "remove"],
    "<||vocab_file||>": ["file"],
    "<||vocab_install||>": ["install"],
    "<||vocab_copy||>": ["copy"],
    "<||vocab_say||>": ["say", "echo"],
    "<||vocab_rename||>": ["rename"],
  },
  "dataset/vocabulary/vocabulary.json": {
    stop_words: ["the", "a", "please", "just"],
    expletives: ["dang"],
    interjection: ["hmm"],
    thanking_words: ["thanks", "thank you"],
    encouraging_words: ["great", "amazing", "awesome"],
    discouraging_words: ["useless", "terrible"],
    greetings: ["Howdy"],
  },
  "dataset/personality.json": [
    { unknown: ["I did not get that."], related: ["Did you mean one of these?"], completion: ["Done."] },
    { intent: "thanks", input: ["thanks", "thank you"], output: "You are welcome.", permission: "yolo" },
    { intent: "compliment", input: ["you are great", "you are awesome"], output: "That is kind.", permission: "yolo" },
    { intent: "insult", input: ["you are useless"], output: "I will try harder.", permission: "yolo" },
    { intent: "how_are_you", input: ["how are you", "how are you doing"], output: "Fine, thanks.", permission: "yolo" },
    { intent: "greet", input: ["hello", "hi"], output: "<||greetings||>, <||username||>!", permission: "yolo" },
  ],
  "dataset/dataset_files.json": [
    {
      intent: "files_list",
      input: ["list files", "show files", "list the files here"],
      output: ["Here are the files (<||flavour||>).", "Files (<||flavour||>):"],
      flavour: "plain",
      tools: run("ls -la"),
      permission: "yolo",
    },
    { intent: "disk_usage", input: ["show disk usage", "disk space"], output: "Disk usage (<||flavour||>):", tools: run("df -h"), permission: "yolo" },
    {
      intent: "whoami",
      input: ["who am i"],
      output: "<||username||> / <||greetings||> / <||npc_name||>",
      username: "from-the-entry",
      greetings: "from-the-entry",
      npc_name: "from-the-entry",
      permission: "yolo",
    },
    { intent: "then_what", input: ["first this then that"], output: "A phrase with a connective inside.", permission: "yolo" },
  ],
  "dataset/templates_files.json": [
    {
      intent: "folder_create",
      type: "template",
      structure: [[vocab("vocab_create"), vocab("vocab_folder"), slot("name", "name")]],
      output: "Folder <||name||> is ready.",
      tools: run("mkdir -p -- '<||name||>'"),
      permission: "yolo",
      context: [
        {
          intent: "it_move",
          type: "template",
          structure: [[vocab("vocab_move"), vocab("vocab_it"), vocab("vocab_to"), slot("destination", "path")]],
          output: "Moving it to <||destination||>.",
          tools: run("mv -n -- \"$IT\" '<||destination||>'"),
          permission: "ask",
        },
        { intent: "it_delete", input: ["delete it", "remove it"], output: "Deleted it.", tools: run('rm -r -- "$IT"'), permission: "ask", context: [] },
        {
          intent: "it_enter",
          input: ["go into it"],
          output: "Inside.",
          permission: "yolo",
          context: [{ intent: "it_inside_list", input: ["what is in here"], output: "Listing the inside.", permission: "yolo" }],
        },
      ],
    },
    {
      intent: "file_delete",
      type: "template",
      structure: [[vocab("vocab_delete"), vocab("vocab_file", false), slot("file", "path")]],
      output: "Deleting <||file||>.",
      tools: run("rm -- '<||file||>'"),
      permission: "ask",
    },
    {
      intent: "file_copy",
      type: "template",
      structure: [[vocab("vocab_copy"), slot("source", "path"), vocab("vocab_to"), slot("destination", "path")]],
      output: "Copying <||source||> to <||destination||>.",
      tools: run("cp -n -- '<||source||>' '<||destination||>'"),
      permission: "ask",
    },
    {
      intent: "pkg_install",
      type: "template",
      structure: [[vocab("vocab_install"), slot("package", "name")]],
      output: "Installing <||package||>.",
      tools: run("apt-get install -- '<||package||>'"),
      permission: "ask",
    },
    {
      intent: "say",
      type: "template",
      structure: [[vocab("vocab_say"), slot("text", "string")]],
      output: "<||text||>",
      name: "from-the-entry",
      permission: "yolo",
    },
    {
      intent: "rename_to",
      type: "template",
      structure: [[vocab("vocab_rename"), slot("name", "name")]],
      output: "Renamed to <||name||>.",
      name: "from-the-entry",
      permission: "yolo",
    },
  ],
};

/** Writes Shelly's NDF files (optionally changed) and returns the directory. */
export function writeShelly(change?: (files: Record<string, unknown>) => void): string {
  const files = structuredClone(SHELLY_FILES);
  change?.(files);
  const text = Object.fromEntries(Object.entries(files).map(([path, value]) => [path, `${JSON.stringify(value, null, 2)}\n`]));
  return writeTree(tempDir("shelly"), text);
}

export async function loadShelly(change?: (files: Record<string, unknown>) => void): Promise<Npc> {
  const lint = lintSources([writeShelly(change)]);
  const errors = lint.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`Shelly does not lint: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return loadNpc(compileNpc(lint.ir).bytes);
}
