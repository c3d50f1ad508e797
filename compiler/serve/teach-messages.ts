// Messages the server handles itself before the NPC sees them: "teach: WORD means MEANING", and
// a yes/no reply to an answer that used a taught word.
import { normalizeKey } from "../../runtime/normalize.js";

const TEACH = /^\s*teach\s*:\s*(.+?)\s+means\s+(.+?)\s*$/is;
const YES = new Set(["yes", "correct", "right", "yes correct", "that is right", "exactly", "yep", "yeah"]);
const NO = new Set(["no", "wrong", "incorrect", "that is wrong", "nope"]);

/** `teach: wipe means delete` → { word: "wipe", meaning: "delete" } (quotes around either side allowed). */
export function parseTeachMessage(message: string): { word: string; meaning: string } | null {
  const match = TEACH.exec(message);
  if (!match) return null;
  const unquote = (text: string) => text.replace(/^(["'])(.*)\1$/s, "$2").trim();
  return { word: unquote(match[1]!), meaning: unquote(match[2]!) };
}

/** true for "yes"/"correct"/…, false for "no"/"wrong"/…, null for anything else. */
export function parseConfirmation(message: string): boolean | null {
  const key = normalizeKey(message);
  if (YES.has(key)) return true;
  if (NO.has(key)) return false;
  return null;
}
