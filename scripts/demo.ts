// `npm run demo`: build every NPC under datasets/, then hold a short scripted conversation with
// Termy that shows each stage of the runtime: a greeting, an exact match, a slot template, a
// typo, a context follow-up and a rejection with suggestions.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { processIO } from "../compiler/cli/io.js";
import { runCli } from "../compiler/cli/program.js";
import { loadNpc, type NpcResponse } from "../runtime/index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const io = { ...processIO(), cwd: repoRoot };

const SCRIPT: { say: string; shows: string }[] = [
  { say: "hello", shows: "a greeting" },
  { say: "disk space", shows: "an exact match" },
  { say: "create a folder demo", shows: "a slot template" },
  { say: "move it to /tmp", shows: "a context follow-up" },
  { say: "shwo the dsik space", shows: "typos, matched by the probabilistic stage" },
  { say: "bake me a chocolate cake", shows: "a rejection with suggestions" },
];

async function buildAll(): Promise<void> {
  const datasets = join(repoRoot, "datasets");
  for (const name of readdirSync(datasets).sort()) {
    if (!statSync(join(datasets, name)).isDirectory()) continue;
    const code = await runCli(["build", join("datasets", name)], io);
    if (code !== 0) throw new Error(`building datasets/${name} failed (exit ${code})`);
  }
}

function describe(answer: NpcResponse): string {
  const lines = [`  termy  [${answer.status}, confidence ${answer.confidence.toFixed(2)}${answer.intent ? `, ${answer.intent}` : ""}]`];
  if (answer.response) lines.push(`         ${answer.response}`);
  for (const tool of answer.tools) {
    const args = tool.arguments as Record<string, unknown> | undefined;
    if (typeof args?.["command"] === "string") lines.push(`         $ ${args["command"]}   (permission: ${answer.permission})`);
  }
  for (const related of answer.related) lines.push(`         · ${related.example ?? related.intent}`);
  return lines.join("\n");
}

await buildAll();
const bundle = readFileSync(join(repoRoot, "dist-npcs/termy.npc"));
const npc = await loadNpc(bundle);
// Unprinted passes first, so the timings below are of warm (JIT-compiled) code, as in a
// long-running app rather than a cold start.
for (let pass = 0; pass < 300; pass++) {
  const warmup = npc.session({ seed: pass });
  for (const { say } of SCRIPT) warmup.process(say);
}
const session = npc.session({ seed: 7, metadata: { username: "you", computer_name: "demo-box" } });
io.stdout(`\nA conversation with ${npc.name} (dist-npcs/termy.npc, ${bundle.length} bytes):\n`);
for (const { say, shows } of SCRIPT) {
  const started = performance.now();
  const answer = session.process(say);
  const micros = Math.round((performance.now() - started) * 1000);
  io.stdout(`\n  you    ${say}        — ${shows}, answered in ${micros} µs\n${describe(answer)}\n`);
}
