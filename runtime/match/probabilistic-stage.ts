// The probabilistic stage's chunk (runtime/stages.ts): the matcher and the index it walks, loaded
// only for bundles with inputs.

export { matchProbabilistic } from "./match-probabilistic.js";
export { MatchIndex } from "./match-index.js";
