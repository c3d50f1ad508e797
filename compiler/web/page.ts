// The HTML of the chat page and of the server's index of chat pages. The page only describes
// itself (which NPC, where answers come from) in data attributes of <main>; web/chat.ts does the
// rest. Its Content-Security-Policy allows scripts, styles and requests from its own origin only.

export type AnswerSource =
  /** `ndfc serve`: the server's /api/chat/:npc. */
  | { kind: "server"; api: string }
  /** `ndfc web`: the bundle file beside the page and its payload's SHA-256 (hex, as its header states it). */
  | { kind: "bundle"; file: string; sha256: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

function document(title: string, assetBase: string, body: string, script: boolean, preloads = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetBase}chat.css">
${preloads}</head>
<body>
${body}
${script ? `<script type="module" src="${assetBase}chat.js"></script>\n` : ""}</body>
</html>
`;
}

/** The chat page of one NPC; `assetBase` is where chat.js and chat.css are ("./", "/chat/assets/"). */
export function chatPageHtml(npcName: string, source: AnswerSource, assetBase: string): string {
  const data =
    source.kind === "server"
      ? `data-api="${escapeHtml(source.api)}"`
      : `data-bundle="${escapeHtml(source.file)}" data-sha256="${escapeHtml(source.sha256)}"`;
  const name = escapeHtml(npcName);
  const body = `<main data-npc="${name}" ${data}>
<header><h1>${name}</h1><p id="mood" aria-live="off">🙂</p><p id="chat-state" role="status">Loading…</p></header>
<ol id="log" role="log" aria-live="polite" aria-label="Conversation with ${name}"></ol>
<form id="composer" autocomplete="off">
<label for="message">Message to ${name}</label>
<input id="message" name="message" type="text" enterkeyhint="send" disabled>
<button type="submit" disabled>Send</button>
</form>
<noscript><p>This chat needs JavaScript.</p></noscript>
</main>`;
  // An exported page fetches the runtime and the bundle while chat.js loads, not after it runs.
  const preloads =
    source.kind === "bundle"
      ? `<link rel="modulepreload" href="${assetBase}ndfc-runtime.js">\n<link rel="preload" href="${escapeHtml(source.file)}" as="fetch" crossorigin>\n`
      : "";
  return document(`${npcName} — chat`, assetBase, body, true, preloads);
}

/** The server's front page: a link to each NPC's chat page. */
export function chatIndexHtml(models: readonly { id: string; name: string }[]): string {
  const items = models.map((m) => `<li><a href="/chat/${encodeURIComponent(m.id)}">${escapeHtml(m.name)}</a> (model <code>${escapeHtml(m.id)}</code>)</li>`).join("\n");
  const body = `<main>
<header><h1>ndfc serve</h1></header>
<p>Chat with:</p>
<ul>
${items}
</ul>
<p>API: <code>/v1/chat/completions</code>, <code>/v1/models</code>, <code>/api/chat/&lt;model&gt;</code>, <code>/health</code>.</p>
</main>`;
  return document("ndfc serve", "/chat/assets/", body, false);
}
