// What only the template matcher reads, as a bundle stores it: the automaton (automaton-store.ts)
// and the type programs (each a type's Pike VM, text/regex-vm.ts; since format 10.0 its classes
// as rows and its opcode triples as a section, bundle-types.ts StoredTypeProgram). Read and
// checked with the template chunk (runtime/stages.ts), which format.ts imports to decode a bundle
// that has them: a bundle without templates loads none of this. The automaton's rule calls are laid
// out and checked here too (automaton-frames.ts), as part of the read, while the other chunks a
// load imports may still be loading.

import type { BundlePayload, BundleTypeProgram, StoredPayload, StoredTypeProgram } from "./bundle-types.js";
import { framesOf } from "./automaton-frames.js";
import { listOf, readAutomaton } from "./automaton-store.js";
import { wrongShape as fail } from "./wrong-shape.js";

/**
 * The automaton and type programs of `stored` (a bundle of `intents` intents), read and checked,
 * the automaton's frames laid out (framesOf caches them for the matcher): throws
 * InvalidBundleError at the first problem.
 */
export function readTemplates({ automaton, types, lists, ranges }: StoredPayload, intents: number): Pick<BundlePayload, "automaton" | "types"> {
  const read = types.map(readType);
  const states = readAutomaton(automaton, { types: types.length, lists: lists.length, ranges: ranges.length, intents });
  framesOf(states);
  return { automaton: states, types: read };
}

// Operand limits per opcode, by classes and instructions: CHAR [class, next], SPLIT [x, y], JMP, BOL, EOL, ANY [next], MATCH none.
const OPERANDS = [[0, 1], [1, 1], [1], [], [1], [1], [1]];

/**
 * Type `t` (its sections checked by the validator) as lists again, made by index reads, not a
 * msgpack walk. Throws InvalidBundleError at the first instruction whose opcode is unknown or
 * whose operand indexes past the classes or the instructions.
 */
function readType({ name, unusable, classes: { starts, items }, ops }: StoredTypeProgram, t: number): BundleTypeProgram {
  if (ops.length % 3 !== 0) fail(`types[${t}].ops`, "expected opcode triples");
  const limits = [starts.length - 1, ops.length / 3];
  for (let k = 0; k < ops.length; k += 3) {
    const operands = OPERANDS[ops[k]!];
    if (!operands) fail(`types[${t}].ops[${k}]`, "unknown opcode");
    for (let i = 0; i < operands.length; i++) {
      const limit = limits[operands[i]!]!;
      if (ops[k + 1 + i]! >= limit) fail(`types[${t}].ops[${k}]`, `expected an index below ${limit}`);
    }
  }
  const classes: number[][] = [];
  for (let i = 1; i < starts.length; i++) classes.push(listOf(items, starts[i - 1]!, starts[i]!));
  return { name, unusable, classes, ops: Array.from(ops) };
}
