// Profiles the probabilistic stage on a synthetic NPC (default 20,000 inputs): the cost curve's
// messages answered in a loop, with the median per message by status. Run under
// `node --cpu-prof build/bench/probabilistic-profile.js [inputs]` to see where the time goes.
import { compileNpc } from "../compiler/compile.js";
import { loadNpc } from "../runtime/index.js";
import { syntheticNpc } from "./synthetic.js";

const size = Number(process.argv[2] ?? 20_000);
const synthetic = syntheticNpc(size);
const npc = await loadNpc(compileNpc({ ir: synthetic.ir }).bytes);
const sample = synthetic.inputs.filter((_, i) => i % Math.ceil(synthetic.inputs.length / 200) === 0).map((x) => x.text);
const messages = [...sample, ...sample.map((t) => `${t} ${synthetic.vocabulary.at(-1)} zorbly`)];
const session = npc.session();
const byStatus = new Map<string, number[]>();
for (let round = 0; round < 20; round++) {
  for (const message of messages) {
    const start = process.hrtime.bigint();
    const { status } = session.process(message);
    const us = Number(process.hrtime.bigint() - start) / 1000;
    if (round >= 2) byStatus.set(status, [...(byStatus.get(status) ?? []), us]);
  }
}
for (const [status, times] of byStatus) {
  times.sort((a, b) => a - b);
  console.log(`${status}: median ${times[times.length >> 1]!.toFixed(1)} µs over ${times.length}`);
}
