// `ndfc serve`: answer over HTTP with one or more bundles (OpenAI-compatible chat completions,
// the native /api/chat/:npc, a chat page per bundle, /health), keeping the audit log and the teach
// store in SQLite, one log line per request on stdout.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ServeSetupError, startServer, DEFAULT_MAX_BODY, DEFAULT_MAX_SESSIONS } from "../serve/server.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { loadBundleFile } from "./read-bundle.js";
import { isDirectory, loadBundleDir } from "./bundle-dir.js";
import type { CliIO } from "./io.js";
import type { Npc } from "../../runtime/index.js";
import { countParser } from "./parse-options.js";
import { addEscalationOptions, ESCALATION_HELP, loadEscalation, type EscalationCliOptions } from "./escalate-options.js";
import type { RegisterCommand } from "./io.js";
import { noStoreOption, openOptionalStore, optionalStoreOption } from "./store-options.js";

interface ServeCliOptions extends EscalationCliOptions {
  host: string;
  port: number;
  /** A path, or false for --no-store. */
  store?: string | false;
  maxBody: number;
  maxSessions: number;
  apiKey: string[];
  apiKeyFile: string[];
  cors: string[];
  allowOrigin: string[];
  allowHost: string[];
  logMessages?: boolean;
}

function parseCount(what: string, min: number): (value: string) => number {
  return countParser(`${what} must be an integer ≥ ${min}`, min, 2 ** 31);
}

/** Collects a repeatable option's values. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The keys of --api-key-file files: one per line; blank lines and lines starting with # skipped. */
function readKeyFiles(files: readonly string[], cwd: string): string[] {
  return files.flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, file), "utf8");
    } catch (error) {
      throw new CliError(`cannot read --api-key-file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, EXIT_USAGE);
    }
    const keys = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
    if (keys.length === 0) throw new CliError(`--api-key-file ${file} holds no key (one key per line)`, EXIT_USAGE);
    return keys;
  });
}

/**
 * The bundles to serve: a file must load; a directory stands for its *.npc files, where a bad one
 * is reported by name and skipped, and a directory without any loadable bundle is refused.
 */
async function loadServedBundles(args: readonly string[], io: CliIO): Promise<Npc[]> {
  const npcs: Npc[] = [];
  for (const arg of args) {
    if (!isDirectory(arg, io.cwd)) {
      npcs.push((await loadBundleFile(arg, io.cwd, { verify: "full" })).npc);
      continue;
    }
    const { loaded, failed } = await loadBundleDir(arg, io.cwd);
    for (const { file, reason } of failed) io.stderr(`ndfc serve: skipping ${file}: ${reason}\n`);
    if (loaded.length === 0) throw new CliError(`no loadable .npc bundle in ${arg} (ndfc build DATASET -o ${arg}/NAME.npc writes one)`, EXIT_USAGE);
    npcs.push(...loaded.map((bundle) => bundle.npc));
  }
  return npcs;
}

export const registerServe: RegisterCommand = (program, io) => {
  const command = program
    .command("serve")
    .description("answer over HTTP: OpenAI-compatible /v1/chat/completions, /v1/models, /api/chat/:npc, and a chat page per bundle at /chat/:npc")
    .argument("<bundle...>", ".npc files or directories of them; each bundle is a model named after its NPC (TERMy → termy)")
    .option("--host <address>", "address to listen on (loopback by default; any other needs an API key)", "127.0.0.1")
    .option("--port <n>", "port (0 picks a free one)", parseCount("the port", 0), 5000)
    .option("--api-key <key>", "accept requests with Authorization: Bearer KEY only (repeatable: one key per client)", collect, [])
    .option("--api-key-file <path>", "read API keys from a file, one per line (keeps them out of the process list; repeatable)", collect, [])
    .option("--cors <origin>", "let browser pages of this other origin call the server (CORS), e.g. https://app.example.com (repeatable; none by default)", collect, [])
    .option("--allow-origin <origin>", "the older name of --cors", collect, [])
    .option("--allow-host <name>", "accept requests addressed to this host name, e.g. npc.example.lan (repeatable)", collect, [])
    .addOption(optionalStoreOption())
    .addOption(noStoreOption())
    .option("--max-body <bytes>", "largest request body accepted", parseCount("--max-body", 1), DEFAULT_MAX_BODY)
    .option("--log-messages", "add the user's message to each request's log line (off by default: messages are personal)")
    .option("--max-sessions <n>", "sessions kept per NPC and client (its least recently used dropped)", parseCount("--max-sessions", 1), DEFAULT_MAX_SESSIONS);
  addEscalationOptions(command)
    .addHelpText(
      "after",
      `
Security model:
  Keys      With --api-key/--api-key-file every request needs Authorization: Bearer KEY (else 401).
            Listening beyond loopback (--host 0.0.0.0, a LAN address) is refused without a key.
            Each key is one client: the store logs a hash of it (never the key) with what it taught
            and confirmed.
  Origins   A browser page may call the server only from a loopback origin, the server's own
            pages, or a --cors origin (the only ones that get CORS headers); any other Origin, or
            a Host other than loopback names, --host and --allow-host, is a 403. A POST must be
            Content-Type: application/json (else 415), so a page cannot send a "simple"
            cross-origin request.
  Pages     GET / links to each NPC's chat page, GET /chat/NPC (status, confidence, tools and
            their permission, suggestions, the explain trace); GET /health answers
            {"status":"ok",...}. These need no key; the chat page asks for one on a 401.
  Logs      One line per request on stdout: time, method, path, status, milliseconds. The
            message text only with --log-messages.
  Sessions  The server creates them: a request naming none starts a new one and gets its id in
            the X-Session-Id header and the answer ("session", or "ndfc.session" for OpenAI
            clients). Send it back to continue: the X-Session-Id header, the native "session"
            field, or OpenAI's "user" field. A session id this client was not given (another
            key's, a dropped one, a guess) is a 404 session_not_found. Each client keeps at most
            --max-sessions sessions per NPC, so one client's sessions never evict another's.
  Teaching  "teach: WORD means MEANING" applies only in the sessions that taught it until it is
            trusted: 3 distinct confirmers (keys when keys are on, sessions without), the teacher
            first, then 2 others that teach the same or say "yes" to an answer that used it; each
            counts once, so the teacher's own "yes" adds nothing. Negated
            phrases and typos of known words are refused, and a taught word never makes a
            destructive command run without asking.
${ESCALATION_HELP}

Stops cleanly on SIGINT or SIGTERM.

Examples:
  ndfc serve dist-npcs/termy.npc
  ndfc serve dist-npcs                  every bundle of the directory, listed at http://127.0.0.1:5000/
  ndfc serve dist-npcs/*.npc --port 8080 --store ./ndfc.db
  ndfc serve dist-npcs/termy.npc --host 0.0.0.0 --api-key-file ~/.config/ndfc/keys --allow-host npc.lan
  ndfc serve dist-npcs/termy.npc --cors https://app.example.com --api-key "$NDFC_KEY"
  ndfc serve dist-npcs/termy.npc --escalate http://127.0.0.1:11434 --escalate-api ollama --escalate-model llama3.2
  curl -H 'Authorization: Bearer KEY' -H 'Content-Type: application/json' \\
       -d '{"message":"list files"}' http://127.0.0.1:5000/api/chat/termy`,
    )
    .action(async (files: string[], options: ServeCliOptions) => {
      const apiKeys = [...options.apiKey, ...readKeyFiles(options.apiKeyFile, io.cwd)];
      const escalation = await loadEscalation(options);
      const npcs = await loadServedBundles(files, io);
      const store = openOptionalStore(options.store, io.cwd);
      let server;
      try {
        server = await startServer({
          npcs,
          host: options.host,
          port: options.port,
          store,
          maxBodyBytes: options.maxBody,
          maxSessions: options.maxSessions,
          apiKeys,
          allowOrigins: [...options.cors, ...options.allowOrigin],
          allowHosts: options.allowHost,
          logRequest: (line) => io.stdout(`${line}\n`),
          logMessages: options.logMessages === true,
          escalation,
        });
      } catch (error) {
        store?.close();
        if (error instanceof ServeSetupError) throw new CliError(error.message, EXIT_USAGE);
        throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`, EXIT_USAGE);
      }
      const keys = apiKeys.length === 0 ? "no API key (loopback only)" : `${apiKeys.length} API key(s)`;
      const escalating = options.escalate === undefined ? "" : `; escalating to ${options.escalateModel} at ${options.escalate}`;
      io.stdout(`ndfc serve: listening on ${server.url}/v1 (models: ${server.models.join(", ")}; store: ${store ? store.path : "none"}; ${keys}${escalating}); chat pages at ${server.url}/\n`);
      const signal = await new Promise<NodeJS.Signals>((done) => {
        const stop = (received: NodeJS.Signals) => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          done(received);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await server.close();
      store?.close();
      io.stdout(`ndfc serve: stopped (${signal})\n`);
    });
};
