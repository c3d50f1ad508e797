// Keys a dataset writes become own properties of what the compiler builds, "__proto__" included
// (compiler/own-property.ts): assigning it would have set the object's prototype instead.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { lintSources } from "../../compiler/lint.js";

test('a "__proto__" key of config.json or of an entry is an own key, not a prototype', () => {
  const dir = mkdtempSync(join(tmpdir(), "ndfc-own-keys-"));
  mkdirSync(join(dir, "dataset"));
  writeFileSync(join(dir, "config.json"), '{"npc_name": "P", "creator": "me", "__proto__": {"matcher": "learned"}}');
  writeFileSync(join(dir, "dataset/dataset_a.json"), '[{"intent": "hi", "input": ["hello"], "output": ["hi"], "__proto__": {"permission": "yolo"}}]');
  const { ir } = lintSources([dir]);
  const extra = ir.config.extra;
  expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
  expect(extra.matcher).toBeUndefined();
  expect(Object.keys(extra)).toContain("__proto__");
  const entry = ir.intents[0]!.extra;
  expect(Object.getPrototypeOf(entry)).toBe(Object.prototype);
  expect(Object.keys(entry)).toContain("__proto__");
});
