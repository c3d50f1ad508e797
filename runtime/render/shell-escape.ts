// The error of a slot value that cannot be put into a shell command safely (shell-render.ts
// says where each value may go), so that no tool of the answer runs.

export class UnsafeSlotValueError extends Error {
  constructor(readonly slot: string, reason: string) {
    super(`slot "${slot}" cannot be passed to a shell safely: ${reason}`);
    this.name = "UnsafeSlotValueError";
  }
}
