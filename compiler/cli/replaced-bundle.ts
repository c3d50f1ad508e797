// `ndfc build` refuses to write over a bundle built from other sources unless told to (--force).
// Each bundle records the paths of its source files (payload `sources`, relative to the NPC, so
// reproducible); two builds share none of them only when they are different NPCs that happen to
// share an output name (`mybot.rules` built over the NDF `datasets/mybot`). Refusing, rather than
// warning, because a bundle is loaded by path (serve, an app): a warning scrolls by in CI while
// the wrong NPC ships. Rebuilding the same NPC, edited or with files added, shares files and
// never trips it; bundles from before `sources` was recorded are replaced as before.
import { existsSync, readFileSync } from "node:fs";
import { decodeBundle } from "../../runtime/bundle/format.js";
import { CliError, EXIT_USAGE } from "./errors.js";

/** Throws when `output` holds a bundle whose recorded sources share no file with `sources`. */
export async function refuseForeignReplacement(output: string, shown: string, sources: readonly string[]): Promise<void> {
  const previous = existsSync(output) ? await recordedSources(output) : undefined;
  if (previous === undefined || previous.length === 0 || previous.some((path) => sources.includes(path))) return;
  throw new CliError(
    `${shown} was built from other sources (${describe(previous)}), not from these (${describe(sources)}); ` +
      "nothing was written: give another --output, or --force to replace it",
    EXIT_USAGE,
  );
}

async function recordedSources(file: string): Promise<string[] | undefined> {
  try {
    const { sources } = (await decodeBundle(new Uint8Array(readFileSync(file)))) as { sources?: unknown };
    return Array.isArray(sources) && sources.every((s) => typeof s === "string") ? sources : undefined;
  } catch {
    return undefined; // not a bundle we can read: nothing to compare with
  }
}

function describe(paths: readonly string[]): string {
  return paths.length <= 3 ? paths.join(", ") : `${paths.slice(0, 3).join(", ")} and ${paths.length - 3} more`;
}
