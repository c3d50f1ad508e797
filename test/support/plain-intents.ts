// A loaded bundle's intents read their records on first use (runtime/bundle/intent-records.ts), so
// a test compares them field by field, as plain objects, not as the lazy objects they are.
import { RECORD_FIELDS, type BundleIntent } from "../../runtime/bundle/bundle-types.js";

const INTENT_FIELDS = ["id", "permission", "destructive", "parent", "category", "example", ...RECORD_FIELDS] as const;

export function plainIntents(intents: readonly BundleIntent[]): Record<string, unknown>[] {
  return intents.map((intent) => Object.fromEntries(INTENT_FIELDS.map((field) => [field, intent[field]])));
}
