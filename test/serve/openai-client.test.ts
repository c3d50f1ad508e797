// `ndfc serve` through the official `openai` client: models, completions with and without tool
// calls, streaming, tool results, sessions across requests (the id the server returns, sent back
// as X-Session-Id or `user`), and the client's view of errors.
import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetNpc } from "../support/datasets.js";
import { serveDatasets, type TestServer } from "./support.js";

let served: TestServer;
let client: OpenAI;

beforeAll(async () => {
  served = await serveDatasets();
  client = new OpenAI({ baseURL: `${served.server.url}/v1`, apiKey: "x", maxRetries: 0 });
});
afterAll(async () => served.close());

type NdfcMessage = ChatCompletion["choices"][number]["message"] & { reasoning_content?: string; ndfc: Record<string, unknown> };

/** One completion in a new session (none sent): the server picks it and says which. */
async function ask(content: string, model = "termy"): Promise<{ completion: ChatCompletion; message: NdfcMessage; session: string }> {
  const { data: completion, response } = await client.chat.completions.create({ model, messages: [{ role: "user", content }] }).withResponse();
  const message = completion.choices[0]!.message as NdfcMessage;
  expect(message.ndfc.session).toBe(response.headers.get("x-session-id"));
  return { completion, message, session: message.ndfc.session as string };
}

async function streamed(content: string): Promise<ChatCompletionChunk[]> {
  const stream = await client.chat.completions.create({ model: "termy", messages: [{ role: "user", content }], stream: true });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("GET /v1/models", () => {
  it("lists each served NPC as a model named by its slug", async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(["termy", "example"]);
  });

  it("retrieves one model, and 404s an unknown one", async () => {
    expect(await client.models.retrieve("example")).toMatchObject({ id: "example", object: "model", owned_by: "ndfc" });
    await expect(client.models.retrieve("nobody")).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("POST /v1/chat/completions", () => {
  it("answers a tool call as OpenAI tool_calls with JSON-string arguments", async () => {
    const npc = await datasetNpc("termy");
    const native = npc.session({ seed: 0 }).process("delete file notes.txt");
    const { completion, message } = await ask("delete file notes.txt");
    expect(completion.object).toBe("chat.completion");
    expect(completion.model).toBe("termy");
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(message.content).toBe(native.response);
    expect(message.reasoning_content).toBe(native.thinking);
    const call = message.tool_calls![0]!;
    expect(call.type).toBe("function");
    if (call.type !== "function") throw new Error("expected a function call");
    expect(call.id).toMatch(/^call_/);
    expect(call.function.name).toBe("run_in_terminal");
    expect(JSON.parse(call.function.arguments)).toEqual(native.tools[0]!.arguments);
    expect(JSON.parse(call.function.arguments).command).toBe("rm -- 'notes.txt'");
    expect(message.ndfc).toMatchObject({ status: "template match", intent: "files_delete", permission: "ask", slots: { file: "notes.txt" } });
    expect(message.ndfc.captures).toEqual({ file: { value: "notes.txt", text: "notes.txt", start: 12, end: 21 } });
    expect(completion.usage!.total_tokens).toBeGreaterThan(0);
  });

  it("answers without tools with finish_reason stop", async () => {
    const { completion, message } = await ask("hello");
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(message.tool_calls).toBeUndefined();
    expect(message.ndfc).toMatchObject({ status: "exact match", intent: "greet", confidence: 1 });
  });

  it("says when it did not understand (status rejected, confidence 0)", async () => {
    const { message } = await ask("blorptastic quux");
    expect(message.ndfc).toMatchObject({ status: "rejected", confidence: 0, intent: null });
    expect(message.content).not.toBe("");
  });

  it("reads the last user message, whatever came before", async () => {
    const completion = await client.chat.completions.create({
      model: "termy",
      user: "end-user-42", // an end-user label, not a session id: ignored
      messages: [
        { role: "system", content: "You are helpful." },
        { role: "user", content: "delete file a.txt" },
        { role: "assistant", content: "sure" },
        { role: "user", content: [{ type: "text", text: "list files" }] },
      ],
    });
    expect((completion.choices[0]!.message as NdfcMessage).ndfc.intent).toBe("files_list");
  });

  it("acknowledges a tool result (last message role tool) with the NPC's completion words", async () => {
    const first = await ask("list files");
    const call = first.message.tool_calls![0]!;
    const completion = await client.chat.completions.create(
      {
        model: "termy",
        messages: [
          { role: "user", content: "list files" },
          { role: "assistant", content: null, tool_calls: [call] },
          { role: "tool", tool_call_id: call.id, content: "a.txt b.txt" },
        ],
      },
      { headers: { "X-Session-Id": first.session } },
    );
    const message = completion.choices[0]!.message as NdfcMessage;
    expect(completion.choices[0]!.finish_reason).toBe("stop");
    expect(message.ndfc.status).toBe("tool result acknowledged");
    // TERMy's completion list holds plain phrases such as "Done.".
    expect(message.content).toMatch(/^[A-Z][^]*[.!]$/);
  });

  it("keeps context across requests of one session: its id sent back as X-Session-Id, or as `user`", async () => {
    const follow = async (session: { header?: string; user?: string }, content: string) => {
      const completion = await client.chat.completions.create(
        { model: "example", messages: [{ role: "user", content }], ...(session.user ? { user: session.user } : {}) },
        session.header ? { headers: { "X-Session-Id": session.header } } : {},
      );
      const message = completion.choices[0]!.message as NdfcMessage;
      return { status: message.ndfc.status, session: message.ndfc.session as string };
    };
    const a = await follow({}, "go");
    expect(a.status).toBe("rejected");
    expect(await follow({ header: a.session }, "are you ready")).toEqual({ status: "exact match", session: a.session });
    expect((await follow({ header: a.session }, "go")).status).toBe("context match");
    const b = await follow({}, "are you ready");
    expect(b.session).not.toBe(a.session);
    expect((await follow({}, "go")).status).toBe("rejected"); // no session named: a new one, no context
    expect(await follow({ user: b.session }, "go")).toEqual({ status: "context match", session: b.session });
  });

  it("a session id the server did not give is a 404 session_not_found", async () => {
    for (const options of [{ headers: { "X-Session-Id": "alice" } }, { headers: { "X-Session-Id": "sess_guessed" } }]) {
      const error = await client.chat.completions.create({ model: "termy", messages: [{ role: "user", content: "hi" }] }, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("session_not_found");
    }
  });

  it("streams role, thinking, content pieces, tool calls and a finish chunk that add up to the plain answer", async () => {
    const plain = await ask("delete file notes.txt");
    const chunks = await streamed("delete file notes.txt");
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0]!.id)).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    const content = chunks.map((c) => c.choices[0]!.delta.content ?? "").join("");
    expect(content).toBe(plain.message.content);
    expect(chunks.filter((c) => (c.choices[0]!.delta.content ?? "") !== "").length).toBeGreaterThan(1);
    const thinking = chunks.map((c) => (c.choices[0]!.delta as { reasoning_content?: string }).reasoning_content ?? "").join("");
    expect(thinking).toBe(plain.message.reasoning_content);
    const calls = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.function!.name).toBe("run_in_terminal");
    expect(JSON.parse(calls[0]!.function!.arguments!).command).toBe("rm -- 'notes.txt'");
    const last = chunks[chunks.length - 1]!.choices[0]!;
    expect(last.finish_reason).toBe("tool_calls");
    expect((last as { ndfc?: Record<string, unknown> }).ndfc).toMatchObject({ status: "template match", intent: "files_delete" });
  });

  it("streams an answer without tools ending with finish_reason stop", async () => {
    const chunks = await streamed("hello");
    expect(chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? [])).toEqual([]);
    expect(chunks[chunks.length - 1]!.choices[0]!.finish_reason).toBe("stop");
  });
});

describe("errors through the client", () => {
  it("an unknown model is a 404 NotFoundError naming the served models", async () => {
    const error = await client.chat.completions.create({ model: "nobody", messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).status).toBe(404);
    expect((error as Error).message).toContain("termy");
  });

  it("no user message is a 400 BadRequestError on messages", async () => {
    const error = await client.chat.completions.create({ model: "termy", messages: [{ role: "system", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages");
  });

  it("a stream request for an unknown model fails before any event", async () => {
    const error = await client.chat.completions
      .create({ model: "nobody", stream: true, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
