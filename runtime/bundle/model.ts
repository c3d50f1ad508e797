// A loaded bundle in the shape the matchers use, built once at load so answering a message
// allocates little; the sorted string tables (exact keys, words, stems, action words) are read
// by binary search (string-table.ts) rather than turned into Maps or Sets.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundlePayload } from "./bundle-types.js";
import { FuzzyIndex } from "../text/fuzzy.js";
import type { MatchIndex } from "../match/match-index.js";
import type { LearnedIndex } from "../match/match-learned.js";
import type { Token } from "../text/normalize.js";
import { SortedTable } from "../match/sorted.js";
import type { StringTable } from "./string-table.js";
import { InvalidBundleError } from "./invalid-bundle.js";
import { PhraseTable, type Phrase } from "./phrase-table.js";
import { WordLists } from "./word-lists.js";

/**
 * The automaton's vocab edges by state and tag, in three u32 arrays (no Map per state: off the
 * heap, nothing for a young collection to copy): state i's (tag, child) pairs are
 * [from[i], from[i + 1]), ascending by tag, a tag's children in the order of the state's edges.
 */
export interface VocabEdges {
  from: Uint32Array;
  tag: Uint32Array;
  child: Uint32Array;
}

/** A node of a value list's trie over words: the value index of the spoken form ending here, or -1. */
export interface ListTrie {
  value: number;
  next: Map<string, ListTrie>;
}

/** What only the template stage reads, built at load by its chunk (match/template-tables.ts). */
export interface TemplateTables {
  vocab: VocabEdges;
  /** Per value list: the trie of its spoken forms (a value indexes the list's values). */
  lists: ListTrie[];
  numberWords: Map<string, number>;
}

/** The template chunk's builder of a model's TemplateTables: set when that chunk loads. */
let templateTablesOf: ((payload: BundlePayload) => TemplateTables) | null = null;

/** Lets models built from now on have their template tables (match/match-template.ts, when it loads). */
export function useTemplateTables(of: (payload: BundlePayload) => TemplateTables): void {
  templateTablesOf = of;
}

/** Whether `phrase` is written at `at` in the tokens (words only: quoted text never takes part in a phrase). */
export const phraseAt = (function phraseAt(phrase: Phrase, tokens: readonly Token[], at: number): boolean {
  return phrase.words.every((word, k) => {
    const token = tokens[at + k];
    return token !== undefined && token.kind !== "quoted" && token.norm === word;
  });
});

/** Whether a payload has inputs (phrasings, entries' describing text): only then can the probabilistic stage find an intent. */
export const hasInputs = ({ inputs }: Pick<BundlePayload, "inputs">): boolean => inputs.intent.length > 0;

/** The probabilistic stage's index, a class of its chunk: set when stages.ts registers that chunk. */
let matchIndexClass: typeof MatchIndex | null = null;

/** Lets models built from now on index their inputs (stages.ts, on registering the probabilistic chunk). */
export function useMatchIndex(index: typeof MatchIndex): void {
  matchIndexClass = index;
}

export class NpcModel {
  readonly exact: SortedTable;
  readonly contextExact: Map<number, SortedTable>;
  /** Lexicon word → id. */
  readonly wordId: StringTable;
  readonly fuzzy: FuzzyIndex;
  /** Vocab phrases (synonyms of several words), by first word: the value of a phrase is its tag. */
  readonly vocabPhrases: PhraseTable;
  /** Noise and sentiment phrases (sanitize.ts), by first word. */
  readonly sanitizerPhrases: PhraseTable;
  readonly stopWords: Set<string>;
  /** Words that name nothing by themselves (guards.ts lacksReferent). */
  readonly nameless: Set<string>;
  readonly wordLists: WordLists;
  #templates: TemplateTables | null = null;
  /** Words of list values and number words: words the NPC knows, never typos of vocabulary words. */
  readonly valueWords: Set<string>;
  /** Words that may start a clause (runtime/conversation/clauses.ts; computed by the compiler). */
  readonly actionWords: StringTable;
  readonly #matching: MatchIndex | null;
  /** The learned stage's model (learnedIndexFor), or null: the bundle has none, or the caller gave none. */
  readonly learned: LearnedIndex | null;

  constructor(
    readonly payload: BundlePayload,
    learned: LearnedIndex | null = null,
  ) {
    this.exact = new SortedTable(payload.exact.keys, payload.exact.targets);
    this.contextExact = new Map(payload.contextExact.map((t) => [t.parent, new SortedTable(t.keys, t.targets)]));
    const { lexicon } = payload;
    this.wordId = lexicon.words;
    this.fuzzy = new FuzzyIndex(payload.fuzzy, lexicon.words);
    this.vocabPhrases = new PhraseTable(payload.vocab, payload.vocab.phraseTags);
    // Built now when the template chunk has loaded (it loads before a bundle with templates is
    // built): the load pays for them, not the first message.
    if (templateTablesOf) this.#templates = templateTablesOf(payload);
    this.sanitizerPhrases = new PhraseTable(payload.sanitizer, payload.sanitizer.kinds);
    this.stopWords = new Set(payload.sanitizer.stopWords);
    this.nameless = new Set(payload.sanitizer.nameless);
    this.wordLists = new WordLists(payload.wordLists);
    this.valueWords = new Set([...payload.numberWords.map((entry) => entry[0]), ...payload.lists.flatMap((list) => list.phrases.flatMap(([words]) => words))]);
    this.actionWords = payload.messageTables.actionWords;
    // None for a bundle without inputs, or before the stage is registered (a model built only to render, as the compiler's escalator does).
    this.#matching = matchIndexClass && hasInputs(payload) ? new matchIndexClass(payload.matching, payload.intents.length) : null;
    this.learned = learned;
  }

  /**
   * The template stage's tables, built by its chunk (match/template-tables.ts). Every model of a
   * process answers through the chunk once any bundle has loaded it, so a model built before then
   * has its tables built when they are first read.
   */
  get templates(): TemplateTables {
    // Only the template chunk reads them, and its loading set the builder.
    return (this.#templates ??= templateTablesOf!(this.payload));
  }

  /** The probabilistic stage's index, a chunk's (stages.ts): only a bundle with inputs has one, and only that stage reads it. */
  get matching(): MatchIndex {
    if (this.#matching === null) throw new Error("this model has no probabilistic index: its bundle has no inputs, or the stage was not loaded (loadStages)");
    return this.#matching;
  }
}

/**
 * The learned stage's index for a bundle that has one. Its code is a chunk of its own, imported
 * only then: a host answering with lexical bundles never loads it.
 */
export async function learnedIndexFor(payload: Pick<BundlePayload, "learned" | "config">): Promise<LearnedIndex | null> {
  if (!payload.learned) return null;
  const [{ LearnedIndex }, { learnedProblem }] = await Promise.all([import("../match/match-learned.js"), import("./validate-learned.js")]);
  const problem = learnedProblem(payload.learned);
  if (problem !== null) throw new InvalidBundleError(`payload has the wrong shape: learned.${problem}`);
  return new LearnedIndex(payload.learned, payload.config.learnedThreshold);
}
