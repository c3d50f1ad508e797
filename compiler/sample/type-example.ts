// An example value for a typed template slot: the first of a few readable tokens that the type's
// regex accepts, judged by the runtime's own VM (what matching will do), so `ndfc sample` shows
// "delete notes.txt" rather than a string only a regex generator would write.
import type { TypeDef } from "../ir/types.js";
import { compileTypeRegex } from "../passes/compute-type-programs.js";
import { TypeMatcher } from "../../runtime/text/regex-vm.js";

/** One token each (a typed slot captures one token), from the most to the least common shapes. */
const CANDIDATES = [
  "notes.txt",
  "42",
  "docs",
  "./notes.txt",
  "/tmp/notes.txt",
  "~/docs",
  "docs/",
  "notes.tar.gz",
  ".txt",
  "*.txt",
  "755",
  "localhost",
  "2024-01-31",
  "archive.zip",
  "7",
  "3.5",
  "8080",
  "10.0.0.1",
  "https://example.com",
  "me@example.com",
  "a",
  "-r",
  "\"hello\"",
  "hello",
];

/** A token the type accepts, or null when none of the candidates fits (or the VM cannot run it). */
export function exampleValue(type: TypeDef): string | null {
  const matcher = new TypeMatcher(compileTypeRegex(type.name, type.pattern, type.flags));
  if (!matcher.usable) return null;
  return CANDIDATES.find((candidate) => matcher.test(candidate)) ?? null;
}
