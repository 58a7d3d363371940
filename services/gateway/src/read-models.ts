import type pg from 'pg';
import type { ReportedProduct, SellerProfile } from '@tv-shop/contracts';
import { AuditQueries } from '@tv-shop/audit';
import { CatalogQueries } from '@tv-shop/catalog';
import { IdentityQueries } from '@tv-shop/identity';
import { OrdersQueries } from '@tv-shop/orders';
import { projectionPositions, rebuilds } from '@tv-shop/platform';

/**
 * The read models the routes use. Each service's queries are its own (`reads.catalog.search`,
 * `reads.identity.sessionAccount`, ...); what is here joins two services' answers, where a read needs
 * both (reporters' names, a seller's profile, whether a booked TV is still for sale).
 */
export class ReadModels {
  readonly identity: IdentityQueries;
  readonly catalog: CatalogQueries;
  readonly orders: OrdersQueries;
  /** The event log (the admin's and operators'). */
  readonly audit: AuditQueries;

  constructor(private readonly pool: pg.Pool) {
    this.audit = new AuditQueries(pool);
    this.identity = new IdentityQueries(pool);
    this.catalog = new CatalogQueries(pool);
    this.orders = new OrdersQueries(pool);
  }

  /** Reported products with who reported each and why, oldest report first. */
  reportedProducts = (): Promise<ReportedProduct[]> => this.catalog.reportedProducts((ids) => this.identity.namesOf(ids));

  /** A seller's public profile: identity's card and join date, catalog's count of what they sell. */
  async sellerProfile(id: string): Promise<SellerProfile | null> {
    const seller = await this.identity.sellerSince(id);
    if (!seller) return null;
    return {
      _id: seller._id,
      name: seller.name,
      verified: seller.verified,
      memberSince: seller.memberSince,
      availableCount: await this.catalog.availableCount(id),
    };
  }

  /**
   * The booking the spec's `{ price }` payment call means: the buyer's one open booking at that
   * price (TK) whose TV is still for sale; 422 on `bookingId` when there is none or several.
   */
  bookingToPayAt = (buyerId: string, price: unknown): Promise<string> =>
    this.orders.bookingToPayAt(buyerId, price, (ids) => this.catalog.unsold(ids));

  /** Every picture address a read model keeps: products', account photos, bookings' (the upload sweeper keeps these). */
  imageUrls = async (): Promise<string[]> =>
    (await Promise.all([this.catalog.imageUrls(), this.identity.imageUrls(), this.orders.imageUrls()])).flat();

  /** Each read-model projection's checkpoint (policies keep theirs in the same table). */
  projectionPositions = (): Promise<Record<string, number>> => projectionPositions(this.pool);
  /** Where each read model was last rebuilt and swapped in, by projection (ADR 0065). */
  rebuilds = (): Promise<Map<string, number>> => rebuilds(this.pool);
}
