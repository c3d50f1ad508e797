// The tables only the template stage reads (bundle/model.ts TemplateTables), built at load for
// every model once the template chunk has loaded (match-template.ts registers templateTables): the
// automaton's vocab edges by state and tag (typed arrays, not a Map per state), the value lists'
// tries, the number words. In the chunk, not the core: a bundle without templates never needs them.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleList, BundlePayload, BundleState } from "../bundle/bundle-types.js";
import type { ListTrie, TemplateTables, VocabEdges } from "../bundle/model.js";

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

/**
 * The states' vocab edges as (tag, child) pairs by state, ascending by tag within a state (an
 * insertion sort, stable: a tag's children stay in edge order); a pass to count them first.
 * Indexed loops, no destructuring: a cold load runs them in the interpreter, where every `of` step
 * allocates (iterator results).
 */
const vocabEdges = (function vocabEdges(states: readonly BundleState[]): VocabEdges {
  const from = new Uint32Array(states.length + 1);
  for (let i = 0; i < states.length; i++) {
    const edges = states[i]!.vocab;
    let pairs = 0;
    for (let e = 0; e < edges.length; e++) pairs += edges[e]![0].length;
    from[i + 1] = from[i]! + pairs;
  }
  const tag = new Uint32Array(from[states.length]!);
  const child = new Uint32Array(tag.length);
  for (let i = 0; i < states.length; i++) {
    const edges = states[i]!.vocab;
    const first = from[i]!;
    let end = first;
    for (let e = 0; e < edges.length; e++) {
      const tags = edges[e]![0];
      for (let t = 0; t < tags.length; t++) {
        let k = end++;
        for (; k > first && tag[k - 1]! > tags[t]!; k--) {
          tag[k] = tag[k - 1]!;
          child[k] = child[k - 1]!;
        }
        tag[k] = tags[t]!;
        child[k] = edges[e]![1];
      }
    }
  }
  return { from, tag, child };
});

export function templateTables(payload: BundlePayload): TemplateTables {
  return { vocab: vocabEdges(payload.automaton), lists: payload.lists.map(listTrie), numberWords: new Map(payload.numberWords) };
}
