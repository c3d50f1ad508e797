// The runtime renders tool commands through the shell renderer: a slot value that the dataset
// left outside single quotes is quoted, and one it cannot place safely never reaches a command.
import { describe, expect, it } from "vitest";
import { compileNpc } from "../../compiler/compile.js";
import { loadNpc } from "../../runtime/index.js";
import { npcIr } from "../runtime/ir-fixture.js";

const npc = await loadNpc(
  compileNpc(npcIr({
      synonyms: { vocab_say: ["say"], vocab_shout: ["shout"] },
      intents: [
        { id: "say_bare", paths: ["vocab_say text:string"], outputs: ["ok"], command: "printf '%s\\n' <||text||> /home/<||username||>" },
        { id: "shout_double", paths: ["vocab_shout text:string"], outputs: ["ok"], command: 'echo "<||text||>"' },
      ],
    })).bytes,
);

const ask = (message: string) => npc.session({ metadata: { username: "ada" } }).process(message);

describe("runtime rendering of commands that are not TCS-clean", () => {
  it("quotes a bare slot value (and any other value) where it sits", () => {
    const answer = ask("say a b; rm -rf ~");
    expect(answer.intent).toBe("say_bare");
    expect(answer.tools[0]).toEqual({ name: "run_in_terminal", arguments: { command: "printf '%s\\n' 'a b; rm -rf ~' /home/'ada'" } });
  });

  it("renders a harmless value inside double quotes as it is", () => {
    expect(ask("shout hello world").tools[0]).toEqual({ name: "run_in_terminal", arguments: { command: 'echo "hello world"' } });
  });

  it("never returns a command with a value that double quotes would run", () => {
    const answer = ask("shout $(id)");
    expect(answer.status).toBe("rejected");
    expect(answer.tools).toEqual([]);
    expect(answer.notice).toMatch(/slot "text" cannot be passed to a shell safely: it sits inside double quotes/);
    expect(JSON.stringify(answer)).not.toContain('echo "$(id)"');
  });
});
