// Differential test against the real bash: a command rendered by the runtime's shell renderer,
// with the program swapped for `printf '%s\0'`, must hand bash exactly the slot value as one
// argument, byte for byte, whatever the value holds; or the renderer must refuse the value.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UnsafeSlotValueError } from "../../runtime/render/shell-escape.js";
import { splitSegments } from "../../compiler/segments.js";
import { shellTemplate } from "../../compiler/tcs/shell-template.js";
import { renderShellTemplate, type TagValues } from "../../runtime/render/shell-render.js";

/** What a command goes through from dataset to shell: split and lexed by the compiler, rendered by the runtime. */
const renderShellCommand = (command: string, valueOf: TagValues) => renderShellTemplate(shellTemplate(splitSegments(command)), valueOf);

const bashAvailable = spawnSync("bash", ["--version"]).status === 0;
if (!bashAvailable) console.warn("bash is not installed: the differential shell test is skipped");

const PRINT = "printf '%s\\0'";

interface Template {
  /** The command; `PRINT` stands for the program that receives the arguments. */
  command: string;
  /** The arguments bash must pass, given the value. */
  expected: (value: string) => string[];
  /** TCS-clean templates must never refuse a value (other than NUL, which the generator never makes). */
  clean: boolean;
}

const TEMPLATES: Template[] = [
  { command: `${PRINT} '<||x||>'`, expected: (v) => [v], clean: true },
  { command: `${PRINT} 'pre <||x||> post'`, expected: (v) => [`pre ${v} post`], clean: true },
  { command: `${PRINT} '<||x||>' '<||x||>'`, expected: (v) => [v, v], clean: true },
  { command: `x='<||x||>' && ${PRINT} "$x"`, expected: (v) => [v], clean: true },
  { command: `${PRINT} "$(printf '%s.' '<||x||>')"`, expected: (v) => [`${v}.`], clean: true },
  { command: `f() { ${PRINT} "$@"; }; f '<||x||>'`, expected: (v) => [v], clean: true },
  // Not TCS-clean: the renderer must quote or refuse.
  { command: `${PRINT} <||x||>`, expected: (v) => [v], clean: false },
  { command: `${PRINT} a<||x||>b`, expected: (v) => [`a${v}b`], clean: false },
  { command: `${PRINT} "<||x||>"`, expected: (v) => [v], clean: false },
  { command: `${PRINT} "in <||x||> dq"`, expected: (v) => [`in ${v} dq`], clean: false },
  { command: `${PRINT} $'<||x||>'`, expected: (v) => [v], clean: false },
  { command: `${PRINT} \${unset_var:-<||x||>}`, expected: (v) => [v], clean: false },
  { command: `${PRINT} $<||x||>`, expected: (v) => (v === "" ? ["$"] : [v]), clean: false },
  { command: `${PRINT} "$(printf '%s.' <||x||>)"`, expected: (v) => [`${v}.`], clean: false },
  { command: `${PRINT} "\`printf '%s.' '<||x||>'\`"`, expected: (v) => [`${v}.`], clean: false },
];

const SPECIALS = ["'", '"', "$", "`", "\\", ";", "\n", "\r", "\t", " ", "-", "--", "-rf", "(", ")", "$(id)", "`id`", "${x}", "*", "?", "~", "!", "{", "}", "[", "]", "|", "&", "<", ">", "#", "=", "%", "é", "😀", "\u0001", "\u007f", "EOF", "'\\''"];
const slotValue = fc
  .string({ unit: fc.oneof(fc.constantFrom(...SPECIALS), fc.string({ unit: "binary", maxLength: 2 })), maxLength: 12 })
  .filter((v) => !/\p{Cs}/u.test(v) && !v.includes("\u0000"));

interface Case {
  template: Template;
  value: string;
}

/** Renders each case into one script that prints every argument NUL-terminated, then `E<i>`; runs bash once. */
function runBatch(cases: Case[]): void {
  const lines: string[] = [];
  const expected: string[] = [];
  cases.forEach(({ template, value }, i) => {
    let rendered: string;
    try {
      rendered = renderShellCommand(template.command, () => value);
    } catch (error) {
      if (!(error instanceof UnsafeSlotValueError)) throw error;
      expect(template.clean, `a clean template refused ${JSON.stringify(value)}: ${error.message}`).toBe(false);
      return;
    }
    lines.push(`{ ${rendered}\n} ; printf 'E${i}\\0'`);
    expected.push(...template.expected(value), `E${i}`);
  });
  const run = spawnSync("bash", ["--norc", "--noprofile", "-s"], { input: Buffer.from(lines.join("\n") + "\n", "utf8"), env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" }, maxBuffer: 64 << 20 });
  expect(run.stderr.toString("utf8")).toBe("");
  const records = run.stdout.toString("utf8").split("\u0000");
  expect(records.pop()).toBe("");
  for (let i = 0; i < Math.max(records.length, expected.length); i++) {
    if (records[i] !== expected[i]) {
      const caseIndex = expected.slice(i).find((r) => /^E\d+$/.test(r));
      const failing = caseIndex ? cases[Number(caseIndex.slice(1))] : undefined;
      expect({ record: records[i], command: failing && renderShellCommand(failing.template.command, () => failing.value) }).toEqual({ record: expected[i], command: "(bash disagreed)" });
    }
  }
}

describe.skipIf(!bashAvailable)("rendered commands hand bash exactly the slot value", () => {
  it("for every template and thousands of hostile values", () => {
    fc.assert(
      fc.property(fc.array(slotValue, { minLength: 200, maxLength: 200 }), (values) => {
        runBatch(values.flatMap((value) => TEMPLATES.map((template) => ({ template, value }))));
      }),
      { numRuns: 10 },
    );
  });

  it("for the classic injection strings", () => {
    const classics = ["'; rm -rf ~; '", "$(touch /tmp/pwned)", "`id`", "\"; id; \"", "-rf", "--help", "a\nb", "'\\''", "\\", "${IFS}", "*", "~root", "$((1+1))", "' \"' \"", "EOF\nid\nEOF"];
    runBatch(classics.flatMap((value) => TEMPLATES.map((template) => ({ template, value }))));
  });
});

describe("the renderer refuses what it cannot place", () => {
  it.each([
    [`echo "<||x||>"`, "$(id)"],
    [`echo "<||x||>"`, 'a"b'],
    [`echo $<||x||>`, "(id)"],
    [`echo $((<||x||>))`, "a[$(id)]"],
    [`cat <<EOF\n<||x||>\nEOF`, "EOF\nid"],
    [`echo \`echo '<||x||>'\``, "`id`"],
    // Found by the differential property: bash read "…>({ in backticks within "…" as a process substitution.
    [`echo "\`echo '<||x||>'\`"`, '">({'],
    [`echo '<||x||>'`, "nul\u0000"],
    [`echo '<||x||>`, "unparsable"],
  ])("%j with %j", (command, value) => {
    expect(() => renderShellCommand(command, () => value)).toThrow(UnsafeSlotValueError);
  });

  it("leaves a command without placeholders as it is, even one the lexer cannot parse", () => {
    expect(renderShellCommand("echo 'unclosed", () => "x")).toBe("echo 'unclosed");
  });
});
