import {
  inAdvertised,
  productInView,
  rooms,
  type ChangePush,
  type Product,
  type ProductRoute,
  type User,
  type View,
} from '@tv-shop/contracts';

/**
 * Subscriptions by view (ADR 0045), the part that needs no socket: where a change goes (its
 * dispatch keys), what a socket's views make of it (the change, a removal, or nothing), and the
 * recent changes indexed by key, so that a view's catch-up reads only the changes that may touch it.
 */

/** A change as the gateway keeps it: what browsers get, who may hear it, and which views it may touch. */
export interface Routed {
  /** As browsers get it (the projection's routing stripped). */
  push: ChangePush;
  /** The rooms allowed to hear it (authorisation, and the default delivery). */
  rooms: string[];
  /** The dispatch keys of the views it may touch. */
  keys: string[];
  /** A product as it was before the change and as it is after (null: not there); unused for other entities. */
  before: Product | null;
  after: Product | null;
}

/** A removal without the removed row (an older projector): every view of products hears it. */
export const ANY_PRODUCT_KEY = '*product';

const productKeys = (p: Product, into: Set<string>) => {
  into.add('products');
  into.add(`category:${p.category_id}`);
  into.add(`seller:${p.sellerId}`);
  if (inAdvertised(p)) into.add('advertised');
};

/** Turns a change notice's push and rooms into what the fan-out and the catch-up use. */
export function route(pushed: ChangePush & { route?: ProductRoute }, to: string[]): Routed {
  const { route: routing, ...push } = pushed;
  const keys = new Set<string>();
  let before: Product | null = null;
  let after: Product | null = null;
  if (push.entity === 'product') {
    keys.add(`product:${push.id}`);
    if (push.op === 'upsert') {
      after = push.row;
      before = routing?.was ? { ...push.row, ...routing.was } : push.row;
    } else if (routing?.was && typeof routing.was._id === 'string') {
      before = routing.was as Product;
    } else {
      keys.add(ANY_PRODUCT_KEY);
    }
    if (before) productKeys(before, keys);
    if (after) productKeys(after, keys);
  } else {
    for (const room of to) {
      if (room === rooms.admins) keys.add('admin');
      else if (room.startsWith('user:')) keys.add(`account:${room.slice('user:'.length)}`);
    }
  }
  return { push: push, rooms: to, keys: [...keys], before, after };
}

const isProductView = (v: View) => v.kind === 'products' || v.kind === 'product' || v.kind === 'seller' || v.kind === 'advertised';

/** The keys under which a view listens. */
export function viewKeys(view: View): string[] {
  switch (view.kind) {
    case 'products':
      return [view.filter.category !== undefined ? `category:${view.filter.category}` : 'products', ANY_PRODUCT_KEY];
    case 'product':
      return [`product:${view.id}`, ANY_PRODUCT_KEY];
    case 'seller':
      return [`seller:${view.id}`, ANY_PRODUCT_KEY];
    case 'advertised':
      return ['advertised', ANY_PRODUCT_KEY];
    case 'account':
      // And its listings, for the one change of them it hears: a listing taken off (`decide`).
      return [`account:${view.userId}`, `seller:${view.userId}`];
    case 'admin':
      return ['admin'];
  }
}

/**
 * What a socket with these views gets of a change: the change itself when one of its views holds
 * the row after it; a removal when none does any more but one held it before; otherwise nothing.
 * A listing taken off the shop also reaches its seller's account view, wherever they are in the
 * app, so they are told why (ADR 0070); no other change of a listing does. Bookings, users and the
 * admin's entities go only to the account they belong to and the admins.
 */
export function decide(views: readonly View[], r: Routed): ChangePush | null {
  const push = r.push;
  if (push.entity === 'product') {
    // Listings are public: every product change goes to everyone. One sent more narrowly would
    // be for those rooms alone, and a view does not widen it.
    if (!r.rooms.includes(rooms.everyone)) return null;
    if (r.after && views.some((v) => productInView(v, r.after!))) return push;
    const held = r.before ? views.some((v) => productInView(v, r.before!)) : push.op === 'remove' && views.some(isProductView);
    const sellerId = r.before?.sellerId;
    const ownTakenOff = push.op === 'remove' && !!sellerId && views.some((v) => v.kind === 'account' && v.userId === sellerId);
    if (!held && !ownTakenOff) return null;
    return { entity: 'product', op: 'remove', id: push.id, position: push.position, ...(sellerId ? { sellerId } : {}) };
  }
  for (const v of views) {
    if (v.kind === 'admin' && r.rooms.includes(rooms.admins)) return push;
    if (v.kind === 'account' && r.rooms.includes(rooms.user(v.userId))) return push;
  }
  return null;
}

/** Whether `user` may subscribe to `view`: products are public; an account is its own (or the admin's); the admin view is the admins'. */
export function mayView(user: User | null, view: View): boolean {
  if (view.kind === 'account') return !!user && (user._id === view.userId || user.role === 'Admin');
  if (view.kind === 'admin') return user?.role === 'Admin';
  return true;
}

/** First index in `xs` (sorted by position) whose position is above `from`. */
const after = (xs: readonly Routed[], from: number, lo = 0) => {
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]!.push.position > from) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};

/**
 * Puts `r` in `xs` in position order. The projections publish independently, so a change may
 * arrive after one with a higher position; the catch-up's binary search needs the order (almost
 * always an append; otherwise a short step back from the end).
 */
function insertByPosition(xs: Routed[], r: Routed): void {
  let i = xs.length;
  while (i > 0 && xs[i - 1]!.push.position > r.push.position) i--;
  if (i === xs.length) xs.push(r);
  else xs.splice(i, 0, r);
}

/**
 * The recent changes, at most `keep` of them (older ones are dropped a slice at a time), each
 * also listed under its dispatch keys: a view's catch-up reads its keys' lists only.
 */
export class RecentChanges {
  /** In arrival order (the log order of each projection). */
  readonly all: Routed[] = [];
  private readonly byKey = new Map<string, Routed[]>();
  private rebuiltPosition = 0;
  private startPosition = Infinity;
  constructor(private readonly keep: number) {}

  /**
   * The head of the log as read once this gateway listened for changes (Infinity until then):
   * changes up to it may have been published before that and never kept here, so a catch-up
   * from before it cannot be answered from what is kept. Later changes all reach it.
   */
  get startedAt(): number {
    return this.startPosition;
  }
  begin(head: number): void {
    if (this.startPosition === Infinity) this.startPosition = head;
  }

  add(r: Routed): void {
    insertByPosition(this.all, r);
    for (const key of r.keys) {
      let list = this.byKey.get(key);
      if (!list) this.byKey.set(key, (list = []));
      insertByPosition(list, r);
    }
    if (this.all.length > this.keep + Math.max(64, this.keep >> 3)) this.trim();
  }

  /** The latest position a read model was rebuilt at (ADR 0065): changes before it were not all pushed. */
  get rebuilt(): number {
    return this.rebuiltPosition;
  }
  rebuiltAt(position: number): void {
    this.rebuiltPosition = Math.max(this.rebuiltPosition, position);
  }

  /** Whether changes were dropped (the log before `oldest` is no longer kept). */
  get full(): boolean {
    return this.all.length >= this.keep;
  }
  get oldest(): number {
    return this.all[0]?.push.position ?? Infinity;
  }
  /** The newest position kept (0 when none): faster read models may be ahead of the head. */
  get newest(): number {
    return this.all.at(-1)?.push.position ?? 0;
  }

  private trim(): void {
    const dropped = new Set(this.all.splice(0, this.all.length - this.keep));
    for (const [key, list] of this.byKey) {
      let cut = 0;
      while (cut < list.length && dropped.has(list[cut]!)) cut++;
      if (cut === list.length) this.byKey.delete(key);
      else if (cut > 0) list.splice(0, cut);
    }
  }

  /**
   * The first `limit` kept changes after `from` listed under any of `keys`, each once, by
   * position. (The first `limit` of all are among the first `limit` of each key's list: only those
   * are read, so an ask costs at most keys × limit, however much is kept.)
   */
  under(keys: readonly string[], from: number, limit = Infinity): Routed[] {
    const lists = keys.map((k) => this.byKey.get(k)).filter((l): l is Routed[] => !!l);
    const upTo = (list: readonly Routed[], start: number) => throughTies(list, Math.min(list.length, start + limit));
    if (lists.length === 1) return lists[0]!.slice(after(lists[0]!, from), upTo(lists[0]!, after(lists[0]!, from)));
    const seen = new Set<Routed>();
    const out: Routed[] = [];
    for (const list of lists)
      for (let i = after(list, from), end = upTo(list, i); i < end; i++) {
        const r = list[i]!;
        if (seen.has(r)) continue;
        seen.add(r);
        out.push(r);
      }
    out.sort((a, b) => a.push.position - b.push.position);
    return out.slice(0, throughTies(out, Math.min(out.length, limit)));
  }
}

/** How many pages' worth of kept changes one catch-up ask looks at, at most. */
export const SCAN_PAGES = 5;

/**
 * `end`, moved past the changes after it at the same position as the one before it: one event
 * can make many changes (a deleted seller's every listing), and a page or a cut that ends inside
 * them would lose the rest (the next ask starts after that position).
 */
export function throughTies(list: readonly { push: { position: number } }[], end: number): number {
  while (end > 0 && end < list.length && list[end]!.push.position === list[end - 1]!.push.position) end++;
  return end;
}

/**
 * One page of a view socket's catch-up: what its views make of the kept changes after `from`
 * under their keys, at most `page` changes; `more` and `position` as in the rooms' catch-up.
 */
export function viewCatchUpPage(recent: RecentChanges, views: readonly View[], from: number, page: number, head: number) {
  const keys = [...new Set(views.flatMap(viewKeys))];
  // At most SCAN_PAGES pages' worth of kept changes are looked at per ask, sent or not: views
  // that turn most of them down (a price range nothing falls in) page on instead of scanning all.
  const candidates = recent.under(keys, from, page * SCAN_PAGES);
  const changes: ChangePush[] = [];
  let i = 0;
  let end = candidates.length;
  for (; i < end; i++) {
    const push = decide(views, candidates[i]!);
    if (push) changes.push(push);
    // A full page ends with the rest of its last position's changes.
    if (changes.length === page) end = throughTies(candidates, i + 1);
  }
  // Stopped before the end of what is kept under its keys: the next ask goes on from here.
  const more = i < candidates.length || (i > 0 && recent.under(keys, candidates[i - 1]!.push.position, 1).length > 0);
  return {
    position: more ? candidates[i - 1]!.push.position : Math.max(head, from),
    changes,
    ...(more ? { more: true as const } : {}),
  };
}
