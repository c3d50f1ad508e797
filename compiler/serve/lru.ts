// A Map that keeps at most `capacity` entries, dropping the least recently used one.

export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  /** The value of `key` (now the most recent), creating it with `create` when missing. */
  getOrCreate(key: K, create: () => V): V {
    const found = this.get(key);
    if (found !== undefined) return found;
    const value = create();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return value;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }
}
