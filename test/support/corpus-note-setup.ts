// Vitest globalSetup: says once per run whether the shared corpus was found and where, or what its
// absence leaves untested. A note printed by each test file (as before) came out six times and
// read as if nothing else covered TERMy. With NDFC_REQUIRE_CORPUS=1 a missing corpus fails the
// run before any test starts, for a CI that has it and must not skip its tests silently.
import { corpusNote, REQUIRE_CORPUS_ENV } from "./corpus.js";

export default function setup(): void {
  const note = corpusNote();
  if (note.missing && process.env[REQUIRE_CORPUS_ENV] === "1") throw new Error(`${REQUIRE_CORPUS_ENV}=1 and the shared corpus is missing:\n${note.text}`);
  console.warn(note.text);
}
