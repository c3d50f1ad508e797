// How the template chunk's checks (automaton-store.ts, automaton-frames.ts, template-store.ts) refuse
// a bundle: the stored value they were reading, and what is wrong with it.

import { InvalidBundleError } from "./invalid-bundle.js";

export function wrongShape(where: string, what: string): never {
  throw new InvalidBundleError(`payload has the wrong shape: ${where}: ${what}`);
}
