// The bundle's weight layout (compiler/learn/int8-model.ts packedRows): per feature, the classes'
// int8 weights that survive the pruning level, classes ascending, each a packedWeight.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keeps, packedRows, prunedFurther } from "../../compiler/learn/int8-model.js";
import { packedWeight } from "../../runtime/match/learned-features.js";

describe("packedRows", () => {
  it("keeps, feature by feature and class by class, exactly the weights the level keeps", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 128 }), fc.infiniteStream(fc.integer({ min: -127, max: 127 })), (dims, K, level, stream) => {
        const rows = Int8Array.from(stream.take(dims * K));
        const { offsets, weights } = packedRows(rows, dims, K, level);
        expect(offsets).toHaveLength(dims + 1);
        for (let f = 0; f < dims; f++) {
          const expected: number[] = [];
          for (let c = 0; c < K; c++) if (keeps(rows[f * K + c]!, level)) expected.push(packedWeight(c, rows[f * K + c]!));
          expect([...weights.subarray(offsets[f]!, offsets[f + 1]!)]).toEqual(expected);
        }
        expect(offsets[dims]).toBe(weights.length);
        // Pruned further from a lower level's packing: the same as packed at the higher level directly.
        for (const higher of [level, level + 1, level + 5]) expect(prunedFurther({ offsets, weights }, dims, higher)).toEqual(packedRows(rows, dims, K, higher));
      }),
      { numRuns: 200 },
    );
  });
});
