// The repository's root directory, for tests that read datasets/, node_modules/ or the corpus beside it.
import { resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "../..");
