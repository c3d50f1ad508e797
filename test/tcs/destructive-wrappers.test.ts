// The destructive check sees through wrappers (issue 13, item 10): `nohup sudo ls`, `env sudo …`,
// `timeout 5 sudo …` run as root, and `xargs rm`, `timeout --signal KILL 5 rm x` delete files,
// whatever options and assignments the wrappers carry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../../compiler/diagnostics.js";
import { checkTcs } from "../../compiler/passes/check-tcs.js";
import { invocationsOf, simpleCommands } from "../../compiler/tcs/commands.js";
import { findDestructive, isDestructiveCommand } from "../../compiler/tcs/destructive.js";
import { lexShell } from "../../compiler/tcs/shell-lexer.js";
import { npcIr } from "../runtime/ir-fixture.js";

/** Each destructive use as [the words it points at, its reason]. */
function uses(command: string): [string, string][] {
  return findDestructive(lexShell(command)).map((u) => [command.slice(u.start, u.end), u.reason]);
}

const ROOT = "sudo runs with root rights";

describe("sudo and doas behind a wrapper", () => {
  it.each([
    ["nohup sudo ls", ROOT],
    ["env sudo ls", ROOT],
    ["env -i FOO=1 BAR=2 sudo ls", ROOT],
    ["env -u HOME --unset PATH -- sudo ls", ROOT],
    ["timeout 5 sudo ls", ROOT],
    ["timeout -s KILL -k 2 5 sudo ls", ROOT],
    ["timeout --signal KILL --preserve-status 1.5s sudo ls", ROOT],
    ["nice -n 10 sudo ls", ROOT],
    ["nice --adjustment 5 sudo ls", ROOT],
    ["stdbuf -oL -e 0 sudo ls", ROOT],
    ["xargs -0 -n 1 -I {} sudo ls {}", ROOT],
    ["command sudo ls", ROOT],
    ["exec -a name sudo ls", ROOT],
    ["/usr/bin/sudo ls", ROOT],
    ["nohup doas ls", "doas runs with root rights"],
    ["timeout 5 doas -u root ls", "doas runs with root rights"],
  ])("%j is destructive, at the escalating wrapper", (command, reason) => {
    const wrapper = command.split(" ").find((word) => /(^|\/)(sudo|doas)$/.test(word));
    expect(uses(command)).toEqual([[wrapper, reason]]);
  });

  it("sees the whole chain: nohup env FOO=1 timeout 5 sudo rm -rf x", () => {
    const command = "nohup env FOO=1 timeout 5 sudo rm -rf x";
    const [invocation] = simpleCommands(lexShell(command)).flatMap((c) => invocationsOf(command, c));
    expect(invocation!.program).toBe("rm");
    expect(invocation!.wrappers.map((w) => w.program)).toEqual(["nohup", "env", "timeout", "sudo"]);
    expect(uses(command)).toEqual([["sudo", ROOT], ["rm", "rm deletes files"]]);
  });

  it.each(["sudo -i", "sudo", "nohup sudo -i", "env FOO=1 sudo -s", "timeout 5 sudo -u root"])("%j, sudo given nothing to run, is destructive", (command) => {
    expect(uses(command)).toEqual([["sudo", ROOT]]);
  });

  it("reports a wrapped sudo under permission yolo (TCS005)", () => {
    const ir = npcIr({ intents: [{ id: "status", inputs: ["service status"], command: "nohup sudo systemctl status ssh", permission: "yolo" }] });
    const bag = new DiagnosticBag();
    checkTcs(ir, bag, { texts: new Map() });
    expect(bag.sorted().map((d) => [d.code, d.message])).toEqual([["TCS005", `destructive command (${ROOT}) runs without asking: its permission is "yolo"; make it "ask"`]]);
  });
});

describe("destructive programs behind a wrapper", () => {
  it.each([
    "xargs rm", "xargs -r -n 1 rm -f", "timeout --signal KILL 5 rm x", "timeout --kill-after 2 5 shred f", "nice --adjustment 5 rm x",
    "env - rm x", "stdbuf --output L rm x", "sudo --user root rm x",
  ])("%j is destructive", (command) => {
    expect(isDestructiveCommand(command)).toBe(true);
    expect(uses(command).map(([word]) => word)).toContain(/\bshred\b/.test(command) ? "shred" : "rm");
  });

  it.each(["nohup ls", "env", "nohup", "env FOO=1 ls", "timeout 5 echo hi", "nice -n 5 ls", "stdbuf -oL ls", "xargs echo", "command ls", "command -v sudo", "exec ls"])(
    "%j stays harmless",
    (command) => {
      expect(uses(command)).toEqual([]);
    },
  );
});

// Wrappers as words, with the options each really takes (values as separate words, attached, or `--x=v`).
const pickSome = (options: string[][]) => fc.subarray(options).map((chosen) => chosen.flat());
const harmlessWrapper = fc.oneof(
  fc.constant(["nohup"]),
  fc.tuple(pickSome([["-i"], ["-u", "HOME"], ["--unset=PATH"], ["--unset", "LANG"], ["-C", "/tmp"]]), fc.subarray(["FOO=1", "A_B=x=y", "E="]), fc.boolean()).map(([options, assignments, dashes]) => [
    "env", ...options, ...assignments, ...(dashes ? ["--"] : []),
  ]),
  fc.tuple(pickSome([["-s", "KILL"], ["--signal=TERM"], ["--signal", "HUP"], ["-k", "5"], ["--kill-after=1s"], ["--preserve-status"], ["--foreground"]]), fc.constantFrom("5", "1.5s", "2m")).map(
    ([options, duration]) => ["timeout", ...options, duration],
  ),
  pickSome([["-n", "10"], ["-n5"], ["--adjustment=3"], ["--adjustment", "7"]]).map((options) => ["nice", ...options]),
  pickSome([["-oL"], ["-eL"], ["-i0"], ["-o", "L"], ["--output=L"], ["--error", "0"]]).map((options) => ["stdbuf", ...options]),
  pickSome([["-0"], ["-r"], ["-n", "1"], ["-n1"], ["-I", "{}"], ["-P", "4"], ["-d", ","], ["--null"], ["--max-args", "2"], ["--max-procs=3"]]).map((options) => ["xargs", ...options]),
  pickSome([["-p"]]).map((options) => ["command", ...options]),
  pickSome([["-a", "name"], ["-c"], ["-l"]]).map((options) => ["exec", ...options]),
);
const escalatingWrapper = fc.oneof(
  pickSome([["-u", "root"], ["-E"], ["-n"], ["--user=root"], ["--user", "admin"], ["-H"], ["-g", "wheel"]]).map((options) => ["sudo", ...options]),
  pickSome([["-u", "root"], ["-n"]]).map((options) => ["doas", ...options]),
);
const chain = fc.array(harmlessWrapper, { maxLength: 4 }).map((wrappers) => wrappers.flat());
const harmlessCommand = fc.constantFrom("ls", "ls -la d", "echo hi", "cat f", "wc -l f", "date");
const destructiveCommand = fc.constantFrom("rm -rf x", "shred f", "kill -9 1", "mv a b", "dd if=a of=b", "reboot", "git push --force", "find . -delete", "chmod -R 777 d", "truncate -s 0 f");

describe("any chain of wrappers", () => {
  const settings = { seed: 20261310, numRuns: 400 };

  it("around a destructive command is destructive", () => {
    fc.assert(fc.property(chain, destructiveCommand, (wrappers, command) => isDestructiveCommand([...wrappers, command].join(" "))), settings);
  });

  it("with sudo or doas anywhere in it, around any command, is destructive at the escalating wrapper", () => {
    fc.assert(
      fc.property(chain, escalatingWrapper, chain, fc.oneof(harmlessCommand, destructiveCommand), (before, escalating, after, command) => {
        const text = [...before, ...escalating, ...after, command].join(" ");
        const at = [...before].join(" ").length + (before.length > 0 ? 1 : 0);
        expect(uses(text)).toContainEqual([escalating[0], `${escalating[0]} runs with root rights`]);
        expect(findDestructive(lexShell(text)).some((u) => u.start === at)).toBe(true);
      }),
      settings,
    );
  });

  it("around a harmless command, without sudo or doas, stays harmless", () => {
    fc.assert(fc.property(chain, harmlessCommand, (wrappers, command) => !isDestructiveCommand([...wrappers, command].join(" "))), settings);
  });
});
