// Vitest globalSetup: prints once per run what a missing corpus leaves untested. A note printed by
// each test file (as before) came out six times and read as if nothing else covered TERMy.
import { corpusSkipNote } from "./corpus.js";

export default function setup(): void {
  const note = corpusSkipNote();
  if (note !== null) console.warn(note);
}
