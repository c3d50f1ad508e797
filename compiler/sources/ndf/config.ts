// Reading config.json into NpcConfig.
import type { DiagnosticBag } from "../../diagnostics.js";
import type { NpcConfig } from "../../ir/types.js";
import { reportLikelyTypo } from "./entries.js";
import { locOf, membersOf, toValue, type JsonNode } from "./json-ast.js";
import { KNOWN_CONFIG_KEYS } from "./schemas.js";
import { setOwn } from "../../own-property.js";

const NUMERIC_KEYS: Record<string, keyof NpcConfig> = {
  sentence_threshold: "sentenceThreshold",
  word_threshold: "wordThreshold",
  synonym_contribution: "synonymContribution",
  suggestions: "suggestions",
};

/** `fallbackName` (the directory name) is used when config.json names no NPC. */
export function lowerConfig(root: JsonNode, fallbackName: string, bag: DiagnosticBag): NpcConfig {
  const config: NpcConfig = { name: fallbackName, connectives: [], extra: {} };
  if (root.type !== "Object") return config;
  for (const { key, value, keyNode } of membersOf(root)) {
    const v = toValue(value);
    if ((key === "npc_name" || key === "name") && typeof v === "string" && v.trim() !== "") {
      if (key === "npc_name" || config.name === fallbackName) config.name = v.trim();
    } else if (key === "creator" && typeof v === "string") {
      config.creator = v;
    } else if (key === "threshold" && typeof v === "number") {
      // TERMy's config says `threshold`; the original engine ignored it. We read it as the sentence threshold.
      config.sentenceThreshold ??= v;
    } else if (key in NUMERIC_KEYS && typeof v === "number") {
      (config as unknown as Record<string, unknown>)[NUMERIC_KEYS[key]!] = v;
    } else {
      setOwn(config.extra, key, v);
      if (!KNOWN_CONFIG_KEYS.includes(key)) reportLikelyTypo(key, locOf(keyNode), bag, KNOWN_CONFIG_KEYS);
    }
  }
  return config;
}
