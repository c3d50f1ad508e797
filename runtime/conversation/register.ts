// The context register (docs/architecture.md): what the last turns did, so the next message can say "it",
// "and b.log too", "no, I meant c.log", "no, the other one", or answer a question the NPC asked ("delete" → "delete
// what?" → "old.log"). One buffer behind pronouns, ellipsis, corrections and slot elicitation.
// It is plain data (strings and records only) so session.snapshot() carries it as it is; it
// reads empty once `expiry` turns have passed without an answer writing it.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

/** A question the NPC asked for a required slot, and how to read the answer. */
export interface PendingSlot {
  /** The template's intent id. */
  intent: string;
  slot: string;
  /** The request so far, with any words the template needs before the slot ("copy a.txt to"): the answer is appended to it. */
  text: string;
}

export interface ContextRegister {
  /** Intent id of the last answer that matched. */
  last_action: string | null;
  /** Its slot values. */
  last_args: Record<string, string>;
  /** What the last command produced, when the host says (a tool result). */
  last_result: string | null;
  /** The last slot value captured: what "it" stands for. */
  last_path: string | null;
  pending_slot: PendingSlot | null;
  /** The last matched request as read, and the slot whose span a correction or ellipsis replaces. */
  last_text: string | null;
  last_slot: { name: string; start: number; end: number } | null;
  /** The last answer's runner-up when it was a guess (intent id): what "no, the other one" answers. */
  runner_up: string | null;
  /** The last answer's suggestions when it was a rejection (intent ids): "the other one" then asks which of them. */
  suggestions: string[];
  /** Turns since an answer last wrote the register. */
  age: number;
}

/** Turns the register is kept without being written (issue 17: the last 2–3 turns). */
export const REGISTER_TURNS = 3;

export const emptyRegister = (function emptyRegister(): ContextRegister {
  return { last_action: null, last_args: {}, last_result: null, last_path: null, pending_slot: null, last_text: null, last_slot: null, runner_up: null, suggestions: [], age: 0 };
});

/**
 * Ages the register by one turn; past `expiry` turns it is emptied. In place: only its session
 * holds it (the session hands out copies), and a copy per message was most of a turn's bookkeeping.
 */
export const ageRegister = (function ageRegister(register: ContextRegister, expiry: number): ContextRegister {
  return register.age++ >= expiry ? emptyRegister() : register;
});
