/**
 * A map that holds at most `max` entries: reading one with `get` or writing it makes it the most
 * recently used, and a write beyond the bound drops the least recently used. (A Map keeps its
 * keys in insertion order, so moving a key to the end is a delete and a set.)
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The value, leaving its place in the order as it is. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Sets the value as the most recently used; the least recently used goes beyond the bound. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
