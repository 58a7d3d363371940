import { listingPhotos, rooms, type EventOf, type Product, type ProductListing } from '@tv-shop/contracts';
import { insertRows, LastChanges, RowSet, type BatchContext, type RecordedEvent } from '@tv-shop/platform';
import { FORMER_SELLER, editedColumns, searchText, toProduct, toReport, type ProductRow, type ReportRow } from './rows';

/** A row as `to_json` shows it (bigints as numbers): the form a batch works in. */
type Stored<R, Big extends keyof R> = Omit<R, Big> & Record<Big, number>;
/** A whole row of the table: what reads select (ProductRow), the search text, and the count of every report it had. */
type ProductRecord = Stored<ProductRow, 'resale_poisha' | 'original_poisha' | 'listed_at'> & { search?: string; reports_taken: number };
type ReportRecord = Omit<ReportRow, 'at'> & { reporter_id: string; at: string };
interface SellerRecord {
  id: string;
  name: string;
  verified: boolean;
}

const PRODUCT_EVENTS = new Set([
  'ProductListed',
  'ProductEdited',
  'ProductMarkedSold',
  'ProductMarkedAvailable',
  'ProductAdvertised',
  'ProductAdvertisingRemoved',
  'ProductReported',
  'ProductReportsDismissed',
  'ProductRemoved',
]);

const productOf = ({ search: _, ...p }: ProductRecord): Product =>
  toProduct({ ...p, resale_poisha: String(p.resale_poisha), original_poisha: String(p.original_poisha), listed_at: String(p.listed_at) });

/**
 * The catalog projection's handlers for a batch of events at once (every batch the runner applies,
 * live or a replay; ADRs 0044, 0047). The rows the batch touches are read once: its products, with
 * every product of a seller it renames or verifies; the sellers it names; the reports of the
 * products it reports or removes. Each event then changes them in memory exactly as its handler's
 * SQL does, and each changed row is written once. When anyone listens, each changed product is
 * announced once, as of the last event that changed it, with the fields it changed as they were
 * before the batch.
 */
/** A listing's row in `products` as its ProductListed leaves it (the handler's insert). */
export const listedProductRow = (l: ProductListing, sellerVerified: boolean, position: number) => ({
  id: l.productId,
  name: l.name,
  image: l.imageUrl,
  images: listingPhotos(l),
  thumbnails: l.thumbnailUrls ?? [],
  details: l.details,
  location: l.location,
  resale_poisha: l.resalePricePoisha,
  original_poisha: l.originalPricePoisha,
  use_duration: l.useDuration,
  condition: l.condition,
  phone: l.phone,
  category_id: l.categoryId,
  category_name: l.categoryName,
  seller_id: l.sellerId,
  seller_name: l.sellerName,
  seller_email: l.sellerEmail,
  seller_verified: sellerVerified,
  post_date: l.postedOn,
  sold: false,
  paid_sale: false,
  reported: false,
  advertised: false,
  listed_at: position,
  edits: 0,
  reports_taken: 0,
});

export async function applyCatalogBatch(events: RecordedEvent[], ctx: BatchContext): Promise<void> {
  const productIds = new Set<string>();
  const sellerIds = new Set<string>();
  const renamedOrVerified = new Set<string>();
  const reportedOrRemoved = new Set<string>();
  for (const e of events) {
    const d = e.data as { productId?: string; userId?: string; sellerId?: string };
    // A listing starts its product's stream: the table has no row for it yet.
    if (PRODUCT_EVENTS.has(e.type) && e.type !== 'ProductListed') productIds.add(d.productId!);
    if (e.type === 'ProductListed') sellerIds.add(d.sellerId!);
    if (e.type === 'ProductReported' || e.type === 'ProductReportsDismissed' || e.type === 'ProductRemoved')
      reportedOrRemoved.add(d.productId!);
    if (e.type === 'UserRegistered') sellerIds.add(d.userId!);
    if (e.type === 'UserProfileUpdated' || e.type === 'SellerVerified' || e.type === 'UserDeleted') {
      sellerIds.add(d.userId!);
      renamedOrVerified.add(d.userId!);
    }
  }
  const { db } = ctx;
  // Products and sellers are kept between live batches (ADR 0052): a toggled product or a
  // listing's seller is mostly there already. Every product of a renamed or verified seller is
  // read, since what is kept may not be all of them.
  const products = new RowSet<ProductRecord>('products', ['id'], ctx.kept);
  const sellers = new RowSet<SellerRecord>('sellers', ['id'], ctx.kept);
  const reports = new RowSet<ReportRecord>('reports', ['product_id', 'reporter_id']);
  await RowSet.loadTogether(db, [
    products.byKeys('t.id = any($1)', productIds),
    [products, 't.seller_id = any($1)', [[...renamedOrVerified]]],
    sellers.byKeys('t.id = any($1)', sellerIds),
    [reports, 't.product_id = any($1)', [[...reportedOrRemoved]]],
  ]);
  // What was announced before the batch, for the pushes' `was`.
  const before = ctx.replaying ? new Map<string, Product>() : new Map([...products.values()].map((p) => [p.id, productOf(p)]));

  const categories: Record<string, unknown>[] = [];
  const blogs: Record<string, unknown>[] = [];
  /** Listings no longer for sale, and why (the handler's insert into removed). */
  const removed: Record<string, unknown>[] = [];
  /** Sellers whose accounts closed: their removed listings forget them (the handler's update of removed). */
  const closed = new Set<string>();
  const words: string[] = [];
  const touched = new LastChanges();
  /** Products whose reports the admin dismissed: they leave the admin's Reported Items. */
  const dismissed = new Set<string>();
  const ofSeller = (sellerId: string) => [...products.values()].filter((p) => p.seller_id === sellerId);
  /** The handlers' `update products set … where seller_id = $1`, as of the event at `position`. */
  const patchSellerProducts = (sellerId: string, patch: Partial<ProductRecord>, position: number) => {
    for (const p of ofSeller(sellerId)) {
      products.update(p.id, patch);
      touched.touch(p.id, position);
    }
  };
  /** The handlers' `delete from reports where product_id = $1`. */
  const dropReportsOf = (productId: string) => {
    for (const r of [...reports.values()].filter((x) => x.product_id === productId)) reports.delete(reports.keyOf(r));
  };

  for (const e of events) {
    switch (e.type) {
      case 'CategoryAdded': {
        const d = e.data as EventOf<'CategoryAdded'>['data'];
        categories.push({
          id: d.categoryId,
          category_name: d.category_name,
          name: d.name,
          bg_color: d.bgColor,
          color: d.color,
          added_at: e.position,
        });
        break;
      }
      case 'BlogPublished': {
        const d = e.data as EventOf<'BlogPublished'>['data'];
        blogs.push({ id: d.blogId, ques: d.ques, paragraphs: d.paragraphs, published_at: e.position });
        break;
      }
      case 'UserRegistered': {
        const d = e.data as EventOf<'UserRegistered'>['data'];
        if (d.role === 'Seller') sellers.insert({ id: d.userId, name: d.name, verified: false });
        break;
      }
      case 'UserProfileUpdated': {
        const d = e.data as EventOf<'UserProfileUpdated'>['data'];
        // Only a new name: a photo changed alone would otherwise announce every listing of theirs again.
        const seller = sellers.get(d.userId);
        if (seller && seller.name !== d.name) {
          sellers.update(d.userId, { name: d.name });
          patchSellerProducts(d.userId, { seller_name: d.name }, e.position);
        }
        break;
      }
      case 'UserDeleted': {
        // The handler's update of a closed account's listings: nothing of who sold them stays.
        const { userId } = e.data as EventOf<'UserDeleted'>['data'];
        patchSellerProducts(userId, { seller_name: FORMER_SELLER, seller_email: '', phone: '', seller_verified: false }, e.position);
        for (const r of removed) if (r.seller_id === userId) Object.assign(r, { seller_id: null, name: '', at: 0 });
        closed.add(userId);
        break;
      }
      case 'SellerVerified': {
        const { userId } = e.data as EventOf<'SellerVerified'>['data'];
        sellers.update(userId, { verified: true });
        patchSellerProducts(userId, { seller_verified: true }, e.position);
        break;
      }
      case 'ProductListed': {
        const l = e.data as ProductListing;
        const row = listedProductRow(l, sellers.get(l.sellerId)?.verified ?? false, e.position);
        products.insert(row);
        words.push(searchText(row));
        touched.touch(l.productId, e.position);
        break;
      }
      case 'ProductEdited': {
        const { productId, changes } = e.data as EventOf<'ProductEdited'>['data'];
        const columns = editedColumns(changes);
        // Every edit counts, as the product's decider counts it (ADR 0061).
        const edits = (products.get(productId)?.edits ?? 0) + 1;
        if (!products.update(productId, { ...Object.fromEntries(columns), edits })) break;
        words.push(searchText(products.get(productId)!));
        touched.touch(productId, e.position);
        break;
      }
      case 'ProductMarkedSold': {
        const { productId, bookingId } = e.data as EventOf<'ProductMarkedSold'>['data'];
        if (products.update(productId, { sold: true, paid_sale: !!bookingId, advertised: false })) touched.touch(productId, e.position);
        break;
      }
      case 'ProductMarkedAvailable': {
        const { productId } = e.data as EventOf<'ProductMarkedAvailable'>['data'];
        if (products.update(productId, { sold: false, paid_sale: false })) touched.touch(productId, e.position);
        break;
      }
      case 'ProductAdvertised':
      case 'ProductAdvertisingRemoved': {
        const { productId } = e.data as EventOf<'ProductAdvertised'>['data'];
        if (products.update(productId, { advertised: e.type === 'ProductAdvertised' })) touched.touch(productId, e.position);
        break;
      }
      case 'ProductReported': {
        const d = e.data as EventOf<'ProductReported'>['data'];
        const taken = (products.get(d.productId)?.reports_taken ?? 0) + 1;
        if (products.update(d.productId, { reported: true, reports_taken: taken })) touched.touch(d.productId, e.position);
        const report = {
          product_id: d.productId,
          reporter_id: d.reporterId,
          by_name: d.reporterName ?? '',
          reason: d.reason ?? '',
          at: e.metadata.at,
        };
        if (!reports.get(reports.keyOf(report))) reports.insert(report); // on conflict do nothing: the first report stays
        break;
      }
      case 'ProductReportsDismissed': {
        const { productId } = e.data as EventOf<'ProductReportsDismissed'>['data'];
        dropReportsOf(productId);
        if (!products.get(productId)?.reported) break; // the handler's update … where reported: nothing to change
        products.update(productId, { reported: false });
        touched.touch(productId, e.position);
        dismissed.add(productId);
        break;
      }
      case 'ProductRemoved': {
        const { productId, reason } = e.data as EventOf<'ProductRemoved'>['data'];
        const p = products.get(productId);
        // A closed account's (its email gone) is kept without who sold it, as the handler does.
        const kept = reason !== 'seller-deleted' && p?.seller_email !== '';
        if (p)
          removed.push({
            id: productId,
            reason,
            category_id: p.category_id,
            category_name: p.category_name,
            // The day in UTC, as the handler's ($3::timestamptz at time zone 'UTC')::date.
            removed_on: new Date(e.metadata.at).toISOString().slice(0, 10),
            seller_id: kept ? p.seller_id : null,
            name: kept ? p.name : '',
            at: kept ? e.position : 0,
          });
        products.delete(productId);
        dropReportsOf(productId);
        touched.touch(productId, e.position);
        break;
      }
    }
  }

  // A reported listing the batch changed otherwise (sold, made available, edited, its seller
  // renamed) is announced to the admins again, with its reports: Reported Items shows its state,
  // and the question before a removal says whether a buyer paid for it.
  if (!ctx.replaying) {
    const stillReported = [...touched.keys()].filter((id) => products.get(id)?.reported && !reportedOrRemoved.has(id));
    if (stillReported.length > 0) await reports.load(db, 't.product_id = any($1)', [stillReported]);
  }

  insertRows(ctx, 'categories', categories);
  insertRows(ctx, 'blogs', blogs);
  sellers.save(ctx);
  products.save(ctx);
  reports.save(ctx);
  if (closed.size > 0) ctx.later(`update removed set seller_id = null, name = '', at = 0 where seller_id = any($1)`, [[...closed]]);
  insertRows(ctx, 'removed', removed);
  if (words.length > 0)
    ctx.later(
      `insert into search_words (word)
       select distinct w.lexeme from unnest($1::text[]) as doc(text), unnest(to_tsvector('simple', doc.text)) w
        where w.lexeme ~ '^[[:alnum:]]{1,40}$' and w.lexeme !~ '^[0-9]{5,}$'
       on conflict do nothing`,
      [words],
    );
  if (!ctx.replaying) announce(ctx, touched, before, products, reports, dismissed);
}

/** Each product the batch changed, once, with what it changed as it was; to the admins, each still reported with its reports. */
function announce(
  ctx: BatchContext,
  touched: Map<string, number>,
  before: Map<string, Product>,
  products: RowSet<ProductRecord>,
  reports: RowSet<ReportRecord>,
  dismissed: Set<string>,
): void {
  for (const [id, position] of touched) {
    const stored = products.get(id);
    const was = before.get(id);
    if (!stored) {
      // Listed and removed within the batch: nobody had it, so there is nothing to announce (a
      // removal without its row would reach every view of products: ADR 0067).
      if (!was) continue;
      const change = { entity: 'product' as const, op: 'remove' as const, id };
      ctx.emit(Object.assign(change, { route: { was } }), [rooms.everyone], position);
      if (was.reported) ctx.emit({ entity: 'reported_product', op: 'remove', id }, [rooms.admins], position);
      continue;
    }
    const row = productOf(stored);
    const change = { entity: 'product' as const, op: 'upsert' as const, id, row };
    const changed =
      was && Object.fromEntries(Object.entries(was).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(row[k as keyof Product])));
    ctx.emit(changed ? Object.assign(change, { route: { was: changed } }) : change, [rooms.everyone], position);
    if (dismissed.has(id) && !row.reported) ctx.emit({ entity: 'reported_product', op: 'remove', id }, [rooms.admins], position);
    if (!row.reported) continue;
    const its = [...reports.values()].filter((r) => r.product_id === id).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const withReports = { ...row, reports: its.map((r) => toReport({ ...r, at: new Date(r.at) })), reports_taken: stored.reports_taken };
    ctx.emit({ entity: 'reported_product', op: 'upsert', id, row: withReports }, [rooms.admins], position);
  }
}
