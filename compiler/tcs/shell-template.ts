// A tool's `arguments.command` as the bundle carries it: lexed here, at build time, so that the
// runtime knows where each placeholder sits (runtime/render/shell-render.ts) without a shell lexer.
// Only what the shell lexer takes for a placeholder is one: any other `<||…||>` text stays
// literal. A command that cannot be lexed refuses every value at run time.

import type { Segments, ShellTemplate } from "../../runtime/bundle/bundle-types.js";
import { joinSegments } from "../ir/walk.js";
import { firstPlaceholder, lexShell } from "./shell-lexer.js";

/** The template of a command pre-split as [literal, tag, literal, …] (tag names trimmed). */
export function shellTemplate(split: Segments): ShellTemplate {
  const command = joinSegments(split);
  const lexed = lexShell(command);
  const unsafeTag = lexed.error ? firstPlaceholder(command) : undefined;
  if (lexed.error && unsafeTag !== undefined) {
    const reason = `the command cannot be parsed (${lexed.error.message}), so no value can be placed in it safely`;
    return { segments: [command], places: [], unsafe: { tag: unsafeTag, reason } };
  }
  const template: ShellTemplate = { segments: [], places: [], unsafe: null };
  let at = 0;
  for (const site of lexed.placeholders) {
    template.segments.push(command.slice(at, site.start), site.tag);
    template.places.push({ context: site.context, inBackticks: site.inBackticks });
    at = site.end;
  }
  template.segments.push(command.slice(at));
  return template;
}
