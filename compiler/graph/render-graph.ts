// Writes an NpcGraph as Mermaid (flowchart) or Graphviz DOT. Every caption is user text (intent
// ids, categories, synonyms, inputs), so each is quoted and escaped for its language; ids are our
// own (n0, c0), never user text, and each statement is one line.
import type { EdgeKind, GraphNode, NpcGraph } from "./npc-graph.js";

export type GraphFormat = "mermaid" | "dot";

/** Characters Mermaid's quoted labels take as they are; anything else becomes an entity code (#35;). */
const MERMAID_PLAIN = /[A-Za-z0-9 _.,:/'+*=?!@$%^~\-|()[\]{}…“”]/u;

/** Text inside a Mermaid `"…"` label: quotes, #, <, >, &, backticks, newlines… as `#code;`. */
export function escapeMermaid(text: string): string {
  let out = "";
  for (const ch of text) out += MERMAID_PLAIN.test(ch) ? ch : `#${ch.codePointAt(0)};`;
  return out;
}

/** Text inside a DOT `"…"` string: backslash and quote escaped, line breaks as \n. */
export function escapeDot(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r\n|\r|\n/g, "\\n");
}

const MERMAID_ARROWS: Record<EdgeKind, string> = { "follow-up": "-->", shadows: "-.->", "same input": "-.-" };
const DOT_STYLES: Record<EdgeKind, string> = { "follow-up": "solid", shadows: "dashed", "same input": "dotted" };

export function renderGraph(graph: NpcGraph, format: GraphFormat): string {
  return format === "dot" ? renderDot(graph) : renderMermaid(graph);
}

function renderMermaid(graph: NpcGraph): string {
  const lines = ["flowchart LR", `  %% ${escapeMermaid(graph.name)}: boxes are entries, rounded boxes templates; --> follow-up, -.-> shadows, -.- same input`];
  const node = (n: GraphNode) => {
    const label = `"${n.caption.map(escapeMermaid).join("<br/>")}"`;
    return n.kind === "template" ? `${n.id}(${label})` : `${n.id}[${label}]`;
  };
  graph.groups.forEach((group, i) => {
    if (group.category === null) {
      for (const n of group.nodes) lines.push(`  ${node(n)}`);
      return;
    }
    lines.push(`  subgraph c${i} ["${escapeMermaid(group.category)}"]`);
    for (const n of group.nodes) lines.push(`    ${node(n)}`);
    lines.push("  end");
  });
  for (const e of graph.edges) lines.push(`  ${e.from} ${MERMAID_ARROWS[e.kind]}|"${e.kind}"| ${e.to}`);
  return lines.join("\n") + "\n";
}

function renderDot(graph: NpcGraph): string {
  const lines = [`digraph "${escapeDot(graph.name)}" {`, "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];'];
  const node = (n: GraphNode) => `${n.id} [label="${n.caption.map(escapeDot).join("\\n")}", shape=${n.kind === "template" ? "box, style=rounded" : "box"}];`;
  graph.groups.forEach((group, i) => {
    if (group.category === null) {
      for (const n of group.nodes) lines.push(`  ${node(n)}`);
      return;
    }
    lines.push(`  subgraph cluster_${i} {`, `    label="${escapeDot(group.category)}";`);
    for (const n of group.nodes) lines.push(`    ${node(n)}`);
    lines.push("  }");
  });
  for (const e of graph.edges) lines.push(`  ${e.from} -> ${e.to} [label="${e.kind}", style=${DOT_STYLES[e.kind]}${e.kind === "same input" ? ", dir=none" : ""}];`);
  lines.push("}");
  return lines.join("\n") + "\n";
}
