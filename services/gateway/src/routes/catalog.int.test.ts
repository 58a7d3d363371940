import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, ReportedProduct } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

/** An uploaded image's address: 40 hex digits (one repeated) and its type. */
const uploaded = (hex: string, ext = 'jpg') => `/api/images/${hex.repeat(40)}.${ext}`;

describe('catalog API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  it('when a visitor browses, then categories, blogs and products need no token', async () => {
    const cats = await shop.call('GET', '/categories');
    expect(cats.status).toBe(200);
    expect(cats.body.length).toBeGreaterThanOrEqual(3);
    expect(cats.body[0]).toEqual({
      _id: expect.any(String),
      category_name: expect.any(String),
      name: expect.any(String),
      bgColor: expect.any(String),
      color: expect.any(String),
    });
    const blogs = await shop.call('GET', '/blogs');
    expect(blogs.body.length).toBeGreaterThanOrEqual(3);
    expect(blogs.body[0]).toMatchObject({ _id: expect.any(String), ques: expect.any(String), para1: expect.any(String) });
    expect((await shop.call('GET', '/all_products')).status).toBe(200);
    expect((await shop.call('GET', '/advertise_products')).status).toBe(200);
    expect((await shop.call('GET', '/products/samsung')).status).toBe(200);
    expect((await shop.call('GET', '/products/no-such-category')).status).toBe(404);
  });

  it('when a seller adds a product, then it is listed with the seller and category from the server, not the form', async () => {
    const seller = await shop.signup('Seller', 'Karim');
    const res = await shop.call('POST', '/products', {
      token: seller.token,
      body: shop.productBody({
        seller: 'Someone Else',
        sellerEmail: 'evil@example.com',
        category_name: 'Fake',
        sold: true,
        resale_price: '24999.50',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ acknowledged: true, insertedId: expect.any(String), position: expect.any(Number) });
    const list: Product[] = (await shop.call('GET', '/all_products')).body;
    const p = list.find((x) => x._id === res.body.insertedId)!;
    expect(p).toMatchObject({
      seller: 'Karim',
      sellerEmail: seller.user.email,
      sellerVerified: false,
      category_name: 'Samsung',
      sold: false,
      reported: false,
      advertised: false,
      resale_price: 24999.5,
      orginal_price: 52000,
      use_duration: '2 years',
      product_condition: 'Good',
    });
    expect(p.post_date).toMatch(/^\d{1,2}-\d{1,2}-\d{4}$/);
    expect(p.post_date).not.toMatch(/^0|-0/);
    expect((await shop.call('GET', '/products/samsung')).body.map((x: Product) => x._id)).toContain(p._id);
    const mine = await shop.call('GET', `/seller_products?email=${seller.user.email}`, { token: seller.token });
    expect(mine.body.map((x: Product) => x._id)).toEqual([p._id]);
  });

  it('when a seller lists several photos with thumbnails, then the product carries them in order; the spec’s one photo still lists as before', async () => {
    const seller = await shop.signup('Seller');
    const photos = [uploaded('a'), 'https://img.example/b.jpg', uploaded('c', 'png')];
    const thumbs = [uploaded('d', 'webp'), uploaded('e', 'webp'), uploaded('f', 'webp')];
    const many = await shop.addProduct(seller.token, { productImage: photos[0], productImages: photos, productThumbnails: thumbs });
    expect(many).toMatchObject({ productImage: photos[0], productImages: photos, productThumbnails: thumbs });
    const page = await shop.call('GET', `/product/${many._id}`);
    expect(page.body.product).toMatchObject({ productImages: photos, productThumbnails: thumbs });

    const one = await shop.addProduct(seller.token, { productImage: 'https://example.com/only.png' });
    expect(one).toMatchObject({
      productImage: 'https://example.com/only.png',
      productImages: ['https://example.com/only.png'],
      productThumbnails: ['https://example.com/only.png'],
    });
  });

  it('when the photos are bad (nine, none, not a list, a bad address, a cover that is not first, thumbnails that do not match), then 400 naming the field and nothing is listed', async () => {
    const seller = await shop.signup('Seller');
    const before = (await shop.call('GET', '/all_products')).body.length;
    const cover = 'https://example.com/tv.png';
    const nine = [cover, ...Array.from({ length: 8 }, (_, i) => uploaded(String(i)))];
    const cases: [Record<string, unknown>, string][] = [
      [{ productImages: nine }, 'productImages'],
      [{ productImages: [] }, 'productImages'],
      [{ productImages: cover }, 'productImages'],
      [{ productImages: [cover, 'javascript:alert(1)'] }, 'productImages.1'],
      [{ productImages: [uploaded('b'), cover] }, 'productImages'],
      [{ productImages: [cover, uploaded('b')], productThumbnails: [uploaded('d', 'webp')] }, 'productThumbnails'],
      [{ productThumbnails: [uploaded('d', 'webp'), uploaded('e', 'webp')] }, 'productThumbnails'],
      [{ productThumbnails: ['ftp://x'] }, 'productThumbnails.0'],
      // A thumbnail is one this shop made; a path that only starts like an upload is not one.
      [{ productThumbnails: ['https://tracker.example/pixel.gif'] }, 'productThumbnails.0'],
      [{ productImages: [cover, '/api/images/../../api/health'] }, 'productImages.1'],
    ];
    for (const [over, field] of cases) {
      const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody(over) });
      expect(res.status, field).toBe(400);
      expect(res.headers.get('content-type'), field).toMatch(/application\/problem\+json/);
      expect(res.body.field, JSON.stringify(over)).toBe(field);
    }
    expect((await shop.call('GET', '/all_products')).body.length).toBe(before);
  });

  it('when a product form is bad, then 400 naming the field and nothing is listed', async () => {
    const seller = await shop.signup('Seller');
    const before = (await shop.call('GET', '/all_products')).body.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ porduct_name: '' }, 'porduct_name'],
      [{ resale_price: 'cheap' }, 'resale_price'],
      [{ orginal_price: -5 }, 'orginal_price'],
      [{ use_duration: '11 years' }, 'use_duration'],
      [{ product_condition: 'Broken' }, 'product_condition'],
      [{ phone_number: undefined }, 'phone_number'],
      // A phone number the buyer could not call is refused, not stored.
      [{ phone_number: 'abc' }, 'phone_number'],
      [{ phone_number: '0171234567a' }, 'phone_number'],
      [{ phone_number: '017' }, 'phone_number'],
      [{ phone_number: '+88 0171 2345 6789 0123' }, 'phone_number'],
      // A negative price is refused as such, never turned into 0.
      [{ resale_price: '-5' }, 'resale_price'],
      [{ productImage: 'ftp://x' }, 'productImage'],
      [{ productImage: '/api/images/../../api/health' }, 'productImage'],
      [{ resale_price: 30_000_000 }, 'resale_price'],
    ];
    for (const [over, field] of cases) {
      const res = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody(over) });
      expect(res.status, field).toBe(400);
      expect(res.body.field).toBe(field);
    }
    // The answer names every bad field, in words the form can show as they are.
    const both = await shop.call('POST', '/products', {
      token: seller.token,
      body: shop.productBody({ resale_price: -5, phone_number: 'abc' }),
    });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([
      { field: 'resale_price', message: 'must be at least 0.01 TK' },
      { field: 'phone_number', message: 'must be made of digits, like 01712-345678 or +880 1712 345678' },
    ]);
    const unknownCategory = await shop.call('POST', '/products', { token: seller.token, body: shop.productBody({ category_id: 'nokia' }) });
    expect(unknownCategory.status).toBe(400);
    expect(unknownCategory.body.field).toBe('category_id');
    expect((await shop.call('GET', '/all_products')).body.length).toBe(before);
  });

  it('when a phone number is written with spaces, dashes, brackets or a country code, then it is taken', async () => {
    const seller = await shop.signup('Seller');
    // People write phone numbers with spaces, dashes and a country code.
    for (const phone_number of ['01712-345678', '+880 1712 345678', '(02) 9123456']) {
      const listed = await shop.addProduct(seller.token, { phone_number: ` ${phone_number} ` });
      expect(listed.phone_number).toBe(phone_number);
    }
  });

  it('when anyone but a seller adds a product, then 401 or 403', async () => {
    const buyer = await shop.signup('Buyer');
    expect((await shop.call('POST', '/products', { body: shop.productBody() })).status).toBe(401);
    expect((await shop.call('POST', '/products', { token: buyer.token, body: shop.productBody() })).status).toBe(403);
    expect((await shop.call('POST', '/products', { token: (await shop.admin()).token, body: shop.productBody() })).status).toBe(403);
  });

  it('when the seller toggles sold and advertised, then only the current state can change, and only by its owner', async () => {
    const seller = await shop.signup('Seller');
    const other = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const put = (path: string, token?: string) =>
      shop.call('PUT', `/product/${path}/${p._id}`, { token, headers: { 'content-type': 'application/json' } });
    const current = async () => ((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)!;

    expect((await put('get_advertise', other.token)).status).toBe(403);
    expect((await put('get_advertise', buyer.token)).status).toBe(403);
    expect((await put('get_advertise')).status).toBe(401);
    expect((await put('get_advertise', seller.token)).body).toMatchObject({ acknowledged: true });
    expect(await current()).toMatchObject({ advertised: true });
    expect((await shop.call('GET', '/advertise_products')).body.map((x: Product) => x._id)).toContain(p._id);
    expect((await put('get_advertise', seller.token)).status).toBe(409);
    expect((await put('remove_advertise', seller.token)).status).toBe(200);
    expect(await current()).toMatchObject({ advertised: false });
    expect((await put('remove_advertise', seller.token)).status).toBe(409);

    expect((await put('unsold_status', seller.token)).status).toBe(409);
    expect((await put('sold_status', other.token)).status).toBe(403);
    expect((await put('sold_status', seller.token)).status).toBe(200);
    expect(await current()).toMatchObject({ sold: true });
    expect((await put('sold_status', seller.token)).status).toBe(409);
    expect((await put('get_advertise', seller.token)).status).toBe(409);
    expect((await put('unsold_status', seller.token)).status).toBe(200);
    expect(await current()).toMatchObject({ sold: false });
    expect((await shop.call('PUT', '/product/sold_status/00000000-0000-0000-0000-000000000000', { token: seller.token })).status).toBe(404);
    expect((await shop.call('PUT', '/product/sold_status/%27%20or%201=1', { token: seller.token })).status).toBe(404);
  });

  describe('a seller edits a listing (PUT /product/{id})', () => {
    const edit = (token: string | undefined, id: string, over: Record<string, unknown> = {}) =>
      shop.call('PUT', `/product/${id}`, { token, body: shop.productBody(over) });

    it('when its seller lowers the price, rewrites the details and moves it to another brand, then every list shows it as edited; sent again, nothing changes', async () => {
      const seller = await shop.signup('Seller', 'Rahim');
      const p = await shop.addProduct(seller.token, { porduct_name: 'Samsung 40" Plasma' });
      const res = await edit(seller.token, p._id, {
        porduct_name: 'Sony 40" Plasma',
        details: 'Quietfan model, wall mount included',
        resale_price: '19999.50',
        category_id: 'sony',
        product_condition: 'Fair',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ acknowledged: true, modifiedCount: 1, position: expect.any(Number) });
      const page = (await shop.call('GET', `/product/${p._id}`)).body.product as Product;
      expect(page).toMatchObject({
        porduct_name: 'Sony 40" Plasma',
        details: 'Quietfan model, wall mount included',
        resale_price: 19999.5,
        category_id: 'sony',
        category_name: 'Sony',
        product_condition: 'Fair',
        // What the seller may not change stays: who sells it, and when it was posted.
        seller: 'Rahim',
        sellerEmail: seller.user.email,
        post_date: p.post_date,
      });
      expect((await shop.call('GET', '/products/samsung')).body.map((x: Product) => x._id)).not.toContain(p._id);
      expect((await shop.call('GET', '/products/sony')).body.map((x: Product) => x._id)).toContain(p._id);
      const found = await shop.call('GET', '/products/search?q=quietfan');
      expect(found.body.items.map((x: Product) => x._id)).toEqual([p._id]);

      const again = await edit(seller.token, p._id, {
        porduct_name: 'Sony 40" Plasma',
        details: 'Quietfan model, wall mount included',
        resale_price: 19999.5,
        category_id: 'sony',
        product_condition: 'Fair',
      });
      expect(again.status).toBe(200);
      expect(again.body.modifiedCount).toBe(0);
    });

    it('when the form was filled before another edit (edits), then 409 naming edits and nothing changes; on the listing as it is now, saved', async () => {
      const seller = await shop.signup('Seller');
      const p = await shop.addProduct(seller.token, { porduct_name: 'LG 32" LED' });
      expect(p.edits).toBe(0);
      const page = async () => (await shop.call('GET', `/product/${p._id}`)).body.product as Product;
      // Two tabs open the edit form at edits 0; the first saves a new name.
      expect((await edit(seller.token, p._id, { porduct_name: 'LG 32" LED, wall mount', edits: 0 })).status).toBe(200);
      expect(await page()).toMatchObject({ porduct_name: 'LG 32" LED, wall mount', edits: 1 });
      // The second, still showing the old name, would put it back: refused, and nothing changes.
      const stale = await edit(seller.token, p._id, { resale_price: 9000, edits: 0 });
      expect([stale.status, stale.body.field]).toEqual([409, 'edits']);
      expect(stale.body.detail).toMatch(/changed elsewhere since you opened it/);
      expect(await page()).toMatchObject({ porduct_name: 'LG 32" LED, wall mount', resale_price: p.resale_price, edits: 1 });
      // Loaded again, it saves; a save that changes nothing counts no edit.
      const fresh = await edit(seller.token, p._id, { porduct_name: 'LG 32" LED, wall mount', resale_price: 9000, edits: 1 });
      expect([fresh.status, fresh.body.modifiedCount]).toEqual([200, 1]);
      const same = await edit(seller.token, p._id, { porduct_name: 'LG 32" LED, wall mount', resale_price: 9000, edits: 2 });
      expect([same.status, same.body.modifiedCount]).toEqual([200, 0]);
      expect(await page()).toMatchObject({ resale_price: 9000, edits: 2 });
      // A count that is not one: 400 naming it. Without one (the spec's client), the last edit wins.
      for (const bad of ['1', -1, 1.5]) {
        const res = await edit(seller.token, p._id, { resale_price: 1, edits: bad });
        expect([res.status, res.body.field], String(bad)).toEqual([400, 'edits']);
      }
      expect((await edit(seller.token, p._id, { porduct_name: 'LG 32"', resale_price: 8000 })).status).toBe(200);
      expect(await page()).toMatchObject({ porduct_name: 'LG 32"', resale_price: 8000, edits: 3 });
    });

    it('when anyone but its seller edits it (another seller, a buyer, the admin, nobody), then 401/403 and it is unchanged', async () => {
      const seller = await shop.signup('Seller');
      const rival = await shop.signup('Seller');
      const buyer = await shop.signup('Buyer');
      const admin = await shop.admin();
      const p = await shop.addProduct(seller.token);
      expect((await edit(rival.token, p._id, { resale_price: 1 })).status).toBe(403);
      expect((await edit(buyer.token, p._id, { resale_price: 1 })).status).toBe(403);
      expect((await edit(admin.token, p._id, { resale_price: 1 })).status).toBe(403);
      expect((await edit(undefined, p._id, { resale_price: 1 })).status).toBe(401);
      expect((await shop.call('GET', `/product/${p._id}`)).body.product.resale_price).toBe(p.resale_price);
    });

    it('when the edit is bad, names a brand that does not exist or a product that does not, then 4xx naming the field and nothing changes', async () => {
      const seller = await shop.signup('Seller');
      const p = await shop.addProduct(seller.token);
      for (const [over, field] of [
        [{ porduct_name: ' ' }, 'porduct_name'],
        [{ resale_price: '38,00' }, 'resale_price'],
        [{ phone_number: 'call me' }, 'phone_number'],
        [{ productImages: ['https://example.com/other.png'] }, 'productImages'],
      ] as const) {
        const res = await edit(seller.token, p._id, over);
        expect(res.status, field).toBe(400);
        expect(res.body.field, field).toBe(field);
      }
      const noBrand = await edit(seller.token, p._id, { category_id: 'no-such-brand' });
      expect([noBrand.status, noBrand.body.field, noBrand.body.errors]).toEqual([
        400,
        'category_id',
        [{ field: 'category_id', message: 'is not a category of TV Shop' }],
      ]);
      expect((await edit(seller.token, 'no-such-product')).status).toBe(404);
      const page = (await shop.call('GET', `/product/${p._id}`)).body.product as Product;
      expect(page).toEqual({ ...p, sellerVerified: page.sellerVerified });
    });

    it('when it is sold or buyers reported it, then 409; when buyers booked it, their bookings are cancelled (a confirmed card refunded) and booking again takes the listing as it is now', async () => {
      const seller = await shop.signup('Seller');
      const buyer = await shop.signup('Buyer');
      const sold = await shop.addProduct(seller.token);
      await shop.call('PUT', `/product/sold_status/${sold._id}`, { token: seller.token });
      expect((await edit(seller.token, sold._id, { resale_price: 1 })).status).toBe(409);
      const reported = await shop.addProduct(seller.token);
      await shop.call('PUT', `/product/add_reported/${reported._id}`, { token: buyer.token, body: { reason: 'fake' } });
      expect((await edit(seller.token, reported._id, { details: 'nothing to see' })).status).toBe(409);

      const p = await shop.addProduct(seller.token, { resale_price: 25000, porduct_name: 'Sony 43" A' });
      const before = await shop.book(buyer.token, p._id);
      // A second buyer has already paid the provider (card confirmed), not yet told the shop.
      const other = await shop.signup('Buyer');
      const otherBooking = await shop.book(other.token, p._id);
      const { confirm } = await shop.confirmCard(other.token, otherBooking);
      expect(confirm.body.paymentIntent.status).toBe('succeeded');
      expect((await edit(seller.token, p._id, { resale_price: 21000, porduct_name: 'Sony 43" B' })).status).toBe(200);

      type Row = { _id: string; price: number; porduct_name: string; status?: string; cancel_reason?: string; paid: boolean };
      const bookingOf = async (token: string, email: string, id: string) =>
        ((await shop.call('GET', `/bookings?email=${email}`, { token })).body as Row[]).find((b) => b._id === id);
      // The buyers booked the listing as it was: their bookings are cancelled, and they are told why.
      await expect
        .poll(async () => (await bookingOf(buyer.token, buyer.user.email, before))?.cancel_reason, { timeout: 10_000 })
        .toMatch(/seller changed the listing/);
      // The money the other buyer had given goes back: their payment buys nothing now.
      const late = await shop.call('POST', '/payments', {
        token: other.token,
        body: { bookingId: otherBooking, transationId: confirm.body.paymentIntent.id },
      });
      expect(late.status).toBe(409);
      expect(late.body.detail).toMatch(/seller changed this listing.*refunded/);
      // Booked again, it is at the listing as it is now.
      expect(await shop.book(buyer.token, p._id)).toBe(before);
      expect(await bookingOf(buyer.token, buyer.user.email, before)).toMatchObject({
        price: 21000,
        porduct_name: 'Sony 43" B',
        paid: false,
      });
      expect((await shop.call('GET', `/product/${p._id}`)).body.product.sold).toBe(false);
    });

    it('when its seller only puts its photos in another order, then the bookings stay, a buyer who opened it before books it, and a buyer pays on the terms they booked; another photo in place of one cancels them (ADR 0073)', async () => {
      const seller = await shop.signup('Seller');
      const [first, second, third] = [await shop.signup('Buyer'), await shop.signup('Buyer'), await shop.signup('Buyer')];
      const photos = [uploaded('5'), uploaded('6'), uploaded('7')];
      const p = await shop.addProduct(seller.token, { productImage: photos[0], productImages: photos });
      const firstBooking = await shop.book(first.token, p._id);
      const secondBooking = await shop.book(second.token, p._id);
      const { confirm } = await shop.confirmCard(second.token, secondBooking);
      const reordered = [photos[2]!, photos[0]!, photos[1]!];
      expect((await edit(seller.token, p._id, { productImage: reordered[0], productImages: reordered })).status).toBe(200);
      expect((await shop.call('GET', `/product/${p._id}`)).body.product).toMatchObject({
        productImage: photos[2],
        productImages: reordered,
      });
      // A buyer whose dialog opened before the reorder saw the same photos: their booking is placed.
      const thirdBooking = await shop.book(third.token, p._id, { edits: 0 });

      // The reorder cancels nothing: the second buyer's payment buys the TV, and the first buyer's
      // booking is cancelled because it was sold, not because the seller changed it.
      const paid = await shop.call('POST', '/payments', {
        token: second.token,
        body: { bookingId: secondBooking, transationId: confirm.body.paymentIntent.id },
      });
      expect(paid.status).toBe(200);
      type Row = { _id: string; cancel_reason?: string };
      const reasonOf = async (token: string, email: string, id: string) =>
        ((await shop.call('GET', `/bookings?email=${email}`, { token })).body as Row[]).find((b) => b._id === id)?.cancel_reason;
      await expect.poll(() => reasonOf(first.token, first.user.email, firstBooking), { timeout: 10_000 }).toBe('sold to another buyer');
      await expect.poll(() => reasonOf(third.token, third.user.email, thirdBooking), { timeout: 10_000 }).toBe('sold to another buyer');

      // Another photo in place of one is another listing: a booking of it is cancelled.
      const q = await shop.addProduct(seller.token, { productImage: photos[0], productImages: photos });
      const booked = await shop.book(first.token, q._id);
      const swapped = [photos[0]!, photos[1]!, uploaded('8')];
      expect((await edit(seller.token, q._id, { productImage: swapped[0], productImages: swapped })).status).toBe(200);
      await expect.poll(() => reasonOf(first.token, first.user.email, booked), { timeout: 10_000 }).toMatch(/seller changed the listing/);
      // Nor is it booked by a dialog opened before it: the buyer is asked to look again.
      const stale = await shop.call('POST', '/bookings', {
        token: second.token,
        body: { product_id: q._id, phone_number: '01800000000', meeting_location: 'Mirpur 10', edits: 0 },
      });
      expect([stale.status, stale.body.field]).toEqual([409, 'edits']);
    });

    it('when an edit sends only the cover (the spec’s one-photo body), then the listing keeps its other photos and their thumbnails', async () => {
      const seller = await shop.signup('Seller');
      const photos = [uploaded('1'), uploaded('2')];
      const thumbs = [uploaded('3', 'webp'), uploaded('4', 'webp')];
      const p = await shop.addProduct(seller.token, { productImage: photos[0], productImages: photos, productThumbnails: thumbs });
      expect((await edit(seller.token, p._id, { productImage: photos[0], details: 'With its stand' })).status).toBe(200);
      expect((await shop.call('GET', `/product/${p._id}`)).body.product).toMatchObject({
        details: 'With its stand',
        productImages: photos,
        productThumbnails: thumbs,
      });
    });
  });

  it('when the admin dismisses the reports of a listing, then it stays for sale unreported, leaves Reported Items live, and may be reported and withdrawn again; only the admin may', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const admin = await shop.admin();
    const p = await shop.addProduct(seller.token);
    const path = `/product/dismiss_reports/${p._id}`;
    expect((await shop.call('PUT', path, { token: admin.token })).status).toBe(409); // nothing to dismiss
    await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token, body: { reason: 'Looks fake' } });
    expect((await shop.call('PUT', `/product/withdraw/${p._id}`, { token: seller.token })).status).toBe(409);
    // The buyer's own open reports, for their app after a reload; theirs alone, for buyers alone.
    const mine = (token?: string) => shop.call('GET', '/reports/mine', { token });
    expect((await mine(buyer.token)).body).toEqual([p._id]);
    expect((await mine((await shop.signup('Buyer')).token)).body).toEqual([]);
    expect([(await mine()).status, (await mine(seller.token)).status, (await mine(admin.token)).status]).toEqual([401, 403, 403]);
    const admins = await shop.socket({ token: admin.token });

    for (const token of [undefined, buyer.token, seller.token]) {
      const refused = await shop.call('PUT', path, { token });
      expect(refused.status).toBe(token ? 403 : 401);
      expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    }
    // The admin was shown fewer reports than there are (one came since): refused, so none is dismissed unseen.
    const unseen = await shop.call('PUT', path, { token: admin.token, body: { reports: 0 } });
    expect([unseen.status, unseen.body.field]).toEqual([409, 'reports']);
    expect((await shop.call('PUT', path, { token: admin.token, body: { reports: 'x' } })).body).toMatchObject({ field: 'reports' });
    const dismissed = await shop.call('PUT', path, { token: admin.token, body: { reports: 1 } });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({ acknowledged: true, modifiedCount: 1 });
    expect((await shop.call('GET', '/reported_products', { token: admin.token })).body.map((x: Product) => x._id)).not.toContain(p._id);
    expect(((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)).toMatchObject({
      reported: false,
      sold: false,
    });
    await expect.poll(() => admins.pushes.some((x) => x.entity === 'reported_product' && x.op === 'remove' && x.id === p._id)).toBe(true);
    // Kept in the log: the report and its dismissal, by the admin.
    const log = await shop.pool.query<{ type: string }>(
      `select type from es.events where stream_id = $1 and type like 'ProductReport%' order by position`,
      [`product-${p._id}`],
    );
    expect(log.rows.map((r) => r.type)).toEqual(['ProductReported', 'ProductReportsDismissed']);
    // Dismissed, it is no longer among the buyer's reports: they may report it again.
    expect((await mine(buyer.token)).body).toEqual([]);
    // A second admin's tab still lists it as reported: its Delete is refused, and the listing stays.
    const staleDelete = await shop.call('DELETE', `/product/${p._id}`, { token: admin.token, body: { reported: true, paid_sale: false } });
    expect([staleDelete.status, staleDelete.body.field]).toEqual([409, 'reports']);
    expect((await shop.call('GET', `/product/${p._id}`)).status).toBe(200);

    // The same buyer may report it again; once dismissed again, its seller may withdraw it.
    expect((await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token })).status).toBe(200);
    const listedAgain = (await shop.call('GET', '/reported_products', { token: admin.token })).body as ReportedProduct[];
    expect(listedAgain.find((x) => x._id === p._id)).toMatchObject({ reports: [expect.anything()], reports_taken: 2 });
    // A tab still showing the first report (dismissed above) counts 1 report of 1 taken: as many
    // reports as now, but not this one, so it is refused; shown as it is now, it passes.
    const stale = await shop.call('PUT', path, { token: admin.token, body: { reports: 1, reports_taken: 1 } });
    expect([stale.status, stale.body.field]).toEqual([409, 'reports']);
    expect((await shop.call('PUT', path, { token: admin.token, body: { reports_taken: 2 } })).status).toBe(200);
    expect((await shop.call('PUT', `/product/withdraw/${p._id}`, { token: seller.token })).status).toBe(200);
    expect((await shop.call('PUT', path, { token: admin.token })).status).toBe(404);
  });

  it('when a buyer reports a product, then it is reported once, the admin sees it, and removing it takes it off every list', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const buyer2 = await shop.signup('Buyer');
    const admin = await shop.admin();
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('PUT', `/product/add_reported/${p._id}`, { token: seller.token })).status).toBe(403);
    expect((await shop.call('GET', '/reported_products', { token: buyer.token })).status).toBe(403);
    const rep = await shop.call('PUT', `/product/add_reported/${p._id}`, {
      token: buyer.token,
      body: { reason: '  Photo shows another TV ' },
    });
    expect(rep.body).toMatchObject({ acknowledged: true });
    const again = await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer.token, body: { reason: 'again' } });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/problem\+json/);
    // The spec's client sends no body at all; another buyer may report too.
    expect((await shop.call('PUT', `/product/add_reported/${p._id}`, { token: buyer2.token })).status).toBe(200);
    const reported = await shop.call('GET', '/reported_products', { token: admin.token });
    expect(reported.body.map((x: Product) => x._id)).toContain(p._id);
    const row = reported.body.find((x: ReportedProduct) => x._id === p._id) as ReportedProduct;
    expect(row.reported).toBe(true);
    expect(row.reports.map((r) => [r.by_name, r.reason])).toEqual([
      [buyer.user.name, 'Photo shows another TV'],
      [buyer2.user.name, ''],
    ]);
    for (const r of row.reports) expect(new Date(r.at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Only the admin removes (its own seller withdraws it with PUT /product/withdraw: sale-is-final.int).
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: seller.token })).status).toBe(403);
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: buyer.token })).status).toBe(403);
    // What the admin was shown, when sent, must be well formed: refused naming the field, nothing removed.
    const malformed = await shop.call('DELETE', `/product/${p._id}`, { token: admin.token, body: { reported: true, paid_sale: 'no' } });
    expect([malformed.status, malformed.body.field]).toEqual([400, 'paid_sale']);
    expect((await shop.call('GET', `/product/${p._id}`)).status).toBe(200);
    const del = await shop.call('DELETE', `/product/${p._id}`, { token: admin.token, body: { reported: true, paid_sale: false } });
    expect(del.body).toMatchObject({ acknowledged: true });
    expect((await shop.call('GET', '/all_products')).body.map((x: Product) => x._id)).not.toContain(p._id);
    expect((await shop.call('GET', '/reported_products', { token: admin.token })).body.map((x: Product) => x._id)).not.toContain(p._id);
    expect((await shop.call('DELETE', `/product/${p._id}`, { token: admin.token })).status).toBe(404);
  });

  it('when a listing leaves the shop (withdrawn, removed by the admin after reports or not, its seller deleted), then its page answers 410 saying why and naming its category; one never listed is 404', async () => {
    const seller = await shop.signup('Seller');
    const leaving = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const admin = await shop.admin();
    const [withdrawn, reported, removed] = [
      await shop.addProduct(seller.token),
      await shop.addProduct(seller.token),
      await shop.addProduct(seller.token),
    ];
    const orphan = await shop.addProduct(leaving.token);
    const leftBefore = await shop.addProduct(leaving.token);
    expect((await shop.call('PUT', `/product/withdraw/${leftBefore._id}`, { token: leaving.token })).status).toBe(200);
    expect((await shop.call('GET', `/product/${withdrawn._id}`)).status).toBe(200);
    expect((await shop.call('PUT', `/product/withdraw/${withdrawn._id}`, { token: seller.token })).status).toBe(200);
    expect((await shop.call('PUT', `/product/add_reported/${reported._id}`, { token: buyer.token })).status).toBe(200);
    expect((await shop.call('DELETE', `/product/${reported._id}`, { token: admin.token })).status).toBe(200);
    expect((await shop.call('DELETE', `/product/${removed._id}`, { token: admin.token })).status).toBe(200);
    expect((await shop.call('DELETE', `/users/${leaving.user._id}`, { token: admin.token })).status).toBe(200);

    const cases = [
      [withdrawn, 'withdrawn', 'its seller took it off TV Shop'],
      [reported, 'reported', 'TV Shop removed it after it was reported'],
      [removed, 'admin', 'TV Shop removed it'],
      [orphan, 'seller-deleted', 'its seller is no longer on TV Shop'],
    ] as const;
    for (const [p, reason, why] of cases) {
      // Anyone may ask (a shared link): the answer is the same with or without a session.
      for (const token of [undefined, buyer.token]) {
        const res = await shop.call('GET', `/product/${p._id}`, token ? { token } : {});
        expect(res.status).toBe(410);
        expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(res.body).toMatchObject({
          status: 410,
          title: 'Gone',
          field: 'id',
          detail: `This TV is no longer for sale: ${why}`,
          removed: { reason, category: { id: p.category_id, name: p.category_name } },
        });
        if (reason === 'seller-deleted') {
          // Not the day: it would say when the admin closed the seller's account.
          expect(res.body.removed).not.toHaveProperty('removedOn');
        } else {
          // The day only (UTC), not the time.
          const days = [Date.now(), Date.now() - 60_000].map((t) => new Date(t).toISOString().slice(0, 10)); // a run across midnight
          expect(days).toContain(res.body.removed.removedOn);
        }
        // Nothing of what it said, nor of who sold it, is in the answer.
        expect(JSON.stringify(res.body)).not.toContain(p.porduct_name);
        expect(JSON.stringify(res.body)).not.toContain(p.sellerId);
      }
    }
    const never = await shop.call('GET', '/product/0123456789abcdef01234567');
    expect(never.status).toBe(404);
    expect(never.body.removed).toBeUndefined();

    // Its seller's My Products lists what was taken off, newest first, with why and the day: only
    // their own, only to them.
    const own = await shop.call('GET', '/seller_removed_products', { token: seller.token });
    expect(own.status).toBe(200);
    expect(own.body.map((r: { _id: string; porduct_name: string; reason: string }) => [r._id, r.porduct_name, r.reason])).toEqual([
      [removed._id, removed.porduct_name, 'admin'],
      [reported._id, reported.porduct_name, 'reported'],
      [withdrawn._id, withdrawn.porduct_name, 'withdrawn'],
    ]);
    const days = [Date.now(), Date.now() - 60_000].map((t) => new Date(t).toISOString().slice(0, 10));
    for (const r of own.body) expect(days).toContain(r.removedOn);
    expect((await shop.call('GET', '/seller_removed_products', { token: (await shop.signup('Seller')).token })).body).toEqual([]);
    expect((await shop.call('GET', '/seller_removed_products', { token: buyer.token })).status).toBe(403);
    expect((await shop.call('GET', '/seller_removed_products')).status).toBe(401);
    // A closed account's listings keep nothing of who sold them or what they were called: the one
    // taken off with the account, and the one its seller withdrew before.
    const { rows } = await shop.pool.query('select id, seller_id, name from rm_catalog.removed where id = any($1) order by id', [
      [orphan._id, leftBefore._id],
    ]);
    expect(rows).toEqual([orphan._id, leftBefore._id].sort().map((id) => ({ id, seller_id: null, name: '' })));
  });

  it("when a seller asks for another seller's products, then 403; the admin may", async () => {
    const a = await shop.signup('Seller');
    const b = await shop.signup('Seller');
    expect((await shop.call('GET', `/seller_products?email=${b.user.email}`, { token: a.token })).status).toBe(403);
    expect((await shop.call('GET', `/seller_products?email=${b.user.email}`, { token: (await shop.admin()).token })).status).toBe(200);
    expect((await shop.call('GET', '/seller_products', { token: a.token })).status).toBe(400);
  });

  it('when an unknown API path is called, then a problem+json 404', async () => {
    const res = await shop.call('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    for (const [path, field] of [
      ['/users_by_seller?seller=%00', 'seller'],
      ['/products/a%00b', 'path'],
    ]) {
      const res = await shop.call('GET', path!);
      expect(res.status, path).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const nul = await shop.call('POST', '/auth/signup', {
      raw: '{"name":"a\\u0000b","email":"n@x.co","password":"secret-pass","role":"Buyer"}',
    });
    expect(nul.body).toMatchObject({ status: 400, field: 'name' });
    const lone = await shop.call('POST', '/auth/signup', {
      raw: '{"name":"a\\ud800","email":"n@x.co","password":"secret-pass","role":"Buyer"}',
    });
    expect(lone.body).toMatchObject({ status: 400, field: 'name' });
    const undecodable = await shop.call('GET', '/products/%E0%A4%A');
    expect(undecodable.status).toBe(400);
    expect(undecodable.body.field).toBe('path');
  });
});
