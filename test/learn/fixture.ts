// A small NDF NPC with enough phrasings per entry for the learned stage to be trained, one of its
// entries destructive (it empties the trash), written to a temp directory.
import { join } from "node:path";
import { tempDir, writeTree } from "../support/cli.js";

export const ENTRIES = [
  {
    intent: "trash_empty",
    input: ["empty the trash", "empty trash", "clear the trash bin", "wipe the recycle bin", "get rid of everything in the trash", "purge the trash folder", "clean out the wastebasket", "throw away what is in the bin", "empty my recycle bin"],
    output: "Emptying the trash.",
    tools: [{ name: "run_in_terminal", arguments: { command: "rm -rf ~/.local/share/Trash/*", explanation: "Empties the trash." } }],
    permission: "yolo",
  },
  {
    intent: "disk_usage",
    input: ["show disk usage", "how much disk space is left", "check free space on the drive", "how full is my hard disk", "display storage usage", "is my disk almost full", "what is using my disk space", "report free disk space"],
    output: "Here is the disk usage.",
    tools: [{ name: "run_in_terminal", arguments: { command: "df -h" } }],
    permission: "yolo",
  },
  {
    intent: "list_files",
    input: ["list files", "show the files in this folder", "what files are here", "display the directory contents", "show me what is in this directory", "which files does this folder contain", "list the contents of the folder", "print the files here"],
    output: "Here are the files.",
    tools: [{ name: "run_in_terminal", arguments: { command: "ls -la" } }],
    permission: "yolo",
  },
  {
    intent: "network_ip",
    input: ["what is my ip address", "show my ip", "display the network address of this machine", "which ip do i have", "tell me my local ip", "print the ip configuration", "find my computer's address on the network", "check my network address"],
    output: "Here is your IP address.",
    tools: [{ name: "run_in_terminal", arguments: { command: "ip addr" } }],
    permission: "yolo",
  },
  {
    intent: "system_uptime",
    input: ["how long has the computer been running", "show uptime", "since when is the system up", "how long since the last reboot", "display the system uptime", "when did the machine start", "check how long the server has been on", "uptime please"],
    output: "Here is the uptime.",
    tools: [{ name: "run_in_terminal", arguments: { command: "uptime" } }],
    permission: "yolo",
  },
  {
    intent: "memory_usage",
    input: ["show memory usage", "how much ram is free", "check the memory", "what is using my ram", "display free memory", "is my memory full", "how much memory do i have left", "report ram usage"],
    output: "Here is the memory usage.",
    tools: [{ name: "run_in_terminal", arguments: { command: "free -h" } }],
    permission: "yolo",
  },
];

/**
 * Writes the NPC (config.json merged with `config`) to a fresh temp directory. Its 49 phrasings are
 * too few for "matcher": "auto" to ship the stage, so the default here forces it.
 */
export function writeLearnedNpc(config: Record<string, unknown> = {}): string {
  return writeTree(tempDir("learned"), {
    "config.json": JSON.stringify({ npc_name: "Shelly", matcher: "learned", ...config }),
    [join("dataset", "dataset_shell.json")]: JSON.stringify(ENTRIES, null, 2),
  });
}
