// Rendering of pre-split texts: `<||tag||>` is resolved from, in order, the slots, the word lists
// (vocabulary lists and personality blocks such as completion/unknown/related), the system values
// (from session metadata and the config: username, computer_name, npc_name, creator), and the
// custom keys of the answering entry. Unknown tags render as "". Variants are picked with the
// turn's seeded generator. A tool's `arguments.command` (a ShellTemplate in the bundle) is
// rendered by shell-render.ts, which quotes slot values for where they land, so no slot value can
// inject shell code.

import type { BundleIntent, Segments, ToolTree } from "./bundle-types.js";
import type { NpcModel } from "./model.js";
import { pick } from "./rng.js";
import { renderShellTemplate } from "./shell-render.js";

/** Word-list items may themselves contain tags; this bounds the nesting. */
const MAX_DEPTH = 4;

export interface RenderContext {
  model: NpcModel;
  intent: BundleIntent | null;
  slots: Record<string, string>;
  system: Record<string, string>;
  random: () => number;
}

export function renderSegments(segments: Segments, ctx: RenderContext, depth = 0): string {
  let out = "";
  for (let i = 0; i < segments.length; i++) {
    out += i % 2 === 0 ? segments[i]! : resolveTag(segments[i]!, ctx, depth);
  }
  return out;
}

function resolveTag(tag: string, ctx: RenderContext, depth: number): string {
  if (Object.hasOwn(ctx.slots, tag)) return ctx.slots[tag]!;
  if (depth >= MAX_DEPTH) return "";
  const list = ctx.model.wordLists.get(tag);
  if (list) return renderVariant(list, ctx, depth);
  if (Object.hasOwn(ctx.system, tag)) return ctx.system[tag]!;
  const extra = ctx.intent?.extra.find(([key]) => key === tag);
  if (extra) return renderVariant(extra[1], ctx, depth);
  return "";
}

/** Picks one variant (seeded) and renders it; "" when there is none. */
export function renderVariant(variants: readonly Segments[], ctx: RenderContext, depth = 0): string {
  const chosen = pick(variants, ctx.random);
  return chosen ? renderSegments(chosen, ctx, depth + 1) : "";
}

/** A tool object with every string rendered; only `arguments.command` (a shell template) escapes slot values. */
export function renderTool(tree: ToolTree, ctx: RenderContext): unknown {
  if (Array.isArray(tree)) return tree.length === 1 ? tree[0] : renderSegments(tree, ctx);
  if ("sh" in tree) return renderShellTemplate(tree.sh, (tag) => resolveTag(tag, ctx, 0));
  if ("a" in tree) return tree.a.map((item) => renderTool(item, ctx));
  if ("o" in tree) {
    const out: Record<string, unknown> = {};
    for (const [name, value] of tree.o) {
      const rendered = renderTool(value, ctx);
      // defineProperty keeps a "__proto__" key a plain property instead of changing the prototype.
      if (name === "__proto__") Object.defineProperty(out, name, { value: rendered, enumerable: true, writable: true, configurable: true });
      else out[name] = rendered;
    }
    return out;
  }
  return tree.v;
}
