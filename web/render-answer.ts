// One NPC answer as DOM: the text with the sentiment emoji, status / confidence / intent, any
// notice, the tools with their permission, the rejection's suggestions as buttons (clicking one
// sends its example), the thinking, and an "Explain" button that shows the trace on demand.
import type { NpcResponse, RenderedTool, TraceStep } from "../runtime/index.js";
import { h } from "./dom.js";
import { toolCallParts, toolCommand } from "../runtime/render/tool-call.js";

const PERMISSION_TEXT: Record<NpcResponse["permission"], string> = {
  ask: "asks before running",
  yolo: "runs without asking",
  auto: "runs automatically",
};

let answerCount = 0;

function toolItem(tool: RenderedTool, permission: NpcResponse["permission"]): HTMLLIElement {
  const { name: written, arguments: args } = toolCallParts(tool);
  const name = written ?? "tool";
  const command = toolCommand(tool);
  return h(
    "li",
    { class: "tool" },
    h("span", { class: "tool-name" }, name),
    " ",
    h("code", {}, command ?? JSON.stringify(args ?? {})),
    " ",
    h("span", { class: `permission permission-${permission}` }, `permission ${permission}: ${PERMISSION_TEXT[permission]}`),
  );
}

function suggestions(answer: NpcResponse, send: (message: string) => void): HTMLElement | null {
  const examples = answer.related.filter((r) => r.example !== null);
  if (examples.length === 0) return null;
  const id = `suggestions-${answerCount}`;
  return h(
    "div",
    { class: "suggestions" },
    h("p", { id }, "Close matches:"),
    h(
      "ul",
      { "aria-labelledby": id },
      ...examples.map((r) => {
        const button = h("button", { type: "button", class: "suggestion" }, r.example!);
        button.addEventListener("click", () => send(r.example!));
        return h("li", {}, button);
      }),
    ),
  );
}

function traceList(trace: readonly TraceStep[]): HTMLOListElement {
  return h(
    "ol",
    { class: "trace" },
    ...trace.map((step) =>
      h(
        "li",
        {},
        h("strong", {}, `${step.part > 0 ? `[part ${step.part + 1}] ` : ""}${step.stage}`),
        `: ${step.summary}`,
        step.lines.length > 0 ? h("pre", {}, step.lines.join("\n")) : null,
      ),
    ),
  );
}

function explainer(answer: NpcResponse): HTMLElement | null {
  if (!answer.trace) return null;
  const panelId = `explain-${answerCount}`;
  const button = h("button", { type: "button", class: "explain", "aria-expanded": "false", "aria-controls": panelId }, "Explain");
  const panel = h("section", { id: panelId, class: "explain-panel", "aria-label": "How this answer was reached", hidden: "" });
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    if (open && panel.childElementCount === 0) panel.append(traceList(answer.trace!));
    button.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
  });
  return h("div", { class: "explain-box" }, button, panel);
}

/** The list item of one answer; `send` is what a suggestion button does. */
export function renderAnswer(answer: NpcResponse, send: (message: string) => void): HTMLLIElement {
  answerCount += 1;
  const confidence = `${Math.round(answer.confidence * 100)}%`;
  return h(
    "li",
    { class: `turn npc status-${answer.status === "rejected" ? "rejected" : "answered"}`, "data-status": answer.status },
    h("p", { class: "response" }, h("span", { class: "emoji", role: "img", "aria-label": "mood" }, answer.emoji), " ", answer.response || "…"),
    h(
      "p",
      { class: "meta" },
      h("span", { class: "status" }, answer.status),
      " · ",
      h("span", { class: "confidence", title: "confidence" }, `confidence ${confidence}`),
      answer.intent !== null ? " · " : null,
      answer.intent !== null ? h("span", { class: "intent" }, answer.intent) : null,
    ),
    answer.notice !== undefined ? h("p", { class: "notice", role: "note" }, answer.notice) : null,
    answer.tools.length > 0 ? h("ul", { class: "tools", "aria-label": "Tools" }, ...answer.tools.map((tool) => toolItem(tool, answer.permission))) : null,
    suggestions(answer, send),
    answer.thinking !== "" ? h("details", { class: "thinking" }, h("summary", {}, "Thinking"), h("p", {}, answer.thinking)) : null,
    explainer(answer),
  );
}
