// The tables only the template stage reads (bundle/model.ts TemplateTables), built at load for
// every model once the template chunk has loaded (match-template.ts registers templateTables): the
// automaton's vocab edges by tag, the value lists' tries, the number words. In the chunk, not the
// core: a bundle without templates never needs them.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleList, BundlePayload } from "../bundle/bundle-types.js";
import type { ListTrie, RuntimeState, TemplateTables } from "../bundle/model.js";

/** The vocab edges of a state without any: shared by most states, never written. */
const NO_VOCAB = new Map<number, number[]>();

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

/** A state with its vocab edges by tag (an edge may carry several alternative tags). */
const runtimeState = (function runtimeState(s: BundlePayload["automaton"][number]): RuntimeState {
  const edges = s.vocab;
  const vocab = edges.length ? new Map<number, number[]>() : NO_VOCAB;
  // Indexed loops, no destructuring: a cold load runs them in the interpreter, where every `of`
  // step allocates (iterator results), and young collections during a load cost ms.
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

export function templateTables(payload: BundlePayload): TemplateTables {
  return { states: payload.automaton.map(runtimeState), lists: payload.lists.map(listTrie), numberWords: new Map(payload.numberWords) };
}
