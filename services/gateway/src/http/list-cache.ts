/**
 * Serialized answers of public lists, valid while the projection they come from has not moved.
 * The version is read before the query runs, so an entry is never older than its version; a
 * checkpoint notice moves the version and the next read queries again. A read after a write
 * therefore always sees that write: its answer waited for the version to pass it.
 */
export class ListCache {
  private readonly entries = new Map<string, { version: number; at: number; json: Promise<string> }>();

  /** `maxAgeMs` bounds staleness if a checkpoint notice is lost (Redis pub/sub between processes). */
  constructor(
    private readonly maxAgeMs = 2000,
    /** Lists and single pages (a product's, a seller's): the least recently loaded go first. */
    private readonly maxEntries = 1000,
  ) {}

  /** Forgets every answer: a read model was rebuilt and swapped in at the position they were read at (ADR 0065). */
  clear(): void {
    this.entries.clear();
  }

  get(key: string, version: number, load: () => Promise<unknown>): Promise<string> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.version === version && now - hit.at < this.maxAgeMs) return hit.json;
    // One query per key and version, however many readers arrive at once.
    const json = load().then((v) => JSON.stringify(v));
    const entry = { version, at: now, json };
    json.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    // Loaded again, it goes to the back: a busy list is not the first out when many pages come in.
    if (hit) this.entries.delete(key);
    else if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    return json;
  }
}
