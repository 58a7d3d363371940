/**
 * Serialized answers of public reads (the lists; product and seller pages in a cache of their
 * own), valid while the projections they come from have not moved. The version (a projection's
 * position, or several joined) is read before the query runs, so an entry is never older than
 * its version; a checkpoint notice moves the version and the next read queries again. A read
 * after a write therefore always sees that write: its answer waited for the version to pass it.
 */
interface Entry {
  version: number | string;
  at: number;
  json: Promise<string>;
  /** Its answer's length once loaded (0 while loading). */
  bytes: number;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** `maxAgeMs` bounds staleness if a checkpoint notice is lost (Redis pub/sub between processes). */
  constructor(
    private readonly maxAgeMs = 2000,
    /** The least recently loaded go first past either bound. */
    private readonly maxEntries = 200,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  /** Forgets every answer: a read model was rebuilt and swapped in at the position they were read at (ADR 0065). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** `keep` (default: all) says whether an answer is worth keeping: a page that was not found is not. */
  get(key: string, version: number | string, load: () => Promise<unknown>, keep: (v: unknown) => boolean = () => true): Promise<string> {
    const hit = this.entries.get(key);
    const now = Date.now();
    if (hit && hit.version === version && now - hit.at < this.maxAgeMs) return hit.json;
    // One query per key and version, however many readers arrive at once.
    const entry: Entry = { version, at: now, json: Promise.resolve(''), bytes: 0 };
    entry.json = load().then((v) => {
      const text = JSON.stringify(v);
      if (this.entries.get(key) === entry) {
        if (!keep(v)) this.forget(key, entry);
        else {
          entry.bytes = text.length;
          this.bytes += text.length;
          this.evict();
        }
      }
      return text;
    });
    entry.json.catch(() => this.forget(key, entry));
    // Loaded again, it goes to the back: a busy list is not the first out when many pages come in.
    if (hit) this.forget(key, hit);
    this.entries.set(key, entry);
    this.evict();
    return entry.json;
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
