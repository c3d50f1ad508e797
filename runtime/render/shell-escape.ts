// Rendering user-supplied slot values into shell commands: every value goes inside single
// quotes, where the shell interprets nothing, so a single quote is the only character to escape.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

export class UnsafeSlotValueError extends Error {
  constructor(readonly slot: string, reason: string) {
    super(`slot "${slot}" cannot be passed to a shell safely: ${reason}`);
    this.name = "UnsafeSlotValueError";
  }
}

/** Escapes `value` for use between single quotes: `'` becomes `'\''`. NUL cannot be passed at all. */
export const escapeForSingleQuotes = (function escapeForSingleQuotes(slot: string, value: string): string {
  if (value.includes("\u0000")) throw new UnsafeSlotValueError(slot, "it contains a NUL byte");
  return value.replaceAll("'", "'\\''");
});
