// Profiles the probabilistic stage on a synthetic NPC (default 20,000 inputs; the cost curve's
// messages) or an NPC directory (its inputs with a typo and with two extra words): the messages
// answered in a loop, with the median per message by status. Run under
// `node --cpu-prof build/bench/probabilistic-profile.js [inputs | npc-dir]` to see where the time goes.
import { compileNpc } from "../compiler/compile.js";
import { lintSources } from "../compiler/lint.js";
import { loadNpc } from "../runtime/index.js";
import { typoOf } from "./matching-inputs.js";
import { syntheticNpc } from "./synthetic.js";
import { median } from "./stats.js";

const target = process.argv[2] ?? "20000";
const synthetic = /^\d+$/.test(target) ? syntheticNpc(Number(target)) : null;
const ir = synthetic ? synthetic.ir : lintSources([target]).ir;
const npc = await loadNpc(compileNpc(ir).bytes);
const inputs = ir.intents.flatMap((intent) => intent.inputs.map((input) => input.value));
const sample = inputs.filter((_, i) => i % Math.ceil(inputs.length / 200) === 0);
const extra = synthetic ? `${synthetic.vocabulary.at(-1)} zorbly` : "zorbly quib";
const messages = [...sample, ...sample.map((t, i) => typoOf(t, i) ?? t), ...sample.map((t) => `${t} ${extra}`)];
const session = npc.session();
const byStatus = new Map<string, number[]>();
for (let round = 0; round < 20; round++) {
  for (const message of messages) {
    const start = process.hrtime.bigint();
    const { status } = session.process(message);
    const us = Number(process.hrtime.bigint() - start) / 1000;
    if (round < 2) continue;
    const times = byStatus.get(status);
    if (times) times.push(us);
    else byStatus.set(status, [us]);
  }
}
for (const [status, times] of byStatus) console.log(`${status}: median ${median(times).toFixed(1)} µs over ${times.length}`);
