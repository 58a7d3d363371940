import { listingPhotos, rooms, type EventOf, type Product, type ProductListing, type ProductRoute } from '@tv-shop/contracts';
import type { Projection, ProjectionContext } from '@tv-shop/platform';
import { editedColumns, FORMER_SELLER, PRODUCT_COLUMNS, searchText, toProduct, toReport, type ProductRow, type ReportRow } from './rows';
import { applyCatalogBatch } from './catalog.batch';

/**
 * A product push, addressed to everyone; `was` (the fields the event changed, as they were) lets
 * the gateway send a view a listing leaves a removal (ADR 0045). The gateway strips it.
 */
const productPush = (id: string, row: Product | null, was?: Partial<Product>) => {
  const change = row
    ? { entity: 'product' as const, op: 'upsert' as const, id, row }
    : { entity: 'product' as const, op: 'remove' as const, id };
  return was ? Object.assign(change, { route: { was } satisfies ProductRoute }) : change;
};
const emitProducts = async (ctx: ProjectionContext, where: string, value: string, was?: Partial<Product>) => {
  if (ctx.replaying) return; // nobody hears a replay: no need to read what would be announced
  const { rows } = await ctx.db.query<ProductRow & { reports_taken: number }>(`select * from products where ${where} = $1`, [value]);
  for (const r of rows) ctx.emit(productPush(r.id, toProduct(r), was), [rooms.everyone]);
  // A reported listing, whatever changed (reported now, sold, edited, its seller renamed), goes to
  // the admins again with its reports: Reported Items shows its state, and the question before a
  // removal says whether a buyer paid for it.
  for (const r of rows) if (r.reported) await emitReported(ctx, r);
};
/** A product row's columns as they were before an update (`o`, the self-join's old version). */
const OLD_PRODUCT_COLUMNS = PRODUCT_COLUMNS.split(', ')
  .map((c) => `o.${c}`)
  .join(', ');
/** The words of a listing's search vector, kept once each in `search_words` (see the table). */
const addSearchWords = (ctx: ProjectionContext, text: string) =>
  ctx.db.query(
    `insert into search_words (word)
     select lexeme from unnest(to_tsvector('simple', $1))
      where lexeme ~ '^[[:alnum:]]{1,40}$' and lexeme !~ '^[0-9]{5,}$'
     on conflict do nothing`,
    [text],
  );
/** A reported product with who reported it and why: for the admin only. */
const emitReported = async (ctx: ProjectionContext, product: ProductRow & { reports_taken: number }) => {
  const { rows: reports } = await ctx.db.query<ReportRow>('select * from reports where product_id = $1 order by at', [product.id]);
  const row = { ...toProduct(product), reports: reports.map(toReport), reports_taken: product.reports_taken };
  ctx.emit({ entity: 'reported_product', op: 'upsert', id: product.id, row }, [rooms.admins]);
};
const setFlag = (column: 'advertised', value: boolean) => async (e: { data: unknown }, ctx: ProjectionContext) => {
  const { productId } = e.data as { productId: string };
  await ctx.db.query(`update products set ${column} = $2 where id = $1`, [productId, value]);
  await emitProducts(ctx, 'id', productId, { [column]: !value });
};

/** Products (with their seller's name and verified mark), categories and blogs. */
export const catalogProjection: Projection = {
  name: 'catalog',
  schema: 'rm_catalog',
  setup: `
    -- Trigram matching for misspelt searches ("samsng"); kept in public, so a rebuild of this
    -- schema does not drop it (trusted since PostgreSQL 13: a database owner may create it).
    create extension if not exists pg_trgm with schema public;
    create table categories (id text primary key, category_name text not null, name text not null, bg_color text not null, color text not null, added_at bigint not null);
    create table blogs (id text primary key, ques text not null, paragraphs jsonb not null, published_at bigint not null);
    create table sellers (id text primary key, name text not null, verified boolean not null default false);
    create table products (
      id text primary key, name text not null, image text not null,
      -- Every photo in order (image is the first), and the thumbnails the seller sent for them, if any.
      images text[] not null, thumbnails text[] not null default '{}',
      details text not null, location text not null,
      resale_poisha bigint not null, original_poisha bigint not null, use_duration text not null, condition text not null,
      phone text not null, category_id text not null, category_name text not null, seller_id text not null,
      seller_name text not null, seller_email text not null, seller_verified boolean not null default false,
      post_date text not null, sold boolean not null default false, paid_sale boolean not null default false,
      reported boolean not null default false,
      -- Every report it ever had, dismissed ones included: a dismissal names the count it was shown (ADR 0056).
      reports_taken int not null default 0,
      advertised boolean not null default false, listed_at bigint not null,
      -- How many ProductEdited events it had: an edit names the count it was made on (ADR 0061).
      edits int not null default 0,
      -- What a search's words match: the name, details, location and brand.
      search tsvector generated always as (to_tsvector('simple', name || ' ' || details || ' ' || location || ' ' || category_name)) stored
    );
    create index products_search on products using gin (search);
    create index products_location_trgm on products using gin (location public.gin_trgm_ops);
    -- Every word any listing's search vector holds, each once: search reads it to tell a whole word
    -- (matched exactly, which the planner can estimate) from a prefix ("sam": the words it starts)
    -- and to replace a misspelt one ("samsng") by the words closest to it by trigrams.
    create table search_words (word text primary key);
    create index search_words_trgm on search_words using gin (word public.gin_trgm_ops);
    -- Prefix look-ups ("sam" -> samsung), whatever the database's collation.
    create index search_words_prefix on search_words (word text_pattern_ops);
    create index products_newest on products (listed_at desc, id desc);
    create index products_price on products (resale_poisha, id);
    create index products_category on products (category_id, listed_at desc);
    create index products_seller on products (seller_email, listed_at desc);
    create index products_listed on products (listed_at desc);
    create index products_reported on products (listed_at desc) where reported;
    create index products_advertised on products (listed_at desc) where advertised and not sold;
    create table reports (
      product_id text not null, reporter_id text not null, by_name text not null, reason text not null, at timestamptz not null,
      primary key (product_id, reporter_id)
    );
    -- A listing taken off the shop, and why (ProductRemoved): its page says so rather than "not
    -- found", and points at its category. Of when, only the day (UTC): a deleted seller's listing
    -- must not tell when they left. Its seller (and its name, for their My Products) is kept only
    -- while their account is: none for a closed one, and forgotten when it closes (ADR 0070).
    -- at: the removal's position in the log, to list a seller's newest first (0 without a seller).
    create table removed (
      id text primary key, reason text not null, category_id text not null, category_name text not null, removed_on date not null,
      seller_id text, name text not null default '', at bigint not null default 0
    );
    create index removed_seller on removed (seller_id, at desc) where seller_id is not null;`,
  handlers: {
    CategoryAdded: async (e, ctx) => {
      const d = e.data as EventOf<'CategoryAdded'>['data'];
      await ctx.db.query('insert into categories values ($1, $2, $3, $4, $5, $6)', [
        d.categoryId,
        d.category_name,
        d.name,
        d.bgColor,
        d.color,
        e.position,
      ]);
    },
    BlogPublished: async (e, ctx) => {
      const d = e.data as EventOf<'BlogPublished'>['data'];
      await ctx.db.query('insert into blogs values ($1, $2, $3, $4)', [d.blogId, d.ques, JSON.stringify(d.paragraphs), e.position]);
    },
    UserRegistered: async (e, ctx) => {
      const d = e.data as EventOf<'UserRegistered'>['data'];
      if (d.role === 'Seller') await ctx.db.query('insert into sellers values ($1, $2, false)', [d.userId, d.name]);
    },
    UserProfileUpdated: async (e, ctx) => {
      const d = e.data as EventOf<'UserProfileUpdated'>['data'];
      // Only a new name: a photo changed alone would otherwise announce every listing of theirs again.
      const res = await ctx.db.query('update sellers set name = $2 where id = $1 and name is distinct from $2', [d.userId, d.name]);
      if (res.rowCount) {
        await ctx.db.query('update products set seller_name = $2 where seller_id = $1', [d.userId, d.name]);
        await emitProducts(ctx, 'seller_id', d.userId);
      }
    },
    // A closed account's listings that stay (sold ones: a paid sale is final, ADR 0010) keep
    // nothing of who sold them: no name, email or phone in any list or page (ADR 0070).
    UserDeleted: async (e, ctx) => {
      const { userId } = e.data as EventOf<'UserDeleted'>['data'];
      const { rowCount } = await ctx.db.query(
        `update products set seller_name = $2, seller_email = '', phone = '', seller_verified = false where seller_id = $1`,
        [userId, FORMER_SELLER],
      );
      await ctx.db.query(`update removed set seller_id = null, name = '', at = 0 where seller_id = $1`, [userId]);
      if (rowCount) await emitProducts(ctx, 'seller_id', userId);
    },
    SellerVerified: async (e, ctx) => {
      const { userId } = e.data as EventOf<'SellerVerified'>['data'];
      await ctx.db.query('update sellers set verified = true where id = $1', [userId]);
      await ctx.db.query('update products set seller_verified = true where seller_id = $1', [userId]);
      await emitProducts(ctx, 'seller_id', userId);
    },
    ProductListed: async (e, ctx) => {
      const l = e.data as ProductListing;
      await ctx.db.query(
        `insert into products (id, name, image, details, location, resale_poisha, original_poisha, use_duration, condition, phone,
           category_id, category_name, seller_id, seller_name, seller_email, seller_verified, post_date, listed_at, images, thumbnails)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
           coalesce((select verified from sellers where id = $13), false), $16, $17, $18, $19)`,
        [
          l.productId,
          l.name,
          l.imageUrl,
          l.details,
          l.location,
          l.resalePricePoisha,
          l.originalPricePoisha,
          l.useDuration,
          l.condition,
          l.phone,
          l.categoryId,
          l.categoryName,
          l.sellerId,
          l.sellerName,
          l.sellerEmail,
          l.postedOn,
          e.position,
          listingPhotos(l),
          l.thumbnailUrls ?? [],
        ],
      );
      // Every word the search vector holds for it, so search can tell a whole word from a prefix;
      // not long numbers (phones, prices): searched whole, they match the vector itself.
      await addSearchWords(ctx, searchText({ ...l, category_name: l.categoryName }));
      await emitProducts(ctx, 'id', l.productId);
    },
    ProductEdited: async (e, ctx) => {
      const { productId, changes } = e.data as EventOf<'ProductEdited'>['data'];
      const columns = editedColumns(changes);
      // The row as it was (the self-join reads the version before the update), for the pushes' `was`.
      // Every edit counts, as the product's decider counts it, even one whose changes set no column.
      const { rows } = await ctx.db.query<ProductRow>(
        `update products p set ${[...columns.map(([column], i) => `${column} = $${i + 2}`), 'edits = o.edits + 1'].join(', ')}
          from products o
          where p.id = $1 and o.id = p.id
          returning ${OLD_PRODUCT_COLUMNS}`,
        [productId, ...columns.map(([, value]) => value)],
      );
      const old = rows[0];
      if (!old) return;
      await addSearchWords(ctx, searchText({ ...old, ...Object.fromEntries(columns) }));
      await emitProducts(ctx, 'id', productId, toProduct(old));
    },
    ProductMarkedSold: async (e, ctx) => {
      const { productId, bookingId } = e.data as EventOf<'ProductMarkedSold'>['data'];
      // The row as it was (the self-join reads the version before the update): advertised or not.
      const { rows } = await ctx.db.query<{ sold: boolean; advertised: boolean }>(
        `update products p set sold = true, paid_sale = $2, advertised = false from products o
          where p.id = $1 and o.id = p.id returning o.sold, o.advertised`,
        [productId, !!bookingId],
      );
      await emitProducts(ctx, 'id', productId, rows[0] ? { sold: rows[0].sold, advertised: rows[0].advertised } : undefined);
    },
    ProductMarkedAvailable: async (e, ctx) => {
      const { productId } = e.data as EventOf<'ProductMarkedAvailable'>['data'];
      await ctx.db.query('update products set sold = false, paid_sale = false where id = $1', [productId]);
      await emitProducts(ctx, 'id', productId, { sold: true });
    },
    ProductAdvertised: setFlag('advertised', true),
    ProductAdvertisingRemoved: setFlag('advertised', false),
    ProductReported: async (e, ctx) => {
      const d = e.data as EventOf<'ProductReported'>['data'];
      // As it was (the self-join's old row): a first report takes it out of the advertised view (ADR 0077).
      const { rows } = await ctx.db.query<{ reported: boolean }>(
        `update products p set reported = true, reports_taken = p.reports_taken + 1 from products o
          where p.id = $1 and o.id = p.id returning o.reported`,
        [d.productId],
      );
      // Events from before names and reasons were recorded leave them empty; the admin's query
      // then shows the reporter's current name.
      await ctx.db.query(
        `insert into reports (product_id, reporter_id, by_name, reason, at) values ($1, $2, $3, $4, $5) on conflict do nothing`,
        [d.productId, d.reporterId, d.reporterName ?? '', d.reason ?? '', e.metadata.at],
      );
      await emitProducts(ctx, 'id', d.productId, rows[0] && !rows[0].reported ? { reported: false } : undefined);
    },
    ProductReportsDismissed: async (e, ctx) => {
      const { productId } = e.data as EventOf<'ProductReportsDismissed'>['data'];
      const { rowCount } = await ctx.db.query('update products set reported = false where id = $1 and reported', [productId]);
      await ctx.db.query('delete from reports where product_id = $1', [productId]);
      if (!rowCount) return;
      await emitProducts(ctx, 'id', productId, { reported: true });
      if (!ctx.replaying) ctx.emit({ entity: 'reported_product', op: 'remove', id: productId }, [rooms.admins]);
    },
    ProductRemoved: async (e, ctx) => {
      const { productId, reason } = e.data as EventOf<'ProductRemoved'>['data'];
      await ctx.db.query(
        `insert into removed (id, reason, category_id, category_name, removed_on, seller_id, name, at)
         select id, $2, category_id, category_name, ($3::timestamptz at time zone 'UTC')::date,
                case when kept then seller_id end, case when kept then name else '' end, case when kept then $4::bigint else 0 end
         from (select *, $2 <> 'seller-deleted' and seller_email <> '' as kept from products where id = $1) p`,
        [productId, reason, e.metadata.at, e.position],
      );
      const { rows } = await ctx.db.query<ProductRow>(
        `delete from products where id = $1 returning ${ctx.replaying ? 'reported' : PRODUCT_COLUMNS}`,
        [productId],
      );
      await ctx.db.query('delete from reports where product_id = $1', [productId]);
      // The removed row goes with the push (never to a browser): the views it was in hear of it.
      ctx.emit(productPush(productId, null, rows[0] && !ctx.replaying ? toProduct(rows[0]) : undefined), [rooms.everyone]);
      if (rows[0]?.reported) ctx.emit({ entity: 'reported_product', op: 'remove', id: productId }, [rooms.admins]);
    },
  },
  // A replay or a long catch-up: the same rows, written once per batch (ADR 0044).
  applyBatch: applyCatalogBatch,
};
