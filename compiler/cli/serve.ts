// `ndfc serve`: answer over HTTP with one or more bundles (OpenAI-compatible chat completions,
// the native /api/chat/:npc), keeping the audit log and the teach store in SQLite.
import { DuplicateModelError, startServer, DEFAULT_MAX_BODY, DEFAULT_MAX_SESSIONS } from "../serve/server.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import { loadBundleFile } from "./read-bundle.js";
import { countParser } from "./parse-options.js";
import type { RegisterCommand } from "./program.js";
import { noStoreOption, openOptionalStore, optionalStoreOption } from "./store-options.js";

interface ServeCliOptions {
  host: string;
  port: number;
  /** A path, or false for --no-store. */
  store?: string | false;
  maxBody: number;
  maxSessions: number;
}

function parseCount(what: string, min: number): (value: string) => number {
  return countParser(`${what} must be an integer ≥ ${min}`, min, 2 ** 31);
}

export const registerServe: RegisterCommand = (program, io) => {
  program
    .command("serve")
    .description("answer over HTTP: OpenAI-compatible /v1/chat/completions, /v1/models, and /api/chat/:npc")
    .argument("<bundle...>", ".npc files; each is a model named after its NPC (TERMy → termy)")
    .option("--host <address>", "address to listen on (loopback by default)", "127.0.0.1")
    .option("--port <n>", "port (0 picks a free one)", parseCount("the port", 0), 5000)
    .addOption(optionalStoreOption())
    .addOption(noStoreOption())
    .option("--max-body <bytes>", "largest request body accepted", parseCount("--max-body", 1), DEFAULT_MAX_BODY)
    .option("--max-sessions <n>", "sessions kept per NPC (least recently used dropped)", parseCount("--max-sessions", 1), DEFAULT_MAX_SESSIONS)
    .addHelpText(
      "after",
      `
Sessions: the X-Session-Id header, else the request's "user" field, else one shared session per model.
Stops cleanly on SIGINT or SIGTERM.

Examples:
  ndfc serve dist-npcs/termy.npc
  ndfc serve dist-npcs/*.npc --port 8080 --store ./ndfc.db`,
    )
    .action(async (files: string[], options: ServeCliOptions) => {
      const npcs = [];
      for (const file of files) npcs.push((await loadBundleFile(file, io.cwd)).npc);
      const store = openOptionalStore(options.store, io.cwd);
      let server;
      try {
        server = await startServer({ npcs, host: options.host, port: options.port, store, maxBodyBytes: options.maxBody, maxSessions: options.maxSessions });
      } catch (error) {
        store?.close();
        if (error instanceof DuplicateModelError) throw new CliError(error.message, EXIT_USAGE);
        throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`, EXIT_USAGE);
      }
      io.stdout(`ndfc serve: listening on ${server.url}/v1 (models: ${server.models.join(", ")}; store: ${store ? store.path : "none"})\n`);
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
