// Compiles a linted NPC (its IR) into `.npc` bundle bytes: folds in teachings when given, runs the
// compute passes in order and assembles the payload defined by runtime/bundle/bundle-types.ts. Pure: same
// IR and options → same bytes.

import type { NpcConfig, NpcIR, SourceFileRef } from "./ir/types.js";
import type { BundleConfig, BundlePayload, BundleSanitizer, BundleVocab } from "../runtime/bundle/bundle-types.js";
import { encodeBundle, phraseTableOf, rowsOf, stringTableOf, wordListsOf } from "../runtime/bundle/encode.js";
import { sha256, toHex } from "../runtime/bundle/sha256.js";
import { normalizeWords } from "../runtime/text/normalize.js";
import { COMPILER_VERSION } from "./version.js";
import { computeIntentOrder } from "./passes/compute-intent-order.js";
import { computeIntents } from "./passes/compute-intents.js";
import { computeExactTables } from "./passes/compute-exact-table.js";
import { computeVocab, type VocabTable } from "./passes/compute-vocab.js";
import { computeLexicon } from "./passes/compute-lexicon.js";
import { computeMatching, round6 } from "./passes/compute-matching.js";
import { computeConcepts, type LexicalExpansion } from "./passes/compute-concepts.js";
import { computeFuzzyIndex } from "./passes/compute-fuzzy-index.js";
import { computeMessageTables } from "./passes/compute-message-tables.js";
import { computeTypePrograms } from "./passes/compute-type-programs.js";
import { computeAutomaton } from "./passes/compute-automaton.js";
import { computeLists, computeNumberWords } from "./passes/compute-lists.js";
import { computeSanitizer, computeWordLists, type SanitizerLists } from "./passes/compute-word-tables.js";
import { startLearned } from "./passes/compute-learned.js";
import type { Calibration } from "./learn/calibrate.js";
import { foldTeachings, type FoldedTeachings, type Teachings } from "./passes/fold-teachings.js";
import { compareStrings } from "./order.js";

/** Defaults of the runtime's thresholds when the config says nothing (documented in the README). */
export const DEFAULT_THRESHOLDS = {
  sentenceThreshold: 0.6,
  wordThreshold: 0.6,
  margin: 0.03,
  synonymContribution: 0.9,
  suggestions: 5,
  maxMessageChars: 500,
} as const;

export interface CompileSummary {
  name: string;
  intents: number;
  inputs: number;
  /** Templates in the automaton (a DSL pattern with its groups is one). */
  templatePaths: number;
  vocabularyWords: number;
  bytes: number;
  sourceHash: string;
  /** Template paths that can never match (a required node of an undefined or unusable type). */
  unmatchablePaths: { intent: string; path: number; reason: string }[];
  /** Types whose regex the runtime cannot run, with the reason. */
  unusableTypes: { name: string; reason: string }[];
  /** Vocab tags used by templates but defined nowhere (they match their own name's word). */
  implicitTags: string[];
  /** The learned stage's cross-validation on the NPC's own phrasings (null when it was not trained). */
  learned: Calibration | null;
  /** Whether the bundle holds the learned stage. */
  learnedShipped: boolean;
  /** Why it does or does not (the bundle's config.learnedNote). */
  learnedNote: string;
}

export interface CompileResult {
  bytes: Uint8Array;
  payload: BundlePayload;
  summary: CompileSummary;
  /** What the transform stage folded in and left out, when teachings were given. */
  folded: Omit<FoldedTeachings, "ir"> | null;
}

/** sha-256 over "path\tsha256\n" lines of the sources, sorted by path. */
export function sourceHash(sources: readonly SourceFileRef[]): string {
  const lines = [...sources]
    .sort((a, b) => compareStrings(a.path, b.path))
    .map((s) => `${s.path}\t${s.sha256}\n`)
    .join("");
  return toHex(sha256(new TextEncoder().encode(lines)));
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Thresholds from the config (NDF's `threshold` key is read as the sentence threshold by the loader), else the defaults; the learned threshold is set by compileNpc. */
function synonymContributionOf(config: NpcConfig): number {
  return round6(numberOr(config.synonymContribution, DEFAULT_THRESHOLDS.synonymContribution));
}

export function bundleConfig(config: NpcConfig, learned: { threshold: number; note: string }): BundleConfig {
  return {
    npcName: config.name,
    creator: config.creator ?? null,
    sentenceThreshold: round6(numberOr(config.sentenceThreshold, DEFAULT_THRESHOLDS.sentenceThreshold)),
    wordThreshold: round6(numberOr(config.wordThreshold, DEFAULT_THRESHOLDS.wordThreshold)),
    margin: round6(numberOr(config.extra.margin, DEFAULT_THRESHOLDS.margin)),
    synonymContribution: synonymContributionOf(config),
    suggestions: Math.max(0, Math.floor(numberOr(config.suggestions, DEFAULT_THRESHOLDS.suggestions))),
    maxMessageChars: DEFAULT_THRESHOLDS.maxMessageChars,
    connectives: config.connectives.map((words) => normalizeWords(words.join(" "))).filter((words) => words.length > 0),
    learnedThreshold: round6(learned.threshold),
    learnedNote: learned.note,
  };
}

/** The sanitizer as the bundle stores it: its phrases as a table (encode.ts phraseTableOf), their kinds beside. */
function sanitizerOf({ phrases, stopWords, nameless }: SanitizerLists): BundleSanitizer {
  const table = phraseTableOf(phrases);
  return { phrases: table.phrases, kinds: Uint8Array.from(table.values), slots: table.slots, stopWords, nameless };
}

/** The vocab as the bundle stores it: its phrases ([tag, words], by tag then text) as a table, their tags beside. */
function vocabOf({ tags, phrases }: VocabTable): BundleVocab {
  const table = phraseTableOf(phrases.map(([tag, words]) => [words, tag] as const));
  return { tags, phrases: table.phrases, phraseTags: Uint32Array.from(table.values), slots: table.slots };
}

export interface CompileOptions {
  /** Trusted teachings to fold in first (ndfc build --taught reads them from the store). */
  teachings?: Teachings;
  /** Related words of the dataset's words, read from the IR once teachings are folded (ndfc build --wordnet: wordnetExpansion), distilled into the lexical stage's concepts. */
  lexicalExpansion?: (ir: NpcIR) => LexicalExpansion;
}

/**
 * The transform, compute and emit stages (passes/index.ts) over a checked IR: the IR that
 * lintSources returned with no error (`compileNpc(lint.ir)`), or one built by hand.
 */
export function compileNpc(checked: NpcIR, options: CompileOptions = {}): CompileResult {
  const folded = options.teachings ? foldTeachings(checked, options.teachings) : null;
  const ir = folded?.ir ?? checked;
  const ordered = computeIntentOrder(ir.intents);
  const contribution = synonymContributionOf(ir.config);
  const datasetConcepts = computeConcepts(ir.synonyms, null, contribution);
  const expansion = options.lexicalExpansion?.(ir) ?? null;
  const concepts = expansion ? computeConcepts(ir.synonyms, expansion, contribution) : datasetConcepts;
  // The learned stage's concept features are the dataset's synonym sets only: with WordNet's
  // relatives too, cross-validation on the NPC's own phrasings answered fewer (TERMy's first fold
  // 55.5 → 51.1 % correct at 96 %), while the lexical stage answers more with them (TERMy 3-fold:
  // 1,013 → 1,104 of 1,793 correct, precision 86.4 → 86.1 %).
  // A worker thread may still be training the learned stage when startLearned returns
  // (compiler/learn/train.ts): the other passes run meanwhile, and finish waits for it after them.
  const learning = startLearned(ordered, ir.config, datasetConcepts);
  const intents = computeIntents(ordered);
  const { exact, contextExact } = computeExactTables(ordered);
  const vocab = computeVocab(ir.synonyms, ordered);
  const lexicon = computeLexicon(ordered, vocab);
  const types = computeTypePrograms(ir.types);
  const usableTypes = new Map<string, number>();
  types.forEach((t, id) => {
    if (t.unusable === null) usableTypes.set(t.name, id);
  });
  const lists = computeLists(ir.lists);
  const automaton = computeAutomaton(ordered, vocab, usableTypes, lists.ids);
  const sanitizer = computeSanitizer(ir.wordLists);
  const { matching, inputIntent } = computeMatching(ordered, lexicon, concepts, sanitizer.stopWords);
  const wordLists = computeWordLists(ir.wordLists);
  const hash = sourceHash(ir.sources);
  const fuzzy = computeFuzzyIndex(lexicon.words);
  const numberWords = computeNumberWords(automaton.ranges.length);
  const messageTables = computeMessageTables({ exact, contextExact, automaton: automaton.states, lexicon, vocab });
  const learned = learning.finish();
  const config = bundleConfig(ir.config, learned);

  const payload: BundlePayload = {
    name: ir.config.name,
    compilerVersion: COMPILER_VERSION,
    sourceHash: hash,
    sources: ir.sources.map((s) => s.path),
    counts: {
      intents: intents.length,
      inputs: matching.firstDescription,
      templatePaths: automaton.paths,
      automatonStates: automaton.states.length,
      vocabularyWords: lexicon.words.length,
      vocabTags: vocab.tags.length,
      types: types.length,
      wordLists: wordLists.length,
    },
    config,
    intents,
    exact,
    contextExact,
    lexicon: { words: stringTableOf(lexicon.words), tags: rowsOf(lexicon.tags) },
    inputs: { intent: Uint32Array.from(inputIntent) },
    matching,
    vocab: vocabOf(vocab),
    fuzzy,
    learned: learned.learned,
    types,
    automaton: automaton.states,
    lists: lists.lists,
    ranges: automaton.ranges,
    numberWords,
    sanitizer: sanitizerOf(sanitizer),
    messageTables,
    wordLists: wordListsOf(wordLists),
  };
  const bytes = encodeBundle(payload);
  return {
    bytes,
    payload,
    folded: folded && { synonyms: folded.synonyms, inputs: folded.inputs, skipped: folded.skipped },
    summary: {
      name: ir.config.name,
      intents: intents.length,
      inputs: matching.firstDescription,
      templatePaths: automaton.paths,
      vocabularyWords: lexicon.words.length,
      bytes: bytes.length,
      sourceHash: hash,
      unmatchablePaths: automaton.unmatchable,
      unusableTypes: types.filter((t) => t.unusable !== null).map((t) => ({ name: t.name, reason: t.unusable! })),
      implicitTags: vocab.implicit,
      learned: learned.calibration,
      learnedShipped: learned.learned !== null,
      learnedNote: learned.note,
    },
  };
}
