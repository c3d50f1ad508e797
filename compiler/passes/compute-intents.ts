// Compute pass: each intent as the runtime renders it (pre-split texts, tool trees, context links).

import type { BundleIntent } from "../../runtime/bundle/bundle-types.js";
import { contextChildren, type OrderedIntent } from "./compute-intent-order.js";
import { hasDestructiveTool } from "../tcs/destructive.js";
import { splitSegments, toolTree, variantsOf } from "../segments.js";
import { compareStrings } from "../order.js";

export function computeIntents(ordered: readonly OrderedIntent[]): BundleIntent[] {
  const children = contextChildren(ordered);
  return ordered.map(({ intent, index, parent }) => {
    const extra: [string, string[][]][] = [];
    for (const key of Object.keys(intent.extra).sort()) {
      const variants = variantsOf(intent.extra[key]);
      if (variants) extra.push([key, variants]);
    }
    return {
      id: intent.id,
      category: intent.category ?? null,
      outputs: intent.outputs.map((o) => splitSegments(o.value)),
      thinking: intent.thinking.map((t) => splitSegments(t.value)),
      description: intent.description ? splitSegments(intent.description.value) : null,
      tools: intent.tools.map(toolTree),
      permission: intent.permission,
      destructive: hasDestructiveTool(intent.tools),
      parent,
      context: children[index]!,
      extra,
      example: intent.inputs[0]?.value ?? null,
      slots: Object.entries(intent.fixedSlots ?? {}).sort((a, b) => compareStrings(a[0], b[0])),
    };
  });
}
