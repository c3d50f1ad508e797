// The sentences a template intent accepts (hassil's `sample`), enumerated in a fixed order: the
// paths in turn (one sentence from each before a second from any, so a long path cannot hide the
// others), each path odometer-style with its last node varying fastest. Vocab nodes give their
// synonyms, lists their spoken forms, ranges their bounds, typed slots one example token.
import type { Intent, NpcIR, TemplateNode, TemplatePath } from "../ir/types.js";
import { impliedWords } from "../passes/compute-vocab.js";
import { FREE_STRING_TYPE } from "../passes/compute-automaton.js";
import { exampleValue } from "./type-example.js";
import { eachTemplateSequence } from "../ir/template-parts.js";

export interface SampledSentence {
  text: string;
  /** Slots written as `<name>` because their type offers no value, and why. */
  placeholders: Placeholder[];
}

export interface Placeholder {
  slot: string;
  reason: string;
}

/** What one node may contribute: a list of words (or null for a skipped optional node). */
type Choice = { words: string; placeholder?: Placeholder } | null;

export class Sampler {
  private readonly synonyms = new Map<string, string[]>();
  private readonly examples = new Map<string, { value: string } | { reason: string }>();

  constructor(private readonly ir: NpcIR) {
    for (const set of ir.synonyms) {
      const words = this.synonyms.get(set.tag) ?? [];
      for (const word of set.words) if (!words.includes(word)) words.push(word);
      this.synonyms.set(set.tag, words);
    }
  }

  /** Up to `limit` distinct sentences of `intent`'s template paths, in the documented order. */
  sample(intent: Intent, limit: number): SampledSentence[] {
    const walkers = intent.paths.map((path) => this.sentencesOf(path));
    const seen = new Set<string>();
    const out: SampledSentence[] = [];
    while (out.length < limit && walkers.length > 0) {
      for (let i = 0; i < walkers.length && out.length < limit; ) {
        const next = walkers[i]!.next();
        if (next.done) {
          walkers.splice(i, 1);
          continue;
        }
        if (!seen.has(next.value.text)) {
          seen.add(next.value.text);
          out.push(next.value);
        }
        i++;
      }
    }
    return out;
  }

  private *sentencesOf(path: TemplatePath): Generator<SampledSentence> {
    for (const nodes of eachTemplateSequence(path.nodes)) yield* this.sentencesOfSequence(nodes);
  }

  private *sentencesOfSequence(nodes: readonly TemplateNode[]): Generator<SampledSentence> {
    const choices = nodes.map((node) => this.choicesOf(node));
    if (choices.some((c) => c.length === 0)) return;
    const digits = choices.map(() => 0);
    for (;;) {
      const picked = digits.map((d, i) => choices[i]![d]!).filter((c): c is NonNullable<Choice> => c !== null);
      const text = picked.map((c) => c.words).join(" ");
      if (text !== "") yield { text, placeholders: picked.flatMap((c) => (c.placeholder === undefined ? [] : [c.placeholder])) };
      let i = digits.length - 1;
      while (i >= 0 && digits[i] === choices[i]!.length - 1) digits[i--] = 0;
      if (i < 0) return;
      digits[i]!++;
    }
  }

  /** A required node's choices come first; an optional node is first written, then skipped. */
  private choicesOf(node: TemplateNode): Choice[] {
    const values = this.valuesOf(node);
    return node.required ? values : [...values, null];
  }

  private valuesOf(node: TemplateNode): Choice[] {
    if (node.type === "vocab") return node.tags.flatMap((tag) => this.synonyms.get(tag) ?? [impliedWords(tag)]).map((words) => ({ words }));
    if (node.type === "list") return (this.ir.lists.find((l) => l.name === node.list)?.values ?? []).map((v) => ({ words: v.spoken }));
    if (node.type === "range" && node.range) {
      const { min, max, unit } = node.range;
      return [...new Set([min, max])].map((n) => ({ words: `${n}${unit}` }));
    }
    const example = this.exampleOf(node.type);
    if ("value" in example) return [{ words: example.value }];
    const slot = node.tags[0] ?? node.type;
    return [{ words: `<${slot}>`, placeholder: { slot, reason: example.reason } }];
  }

  private exampleOf(typeName: string): { value: string } | { reason: string } {
    let example = this.examples.get(typeName);
    if (example === undefined) {
      const type = this.ir.types.find((t) => t.name === typeName);
      const value = type ? exampleValue(type) : typeName === FREE_STRING_TYPE ? "something" : null;
      example = value !== null ? { value } : { reason: type ? `no example token fits type "${typeName}"` : `type "${typeName}" is not defined` };
      this.examples.set(typeName, example);
    }
    return example;
  }
}
