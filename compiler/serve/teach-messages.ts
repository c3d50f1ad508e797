// Messages the server handles itself before the NPC sees them: "teach: WORD means MEANING", and
// a yes/no reply to an answer that used a taught word. Read with a linear scan, never a regex
// that can backtrack on raw input ("teach:" + 2,000 spaces once blocked the server for seconds);
// the host also applies the bundle's message length limit before calling this.
import { normalizeKey } from "../../runtime/text/normalize.js";

const YES = new Set(["yes", "correct", "right", "yes correct", "that is right", "exactly", "yep", "yeah"]);
const NO = new Set(["no", "wrong", "incorrect", "that is wrong", "nope"]);

const SPACE = /\s/;
const isSpace = (text: string, at: number): boolean => at >= 0 && at < text.length && SPACE.test(text[at]!);
/** Lower-cases A–Z only, so every index stays where it was (a full toLowerCase can change the length). */
const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** Whether `text` holds `word` (ASCII, any case) at `at`. */
const wordAt = (text: string, at: number, word: string): boolean => asciiLower(text.slice(at, at + word.length)) === word;

/**
 * `teach: wipe means delete` → { word: "wipe", meaning: "delete" } (quotes around either side
 * allowed): "teach", optional spaces, ":", then WORD and MEANING split at the first " means "
 * (whitespace on both sides) that leaves both non-empty. O(length) time.
 */
export function parseTeachMessage(message: string): { word: string; meaning: string } | null {
  let at = 0;
  while (isSpace(message, at)) at++;
  if (!wordAt(message, at, "teach")) return null;
  at += "teach".length;
  while (isSpace(message, at)) at++;
  if (message[at] !== ":") return null;
  at++;
  while (isSpace(message, at)) at++;
  const rest = message.slice(at);
  let end = rest.length;
  while (isSpace(rest, end - 1)) end--;
  const lower = asciiLower(rest);
  for (let i = lower.indexOf("means", 1); i !== -1; i = lower.indexOf("means", i + 1)) {
    if (!isSpace(rest, i - 1) || !isSpace(rest, i + 5)) continue;
    // Both sides non-empty: the rest starts with a non-space, and the meaning ends past "means ".
    if (end <= i + 6) return null;
    return { word: unquote(rest.slice(0, i)), meaning: unquote(rest.slice(i + 5, end)) };
  }
  return null;
}

/** The text without surrounding spaces and one pair of matching quotes around it. */
function unquote(text: string): string {
  const trimmed = text.trim();
  const quote = trimmed[0];
  if (trimmed.length >= 2 && (quote === '"' || quote === "'") && trimmed[trimmed.length - 1] === quote) return trimmed.slice(1, -1).trim();
  return trimmed;
}

/** true for "yes"/"correct"/…, false for "no"/"wrong"/…, null for anything else. */
export function parseConfirmation(message: string): boolean | null {
  const key = normalizeKey(message);
  if (YES.has(key)) return true;
  if (NO.has(key)) return false;
  return null;
}
