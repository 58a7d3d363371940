import type pg from 'pg';
import type { Blog, Category, OwnRemovedListing, Product, ProductSearch, RemovedListing, ReportedProduct } from '@tv-shop/contracts';
import { PRODUCT_COLUMNS, toBlog, toCategory, toProduct, toReport, type ProductRow, type ReportRow } from './rows';
import { searchProducts, type SearchPage } from './search';

/** Finds the current names of users by id (identity's read model): the host passes it in. */
export type NamesOf = (ids: readonly string[]) => Promise<Map<string, string>>;

/**
 * A read of what a changed definition of the catalog added, while the tables from before it are
 * still read (until its rebuild swaps them in): an error of one of `codes` (42P01 no such table,
 * 42703 no such column) answers no rows; any other is thrown.
 */
const noneBeforeSwap =
  (...codes: string[]) =>
  (err: unknown): { rows: never[] } => {
    if (codes.includes((err as { code?: string }).code ?? '')) return { rows: [] };
    throw err;
  };

/** Catalog's read-model queries (`rm_catalog`). Everything here is a read: writes go through commands. */
export class CatalogQueries {
  constructor(private readonly pool: pg.Pool) {}

  private async products(where: string, params: unknown[] = []): Promise<Product[]> {
    const { rows } = await this.pool.query<ProductRow>(
      `select ${PRODUCT_COLUMNS} from rm_catalog.products ${where} order by listed_at desc`,
      params,
    );
    return rows.map(toProduct);
  }

  allProducts = () => this.products('');
  /** `GET /api/products/search`: one page of the products matching `query` (search.ts). */
  search = (query: ProductSearch): Promise<SearchPage> => searchProducts(this.pool, query);
  /** How many of a seller's listings can still be bought. */
  async availableCount(sellerId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      'select count(*) as n from rm_catalog.products where seller_id = $1 and not sold',
      [sellerId],
    );
    return Number(rows[0]?.n ?? 0);
  }
  /** A seller's listings that can still be bought, newest first. */
  availableOf = (sellerId: string) => this.products('where seller_id = $1 and not sold', [sellerId]);
  /** The ids of a seller's listings that can still be bought (their listing slots, ADR 0035). */
  async availableIdsOf(sellerId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>('select id from rm_catalog.products where seller_id = $1 and not sold', [
      sellerId,
    ]);
    return rows.map((r) => r.id);
  }
  /**
   * The address of every product's photos and thumbnails, sold ones included (a removed product
   * leaves the read model), each named once per product.
   */
  async imageUrls(): Promise<string[]> {
    const { rows } = await this.pool.query<{ url: string | null }>(
      'select distinct p.id, u.url from rm_catalog.products p cross join unnest(array[p.image] || p.images || p.thumbnails) as u(url)',
    );
    return rows.flatMap((r) => (r.url ? [r.url] : []));
  }
  productsOfCategory = (categoryId: string) => this.products('where category_id = $1', [categoryId]);
  /** Advertised, for sale, and no reports waiting for the admin: `inAdvertised` in SQL (ADR 0077). */
  advertisedProducts = () => this.products('where advertised and not sold and not reported');
  sellerProducts = (email: string) => this.products('where seller_email = $1', [email]);

  /**
   * Reported products with who reported each and why, oldest report first. Reports made before
   * names were recorded show the reporter's current name, which `namesOf` finds.
   */
  async reportedProducts(namesOf: NamesOf): Promise<ReportedProduct[]> {
    // With the count of every report each had (admins only, so not among every read's columns).
    const { rows: products } = await this.pool.query<ProductRow & { reports_taken: number }>(
      `select ${PRODUCT_COLUMNS}, reports_taken from rm_catalog.products where reported order by listed_at desc`,
    );
    const { rows } = await this.pool.query<ReportRow & { reporter_id: string }>(
      `select r.product_id, r.reporter_id, r.by_name, r.reason, r.at
       from rm_catalog.reports r join rm_catalog.products p on p.id = r.product_id
       where p.reported order by r.at`,
    );
    const unnamed = [...new Set(rows.filter((r) => r.by_name === '').map((r) => r.reporter_id))];
    const names = await namesOf(unnamed);
    const byProduct = new Map<string, ReportRow[]>();
    for (const r of rows) {
      const report = { ...r, by_name: r.by_name || (names.get(r.reporter_id) ?? '') };
      byProduct.set(r.product_id, [...(byProduct.get(r.product_id) ?? []), report]);
    }
    return products.map((p) => ({ ...toProduct(p), reports: (byProduct.get(p.id) ?? []).map(toReport), reports_taken: p.reports_taken }));
  }
  /** How many listed products have reports waiting for the admin. */
  async reportedCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`select count(*) as n from rm_catalog.products where reported`);
    return Number(rows[0]!.n);
  }
  async product(id: string): Promise<Product | null> {
    const { rows } = await this.pool.query<ProductRow>(`select ${PRODUCT_COLUMNS} from rm_catalog.products where id = $1`, [id]);
    return rows[0] ? toProduct(rows[0]) : null;
  }
  /**
   * A listing taken off the shop: why, on which day, and its category (null: never listed, still
   * listed, or not known yet: the catalog's tables from before ADR 0070 are read until its rebuild
   * swaps them, and they have no `removed`). The day is kept for every removal but not given for
   * a seller's closed account: it would say when the admin closed it.
   */
  async removed(id: string): Promise<RemovedListing | null> {
    const { rows } = await this.pool
      .query<{ reason: RemovedListing['reason']; category_id: string; category_name: string; removed_on: string }>(
        `select reason, category_id, category_name, to_char(removed_on, 'YYYY-MM-DD') as removed_on from rm_catalog.removed where id = $1`,
        [id],
      )
      .catch(noneBeforeSwap('42P01'));
    const r = rows[0];
    if (!r) return null;
    const category = { id: r.category_id, name: r.category_name };
    return r.reason === 'seller-deleted' ? { reason: r.reason, category } : { reason: r.reason, removedOn: r.removed_on, category };
  }
  /**
   * A seller's own listings taken off the shop, newest first (`limit` of them): for their My
   * Products, so a removal they were not there to see is still told. None while the catalog's
   * tables from before the removal kept its seller are read (until its rebuild swaps them).
   */
  async removedOf(sellerId: string, limit = 20): Promise<OwnRemovedListing[]> {
    const { rows } = await this.pool
      .query<{ id: string; name: string; reason: OwnRemovedListing['reason']; removed_on: string }>(
        `select id, name, reason, to_char(removed_on, 'YYYY-MM-DD') as removed_on from rm_catalog.removed
         where seller_id = $1 order by at desc limit $2`,
        [sellerId, limit],
      )
      .catch(noneBeforeSwap('42P01', '42703'));
    return rows.map((r) => ({ _id: r.id, porduct_name: r.name, reason: r.reason, removedOn: r.removed_on }));
  }
  /** The listings a buyer reported that are still reported (a dismissal or a removal drops the reports). */
  async reportedBy(reporterId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ product_id: string }>(
      'select product_id from rm_catalog.reports where reporter_id = $1 order by at desc limit 1000',
      [reporterId],
    );
    return rows.map((r) => r.product_id);
  }

  /** Which of these products are still listed and unsold. */
  async unsold(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.pool.query<{ id: string }>('select id from rm_catalog.products where id = any($1) and not sold', [
      [...ids],
    ]);
    return new Set(rows.map((r) => r.id));
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
}
