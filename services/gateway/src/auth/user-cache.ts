import type { User } from '@tv-shop/contracts';
import type { ChangeFeed } from '@tv-shop/platform';

/**
 * The accounts behind signed-in requests, kept between requests: every API call reads its
 * caller's account (a deleted account's token stops at once, a role is read, not trusted), and
 * that read was one more database round trip per request. An account is dropped from here the
 * moment the identity read model announces a change to it (a new name, a verified seller, a
 * deletion, a new password), and after `ttlMs` whatever happens: a feed across processes may drop a message, and
 * this bounds how long a missed one can matter.
 */
export class UserCache<T = User> {
  private readonly users = new Map<string, { user: T; at: number }>();
  /** Bumped by every change announced for an account: a read that started before it is not kept. */
  private readonly generation = new Map<string, number>();
  private readonly off: () => void;

  constructor(
    private readonly load: (id: string) => Promise<T | null>,
    feed: ChangeFeed,
    private readonly ttlMs = 30_000,
    private readonly max = 20_000,
  ) {
    this.off = feed.subscribe((n) => {
      if (n.kind !== 'change' || n.push.entity !== 'user') return;
      this.users.delete(n.push.id);
      this.generation.set(n.push.id, (this.generation.get(n.push.id) ?? 0) + 1);
    });
  }

  /** The account, from here while it is fresh; `fresh` reads it from the database whatever is kept. */
  async get(id: string, fresh = false): Promise<T | null> {
    const hit = fresh ? undefined : this.users.get(id);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.user;
    const before = this.generation.get(id) ?? 0;
    const user = await this.load(id);
    // A missing account is not kept: it may be one that is being opened right now.
    if (user && (this.generation.get(id) ?? 0) === before) {
      if (this.users.size >= this.max) this.users.delete(this.users.keys().next().value!);
      this.users.set(id, { user, at: Date.now() });
    }
    return user;
  }

  close(): void {
    this.off();
    this.users.clear();
  }
}
