import type pg from 'pg';
import type { Blog, Booking, Category, Product, ReportedProduct, SellerCard, User } from '@tv-shop/contracts';
import {
  toBlog,
  toBooking,
  toCategory,
  toProduct,
  toReport,
  toUser,
  type BookingRow,
  type ProductRow,
  type ReportRow,
  type UserRow,
} from '@tv-shop/projector';

/** The gateway's queries on the read models. Everything here is a read: writes go through commands. */
export class ReadModels {
  constructor(private readonly pool: pg.Pool) {}

  private async products(where: string, params: unknown[] = []): Promise<Product[]> {
    const { rows } = await this.pool.query<ProductRow>(`select * from rm_catalog.products ${where} order by listed_at desc`, params);
    return rows.map(toProduct);
  }

  allProducts = () => this.products('');
  productsOfCategory = (categoryId: string) => this.products('where category_id = $1', [categoryId]);
  advertisedProducts = () => this.products('where advertised and not sold');
  /** Reported products with who reported each and why, oldest report first. */
  async reportedProducts(): Promise<ReportedProduct[]> {
    const products = await this.products('where reported');
    const { rows } = await this.pool.query<ReportRow>(
      // Reports made before names were recorded show the reporter's current name.
      `select r.product_id, coalesce(nullif(r.by_name, ''), u.name, '') as by_name, r.reason, r.at
       from rm_catalog.reports r join rm_catalog.products p on p.id = r.product_id
       left join rm_identity.users u on u.id = r.reporter_id
       where p.reported order by r.at`,
    );
    const byProduct = new Map<string, ReportRow[]>();
    for (const r of rows) byProduct.set(r.product_id, [...(byProduct.get(r.product_id) ?? []), r]);
    return products.map((p) => ({ ...p, reports: (byProduct.get(p._id) ?? []).map(toReport) }));
  }
  sellerProducts = (email: string) => this.products('where seller_email = $1', [email]);
  async product(id: string): Promise<(Product & { sellerId: string }) | null> {
    const { rows } = await this.pool.query<ProductRow>('select * from rm_catalog.products where id = $1', [id]);
    return rows[0] ? { ...toProduct(rows[0]), sellerId: rows[0].seller_id } : null;
  }

  async categories(): Promise<Category[]> {
    const { rows } = await this.pool.query('select * from rm_catalog.categories order by added_at');
    return rows.map(toCategory);
  }
  async categoryExists(id: string): Promise<boolean> {
    return (await this.pool.query('select 1 from rm_catalog.categories where id = $1', [id])).rowCount === 1;
  }
  async blogs(): Promise<Blog[]> {
    const { rows } = await this.pool.query('select * from rm_catalog.blogs order by published_at');
    return rows.map(toBlog);
  }

  async userById(id: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where id = $1 and not deleted', [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }
  async userByEmail(email: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where email = $1 and not deleted', [
      email.trim().toLowerCase(),
    ]);
    return rows[0] ? toUser(rows[0]) : null;
  }
  async credentials(email: string): Promise<{ user: User; passwordHash: string | null } | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where email = $1 and not deleted', [email]);
    return rows[0] ? { user: toUser(rows[0]), passwordHash: rows[0].password_hash } : null;
  }
  async usersWithRole(role: 'Buyer' | 'Seller'): Promise<User[]> {
    const { rows } = await this.pool.query<UserRow>(
      'select * from rm_identity.users where role = $1 and not deleted order by registered_at',
      [role],
    );
    return rows.map(toUser);
  }
  /** Active sellers with this name (case-insensitive), oldest first; names are not unique (ADR 0022). */
  async sellersNamed(name: string, limit = 2): Promise<SellerCard[]> {
    const { rows } = await this.pool.query<UserRow>(
      `select * from rm_identity.users where lower(name) = lower($1) and role = 'Seller' and not deleted order by registered_at limit $2`,
      [name, limit],
    );
    return rows.map((r) => ({ _id: r.id, name: r.name, photoURL: r.photo_url, verified: r.verified }));
  }

  /** A buyer's whole order history, cancelled bookings included (with their reason), newest first. */
  async bookingsOf(email: string): Promise<Booking[]> {
    const { rows } = await this.pool.query<BookingRow>('select * from rm_orders.bookings where buyer_email = $1 order by placed_at desc', [
      email,
    ]);
    return rows.map(toBooking);
  }
  /** Every booking of a seller's products, newest first: who is coming, and how to reach them. */
  async bookingsOfSeller(sellerId: string): Promise<Booking[]> {
    const { rows } = await this.pool.query<BookingRow>('select * from rm_orders.bookings where seller_id = $1 order by placed_at desc', [
      sellerId,
    ]);
    return rows.map(toBooking);
  }
  /** A buyer's open bookings at a price (poisha) whose TV is still for sale: the spec's `{ price }` payment call. */
  async openBookingsAtPrice(buyerId: string, pricePoisha: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `select b.id from rm_orders.bookings b join rm_catalog.products p on p.id = b.product_id
       where b.buyer_id = $1 and b.price_poisha = $2 and not b.paid and not b.cancelled and not p.sold`,
      [buyerId, pricePoisha],
    );
    return rows.map((r) => r.id);
  }
  async booking(id: string): Promise<(Booking & { buyerId: string }) | null> {
    const { rows } = await this.pool.query<BookingRow>('select * from rm_orders.bookings where id = $1', [id]);
    return rows[0] ? { ...toBooking(rows[0]), buyerId: rows[0].buyer_id } : null;
  }

  /** Each read-model projection's checkpoint (policies keep theirs in the same table). */
  async projectionPositions(): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ name: string; position: string }>(
      `select name, position from public.projection_checkpoints where name not like 'policy:%'`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.position)]));
  }
}
