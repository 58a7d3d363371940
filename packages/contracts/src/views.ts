import type { Product } from './entities';
import type { ChangePush } from './socket';

/**
 * Subscriptions by view (ADR 0045). A socket that sends `views` is narrowed to what those views
 * show: the server sends it a change only when one of its views is touched, and a listing that
 * leaves every view it shows (sold, advertising ended, removed) as a removal. A socket that never
 * sends `views` keeps the rooms it always had (everyone, its user, the admins).
 */

/** The exact filters of a product list (All Products, a category page, a search). */
export interface ProductViewFilter {
  /** A brand (category id): a category page, or a search narrowed to one. */
  category?: string;
  condition?: string;
  minPrice?: number;
  maxPrice?: number;
  /** `false` (what is for sale, the default), `true`, or `any`. */
  sold?: 'false' | 'true' | 'any';
}

export type View =
  /**
   * All Products, a category, a search's exact filters. A search's words and place are matched
   * loosely by the server (a misspelt brand still finds a listing), so they do not narrow the
   * view: the page keeps matching them itself.
   */
  | { kind: 'products'; filter: ProductViewFilter }
  /** One product's page. */
  | { kind: 'product'; id: string }
  /**
   * A seller's listings (their public page, their own My Products), by the seller's account id:
   * a page of a seller with no listing yet knows it too, so their first one arrives live.
   */
  | { kind: 'seller'; id: string }
  /** The home page's advertised listings. */
  | { kind: 'advertised' }
  /** What belongs to one account: its user row and its bookings as buyer and as seller. Its own, or any for the admin. */
  | { kind: 'account'; userId: string }
  /** What the admins hear: reported items, users, every booking, the event log and the day figures. Admins only. */
  | { kind: 'admin' };

export type ViewKind = View['kind'];

/** At most this many views on one socket; more are refused. */
export const MAX_VIEWS_PER_SOCKET = 16;

/** The answer to `views`: the position from which the socket is current to its views, and the views it may not have. */
export interface ViewsAnswer {
  position: number;
  /**
   * `viewKey`s refused: not allowed for this socket (another account's, the admins'), or malformed.
   * Or `VIEWS_REFUSED_FOR_ADDRESS` alone: the whole call was refused, and the socket keeps the views it had.
   */
  refused: string[];
}

/** A `views` call refused whole: the sockets of its client address called too often this minute (ADR 0072). */
export const VIEWS_REFUSED_FOR_ADDRESS = 'too many views calls from this address; try again in a minute';

/** A batch of pushes for a socket that subscribed to views, in log order. */
export type ViewPushes = ChangePush[];

const str = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A view as the server takes it: a canonical copy, or null when malformed. */
export function parseView(input: unknown): View | null {
  if (typeof input !== 'object' || input === null) return null;
  const v = input as Record<string, unknown>;
  switch (v.kind) {
    case 'products': {
      const f = (typeof v.filter === 'object' && v.filter !== null ? v.filter : {}) as Record<string, unknown>;
      const filter: ProductViewFilter = {};
      if (f.category !== undefined && f.category !== '') {
        if (!str(f.category)) return null;
        filter.category = f.category;
      }
      if (f.condition !== undefined && f.condition !== '') {
        if (!str(f.condition, 40)) return null;
        filter.condition = f.condition;
      }
      if (f.minPrice !== undefined) {
        if (!num(f.minPrice)) return null;
        filter.minPrice = f.minPrice;
      }
      if (f.maxPrice !== undefined) {
        if (!num(f.maxPrice)) return null;
        filter.maxPrice = f.maxPrice;
      }
      if (f.sold !== undefined && f.sold !== 'false' && f.sold !== 'true' && f.sold !== 'any') return null;
      filter.sold = f.sold ?? 'false';
      return { kind: 'products', filter };
    }
    case 'product':
      return str(v.id) ? { kind: 'product', id: v.id } : null;
    case 'seller':
      return str(v.id) ? { kind: 'seller', id: v.id } : null;
    case 'advertised':
      return { kind: 'advertised' };
    case 'account':
      return str(v.userId) ? { kind: 'account', userId: v.userId } : null;
    case 'admin':
      return { kind: 'admin' };
    default:
      return null;
  }
}

/** One name per view: two equal views have the same key (the fields in a fixed order). */
export function viewKey(view: View): string {
  switch (view.kind) {
    case 'products': {
      const f = view.filter;
      return `products:${JSON.stringify([f.category ?? '', f.condition ?? '', f.minPrice ?? null, f.maxPrice ?? null, f.sold ?? 'false'])}`;
    }
    case 'product':
      return `product:${view.id}`;
    case 'seller':
      return `seller:${view.id}`;
    case 'advertised':
      return 'advertised';
    case 'account':
      return `account:${view.userId}`;
    case 'admin':
      return 'admin';
  }
}

/**
 * Whether a listing is in Home's advertised section: advertised, for sale, and no buyers' reports
 * waiting for the admin (ADR 0077). The views' routing asks it (which views a change touches,
 * and whether it is in them); the catalog's query (`advertisedProducts`) and the web app's scope
 * (`productScopes.advertised`) say the same in their own terms.
 */
export const inAdvertised = (p: Pick<Product, 'advertised' | 'sold' | 'reported'>): boolean => p.advertised && !p.sold && !p.reported;

/** Whether a product (as it is, or as it was) belongs in a product view; false for the other kinds. */
export function productInView(view: View, p: Product): boolean {
  switch (view.kind) {
    case 'products': {
      const f = view.filter;
      const sold = f.sold ?? 'false';
      if (sold === 'false' && p.sold) return false;
      if (sold === 'true' && !p.sold) return false;
      if (f.category !== undefined && p.category_id !== f.category) return false;
      if (f.condition !== undefined && p.product_condition !== f.condition) return false;
      if (f.minPrice !== undefined && p.resale_price < f.minPrice) return false;
      if (f.maxPrice !== undefined && p.resale_price > f.maxPrice) return false;
      return true;
    }
    case 'product':
      return p._id === view.id;
    case 'seller':
      return p.sellerId === view.id;
    case 'advertised':
      return inAdvertised(p);
    default:
      return false;
  }
}

/**
 * What a projection adds to a product push so the gateway can tell which views it leaves: the
 * fields as they were before the change (`was`; the whole row for a removal). Never sent to a
 * browser.
 */
export interface ProductRoute {
  was?: Partial<Product>;
}
