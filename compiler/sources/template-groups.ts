// What both source languages share about a template's groups: the orderings of a permutation, the
// limits on permutations and on a template's size, and their messages. The DSL (dsl/pattern.ts)
// and NDF (ndf/structure.ts) lower their own syntax but must refuse the same templates.

/** The most parts a permutation may have (their orderings multiply the template). */
export const MAX_PERMUTATION_PARTS = 4;

/**
 * The most words and slots one template may hold once its expansions are in (each becomes about one
 * automaton state, as groups branch and join instead of multiplying): a bound against expansions
 * nested inside each other many times over, which would grow the template exponentially.
 */
export const MAX_PATTERN_SIZE = 4096;

export function tooManyPermutationParts(parts: number): string {
  return `a permutation has ${parts} parts, at most ${MAX_PERMUTATION_PARTS} are allowed (their orderings multiply): split it`;
}

/** `what` is the template as its language calls it ("this pattern"), `pieces` what to split it into ("rules"). */
export function patternTooLarge(size: number, what: string, pieces: string): string {
  return `${what} holds ${size} words and slots once its expansions and permutations are in, at most ${MAX_PATTERN_SIZE} are allowed: split it into several ${pieces}`;
}

/** Every ordering of `parts`, each the parts' items concatenated (the first part first in the first ordering). */
export function orderings<T>(parts: readonly (readonly T[])[]): T[][] {
  if (parts.length <= 1) return [parts.flat()];
  return parts.flatMap((part, i) => orderings([...parts.slice(0, i), ...parts.slice(i + 1)]).map((rest) => [...part, ...rest]));
}

/**
 * Named definitions lowered once, on first use, that may use each other: `resolve` returns the
 * lowered value, `undefined` for an unknown name, and calls `onCycle` (and caches `empty`) when a
 * definition reaches itself. DSL `expansion`s and NDF's expansions.json both resolve this way.
 */
export class LazyDefinitions<Source, Value> {
  private readonly done = new Map<string, Value>();
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly sources: ReadonlyMap<string, Source>,
    private readonly lower: (source: Source, name: string) => Value,
    private readonly onCycle: (name: string, source: Source) => void,
    private readonly empty: Value,
  ) {}

  resolve(name: string): Value | undefined {
    const done = this.done.get(name);
    if (done !== undefined) return done;
    const source = this.sources.get(name);
    if (source === undefined) return undefined;
    if (this.inProgress.has(name)) {
      this.onCycle(name, source);
      return this.empty;
    }
    this.inProgress.add(name);
    const value = this.lower(source, name);
    this.inProgress.delete(name);
    this.done.set(name, value);
    return value;
  }
}
