// Seeded choices: the same session seed and the same message sequence give the same text.

/** mulberry32: a tiny 32-bit generator with good enough distribution for picking variants. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator for one turn of a session: keyed on the session seed and the turn number. */
export function turnRandom(seed: number, turn: number): () => number {
  return mulberry32(Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(turn + 1, 0x85ebca6b));
}

export function pick<T>(items: readonly T[], random: () => number): T | undefined {
  if (items.length === 0) return undefined;
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))];
}
