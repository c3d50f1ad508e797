// The sanitizer's chunk (runtime/stages.ts): the scan for noise and sentiment phrases and the
// sentiment stage, loaded only for bundles with sanitizer phrases (one chunk: a bundle with
// sentiment phrases needs both, and one with noise only finds no sentiment to match).

export { sanitize } from "./sanitize.js";
export { sentimentMatch } from "./sentiment.js";
