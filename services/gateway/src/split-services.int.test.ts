import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { startCatalog } from '@tv-shop/catalog';
import { startIdentity } from '@tv-shop/identity';
import { SandboxPaymentProvider, startOrders } from '@tv-shop/orders';
import { HttpCommandBus, migrate, startServiceHost } from '@tv-shop/platform';
import { createTestDatabase } from '@tv-shop/platform/testing';
import { startTestShop, type TestShop } from './testing/harness';

// Identity, catalog and orders as separate hosts reached over HTTP, as each service main.ts runs them.
describe('services in their own processes, reached over the HTTP command transport', () => {
  let shop: TestShop;
  const hosts: { url: string; stop(): Promise<void> }[] = [];
  const token = 'shared-command-token';
  beforeAll(async () => {
    const db = await createTestDatabase('split');
    const host = (name: 'identity' | 'catalog' | 'orders', start: Parameters<typeof startServiceHost>[0]['start'], catalog?: string) =>
      startServiceHost({ name, databaseUrl: db.url, port: 0, token, start, endpoints: catalog ? { catalog } : {} });
    hosts.push(await host('identity', async (d) => startIdentity(d)));
    hosts.push(await host('catalog', (d) => startCatalog(d)));
    hosts.push(
      await host(
        'orders',
        async (d) => {
          await migrate(d.pool, 'payment-sandbox', SandboxPaymentProvider.migrations);
          return startOrders({ ...d, payments: new SandboxPaymentProvider(d.pool) });
        },
        hosts[1]!.url,
      ),
    );
    const [identity, catalog, orders] = hosts.map((h) => h.url);
    shop = await startTestShop({ IDENTITY_URL: identity, CATALOG_URL: catalog, ORDERS_URL: orders, COMMAND_TOKEN: token }, db);
  });
  afterAll(async () => {
    await shop.stop();
    for (const h of hosts) await h.stop();
  });

  it('when a seller lists and a buyer books and pays, then every step crosses HTTP, orders asking catalog to record the sale', async () => {
    const seller = await shop.signup('Seller');
    const buyer = await shop.signup('Buyer');
    const p = await shop.addProduct(seller.token, { resale_price: 900 });
    const bookingId = await shop.book(buyer.token, p._id);
    const intent = (await shop.call('POST', '/create-payment-intent', { token: buyer.token, body: { bookingId } })).body;
    expect(intent.amount).toBe(90000);
    const card = { number: '4242424242424242', exp_month: 1, exp_year: 2040, cvc: '123' };
    const confirm = (await shop.call('POST', '/payment-sandbox/confirm', { body: { clientSecret: intent.clientSecret, card } })).body;
    expect(
      (await shop.call('POST', '/payments', { token: buyer.token, body: { bookingId, transationId: confirm.paymentIntent.id } })).status,
    ).toBe(200);
    await expect
      .poll(async () => ((await shop.call('GET', '/all_products')).body as Product[]).find((x) => x._id === p._id)?.sold)
      .toBe(true);
  });

  it('when a remote service refuses, then its typed error reaches the browser with status and field', async () => {
    const seller = await shop.signup('Seller');
    const dup = await shop.call('POST', '/auth/signup', {
      body: { name: 'X', email: seller.user.email, password: 'secret-pass', role: 'Buyer' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.field).toBe('email');
    const other = await shop.signup('Seller');
    const p = await shop.addProduct(seller.token);
    expect((await shop.call('PUT', `/product/sold_status/${p._id}`, { token: other.token })).status).toBe(403);
  });

  it('when a command comes without the service token, then the service refuses it', async () => {
    const res = await fetch(`${hosts[0]!.url}/commands`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
  });

  it('when a command of an unknown type or with malformed data crosses the HTTP transport, then the service answers 400 naming the field', async () => {
    const envelope = (service: 'identity' | 'catalog' | 'orders', type: string, data: unknown) => ({
      service,
      type,
      data,
      aggregateId: randomUUID(),
      commandId: randomUUID(),
      actor: { id: 'someone', role: 'Buyer' },
      correlationId: randomUUID(),
    });
    const urls = { identity: hosts[0]!.url, catalog: hosts[1]!.url, orders: hosts[2]!.url };
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${urls[body.service as keyof typeof urls] ?? urls.identity}/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, error: ((await res.json()) as { error: { kind: string; field?: string; message: string } }).error };
    };
    // A misspelt type: never reaches a decider (which once answered undefined, a 500).
    for (const [service, type] of [
      ['identity', 'RegisterUsr'],
      ['catalog', 'MarkProductSould'],
      ['orders', 'PayBookin'],
      ['orders', 'toString'],
      ['orders', 'RefundPayment'], // the booking decider's own command, not one orders takes from outside
    ] as const) {
      const res = await post(envelope(service, type, {}));
      expect(res, `${service} ${type}`).toMatchObject({ status: 400, error: { kind: 'validation', field: 'type' } });
    }
    // A known type with data of the wrong shape.
    expect(await post(envelope('orders', 'PayBooking', { buyerId: 'someone' }))).toMatchObject({
      status: 400,
      error: { field: 'data.paymentIntentId' },
    });
    expect(
      await post(envelope('orders', 'PlaceBooking', { productId: 'p', phone: '1', meetingLocation: 'x', buyer: { id: 7 } })),
    ).toMatchObject({
      status: 400,
      error: { field: 'data.buyer.id' },
    });
    expect(await post(envelope('catalog', 'RemoveProduct', { reason: 'because' }))).toMatchObject({
      status: 400,
      error: { field: 'data.reason' },
    });
    expect(await post(envelope('identity', 'RegisterUser', null))).toMatchObject({ status: 400, error: { field: 'data' } });
    // An envelope that is not one.
    expect(await post({ type: 'PayBooking' })).toMatchObject({ status: 400, error: { field: 'service' } });
    expect(await post({ ...envelope('identity', 'VerifySeller', {}), aggregateId: 42 })).toMatchObject({
      status: 400,
      error: { field: 'aggregateId' },
    });
    // Through the client adapter, as the gateway sends: the typed error comes back.
    const bus = new HttpCommandBus({ orders: hosts[2]!.url }, token);
    await expect(bus.send(envelope('orders', 'PayBookin', {}))).rejects.toMatchObject({ kind: 'validation', status: 400, field: 'type' });
  });

  it('when a service is down, then writes to it answer 503 and nothing else breaks', async () => {
    const buyer = await shop.signup('Buyer');
    await hosts[2]!.stop();
    const res = await shop.call('POST', '/bookings', {
      token: buyer.token,
      body: { product_id: 'x', phone_number: '01700000000', meeting_location: 'x' },
    });
    expect(res.status).toBe(503);
    expect((await shop.call('GET', '/all_products')).status).toBe(200);
    hosts.pop();
  });
});
