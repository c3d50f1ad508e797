// A slot value that cannot be rendered into its shell command (shell-render.ts): in the core, which
// refuses the answer with it, while the renderer is a chunk (render/shell-stage.ts).

export class UnsafeSlotValueError extends Error {
  constructor(readonly slot: string, reason: string) {
    super(`slot "${slot}" cannot be passed to a shell safely: ${reason}`);
    this.name = "UnsafeSlotValueError";
  }
}
