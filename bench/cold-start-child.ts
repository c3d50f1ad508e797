// One fresh process of bench/cold-start.ts: imports the runtime, loads a bundle, answers one
// message, and prints what each step took, in wall and CPU ms (CPU time is what the step costs,
// whatever else the machine runs), and the heap and RSS after the load, as JSON.
//   node build/bench/cold-start-child.js <bundle.npc> <message> [runtime entry]
// The runtime entry is a path or URL: by default the packaged ndfc/runtime (build/runtime-bundled,
// what a host imports); bench/cold-start.ts also passes tsc's per-file build/runtime/index.js.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Wall and CPU (user + system) ms since the process began timing. */
function now(): { wall: number; cpu: number } {
  const { user, system } = process.cpuUsage();
  return { wall: performance.now(), cpu: (user + system) / 1000 };
}

const started = now();
const entry = process.argv[4] === undefined ? new URL("../runtime-bundled/index.js", import.meta.url).href : pathToFileURL(process.argv[4]).href;
const { loadNpc } = (await import(entry)) as typeof import("../runtime/index.js");
const imported = now();
const bytes = new Uint8Array(readFileSync(process.argv[2]!));
const read = now();
const npc = await loadNpc(bytes);
const loaded = now();
const memory = process.memoryUsage();
const answer = npc.session({ seed: 1 }).process(process.argv[3] ?? "hello");
const answered = now();

const span = (from: { wall: number; cpu: number }, to: { wall: number; cpu: number }) => ({ wall: to.wall - from.wall, cpu: to.cpu - from.cpu });
process.stdout.write(
  JSON.stringify({
    import: span(started, imported),
    load: span(read, loaded),
    firstAnswer: span(loaded, answered),
    importLoadAnswer: span(started, answered),
    heapMB: memory.heapUsed / 1e6,
    rssMB: memory.rss / 1e6,
    status: answer.status,
  }),
);
