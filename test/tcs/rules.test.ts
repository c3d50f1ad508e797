import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lexShell } from "../../compiler/tcs/shell-lexer.js";
import { invocationsOf, simpleCommands, staticText } from "../../compiler/tcs/commands.js";
import { findDestructive, isDestructiveCommand } from "../../compiler/tcs/destructive.js";
import { checkCommand, type TcsFinding } from "../../compiler/tcs/rules.js";
import { positionAt } from "../../compiler/sources/location.js";
import { mapStringLiteral } from "../../compiler/tcs/string-literal.js";

const SYSTEM = new Set(["username", "computer_name"]);
const userInput = (tag: string) => !SYSTEM.has(tag);

function codes(command: string): string[] {
  return checkCommand(command, userInput).map((f) => `${f.code}@${command.slice(f.start, f.end)}`);
}

/** Applies a finding's fix to the command. */
function fixed(command: string, finding: TcsFinding): string {
  let out = command;
  for (const edit of [...(finding.fix ?? [])].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

describe("simple commands", () => {
  const programs = (command: string) => {
    const lexed = lexShell(command);
    return simpleCommands(lexed).flatMap((c) => invocationsOf(command, c).map((i) => `${i.program ?? "?"}(${i.args.map((w) => command.slice(w.start, w.end)).join(" ")})`));
  };

  it("splits at control operators and skips reserved words, assignments and case patterns", () => {
    expect(programs(`if [ -f a ]; then rm -f a; elif b; then :; else c d; fi && for f in $(ls x); do cat "$f"; done; case "$v" in a|b) e ;; *) g h ;; esac`)).toEqual([
      "[(-f a ])", "rm(-f a)", "b()", ":()", "c(d)", "ls(x)", "cat(\"$f\")", "e()", "g(h)",
    ]);
    expect(programs("X=1 if a")).toEqual(["if(a)"]);
  });

  it("sees through wrappers and into find -exec", () => {
    expect(programs("sudo -u root env A=1 nice -n 5 rm -- x; timeout 5 grep y z; find . -name q -exec chmod +x {} \\;")).toEqual([
      "rm(-- x)", "grep(y z)", "find(. -name q -exec chmod +x {} \\;)", "chmod(+x {})",
    ]);
    // An option cluster ending in one that takes a value (-Eu root) skips that value too.
    expect(programs("sudo -Eu root rm x; nice -in5 ls")).toEqual(["rm(x)", "ls()"]);
  });

  it("keeps redirections apart from arguments", () => {
    const lexed = lexShell("sort < in > out 2>&1 x");
    const [command] = simpleCommands(lexed);
    expect(command!.words.map((w) => staticText(lexed.source, w))).toEqual(["sort", "x"]);
    expect(command!.redirects.map((r) => `${r.op.fd ?? ""}${r.op.op}${r.target ? staticText(lexed.source, r.target) : ""}`)).toEqual(["<in", ">out", "2>&1"]);
  });
});

describe("TCS001: user input outside single quotes", () => {
  it("accepts single-quoted input and ignores system values", () => {
    expect(codes("rm -- '<||f||>' && ls /home/<||username||>")).toEqual([]);
  });

  it.each([
    ["cat -- <||f||>", "unquoted"],
    ['echo "<||f||>"', "double"],
    ["echo $'<||f||>'", "ansi-c"],
    ["echo ${x:-<||f||>}", "param"],
    ["echo $((<||f||>))", "arith"],
    ['echo "$<||f||>"', "dollar"],
    ["cat <<E\n<||f||>\nE", "heredoc"],
    ["echo `echo '<||f||>'`", "backticks"],
  ])("flags %j (%s)", (command) => {
    expect(codes(command)).toEqual(["TCS001@<||f||>"]);
  });

  it("quotes a bare placeholder, keeping the rest of the word", () => {
    const [finding] = checkCommand("find . -mtime +<||n||> -print", userInput);
    expect(fixed("find . -mtime +<||n||> -print", finding!)).toBe("find . -mtime +'<||n||>' -print");
  });

  it("re-quotes a plain double-quoted string around the placeholder", () => {
    const command = 'say "hello <||n||>, <||username||>!"';
    const [finding] = checkCommand(command, userInput);
    expect(fixed(command, finding!)).toBe(`say "hello "'<||n||>'", <||username||>!"`);
  });

  it.each([
    ['say "$x <||n||>"'],
    ["say 'a'<||n||>"],
    ["say $x<||n||>"],
    ["say `x <||n||>`"],
    ['say "$<||n||>"'],
    ["ls ~<||n||>/x"],
    ["[[ $a == <||n||> ]]"],
    ["case $a in <||n||>) x ;; esac"],
    ["for f in <||n||>; do x; done"],
  ])("offers no fix for %j", (command) => {
    expect(checkCommand(command, userInput).filter((f) => f.code === "TCS001").map((f) => f.fix)).toEqual([undefined]);
  });
});

describe("TCS002: several inputs joined into one argument", () => {
  it("flags a word with two user placeholders, once, at the word", () => {
    expect(codes("mytool '<||a||>/<||b||>'")).toEqual(["TCS002@'<||a||>/<||b||>'"]);
  });

  it("accepts separate arguments and system values", () => {
    expect(codes("printf '%s/%s' '<||a||>' '<||b||>' && echo '/home/<||username||>/<||a||>'")).toEqual([]);
  });
});

describe("TCS003: native binaries need -- before user input", () => {
  it.each([
    ["rm '<||f||>'", "rm -- '<||f||>'"],
    ["grep -n '<||w||>' '<||f||>'", "grep -n -- '<||w||>' '<||f||>'"],
    ["head -n 5 '<||f||>'", "head -n 5 -- '<||f||>'"],
    ["chown root '<||f||>'", "chown -- root '<||f||>'"],
    ["ls -la \"$(cat '<||f||>')\"", "ls -la \"$(cat -- '<||f||>')\""],
  ])("%j → %j", (command, expected) => {
    const findings = checkCommand(command, userInput).filter((f) => f.code === "TCS003");
    expect(findings).toHaveLength(1);
    expect(fixed(command, findings[0]!)).toBe(expected);
  });

  it.each([
    ["rm -- '<||f||>'"],
    ["rm -f /tmp/'<||f||>'"],
    ["grep -e '<||w||>' file"],
    ["head -n '<||n||>' file"],
    ["echo '<||f||>'"],
    ["find '<||f||>' -type f"],
    ["mytool '<||f||>'"],
    ["rm '/home/<||username||>'"],
  ])("accepts %j", (command) => {
    expect(codes(command)).toEqual([]);
  });

  it("gives no fix when an option follows (GNU would stop reading it as one)", () => {
    const [finding] = checkCommand("grep '<||w||>' -r .", userInput);
    expect(finding?.code).toBe("TCS003");
    expect(finding?.fix).toBeUndefined();
  });
});

describe("TCS006: user input run as code", () => {
  it.each([
    ["sh -c 'echo <||x||>'", "sh -c"],
    ["bash -lc '<||x||>'", "bash -c"],
    ["eval '<||x||>'", "eval"],
    ["python3 -c 'print(\"<||x||>\")'", "python3 -c"],
    ["sed -i 's/<||x||>/y/' f", "sed's script"],
    ["sed -e 's/a/b/' -e '<||x||>' f", "sed's script"],
    ["awk '{print \"<||x||>\"}' f", "awk's program"],
    ["ssh -p 22 host 'ls <||x||>'", "ssh"],
    ["watch -n 2 '<||x||>'", "watch"],
    ["'<||x||>' --help", "chooses the program"],
  ])("%j (%s)", (command, runner) => {
    const findings = checkCommand(command, userInput).filter((f) => f.code === "TCS006");
    expect(findings.map((f) => command.slice(f.start, f.end))).toEqual(["<||x||>"]);
    expect(findings[0]!.message).toContain(runner);
  });

  it.each([
    ["sh -c 'echo \"$1\"' _ '<||x||>'"],
    ["awk -v v='<||x||>' '{print v}' f"],
    ["sed -f script.sed '<||x||>'"],
    ["sed 's/a/b/' -- '<||x||>'"],
    ["ssh -- '<||x||>'"],
    ["grep -F -- '<||x||>' f"],
    ["command -v -- '<||x||>'"],
  ])("%j keeps the value as data", (command) => {
    expect(checkCommand(command, userInput).filter((f) => f.code === "TCS006")).toEqual([]);
  });
});

describe("TCS004: unparsable commands", () => {
  it("reports the lexer error at its offset", () => {
    expect(checkCommand(`echo "abc '<||f||>'`, userInput)).toEqual([{ code: "TCS004", message: "the shell cannot parse this command: unterminated double quote", start: 5, end: 6 }]);
  });
});

describe("destructive commands", () => {
  it.each([
    "rm -f x", "sudo apt update", "dd if=/dev/zero of=/dev/sda", "mkfs.ext4 /dev/sdb1", "chmod -R 777 /", "chown --recursive a b",
    "kill -9 1", "pkill node", "killall x", "reboot", "shutdown -h now", "mv a b", "echo x > \"$f\"", "echo x > '<||f||>'",
    "git push --force", "git push -f origin main", "git push origin +main", "git reset --hard HEAD~1", "docker rm c", "docker rmi i",
    "docker system prune -a", "find . -delete", "find . -exec rm {} \\;", "x=$(rm y)", "crontab -r", "systemctl reboot",
    "echo 'unclosed",
  ])("%j is destructive", (command) => {
    expect(isDestructiveCommand(command)).toBe(true);
  });

  it.each([
    "ls -la", "echo 'rm -rf /'", "echo \"sudo reboot\"", "mv -n a b", "mv -i a b", "chmod +x f", "git push", "git reset HEAD",
    "docker ps", "echo x > /dev/null", "cat a >> \"$log\"", "cmd 2>&1", "find . -name x", "grep rm file", "termy_say 'File deleted'",
  ])("%j is not destructive", (command) => {
    expect(isDestructiveCommand(command)).toBe(false);
  });

  it.each(["constructor x", "toString -f", "__proto__ a", "hasOwnProperty"])("%j is a plain program name, not an object key", (command) => {
    expect(isDestructiveCommand(command)).toBe(false);
    expect(checkCommand(`${command} '<||f||>'`, userInput)).toEqual([]);
  });

  it("locates each destructive use", () => {
    const command = "ls && rm -f a; echo x > \"$f\"";
    expect(findDestructive(lexShell(command)).map((u) => command.slice(u.start, u.end))).toEqual(["rm", '> "$f"']);
  });
});

describe("string literal mapping", () => {
  it("maps decoded offsets past JSON escapes", () => {
    const text = `{"command": "a\\"b\\\\c\\u00e9 <||x||>"}`;
    const open = text.indexOf('"', 11);
    const map = mapStringLiteral(text, open, "json")!;
    const decoded = JSON.parse(text.slice(open, text.lastIndexOf('"') + 1)) as string;
    expect(map.length).toBe(decoded.length);
    expect(text.slice(map.sourceOffset(decoded.indexOf("<")), map.sourceOffset(decoded.length))).toBe("<||x||>");
    expect(map.encode(`'"\\`)).toBe(`'\\"\\\\`);
  });

  it("maps Ruby single- and double-quoted strings", () => {
    const single = `command 'it\\'s <||x||>'`;
    const map = mapStringLiteral(single, 8, "ruby")!;
    expect(single.slice(map.sourceOffset(5))).toBe("<||x||>'");
    expect(map.encode("'")).toBe("\\'");
    const double = `command "a\\t\\"#{x}" `;
    expect(mapStringLiteral(double, 8, "ruby")!.encode('"#')).toBe('\\"\\#');
  });

  it("maps every JSON string back to itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), (value, pick) => {
        const text = `[${JSON.stringify(value)}]`;
        const map = mapStringLiteral(text, 1, "json")!;
        expect(map.length).toBe(value.length);
        if (value.length === 0) return;
        const index = pick % value.length;
        const raw = text.slice(map.sourceOffset(index), map.sourceOffset(index + 1));
        expect(JSON.parse(`"${raw}"`)).toBe(value[index]);
      }),
      { numRuns: 500 },
    );
  });

  it("gives 1-based lines and columns", () => {
    expect(positionAt("ab\ncd\nef", 4)).toEqual({ line: 2, column: 2 });
    expect(positionAt("ab", 0)).toEqual({ line: 1, column: 1 });
  });

  it("agrees with counting the newlines before the offset, for any text and offset, texts interleaved", () => {
    const naive = (text: string, offset: number) => {
      const before = text.slice(0, Math.max(0, offset));
      return { line: before.split("\n").length, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
    };
    const text = fc.string({ unit: fc.constantFrom("a", "\n", "é", "\r"), maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.nat(45), fc.nat(45), (a, b, i, j) => {
        expect(positionAt(a, i)).toEqual(naive(a, i));
        expect(positionAt(b, j)).toEqual(naive(b, j));
        expect(positionAt(a, j)).toEqual(naive(a, j));
      }),
      { seed: 5, numRuns: 500 },
    );
  });
});
