// Rendering of pre-split texts: `<||tag||>` is resolved from, in order, the slots, the word lists
// (vocabulary lists and personality blocks such as completion/unknown/related), the system values
// (from session metadata and the config: username, computer_name, npc_name, creator), and the
// custom keys of the answering entry. Unknown tags render as "". Variants are picked with the
// turn's seeded generator. A tool's `arguments.command` (a ShellTemplate in the bundle) is
// rendered by shell-render.ts (in the shell stage's chunk: runtime/stages.ts), which quotes slot values for where they land, so no slot value can
// inject shell code. Every answer renders within RENDER_LIMITS, whatever its word lists hold.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

import type { BundleIntent, Segments, ToolTree } from "../bundle/bundle-types.js";
import type { NpcModel } from "../bundle/model.js";
import { pick } from "./rng.js";
import { renderShellTemplate } from "../stages.js";
import { UnsafeSlotValueError } from "./shell-escape.js";

/** Word-list items may themselves contain tags; this bounds the nesting. */
export const MAX_RENDER_DEPTH = 4;

/**
 * What one answer may render, all its texts together (response, thinking, description, tools):
 * pieces (literal texts and tags, each counted when reached) and characters. Depth alone does not
 * bound the work: a list whose one item holds its own tag 300 times takes 300³ steps in 4 levels.
 * Past either limit the rest renders empty; the cut depends only on the bundle and the seed, so
 * the same seed still gives the same text. `ndfc lint` reports the lists that reach it (RND001).
 */
export const RENDER_LIMITS = { pieces: 4096, chars: 65_536 } as const;

/** What is left of an answer's RENDER_LIMITS; shared by every text of the answer. */
export class RenderBudget {
  #pieces: number = RENDER_LIMITS.pieces;
  #chars: number = RENDER_LIMITS.chars;
  /** Whether something was dropped: the answer is not what the bundle says in full. */
  cut = false;

  /** All of RENDER_LIMITS again, for the next answer of a session (which keeps one budget). */
  reset(): void {
    this.#pieces = RENDER_LIMITS.pieces;
    this.#chars = RENDER_LIMITS.chars;
    this.cut = false;
  }

  /** Counts one more piece; false once none is left. */
  takePiece(): boolean {
    if (this.#pieces > 0 && this.#chars > 0) {
      this.#pieces--;
      return true;
    }
    this.cut = true;
    return false;
  }

  /** A leaf text (literal, slot or system value), cut to the characters left, which it uses up. */
  takeText(text: string): string {
    if (text.length <= this.#chars) {
      this.#chars -= text.length;
      return text;
    }
    this.cut = true;
    const kept = text.slice(0, this.#chars);
    this.#chars = 0;
    return kept;
  }
}

export interface RenderContext {
  model: NpcModel;
  intent: BundleIntent | null;
  slots: Readonly<Record<string, string>>;
  system: Record<string, string>;
  random: () => number;
  budget: RenderBudget;
}

export const renderSegments = (function renderSegments(segments: Segments, ctx: RenderContext, depth = 0): string {
  let out = "";
  for (let i = 0; i < segments.length && ctx.budget.takePiece(); i++) {
    out += i % 2 === 0 ? ctx.budget.takeText(segments[i]!) : resolveTag(segments[i]!, ctx, depth);
  }
  return out;
});

const resolveTag = (function resolveTag(tag: string, ctx: RenderContext, depth: number): string {
  if (Object.hasOwn(ctx.slots, tag)) return ctx.budget.takeText(ctx.slots[tag]!);
  if (depth >= MAX_RENDER_DEPTH) return "";
  const list = ctx.model.wordLists.get(tag);
  if (list) return renderVariant(list, ctx, depth);
  if (Object.hasOwn(ctx.system, tag)) return ctx.budget.takeText(ctx.system[tag]!);
  const extra = ctx.intent?.extra.find(([key]) => key === tag);
  if (extra) return renderVariant(extra[1], ctx, depth);
  return "";
});

/** A placeholder of a shell command: one piece, like a tag in a text, but never cut (a cut command would run something else). */
const resolveCommandTag = (function resolveCommandTag(tag: string, ctx: RenderContext): string {
  const value = ctx.budget.takePiece() ? resolveTag(tag, ctx, 0) : "";
  if (ctx.budget.cut) {
    throw new UnsafeSlotValueError(tag, `the answer went past the render limit (${RENDER_LIMITS.pieces} pieces, ${RENDER_LIMITS.chars} characters), so the value would be cut; lint the dataset (RND001)`);
  }
  return value;
});

/** Picks one variant (seeded) and renders it; "" when there is none. */
export const renderVariant = (function renderVariant(variants: readonly Segments[], ctx: RenderContext, depth = 0): string {
  const chosen = pick(variants, ctx.random);
  return chosen ? renderSegments(chosen, ctx, depth + 1) : "";
});

/** A tool object with every string rendered; only `arguments.command` (a shell template) escapes slot values. */
export const renderTool = (function renderTool(tree: ToolTree, ctx: RenderContext): unknown {
  if (Array.isArray(tree)) return tree.length === 1 ? tree[0] : renderSegments(tree, ctx);
  // The keys in the order the loader's check reads them (validate-payload toolTree): a value with
  // two kinds of key renders as the one that was checked, never by an unchecked key.
  if ("o" in tree) {
    const out: Record<string, unknown> = {};
    // Indexed, not `for (const [name, value] of …)`: under --jitless the iterators of that loop
    // and of each pair's destructuring were most of an exact answer's rendering.
    const { o } = tree;
    for (let i = 0; i < o.length; i++) {
      const name = o[i]![0];
      const rendered = renderTool(o[i]![1], ctx);
      // defineProperty keeps a "__proto__" key a plain property instead of changing the prototype.
      if (name === "__proto__") Object.defineProperty(out, name, { value: rendered, enumerable: true, writable: true, configurable: true });
      else out[name] = rendered;
    }
    return out;
  }
  if ("sh" in tree) return renderShellTemplate(tree.sh, (tag) => resolveCommandTag(tag, ctx));
  if ("v" in tree) return tree.v;
  if ("a" in tree) return tree.a.map((item) => renderTool(item, ctx));
  return JSON.stringify(renderTool(tree.j, ctx));
});

/** An intent's answer rendered: one output and thinking variant, its tools, its description. */
export const renderIntent = (function renderIntent(intent: BundleIntent, ctx: RenderContext) {
  return {
    response: renderVariant(intent.outputs, ctx),
    thinking: renderVariant(intent.thinking, ctx),
    tools: intent.tools.map((tool) => renderTool(tool, ctx) as Record<string, unknown>),
    description: intent.description ? renderSegments(intent.description, ctx) : null,
  };
});
