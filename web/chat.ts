// The chat page of one NPC (web-assets/chat.js), for `ndfc serve` (/chat/<model>) and for a site
// exported by `ndfc web`. The page's <main> says where answers come from: data-api (the server's
// /api/chat/:npc) or data-bundle and data-sha256 (the runtime in the page). Everything is keyboard
// reachable; the log is an ARIA live region so screen readers hear each answer. Performance marks
// (ndfc:imported and ndfc:fetched on an exported site, ndfc:ready, ndfc:send, ndfc:answer) let
// anyone measure load and answer times (the browser tests do).
import type { NpcResponse } from "../runtime/index.js";
import { h } from "./dom.js";
import { renderAnswer } from "./render-answer.js";
import { localTransport, serverTransport, TransportError, type Transport } from "./transport.js";

const main = document.querySelector<HTMLElement>("main[data-npc]")!;
const log = document.querySelector<HTMLOListElement>("#log")!;
const form = document.querySelector<HTMLFormElement>("#composer")!;
const input = document.querySelector<HTMLInputElement>("#message")!;
const state = document.querySelector<HTMLElement>("#chat-state")!;
const mood = document.querySelector<HTMLElement>("#mood")!;

function show(item: HTMLLIElement): void {
  log.append(item);
  item.scrollIntoView({ block: "end" });
}

function showError(message: string): void {
  show(h("li", { class: "turn error", role: "alert" }, message));
}

/** Shows a field for the API key once the server said it needs one (kept in memory only). */
function askForKey(transport: { setKey(key: string): void }): void {
  if (document.querySelector("#api-key")) return;
  const field = h("input", { id: "api-key", type: "password", autocomplete: "off" });
  const keyForm = h("form", { class: "key-form" }, h("label", { for: "api-key" }, "API key of this server"), field, h("button", { type: "submit" }, "Use key"));
  keyForm.addEventListener("submit", (event) => {
    event.preventDefault();
    transport.setKey(field.value.trim());
    keyForm.remove();
    input.focus();
  });
  form.before(keyForm);
  field.focus();
}

async function start(): Promise<void> {
  const api = main.dataset.api;
  let transport: Transport;
  let keyed: { setKey(key: string): void } | null = null;
  try {
    if (api !== undefined) {
      const server = serverTransport(api);
      keyed = server;
      transport = server;
    } else {
      transport = await localTransport(main.dataset.bundle!, main.dataset.sha256!);
    }
  } catch (error) {
    state.textContent = "Not available";
    showError(error instanceof Error ? error.message : String(error));
    return;
  }

  let busy = false;
  const send = async (message: string): Promise<void> => {
    const text = message.trim();
    if (text === "" || busy) return;
    busy = true;
    performance.mark("ndfc:send");
    show(h("li", { class: "turn user" }, h("p", {}, text)));
    input.value = "";
    try {
      const answer: NpcResponse = await transport.send(text);
      mood.textContent = answer.emoji;
      show(renderAnswer(answer, (example) => void send(example)));
      performance.mark("ndfc:answer");
    } catch (error) {
      showError(error instanceof Error ? error.message : String(error));
      if (error instanceof TransportError && error.needsKey && keyed) askForKey(keyed);
    } finally {
      busy = false;
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void send(input.value);
  });
  input.disabled = false;
  form.querySelector("button")!.disabled = false;
  state.textContent = "Ready";
  main.dataset.ready = "true";
  performance.mark("ndfc:ready");
  input.focus();
}

void start();
