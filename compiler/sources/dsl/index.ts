// The rule DSL front end: text → IrFragment (see docs/architecture.md, "Sources", and lower.ts).
export { lowerDslFile, type DslLowerOptions } from "./lower.js";
export { DSL_CODES } from "./codes.js";
export { resolveSlotReferences } from "./slot-types.js";
export { WORD_TAG_PREFIX, wordTag } from "./words.js";
