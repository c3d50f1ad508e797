import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lexShell, type LexedCommand, type Token, type WordPart } from "../../compiler/tcs/shell-lexer.js";

/** A compact picture of a token list: words as their source text, operators in brackets. */
function shape(lexed: LexedCommand, tokens: Token[] = lexed.script.tokens): string[] {
  return tokens.map((t) =>
    t.type === "word" ? lexed.source.slice(t.start, t.end) : t.type === "operator" ? `[${t.fd ?? ""}${t.op === "\n" ? "NL" : t.op}]` : `<<body:${JSON.stringify(lexed.source.slice(t.start, t.end))}>>`,
  );
}

function partKinds(parts: readonly WordPart[]): string[] {
  return parts.map((p) => (p.kind === "double" ? `double(${partKinds(p.parts).join(",")})` : p.kind));
}

function sites(command: string): [string, string, number, boolean][] {
  return lexShell(command).placeholders.map((p) => [p.tag, p.context, p.start, p.inBackticks]);
}

describe("shell lexer: words and operators", () => {
  it("splits words on blanks and control operators", () => {
    const lexed = lexShell("ls -la /tmp && echo hi; cat a | wc -l || true & wait\nnext");
    expect(lexed.error).toBeUndefined();
    expect(shape(lexed)).toEqual(["ls", "-la", "/tmp", "[&&]", "echo", "hi", "[;]", "cat", "a", "[|]", "wc", "-l", "[||]", "true", "[&]", "wait", "[NL]", "next"]);
  });

  it("reads redirections with and without file descriptors", () => {
    const lexed = lexShell("cmd > out 2>&1 >> log < in &> all 2>/dev/null <<< word >| x");
    expect(shape(lexed)).toEqual(["cmd", "[>]", "out", "[2>&]", "1", "[>>]", "log", "[<]", "in", "[&>]", "all", "[2>]", "/dev/null", "[<<<]", "word", "[>|]", "x"]);
  });

  it("keeps digits that do not precede a redirection as a word", () => {
    expect(shape(lexShell("head -n 100M 1)"))).toEqual(["head", "-n", "100M", "1", "[)]"]);
  });

  it("reads case items, subshells and ;; operators", () => {
    expect(shape(lexShell('case "$c" in 1) a ;; *) b ;; esac'))).toEqual(["case", '"$c"', "in", "1", "[)]", "a", "[;;]", "*", "[)]", "b", "[;;]", "esac"]);
    expect(shape(lexShell("(cd x && ls)"))).toEqual(["[(]", "cd", "x", "[&&]", "ls", "[)]"]);
  });

  it("joins line continuations and skips comments", () => {
    const lexed = lexShell("echo a \\\n  b # note <||x||>\nls");
    expect(shape(lexed)).toEqual(["echo", "a", "b", "[NL]", "ls"]);
    expect(lexed.placeholders.map((p) => p.context)).toEqual(["comment"]);
  });

  it("treats # inside a word as a literal", () => {
    expect(shape(lexShell("echo a#b"))).toEqual(["echo", "a#b"]);
  });
});

describe("shell lexer: quoting", () => {
  it("gives each word its parts", () => {
    const lexed = lexShell(`x'a b'"c $d $(e) \`f\`"\\ g $'h\\'i' $"j"`);
    expect(lexed.error).toBeUndefined();
    const [word] = lexed.script.tokens;
    expect(word?.type).toBe("word");
    if (word?.type !== "word") return;
    expect(partKinds(word.parts)).toEqual(["literal", "single", "double(literal,param,literal,command,literal,command)", "escape", "literal"]);
    expect(shape(lexed).slice(1)).toEqual([`$'h\\'i'`, `$"j"`]);
  });

  it("knows which backslashes double quotes keep", () => {
    const lexed = lexShell(`"a\\$b\\nc\\"d"`);
    const word = lexed.script.tokens[0];
    if (word?.type !== "word") throw new Error("word expected");
    expect(partKinds(word.parts)).toEqual(["double(literal,escape,literal,escape,literal)"]);
  });

  it("reads ${…} and $((…)) as single parts, with nested braces and parentheses", () => {
    const lexed = lexShell('echo ${a:-${b}} $(( (1+2) * 3 )) ${x//"}"/y}');
    expect(lexed.error).toBeUndefined();
    expect(shape(lexed)).toEqual(["echo", "${a:-${b}}", "$(( (1+2) * 3 ))", '${x//"}"/y}']);
  });

  it("lexes command substitutions recursively, including inside double quotes", () => {
    const lexed = lexShell(`a "$(b "$(c 'd')")" \`e f\` <(g) >(h)`);
    expect(lexed.error).toBeUndefined();
    const words = lexed.script.tokens.filter((t) => t.type === "word");
    expect(words).toHaveLength(5);
    const outer = words[1]!;
    const double = outer.parts[0];
    if (double?.kind !== "double") throw new Error("double expected");
    const sub = double.parts[0];
    if (sub?.kind !== "command") throw new Error("command expected");
    expect(shape(lexed, sub.script.tokens)).toEqual(["b", `"$(c 'd')"`]);
    expect(words.slice(2).map((w) => w.parts[0]!.kind)).toEqual(["command", "process", "process"]);
  });

  it("reads here-documents: quoted bodies are literal, unquoted ones expand", () => {
    const lexed = lexShell("cat <<'EOF' > f\n$(not run) <||a||>\nEOF\ncat <<-X\n\t$(run) <||b||>\n\tX\necho done");
    expect(lexed.error).toBeUndefined();
    expect(shape(lexed)).toEqual(["cat", "[<<]", "'EOF'", "[>]", "f", "[NL]", '<<body:"$(not run) <||a||>\\n">>', "cat", "[<<-]", "X", "[NL]", '<<body:"\\t$(run) <||b||>\\n">>', "echo", "done"]);
    expect(lexed.placeholders.map((p) => [p.tag, p.context])).toEqual([["a", "heredoc-literal"], ["b", "heredoc"]]);
  });
});

describe("shell lexer: placeholders", () => {
  it("locates each placeholder with its quoting context and offset", () => {
    const command = `rm -- '<||a||>' <||b||> "x <||c||>" $'<||d||>' \${v:-<||e||>} $((<||f||>)) $<||g||> "$<||h||>"`;
    const found = sites(command);
    expect(found.map(([tag, context]) => [tag, context])).toEqual([
      ["a", "single"], ["b", "unquoted"], ["c", "double"], ["d", "ansi-c"], ["e", "param"], ["f", "arith"], ["g", "dollar"], ["h", "dollar"],
    ]);
    for (const [tag, , start] of found) expect(command.slice(start, start + tag.length + 6)).toBe(`<||${tag}||>`);
  });

  it("reads an unquoted placeholder as one word part, not as < || >", () => {
    const lexed = lexShell("nl -ba <||file||> | sort");
    expect(shape(lexed)).toEqual(["nl", "-ba", "<||file||>", "[|]", "sort"]);
    const word = lexed.script.tokens[2];
    if (word?.type !== "word") throw new Error("word expected");
    expect(lexed.placeholders[0]!.word).toBe(word);
  });

  it("prefers a placeholder to an operator or a file descriptor that would swallow its <", () => {
    expect(shape(lexShell("tr a b <<||f||> >><||g||> 2<||h||>"))).toEqual(["tr", "a", "b", "[<]", "<||f||>", "[>>]", "<||g||>", "2<||h||>"]);
  });

  it("finds placeholders inside words and substitutions, with the inner quoting", () => {
    const command = `find /home/<||u||> -mtime +<||n||> "$(basename '<||f||>')" \`echo '<||g||>'\``;
    const at = (tag: string) => command.indexOf(`<||${tag}||>`);
    expect(sites(command)).toEqual([
      ["u", "unquoted", at("u"), false],
      ["n", "unquoted", at("n"), false],
      ["f", "single", at("f"), false],
      ["g", "single", at("g"), true],
    ]);
  });

  it("points each placeholder at the word and script that hold it", () => {
    const lexed = lexShell(`a "$(b '<||x||>')"`);
    const site = lexed.placeholders[0]!;
    expect(lexed.source.slice(site.word!.start, site.word!.end)).toBe("'<||x||>'");
    expect(site.script).not.toBe(lexed.script);
  });
});

describe("shell lexer: errors", () => {
  it.each([
    ["echo 'abc", 5, "unterminated single quote"],
    ['echo "abc', 5, "unterminated double quote"],
    ["echo $(ls", 5, "unterminated $( … )"],
    ["echo ${x", 5, "unterminated ${ … }"],
    ["echo `ls", 5, "unterminated backtick substitution"],
    ["echo $((1+2)", 5, "unterminated $(( … ))"],
    ["echo $'a", 5, "unterminated $' … ' string"],
    ["cat <<EOF\nbody", 10, 'here-document is not closed by a line "EOF"'],
    ["cat <<EOF", 9, "here-document <<EOF has no body"],
    ["cat << ;", 4, "<< needs a delimiter word"],
  ])("%j fails at offset %i", (command, offset, message) => {
    expect(lexShell(command).error).toEqual({ offset, message });
  });

  it("never throws and keeps offsets inside the command, for any input", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", " ", "'", '"', "\\", "$", "(", ")", "{", "}", "`", "<", ">", "|", "&", ";", "\n", "#", "<<", "<||x||>"), maxLength: 40 }), (command) => {
        const lexed = lexShell(command);
        for (const site of lexed.placeholders) {
          expect(site.start).toBeGreaterThanOrEqual(0);
          expect(command.slice(site.start, site.end)).toBe("<||x||>");
        }
        if (lexed.error) expect(lexed.error.offset).toBeLessThanOrEqual(command.length);
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (command) => void lexShell(command)), { numRuns: 1000 });
  });

  it.each(["`a $(`)`", "`$(`", "$(`)", '`"`"`', "`<(`)`"])("reports %j (crossed substitution closers) instead of looping", (command) => {
    expect(lexShell(command).error).toBeDefined();
  });
});
