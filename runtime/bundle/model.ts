// A loaded bundle in the shape the matchers use, built once at load so answering a message
// allocates little; the sorted string tables (exact keys, words, stems, action words) are read
// by binary search (string-table.ts) rather than turned into Maps or Sets.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleList, BundlePayload, BundleState, BundleVocab, Segments } from "./bundle-types.js";
import { FuzzyIndex } from "../text/fuzzy.js";
import type { MatchIndex } from "../match/match-index.js";
import type { LearnedIndex } from "../match/match-learned.js";
import type { Token } from "../text/normalize.js";
import { SortedTable } from "../match/sorted.js";
import type { StringTable } from "./string-table.js";
import { InvalidBundleError } from "./invalid-bundle.js";
import { PhraseTable, type Phrase } from "./phrase-table.js";

export interface RuntimeState {
  /** Tag id → children (an edge may carry several alternative tags). */
  vocab: Map<number, number[]>;
  typed: BundleState["typed"];
  strings: BundleState["strings"];
  lists: BundleState["lists"];
  ranges: BundleState["ranges"];
  skip: number[];
  accept: BundleState["accept"];
}

const NO_VOCAB = new Map<number, number[]>();

/** A node of a value list's trie over words: the value index of the spoken form ending here, or -1. */
export interface ListTrie {
  value: number;
  next: Map<string, ListTrie>;
}

/** The trie of a list's spoken forms; a phrase whose value index is out of bounds (a corrupt bundle) is left out. */
function listTrie({ phrases, values }: BundleList): ListTrie {
  const root: ListTrie = { value: -1, next: new Map() };
  for (const [words, value] of phrases) {
    if (values[value] === undefined) continue;
    let node = root;
    for (const word of words) {
      let child = node.next.get(word);
      if (!child) node.next.set(word, (child = { value: -1, next: new Map() }));
      node = child;
    }
    if (node.value === -1) node.value = value;
  }
  return root;
}

/** Whether `phrase` is written at `at` in the tokens (words only: quoted text never takes part in a phrase). */
export const phraseAt = (function phraseAt(phrase: Phrase, tokens: readonly Token[], at: number): boolean {
  return phrase.words.every((word, k) => {
    const token = tokens[at + k];
    return token !== undefined && token.kind !== "quoted" && token.norm === word;
  });
});

/** Vocab phrases ([tag id, words]) by first word, longest first. */
function byFirstWord(entries: BundleVocab["phrases"]): Map<string, Phrase[]> {
  const map = new Map<string, Phrase[]>();
  for (let i = 0; i < entries.length; i++) {
    const words = entries[i]![1];
    if (words.length === 0) continue;
    const phrase = { words, value: entries[i]![0] };
    const list = map.get(words[0]!);
    if (list) list.push(phrase);
    else map.set(words[0]!, [phrase]);
  }
  // Longest phrase first: "thank you so much" wins over "thank you".
  map.forEach((list) => list.sort((a, b) => b.words.length - a.words.length));
  return map;
}

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
  readonly vocabPhrases: Map<string, Phrase[]>;
  readonly states: RuntimeState[];
  /** Noise and sentiment phrases (sanitize.ts), by first word. */
  readonly sanitizerPhrases: PhraseTable;
  readonly stopWords: Set<string>;
  /** Words that name nothing by themselves (guards.ts lacksReferent). */
  readonly nameless: Set<string>;
  readonly wordLists: Map<string, Segments[]>;
  /** Per value list: the trie of its spoken forms (a value indexes the list's values). */
  readonly lists: ListTrie[];
  readonly numberWords: Map<string, number>;
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
    this.fuzzy = new FuzzyIndex(payload.fuzzy.hashes, payload.fuzzy.words, lexicon.words);
    this.vocabPhrases = byFirstWord(payload.vocab.phrases);
    // Indexed loops over the long lists, no destructuring: a cold load runs them in the interpreter,
    // where every `of` step allocates (iterator results), and young collections during a load cost ms.
    this.states = payload.automaton.map((s) => {
      const edges = s.vocab;
      // Most states have no vocab edge: they share one empty map, never written.
      const vocab = edges.length ? new Map<number, number[]>() : NO_VOCAB;
      for (let e = 0; e < edges.length; e++) {
        const child = edges[e]![1];
        for (const tag of edges[e]![0]) {
          const children = vocab.get(tag);
          if (children) children.push(child);
          else vocab.set(tag, [child]);
        }
      }
      return { ...s, vocab };
    });
    this.sanitizerPhrases = new PhraseTable(payload.sanitizer);
    this.stopWords = new Set(payload.sanitizer.stopWords);
    this.nameless = new Set(payload.sanitizer.nameless);
    this.wordLists = new Map(payload.wordLists);
    this.lists = payload.lists.map(listTrie);
    this.numberWords = new Map(payload.numberWords);
    this.valueWords = new Set([...this.numberWords.keys(), ...payload.lists.flatMap((list) => list.phrases.flatMap(([words]) => words))]);
    this.actionWords = payload.messageTables.actionWords;
    // None for a bundle without inputs, or before the stage is registered (a model built only to render, as the compiler's escalator does).
    this.#matching = matchIndexClass && hasInputs(payload) ? new matchIndexClass(payload.matching, payload.intents.length) : null;
    this.learned = learned;
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
