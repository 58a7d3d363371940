import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product, User } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';

describe('users and admin API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  it('when a user checks roles, then only their own (the admin may check anyone)', async () => {
    const buyer = await shop.signup('Buyer');
    const seller = await shop.signup('Seller');
    const admin = await shop.admin();
    expect((await shop.call('GET', `/users_buyer/${buyer.user.email}`, { token: buyer.token })).body).toEqual({ isBuyer: true });
    expect((await shop.call('GET', `/users_seller/${buyer.user.email}`, { token: buyer.token })).body).toEqual({ isSeller: false });
    expect((await shop.call('GET', `/users_admin/${buyer.user.email}`, { token: buyer.token })).body).toEqual({ isAdmin: false });
    expect((await shop.call('GET', `/users_seller/${seller.user.email}`, { token: buyer.token })).status).toBe(403);
    expect((await shop.call('GET', `/users_seller/${seller.user.email}`)).status).toBe(401);
    expect((await shop.call('GET', `/users_admin/${admin.user.email}`, { token: admin.token })).body).toEqual({ isAdmin: true });
    expect((await shop.call('GET', `/users_seller/${seller.user.email}`, { token: admin.token })).body).toEqual({ isSeller: true });
    expect((await shop.call('GET', `/users?email=${seller.user.email}`, { token: buyer.token })).status).toBe(403);
  });

  it('when a user updates their profile, then only name and photo change; role and other people are out of reach', async () => {
    const seller = await shop.signup('Seller', 'Old Name');
    const other = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const put = (email: string, body: unknown, token = seller.token) => shop.call('PUT', `/users?email=${email}`, { token, body });
    const ok = await put(seller.user.email, {
      name: 'New Name',
      photoURL: 'https://img.example/me.png',
      email: seller.user.email,
      role: 'Seller',
    });
    expect(ok.body).toMatchObject({ acknowledged: true, modifiedCount: 1 });
    const me: User = (await shop.call('GET', `/users?email=${seller.user.email}`, { token: seller.token })).body;
    expect(me).toMatchObject({ name: 'New Name', photoURL: 'https://img.example/me.png', role: 'Seller' });
    expect(((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)?.seller).toBe('New Name');
    expect((await put(seller.user.email, { role: 'Admin' })).status).toBe(403);
    expect((await put(seller.user.email, { role: 'Buyer' })).status).toBe(403);
    expect((await put(other.user.email, { name: 'Hacked' })).status).toBe(403);
    expect((await put(seller.user.email, { email: 'new@example.com' })).status).toBe(400);
    // A member it does not take (a misspelt photoURL) is named, not dropped with a 200 that changes nothing.
    const typo = await put(seller.user.email, { photoUrl: 'https://img.example/other.png' });
    expect([typo.status, typo.body.field, typo.body.detail]).toEqual([400, 'photoUrl', 'photoUrl is unknown here']);
    expect((await shop.call('GET', `/users_seller/${seller.user.email}`, { token: seller.token })).body.isSeller).toBe(true);
  });

  it('when the admin lists, verifies and deletes, then each works only for the admin and shows at once', async () => {
    const admin = await shop.admin();
    const seller = await shop.signup('Seller', `Verified Seller ${Date.now()}`);
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('GET', '/users_role?role=Seller', { token: buyer.token })).status).toBe(403);
    expect((await shop.call('GET', '/users_role?role=Admin', { token: admin.token })).status).toBe(400);
    const sellers: User[] = (await shop.call('GET', '/users_role?role=Seller', { token: admin.token })).body;
    expect(sellers.find((u) => u._id === seller.user._id)).toMatchObject({ verified: false, role: 'Seller' });

    expect((await shop.call('PUT', `/user/seller_verified/${seller.user._id}`, { token: seller.token })).status).toBe(403);
    expect((await shop.call('PUT', `/user/seller_verified/${buyer.user._id}`, { token: admin.token })).status).toBe(409);
    const v = await shop.call('PUT', `/user/seller_verified/${seller.user._id}`, { token: admin.token, body: {} });
    expect(v.body).toMatchObject({ acknowledged: true });
    expect((await shop.call('GET', `/users_by_seller?seller=${encodeURIComponent(seller.user.name)}`)).body).toEqual({
      _id: seller.user._id,
      name: seller.user.name,
      photoURL: '',
      verified: true,
    });
    expect(((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)?.sellerVerified).toBe(true);
    expect((await shop.call('GET', '/users_by_seller?seller=Nobody%20At%20All')).status).toBe(404);
    expect((await shop.call('GET', '/users_by_seller')).status).toBe(400);

    expect((await shop.call('DELETE', `/users/${admin.user._id}`, { token: admin.token })).status).toBe(403);
    expect((await shop.call('DELETE', `/users/${buyer.user._id}`, { token: seller.token })).status).toBe(403);
    const del = await shop.call('DELETE', `/users/${seller.user._id}`, { token: admin.token });
    expect(del.body).toMatchObject({ acknowledged: true });
    expect((await shop.call('GET', `/users?email=${seller.user.email}`, { token: seller.token })).status).toBe(401);
    expect((await shop.call('POST', '/auth/login', { body: { email: seller.user.email, password: 'secret-pass' } })).status).toBe(401);
    // The deletion's answer waits for the withdrawal of the seller's listings.
    expect(((await shop.call('GET', '/all_products')).body as Product[]).some((x) => x._id === p._id)).toBe(false);

    expect((await shop.call('DELETE', `/users/${seller.user._id}`, { token: admin.token })).status).toBe(404);
    const again = await shop.call('POST', '/auth/signup', {
      body: { name: 'Back', email: seller.user.email, password: 'secret-pass', role: 'Seller' },
    });
    expect(again.status).toBe(409);
  });

  it('when the admin deletes a seller whose TV a buyer booked, then by the answer the booking is cancelled too', async () => {
    const admin = await shop.admin();
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token);
    const bookingId = await shop.book(buyer.token, p._id);
    expect((await shop.call('DELETE', `/users/${seller.user._id}`, { token: admin.token })).status).toBe(200);
    // No waiting: the listing's removal and its booking's cancellation are the deletion's reactions.
    const mine = (await shop.call('GET', `/bookings?email=${encodeURIComponent(buyer.user.email)}`, { token: buyer.token })).body as {
      _id: string;
      status: string;
    }[];
    expect(mine.find((b) => b._id === bookingId)).toMatchObject({ status: 'cancelled' });
  });

  it('when two sellers share a name, then a look-up by name is refused as ambiguous and look-ups by id or product find the right one', async () => {
    const name = `Same Name ${Date.now()}`;
    const admin = await shop.admin();
    const older = await shop.signup('Seller', name);
    const younger = await shop.signup('Seller', name.toUpperCase());
    expect((await shop.call('PUT', `/user/seller_verified/${older.user._id}`, { token: admin.token })).status).toBe(200);
    const byName = await shop.call('GET', `/users_by_seller?seller=${encodeURIComponent(name)}`);
    expect(byName.status).toBe(409);
    expect(byName.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(byName.body).toMatchObject({ status: 409, field: 'seller' });
    expect((await shop.call('GET', `/users_by_seller?sellerId=${younger.user._id}`)).body).toEqual({
      _id: younger.user._id,
      name: name.toUpperCase(),
      photoURL: '',
      verified: false,
    });
    const p = await shop.addProduct(younger.token);
    expect((await shop.call('GET', `/users_by_seller?product=${p._id}`)).body).toMatchObject({ _id: younger.user._id, verified: false });
    // Never an email, never a buyer's card.
    const buyer = await shop.signup('Buyer');
    expect((await shop.call('GET', `/users_by_seller?sellerId=${buyer.user._id}`)).body).toMatchObject({ status: 404, field: 'sellerId' });
    expect((await shop.call('GET', `/users_by_seller?sellerId=${older.user._id}`)).body).not.toHaveProperty('email');
    expect((await shop.call('GET', '/users_by_seller?product=no-such-product')).status).toBe(404);
    // Once the name is one seller's again, the name answers.
    expect((await shop.call('DELETE', `/users/${older.user._id}`, { token: admin.token })).status).toBe(200);
    expect((await shop.call('GET', `/users_by_seller?seller=${encodeURIComponent(name)}`)).body).toMatchObject({ _id: younger.user._id });
  });
});
