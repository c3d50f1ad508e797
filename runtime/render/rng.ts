// Seeded choices: the same session seed and the same message sequence give the same text.
// `const f = (function f(…) {…});`: compiled when the module loads (text/normalize.ts says why).

/**
 * mulberry32: a tiny 32-bit generator with good enough distribution for picking variants. Its
 * seed can be set again, so a session draws every answer's numbers from one generator instead of
 * making a closure per answer. The state is kept as a signed 32-bit value (a small integer, never
 * a boxed number); every operation reads only its bits, so the numbers are those of the unsigned form.
 */
export class Mulberry32 {
  #state: number;

  constructor(seed: number) {
    this.#state = seed | 0;
  }

  reseed(seed: number): void {
    this.#state = seed | 0;
  }

  /** The next number in [0, 1); a bound function, handed out as a plain `() => number`. */
  readonly next = (): number => {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function mulberry32(seed: number): () => number {
  return new Mulberry32(seed).next;
}

/** The seed of one turn of a session: keyed on the session seed and the turn number. */
export const turnSeed = (function turnSeed(seed: number, turn: number): number {
  return Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(turn + 1, 0x85ebca6b);
});

/** The generator for one turn of a session. */
export function turnRandom(seed: number, turn: number): () => number {
  return mulberry32(turnSeed(seed, turn));
}

export const pick = (function pick<T>(items: readonly T[], random: () => number): T | undefined {
  if (items.length === 0) return undefined;
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))];
});
