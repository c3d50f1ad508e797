// Chevrotain, loaded from its single-file bundle. The package's main entry pulls in lodash-es as
// hundreds of small modules and takes ~240 ms to import, which every `ndfc` command would pay at
// start-up; the bundle that chevrotain publishes beside it (lib/chevrotain.min.mjs, same version)
// loads in ~15 ms. Falls back to the main entry if the bundle is ever missing.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

type Chevrotain = typeof import("chevrotain");

async function loadChevrotain(): Promise<Chevrotain> {
  try {
    const entry = createRequire(import.meta.url).resolve("chevrotain"); // …/chevrotain/lib/src/api.js
    return (await import(pathToFileURL(entry.replace(/src[\\/]api\.js$/, "chevrotain.min.mjs")).href)) as Chevrotain;
  } catch {
    return await import("chevrotain");
  }
}

const chevrotain = await loadChevrotain();

export const { createToken, Lexer, EmbeddedActionsParser, EMPTY_ALT, EOF } = chevrotain;
export type { CustomPatternMatcherReturn, IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
