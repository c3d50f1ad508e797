#!/usr/bin/env node
// Entry point of the `ndfc` binary.
import { processIO } from "./io.js";
import { runCli } from "./program.js";

// A reader that stops early (`ndfc sample … | head`) closes the pipe: stop quietly, as other
// command-line tools do, instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIO());
