// `ndfc chat` in a real pseudo-terminal (tmux), and piped (no TTY: no colour, --exec, the store).
// The CLI is compiled from the current sources once per run (builtCli), so no stale build/ is used.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../compiler/store/store.js";
import { loadNpc } from "../../runtime/index.js";
import { builtCli } from "../support/built-cli.js";
import { runCaptured, tempDir } from "../support/cli.js";
import { repoRoot } from "../support/repo-root.js";
import { writeShelly } from "../conversation/shelly.js";

const TMUX = "/usr/bin/tmux";
const hasTmux = existsSync(TMUX);
if (!hasTmux) console.warn(`${TMUX} not found: the pseudo-terminal chat test is skipped`);

let main: string;
let bundle: string;
let termyBundle: string;
let work: string;

beforeAll(async () => {
  main = builtCli();
  work = tempDir("chat");
  bundle = join(work, "shelly.npc");
  const built = await runCaptured(["build", writeShelly(), "--output", bundle], work);
  expect(built.code, built.err).toBe(0);
  termyBundle = join(work, "termy.npc");
  const termy = await runCaptured(["build", join(repoRoot, "datasets/termy"), "--output", termyBundle], work);
  expect(termy.code, termy.err).toBe(0);
}, 180_000);

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

describe.skipIf(!hasTmux)("ndfc chat in a pseudo-terminal", () => {
  // Unique per run: a server left by an interrupted run must not hold a "chat" session already.
  const socket = `ndfc-chat-test-${process.pid}-${Date.now()}`;
  const tmux = (...args: string[]) => execFileSync(TMUX, ["-L", socket, ...args], { encoding: "utf8" });
  const screen = (target = "chat") => tmux("capture-pane", "-p", "-t", target, "-S", "-200");

  async function waitFor(text: string | RegExp, timeoutMs = 15_000, target = "chat"): Promise<string> {
    const started = Date.now();
    for (;;) {
      const shown = screen(target);
      if (typeof text === "string" ? shown.includes(text) : text.test(shown)) return shown;
      if (Date.now() - started > timeoutMs) throw new Error(`screen never showed ${String(text)}:\n${shown}`);
      await sleep(100);
    }
  }

  async function say(line: string, expected: string | RegExp): Promise<string> {
    tmux("send-keys", "-t", "chat", "-l", line);
    tmux("send-keys", "-t", "chat", "Enter");
    return waitFor(expected);
  }

  afterAll(() => {
    const path = spawnSync(TMUX, ["-L", socket, "display-message", "-p", "#{socket_path}"], { encoding: "utf8" }).stdout.trim();
    spawnSync(TMUX, ["-L", socket, "kill-server"]);
    if (path !== "") rmSync(path, { force: true }); // tmux leaves the socket file behind
  });

  it("converses with context follow-ups, /explain, /reset and Ctrl-D", async () => {
    const command = `node ${main} chat ${bundle} --no-store --user ada; echo "chat exited $?"; sleep 60`;
    tmux("new-session", "-d", "-s", "chat", "-x", "160", "-y", "50", "-c", work, command);
    await waitFor("Talking to Shelly.");
    // Each answer ends with its facts line: wait for that, then the lines before it are shown too.
    let shown = await say("hello", "[exact match · confidence 1]");
    expect(shown).toContain("Howdy, ada!");
    shown = await say("create folder demo", "[template match · confidence 1 · permission yolo]");
    expect(shown).toContain("Folder demo is ready.");
    expect(shown).toContain("[run_in_terminal] mkdir -p -- 'demo'");
    shown = await say("move it to /tmp", "[context match · confidence 1 · permission ask]");
    expect(shown).toContain("Moving it to /tmp.");
    shown = await say("/explain", "decision: context match → it_move (confidence 1)");
    expect(shown).toMatch(/template: path 0 of it_move/);
    await say("/reset", "(new conversation: context and counts cleared)");
    // After the reset "move it" is no follow-up: the answer after the second "move it" differs.
    shown = await say("move it to /tmp", /you> move it to \/tmp[\s\S]*you> move it to \/tmp\n[^\n]*\n[\s\S]*\[(?!context match)[^\]]*\]/);
    expect(shown.split("you> move it to /tmp")[2]).not.toContain("Moving it to /tmp.");
    expect(tmux("capture-pane", "-p", "-e", "-t", "chat")).toContain("\u001b["); // colour on a terminal
    tmux("send-keys", "-t", "chat", "C-d");
    shown = await waitFor("chat exited 0");
    expect(shown).toContain("bye");
  });

  it("--exec runs every step in one shell (TERMy): create folder foo, delete it, y removes foo; a plan of 3 shows once and runs", async () => {
    const dir = tempDir("chat-pty-exec");
    tmux("new-session", "-d", "-s", "exec", "-x", "200", "-y", "60", "-c", dir, `node ${main} chat ${termyBundle} --no-store --exec; echo "chat exited $?"; sleep 60`);
    const type = async (line: string, expected: string | RegExp) => {
      tmux("send-keys", "-t", "exec", "-l", line);
      tmux("send-keys", "-t", "exec", "Enter");
      return waitFor(expected, 15_000, "exec");
    };
    await waitFor("Talking to Termy.", 15_000, "exec");
    await type("create folder foo", "[template match · confidence 1 · permission yolo]");
    await waitFor(/yolo\][^\n]*\n(?:.*\n)*?you>/, 15_000, "exec");
    expect(existsSync(join(dir, "foo"))).toBe(true);
    // NDFC_IT was set by the first command's shell: the follow-up reads it in the same shell.
    await type("delete it", "run it? [y/N]");
    await type("y", /run it\? \[y\/N\] y\n(?:.*\n)*?you>/);
    expect(existsSync(join(dir, "foo"))).toBe(false);
    const shown = await type("create folder a then create folder b then list files", "(3 steps ran)");
    expect(shown.match(/^plan:$/gm)).toHaveLength(1);
    expect(shown).toContain("  3. ls -la");
    expect(existsSync(join(dir, "a")) && existsSync(join(dir, "b"))).toBe(true);
    expect(shown.split("plan:")[1]).toMatch(/ a\n(?:.*\n)*.* b\n/); // ls ran after both folders existed
    tmux("send-keys", "-t", "exec", "C-d");
    await waitFor("chat exited 0", 15_000, "exec");
  });

  it("has no colour with NO_COLOR", async () => {
    const command = `NO_COLOR=1 node ${main} chat ${bundle} --no-store; sleep 60`;
    tmux("new-session", "-d", "-s", "plain", "-x", "160", "-y", "20", "-c", work, command);
    const plain = () => tmux("capture-pane", "-p", "-e", "-t", "plain");
    const until = async (text: string) => {
      const started = Date.now();
      while (!plain().includes(text) && Date.now() - started < 15_000) await sleep(100);
    };
    await until("you>"); // capture-pane trims the prompt's trailing space
    tmux("send-keys", "-t", "plain", "-l", "hello");
    tmux("send-keys", "-t", "plain", "Enter");
    await until("[exact match");
    expect(plain()).toContain("Shelly> Howdy, user!");
    expect(plain()).not.toContain("\u001b[");
  });
});

describe("ndfc chat without a terminal", () => {
  const chat = (args: string[], input: string, cwd = work) =>
    spawnSync(process.execPath, [main, "chat", bundle, ...args], { input, cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "" } });

  it("prints plain text (no colour), answers composite messages, and ends on /quit", () => {
    const run = chat(["--no-store"], "delete old.log then list files\n/quit\nlist files\n");
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("\u001b[");
    expect(run.stdout).toContain("[run_in_terminal] rm -- 'old.log'");
    expect(run.stdout).toContain("[run_in_terminal] ls -la");
    expect(run.stdout).toContain("[template match, exact match · confidence 1 · permission ask]");
    expect(run.stdout.match(/\[run_in_terminal\] ls -la/g)).toHaveLength(1); // nothing after /quit
  });

  it("--exec runs yolo commands, asks y/N before ask commands", () => {
    const cwd = tempDir("chat-exec");
    const run = chat(["--no-store", "--exec"], "create folder made\ndelete file made\nn\ncreate folder other\ndelete folder other\n", cwd);
    expect(run.status).toBe(0);
    expect(existsSync(join(cwd, "made"))).toBe(true); // yolo: ran; the delete was declined
    expect(run.stdout).toContain("run it? [y/N]");
    expect(run.stdout).not.toContain("you>"); // stdin is no terminal: no prompts
    expect(run.stdout).toContain("(not run)");
    expect(existsSync(join(cwd, "other"))).toBe(true);
    const yes = chat(["--no-store", "--exec"], "delete file gone.txt\ny\n", cwd);
    expect(yes.stdout).toMatch(/rm: cannot remove '?gone\.txt'?|No such file/);
    expect(yes.stdout).toContain("(exit status 1)");
  });

  it("--json prints one JSON answer per line and nothing else", () => {
    const run = chat(["--no-store", "--json"], "hello\ndelete\nold.log\n");
    expect(run.status, run.stderr).toBe(0);
    const answers = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { status: string; intent: string | null; elicit?: { slot: string }; slots: Record<string, string> });
    expect(answers.map((a) => a.status)).toEqual(["exact match", "elicit", "template match"]);
    expect(answers[1]!.elicit).toMatchObject({ slot: "file", intent: "file_delete" });
    expect(answers[2]).toMatchObject({ intent: "file_delete", slots: { file: "old.log" } });
  });

  it("picks a suggestion of the last rejection by its number", () => {
    const run = chat(["--no-store", "--json"], "list stuff\n1\n1\n");
    const answers = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { status: string; intent: string | null; related: { example: string }[] });
    expect(answers[0]).toMatchObject({ status: "rejected", related: [{ example: "list files" }] });
    expect(answers[1]).toMatchObject({ status: "exact match", intent: "files_list" });
    expect(answers[2]!.intent).not.toBe("files_list"); // after an answer, "1" is a message again
    // "No, the other one" after the rejection asks which suggestion, and its number still picks one.
    const asked = chat(["--no-store", "--json"], "list stuff\nno, the other one\n1\n");
    const [, which, picked] = asked.stdout.trim().split("\n").map((line) => JSON.parse(line) as { status: string; intent: string | null; response: string });
    expect(which).toMatchObject({ status: "elicit", response: expect.stringContaining("1. list files") });
    expect(picked).toMatchObject({ status: "exact match", intent: "files_list" });
  });

  it("a word taught in one chat and confirmed in two later chats is trusted, and build --taught folds it", async () => {
    const dir = tempDir("chat-teach");
    const db = join(dir, "ndfc.db");
    const answers = (run: { stdout: string }) => run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    // The teaching chat: teaching is its first confirmation, and its own "yes" adds nothing.
    const [taught, used, own] = answers(chat(["--store", db, "--json"], "teach: zap means delete\nzap old.log\nyes\n"));
    expect(taught).toMatchObject({ status: "teaching recorded", teaching: { state: "provisional", confirmations: 1 } });
    expect(used).toMatchObject({ intent: "file_delete", permission: "ask", taught: [{ word: "zap" }] });
    expect(own).toMatchObject({ status: "teaching confirmed", teaching: { confirmations: 1, state: "provisional" } });
    for (const [confirmations, state] of [[2, "provisional"], [3, "trusted"]] as const) {
      // A later chat: the provisional word applies there too, and "yes" confirms the answer it gave, once per chat.
      const [use, confirmed, , repeated] = answers(chat(["--store", db, "--json"], "zap old.log\nyes\nzap new.log\nyes\n"));
      expect(use).toMatchObject({ intent: "file_delete", slots: { file: "old.log" }, permission: "ask", taught: [{ word: "zap", meaning: "delete" }] });
      expect(confirmed).toMatchObject({ status: "teaching confirmed", teaching: { word: "zap", confirmations, state } });
      expect(repeated).toMatchObject({ status: "teaching confirmed", teaching: { confirmations, state } }); // the same chat again: no more
    }
    const store = openStore(db);
    const [zap] = store.teachings("shelly");
    expect(new Set(store.confirmations(zap!.id).filter((c) => c.counted).map((c) => c.session)).size).toBe(3); // three distinct chats
    store.close();
    // By hand, the operator is one more confirmer, counted once.
    chat(["--store", db, "--json"], "teach: yeet means delete\n");
    const byHand = await runCaptured(["teach", "confirm", "yeet", "--npc", "shelly", "--store", db], dir);
    expect(byHand.out).toContain('"yeet" means "delete" (provisional, 2/3 confirmations)');
    const again = await runCaptured(["teach", "confirm", "yeet", "--npc", "shelly", "--store", db], dir);
    expect(again.out).toContain("already confirmed by hand");
    expect((await runCaptured(["teach", "confirm", "zorp", "--npc", "shelly", "--store", db], dir)).code).toBe(1);
    const folded = join(dir, "taught.npc");
    const built = await runCaptured(["build", writeShelly(), "--taught", db, "--output", folded], dir);
    expect(built.code, built.err).toBe(0);
    expect(built.err).toContain("folded 1 trusted teaching(s)");
    // The new bundle knows the word by itself: no store, no server.
    const npc = await loadNpc(new Uint8Array(readFileSync(folded)));
    expect(npc.session().process("zap old.log")).toMatchObject({ intent: "file_delete", slots: { file: "old.log" } });
  });

  it("records every turn in the audit store", () => {
    const db = join(tempDir("chat-store"), "ndfc.db");
    const run = chat(["--store", db], "list files\nzzz qqq\nteach: zap means delete\n");
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Got it: "zap" means "delete"');
    const store = openStore(db, { readonly: true });
    try {
      expect(store.auditCount()).toBe(3);
      expect(store.notUnderstood({ npc: "shelly" }).map((g) => g.input)).toEqual(["zzz qqq"]);
    } finally {
      store.close();
    }
  });
});
