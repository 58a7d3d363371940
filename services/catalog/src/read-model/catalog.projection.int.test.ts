import { afterAll, beforeAll, describe, it } from 'vitest';
import { rooms, type Product, type ProductListing } from '@tv-shop/contracts';
import { createTestDatabase, projectionSpec, type TestDatabase } from '@tv-shop/platform/testing';
import { catalogProjection } from './catalog.projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('catalog_rm');
});
afterAll(async () => {
  await db.drop();
});
const given = projectionSpec(catalogProjection, () => db.pool);

const listing = (productId: string, over: Partial<ProductListing> = {}): ProductListing => ({
  productId,
  name: 'Sony 42"',
  imageUrl: '/api/images/i1',
  details: 'Works well',
  location: 'Dhaka',
  resalePricePoisha: 1_500_050,
  originalPricePoisha: 4_000_000,
  useDuration: '2 years',
  condition: 'Good',
  phone: '01700000000',
  categoryId: 'c1',
  categoryName: 'Sony',
  sellerId: 's1',
  sellerName: 'Karim',
  sellerEmail: 'karim@x.test',
  postedOn: '1-1-2025',
  ...over,
});
const listed = (productId: string, over: Partial<ProductListing> = {}) => ({ type: 'ProductListed', data: listing(productId, over) });
const seller = (userId = 's1', role = 'Seller') => ({
  type: 'UserRegistered',
  data: { userId, name: 'Karim', email: 'karim@x.test', photoURL: '', role, passwordHash: 'h', via: 'password' },
});
/** The product as the API and the pushes show it. */
const product = (id: string, over: Partial<Product> = {}): Product => ({
  _id: id,
  porduct_name: 'Sony 42"',
  productImage: '/api/images/i1',
  productImages: ['/api/images/i1'],
  productThumbnails: ['/api/images/i1'],
  details: 'Works well',
  location: 'Dhaka',
  resale_price: 15000.5,
  orginal_price: 40000,
  use_duration: '2 years',
  seller: 'Karim',
  sellerId: 's1',
  sellerEmail: 'karim@x.test',
  sellerVerified: false,
  post_date: '1-1-2025',
  phone_number: '01700000000',
  product_condition: 'Good',
  category_id: 'c1',
  category_name: 'Sony',
  sold: false,
  paid_sale: false,
  reported: false,
  advertised: false,
  listedAt: 1,
  edits: 0,
  ...over,
});
/** A product's push at `position`: its listing's, unless `listedAt` says where it was listed (a later change). */
const upsert = (id: string, position: number, over: Partial<Product> = {}, was?: Partial<Product>) => ({
  push: {
    entity: 'product' as const,
    op: 'upsert' as const,
    id,
    row: product(id, { listedAt: position, ...over }),
    position,
    // What the event changed, as it was (only the fields it changed): the gateway's routing to views (ADR 0045).
    ...(was ? { route: { was } } : {}),
  },
  rooms: [rooms.everyone],
});
/** A removal's routing to views: the removed row (ADR 0045). */
const routeOf = (was: Product) => ({ route: { was } });
const FLAGS = 'select id, sold, paid_sale, reported, advertised, seller_name, seller_verified from products order by id';
const flags = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  sold: false,
  paid_sale: false,
  reported: false,
  advertised: false,
  seller_name: 'Karim',
  seller_verified: false,
  ...over,
});

describe('catalog projection (rm_catalog)', () => {
  it('ProductListed: every word of its search vector (name, details, place, brand) joins the search vocabulary once', async () => {
    await given()
      .when(
        listed('p1', { name: 'Samsung 43" Crystal', location: 'Mirpur, Dhaka' }),
        listed('p2', { name: 'Samsung TV', location: 'Dhaka' }),
      )
      .then({
        rows: {
          'select word from search_words order by word': ['43', 'crystal', 'dhaka', 'mirpur', 'samsung', 'sony', 'tv', 'well', 'works'].map(
            (word) => ({ word }),
          ),
        },
        pushes: [
          upsert('p1', 1, { porduct_name: 'Samsung 43" Crystal', location: 'Mirpur, Dhaka' }),
          upsert('p2', 2, { porduct_name: 'Samsung TV', location: 'Dhaka' }),
        ],
      });
  });

  it('ProductListed with several photos: stored in order with their thumbnails, the first the cover; pushed with them', async () => {
    const photos = ['/api/images/a.jpg', '/api/images/b.jpg', '/api/images/c.jpg'];
    const thumbs = ['/api/images/ta.webp', '/api/images/tb.webp', '/api/images/tc.webp'];
    await given()
      .when(
        listed('p1', { imageUrl: photos[0], imageUrls: photos, thumbnailUrls: thumbs }),
        listed('p2', { imageUrl: photos[1], imageUrls: [photos[1]!, 'https://img.example/tv.jpg'] }),
      )
      .then({
        rows: {
          'select id, image, images, thumbnails from products order by id': [
            { id: 'p1', image: photos[0], images: photos, thumbnails: thumbs },
            { id: 'p2', image: photos[1], images: [photos[1], 'https://img.example/tv.jpg'], thumbnails: [] },
          ],
        },
        pushes: [
          upsert('p1', 1, { productImage: photos[0], productImages: photos, productThumbnails: thumbs }),
          // Photos sent without thumbnails stand for their own.
          upsert('p2', 2, {
            productImage: photos[1],
            productImages: [photos[1]!, 'https://img.example/tv.jpg'],
            productThumbnails: [photos[1]!, 'https://img.example/tv.jpg'],
          }),
        ],
      });
  });

  it('ProductListed from before several photos: its one photo is the whole list and its own thumbnail', async () => {
    await given()
      .when(listed('p1'))
      .then({
        rows: {
          'select image, images, thumbnails from products': [{ image: '/api/images/i1', images: ['/api/images/i1'], thumbnails: [] }],
        },
        pushes: [upsert('p1', 1, { productImages: ['/api/images/i1'], productThumbnails: ['/api/images/i1'] })],
      });
  });

  it('CategoryAdded and BlogPublished: rows in their order of arrival, nothing pushed', async () => {
    await given()
      .when(
        { type: 'CategoryAdded', data: { categoryId: 'c1', category_name: 'sony', name: 'Sony', bgColor: '#fff', color: '#000' } },
        { type: 'BlogPublished', data: { blogId: 'b1', ques: 'Why?', paragraphs: ['One', 'Two'] } },
      )
      .then({
        rows: {
          'select id, category_name, name, bg_color, color, added_at::int from categories': [
            { id: 'c1', category_name: 'sony', name: 'Sony', bg_color: '#fff', color: '#000', added_at: 1 },
          ],
          'select id, ques, paragraphs, published_at::int from blogs': [
            { id: 'b1', ques: 'Why?', paragraphs: ['One', 'Two'], published_at: 2 },
          ],
        },
        pushes: [],
      });
  });

  it('ProductListed: a row with prices in poisha and the listing position, pushed to everyone in TK', async () => {
    await given(seller())
      .when(listed('p1'))
      .then({
        rows: {
          'select resale_poisha::int, original_poisha::int, listed_at::int, seller_id from products': [
            { resale_poisha: 1_500_050, original_poisha: 4_000_000, listed_at: 2, seller_id: 's1' },
          ],
          [FLAGS]: [flags('p1')],
        },
        pushes: [upsert('p1', 2)],
      });
  });

  it('UserRegistered: sellers are kept for their names and marks, buyers are not', async () => {
    await given()
      .when(seller('s1'), seller('b1', 'Buyer'))
      .then({ rows: { 'select id, name, verified from sellers': [{ id: 's1', name: 'Karim', verified: false }] }, pushes: [] });
  });

  it("SellerVerified: the seller's listings get the mark and are pushed, and so do later ones", async () => {
    await given(seller(), listed('p1'), listed('p2', { sellerId: 's2' }))
      .when({ type: 'SellerVerified', data: { userId: 's1' } }, listed('p3'))
      .then({
        rows: { [FLAGS]: [flags('p1', { seller_verified: true }), flags('p2'), flags('p3', { seller_verified: true })] },
        pushes: [
          upsert('p1', 4, { sellerVerified: true, listedAt: 2 }, { sellerVerified: false }),
          upsert('p3', 5, { sellerVerified: true }),
        ],
      });
  });

  it("UserProfileUpdated: a seller's new name on their listings, pushed; a buyer's, or a new photo alone, changes nothing here", async () => {
    await given(seller(), seller('b1', 'Buyer'), listed('p1'))
      .when(
        { type: 'UserProfileUpdated', data: { userId: 's1', name: 'Karim Ali', photoURL: '' } },
        { type: 'UserProfileUpdated', data: { userId: 'b1', name: 'Nusrat', photoURL: '' } },
        // The same name with a new photo: no listing is announced again.
        { type: 'UserProfileUpdated', data: { userId: 's1', name: 'Karim Ali', photoURL: 'https://img.example/k.png' } },
      )
      .then({
        rows: { [FLAGS]: [flags('p1', { seller_name: 'Karim Ali' })], 'select name from sellers': [{ name: 'Karim Ali' }] },
        pushes: [upsert('p1', 4, { seller: 'Karim Ali', listedAt: 3 }, { seller: 'Karim' })],
      });
  });

  it('ProductMarkedSold without a booking: sold elsewhere, not a paid sale, no longer advertised', async () => {
    await given(listed('p1'), { type: 'ProductAdvertised', data: { productId: 'p1' } })
      .when({ type: 'ProductMarkedSold', data: { productId: 'p1' } })
      .then({
        rows: { [FLAGS]: [flags('p1', { sold: true })] },
        pushes: [upsert('p1', 3, { sold: true, listedAt: 1 }, { sold: false, advertised: true })],
      });
  });

  it('ProductMarkedSold with a booking: a paid sale (paid_sale)', async () => {
    await given(listed('p1'))
      .when({ type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'bk1', buyerName: 'Nusrat' } })
      .then({
        rows: { [FLAGS]: [flags('p1', { sold: true, paid_sale: true })] },
        pushes: [upsert('p1', 2, { sold: true, paid_sale: true, listedAt: 1 }, { sold: false, paid_sale: false })],
      });
  });

  it('ProductEdited: the changed columns, and every edit counted (one that sets no column too), pushed with the count', async () => {
    const edited = { porduct_name: 'Sony 42" edited', resale_price: 20_000, listedAt: 1 };
    await given(listed('p1'))
      .when(
        { type: 'ProductEdited', data: { productId: 'p1', changes: { name: 'Sony 42" edited', resalePricePoisha: 2_000_000 } } },
        { type: 'ProductEdited', data: { productId: 'p1', changes: {} } },
      )
      .then({
        rows: {
          'select id, name, resale_poisha, edits from products': [
            { id: 'p1', name: 'Sony 42" edited', resale_poisha: '2000000', edits: 2 },
          ],
        },
        pushes: [
          // `was`: what the edit changed, as it was (the count too).
          upsert('p1', 2, { ...edited, edits: 1 }, { porduct_name: 'Sony 42"', resale_price: 15000.5, edits: 0 }),
          upsert('p1', 3, { ...edited, edits: 2 }, { edits: 1 }),
        ],
      });
  });

  it('ProductMarkedAvailable: for sale again', async () => {
    await given(listed('p1'), { type: 'ProductMarkedSold', data: { productId: 'p1' } })
      .when({ type: 'ProductMarkedAvailable', data: { productId: 'p1' } })
      .then({ rows: { [FLAGS]: [flags('p1')] }, pushes: [upsert('p1', 3, { listedAt: 1 }, { sold: true })] });
  });

  it('ProductAdvertised and ProductAdvertisingRemoved: the advertised flag, pushed each time', async () => {
    await given(listed('p1'))
      .when({ type: 'ProductAdvertised', data: { productId: 'p1' } }, { type: 'ProductAdvertisingRemoved', data: { productId: 'p1' } })
      .then({
        rows: { [FLAGS]: [flags('p1')] },
        pushes: [
          upsert('p1', 2, { advertised: true, listedAt: 1 }, { advertised: false }),
          upsert('p1', 3, { listedAt: 1 }, { advertised: true }),
        ],
      });
  });

  it("ProductReported: a report row with the reporter's name and reason; the product to everyone, its reports to the admins", async () => {
    await given(listed('p1'))
      .when({
        type: 'ProductReported',
        data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nusrat', reason: 'Fake photos' },
        at: '2025-02-01T10:00:00.000Z',
      })
      .then({
        rows: {
          [FLAGS]: [flags('p1', { reported: true })],
          'select product_id, reporter_id, by_name, reason, at from reports': [
            { product_id: 'p1', reporter_id: 'b1', by_name: 'Nusrat', reason: 'Fake photos', at: new Date('2025-02-01T10:00:00Z') },
          ],
        },
        pushes: [
          upsert('p1', 2, { reported: true, listedAt: 1 }, { reported: false }),
          {
            push: {
              entity: 'reported_product',
              op: 'upsert',
              id: 'p1',
              row: {
                ...product('p1', { reported: true }),
                reports: [{ by_name: 'Nusrat', reason: 'Fake photos', at: '2025-02-01T10:00:00.000Z' }],
                reports_taken: 1,
              },
              position: 2,
            },
            rooms: [rooms.admins],
          },
        ],
      });
  });

  it('ProductReported from before names and reasons were recorded: empty ones; a second report by the same buyer is not added', async () => {
    await given(listed('p1'), { type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1' } })
      .when({ type: 'ProductReported', data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nusrat', reason: 'again' } })
      .then({
        rows: { 'select reporter_id, by_name, reason from reports': [{ reporter_id: 'b1', by_name: '', reason: '' }] },
        pushes: [
          // Already reported: nothing about the product changed.
          upsert('p1', 3, { reported: true, listedAt: 1 }, {}),
          {
            push: {
              entity: 'reported_product',
              op: 'upsert',
              id: 'p1',
              // Counted as the product's stream counts it: every report event, this one too.
              row: {
                ...product('p1', { reported: true }),
                reports: [{ by_name: '', reason: '', at: '2025-01-01T00:00:02.000Z' }],
                reports_taken: 2,
              },
              position: 3,
            },
            rooms: [rooms.admins],
          },
        ],
      });
  });

  it('a reported product sold, then for sale again: the admins hear it each time with its reports (Reported Items shows a paid sale)', async () => {
    const reportedRow = (position: number, over: Partial<Product>) => ({
      push: {
        entity: 'reported_product' as const,
        op: 'upsert' as const,
        id: 'p1',
        row: {
          ...product('p1', { reported: true, ...over }),
          reports: [{ by_name: 'Nusrat', reason: 'Fake photos', at: '2025-02-01T10:00:00.000Z' }],
          reports_taken: 1,
        },
        position,
      },
      rooms: [rooms.admins],
    });
    await given(listed('p1'), {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'Nusrat', reason: 'Fake photos' },
      at: '2025-02-01T10:00:00.000Z',
    })
      .when(
        { type: 'ProductMarkedSold', data: { productId: 'p1', bookingId: 'bk1', buyerName: 'Rahim' } },
        { type: 'ProductMarkedAvailable', data: { productId: 'p1' } },
      )
      .then({
        rows: { [FLAGS]: [flags('p1', { reported: true })] },
        pushes: [
          upsert('p1', 3, { sold: true, paid_sale: true, reported: true, listedAt: 1 }, { sold: false, paid_sale: false }),
          reportedRow(3, { sold: true, paid_sale: true }),
          upsert('p1', 4, { reported: true, listedAt: 1 }, { sold: true, paid_sale: true }),
          reportedRow(4, {}),
        ],
      });
  });

  it('ProductRemoved of a reported product: its row and reports go; removals to everyone and to the admins', async () => {
    await given(listed('p1'), listed('p2'), {
      type: 'ProductReported',
      data: { productId: 'p1', reporterId: 'b1', reporterName: 'N', reason: 'r' },
    })
      .when({ type: 'ProductRemoved', data: { productId: 'p1', reason: 'reported' } })
      .then({
        rows: {
          'select id from products': [{ id: 'p2' }],
          'select * from reports': [],
          // Why it left and where others like it are, for its page (a 410); nothing of what it said.
          'select id, reason, category_id, category_name, removed_on::text as day from removed': [
            { id: 'p1', reason: 'reported', category_id: 'c1', category_name: 'Sony', day: '2025-01-01' },
          ],
        },
        pushes: [
          // The removed row goes along for the gateway's routing to views (never to a browser).
          {
            push: { entity: 'product', op: 'remove', id: 'p1', position: 4, ...routeOf(product('p1', { reported: true })) },
            rooms: [rooms.everyone],
          },
          { push: { entity: 'reported_product', op: 'remove', id: 'p1', position: 4 }, rooms: [rooms.admins] },
        ],
      });
  });

  it('ProductRemoved of a product nobody reported: one removal, to everyone', async () => {
    await given(listed('p1'))
      .when({ type: 'ProductRemoved', data: { productId: 'p1', reason: 'seller-deleted' } })
      .then({
        rows: { 'select id from products': [], 'select id, reason from removed': [{ id: 'p1', reason: 'seller-deleted' }] },
        pushes: [{ push: { entity: 'product', op: 'remove', id: 'p1', position: 2, ...routeOf(product('p1')) }, rooms: [rooms.everyone] }],
      });
  });
});
