// `ndfc web BUNDLE -o DIR`: export a static chat site for one NPC (compiler/web/export-site.ts).
import { resolve } from "node:path";
import { readWebAssets, WebAssetsMissingError } from "../web/assets.js";
import { exportSite } from "../web/export-site.js";
import { CliError, EXIT_USAGE } from "./errors.js";
import type { RegisterCommand } from "./io.js";
import { loadBundleFile } from "./read-bundle.js";

export const registerWeb: RegisterCommand = (program, io) => {
  program
    .command("web")
    .description("export a static chat site that answers in the browser with the bundle (no server, no CDN)")
    .argument("<bundle>", "the .npc file to publish")
    .requiredOption("-o, --out <dir>", "directory to write the site into (created when missing; its other files are left alone)")
    .option("--json", "print the written files and their sizes as JSON")
    .addHelpText(
      "after",
      `
The site is index.html (the chat page), chat.js, chat.css, ndfc-runtime.js (the whole runtime as
one browser module), the chunks it loads only on demand (sha256.js without Web Crypto,
match-learned.js and validate-learned.js for a bundle with a learned stage), and the bundle. The
page fetches the bundle from beside itself (preloaded while the page loads), checks that its
payload's SHA-256 is the one written into index.html, and answers every message in the page,
as \`ndfc serve\` would (same runtime, session seed 0). Browsers do not fetch files from file://
pages: publish the directory on any static host, or try it with e.g. \`python3 -m http.server -d DIR\`.

Examples:
  ndfc web dist-npcs/termy.npc -o site
  ndfc web dist-npcs/termy.npc -o site --json`,
    )
    .action(async (file: string, options: { out: string; json?: boolean }) => {
      const { npc, bytes } = await loadBundleFile(file, io.cwd, { verify: "full" });
      let assets;
      try {
        assets = readWebAssets();
      } catch (error) {
        if (error instanceof WebAssetsMissingError) throw new CliError(error.message, EXIT_USAGE);
        throw error;
      }
      const outDir = resolve(io.cwd, options.out);
      let files;
      try {
        files = exportSite(npc.name, bytes, assets, outDir);
      } catch (error) {
        throw new CliError(`cannot write the site into ${options.out}: ${error instanceof Error ? error.message : String(error)}`, EXIT_USAGE);
      }
      const total = files.reduce((sum, f) => sum + f.bytes, 0);
      if (options.json) {
        io.stdout(`${JSON.stringify({ dir: outDir, files, totalBytes: total }, null, 2)}\n`);
        return;
      }
      const width = Math.max(...files.map((f) => f.file.length));
      for (const f of files) io.stdout(`  ${f.file.padEnd(width)}  ${String(f.bytes).padStart(8)} bytes\n`);
      io.stdout(`ndfc web: wrote ${files.length} files (${total} bytes) to ${options.out}; open index.html from a static host\n`);
    });
};
