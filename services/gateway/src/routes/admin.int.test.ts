import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview, LogEvent, LogPage, StreamHistory, VerifyReport } from '@tv-shop/contracts';
import { startTestShop, type TestShop } from '../testing/harness';
import { csvField } from './admin';

/**
 * The admin's event log through real HTTP and sockets: who may read it, its filters and paging,
 * an entity as it was at any moment, causes and effects, the overview's figures, the export and
 * the projection check. Secrets never appear; personal data goes to the admin's socket only.
 */
describe('the event log (admin)', () => {
  let shop: TestShop;
  let admin: string;
  let seller: Awaited<ReturnType<TestShop['signup']>>;
  let buyer: Awaited<ReturnType<TestShop['signup']>>;
  let productId: string;
  const get = async <T>(path: string, token = admin) => {
    const res = await shop.call('GET', path, { token });
    return { status: res.status, body: res.body as T & { field?: string } };
  };

  beforeAll(async () => {
    shop = await startTestShop();
    admin = (await shop.admin()).token;
    seller = await shop.signup('Seller', 'Karim Electronics');
    buyer = await shop.signup('Buyer', 'Nadia Rahman');
    productId = (await shop.addProduct(seller.token, { porduct_name: 'Sony Bravia 55"' }))._id;
    const report = await shop.call('PUT', `/product/add_reported/${productId}`, {
      token: buyer.token,
      body: { reason: 'Looks like a scam' },
    });
    expect(report.status).toBe(200);
  });
  afterAll(() => shop.stop());

  it('when a visitor, a buyer or a seller asks for any part of it, then 401 or 403 and nothing is shown', async () => {
    const routes: ['GET' | 'POST', string][] = [
      ['GET', '/admin/events'],
      ['GET', '/admin/events/export?format=csv'],
      ['GET', '/admin/events/00000000-0000-4000-8000-000000000000'],
      ['GET', `/admin/streams/product-${productId}`],
      ['GET', '/admin/overview'],
      ['POST', '/admin/projections/catalog/verify'],
    ];
    for (const [method, path] of routes) {
      const anonymous = await shop.call(method, path);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      for (const who of [buyer, seller]) {
        const res = await shop.call(method, path, { token: who.token });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(JSON.stringify(res.body)).not.toContain('Sony');
      }
    }
  });

  it('when the admin filters by type, actor (id or email) and stream, then each event says who, when, why and what', async () => {
    const reports = await get<LogPage>('/admin/events?type=ProductReported');
    expect(reports.status).toBe(200);
    expect(reports.body.events).toHaveLength(1);
    const e = reports.body.events[0]!;
    expect(e).toMatchObject({
      type: 'ProductReported',
      streamId: `product-${productId}`,
      actor: { id: buyer.user._id, name: 'Nadia Rahman', role: 'Buyer' },
      causationId: null,
      data: { productId, reason: 'Looks like a scam' },
    });
    expect(Date.parse(e.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(e.correlationId).toMatch(/\S/);
    const byEmail = await get<LogPage>(`/admin/events?actor=${encodeURIComponent(buyer.user.email.toUpperCase())}`);
    const byId = await get<LogPage>(`/admin/events?actor=${buyer.user._id.toUpperCase()}`);
    // Their sign-up was a visitor's act (actor `anonymous`); the report is theirs.
    expect(byEmail.body.events.map((x) => x.type)).toEqual(['ProductReported']);
    expect(byId.body.events).toEqual(byEmail.body.events);
    const stream = await get<LogPage>(`/admin/events?stream=product-${productId}`);
    expect(stream.body.events.map((x) => x.type)).toEqual(['ProductListed', 'ProductReported']);
    const correlated = await get<LogPage>(`/admin/events?correlation=${encodeURIComponent(e.correlationId)}`);
    expect(correlated.body.events.map((x) => x.eventId)).toContain(e.eventId);
    const one = await get<LogEvent>(`/admin/events/${e.eventId}`);
    expect(one.body).toEqual(e);
  });

  it('when the admin pages forward or back, then every event comes exactly once, in order, within the time range', async () => {
    const all = (await get<LogPage>('/admin/events?limit=200')).body;
    expect(all.next).toBeNull();
    expect(all.head).toBe(all.events[all.events.length - 1]!.position);
    const forward: LogEvent[] = [];
    for (let after: number | null = 0; after !== null;) {
      const page: LogPage = (await get<LogPage>(`/admin/events?limit=3&after=${after}`)).body;
      expect(page.events.length).toBeLessThanOrEqual(3);
      forward.push(...page.events);
      after = page.next;
    }
    expect(forward).toEqual(all.events);
    const back: LogEvent[] = [];
    for (let before: number | null = Number.MAX_SAFE_INTEGER; before !== null;) {
      const page: LogPage = (await get<LogPage>(`/admin/events?order=desc&limit=4&before=${before}`)).body;
      back.push(...page.events);
      before = page.next;
    }
    expect(back.map((x) => x.position)).toEqual(all.events.map((x) => x.position).reverse());
    const middle = all.events[Math.floor(all.events.length / 2)]!;
    const since = (await get<LogPage>(`/admin/events?limit=200&from=${encodeURIComponent(middle.at)}`)).body.events;
    expect(since.every((x) => x.at >= middle.at)).toBe(true);
    expect(since.map((x) => x.eventId)).toContain(middle.eventId);
    const until = (await get<LogPage>(`/admin/events?limit=200&to=${encodeURIComponent(middle.at)}`)).body.events;
    expect(until.every((x) => x.at <= middle.at)).toBe(true);
    expect(until.map((x) => x.eventId)).toContain(middle.eventId);
    // Within both: the events between, each once, in order; a window before the log holds none.
    const between = (
      await get<LogPage>(`/admin/events?limit=200&from=${encodeURIComponent(middle.at)}&to=${encodeURIComponent(middle.at)}`)
    ).body;
    expect(between.events.map((x) => x.eventId)).toContain(middle.eventId);
    expect(between.events.every((x) => x.at === middle.at)).toBe(true);
    expect((await get<LogPage>('/admin/events?to=2001-01-01')).body.events).toEqual([]);
  });

  it('when a filter is malformed, then 400 names the field', async () => {
    for (const [query, field] of [
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['after=-1', 'after'],
      ['type=drop%20table', 'type'],
      ['from=yesterday', 'from'],
      ['cause=nope', 'cause'],
      ['after=1&before=5', 'before'],
      ['before=5', 'before'],
      ['order=desc&after=3', 'after'],
      ['to=2026-11-22T10:00', 'to'],
      ['from=2026-02-30', 'from'],
      ['from=2030-01-01&to=2020-01-01', 'from'],
      ['from=2026-11-22T10:00:01Z&to=2026-11-22T10:00:00Z', 'from'],
      ['limit=1&limit=2', 'limit'],
      // Carried past year 9999 by an hour 24 or an offset: a time the database cannot take.
      ['from=9999-12-31T24:00Z', 'from'],
      ['to=9999-12-31T23:00:00-23:00', 'to'],
      ['colour=red', 'colour'], // a parameter it does not take is named itself
    ]) {
      const res = await get<{ errors: { field: string }[] }>(`/admin/events?${query}`);
      expect(res.status, query).toBe(400);
      expect(
        res.body.errors.map((x) => x.field),
        query,
      ).toContain(field);
    }
    expect((await get(`/admin/streams/product-${productId}?at=soon`)).body.field).toBe('at');
    expect((await get('/admin/streams/nothing-here')).status).toBe(404);
    expect((await get(`/admin/streams/product-${'0'.repeat(8)}`)).status).toBe(404);
    expect((await get('/admin/events/export?format=xml')).status).toBe(400);
    const backwards = await get<{ detail: string }>('/admin/events/export?from=2030-01-01&to=2020-01-01');
    expect(backwards.status).toBe(400);
    expect(backwards.body.field).toBe('from');
    expect(backwards.body.detail).toBe('from must not be after to');
    const pastYear9999 = await get<{ errors: { field: string; message: string }[] }>('/admin/events/export?from=9999-12-31T24:00Z');
    expect(pastYear9999.status).toBe(400);
    expect(pastYear9999.body.errors).toEqual([{ field: 'from', message: 'must be before the year 10000 (in UTC)' }]);
    // Not a time at all: only that is said, not the year as well.
    expect((await get<{ errors: unknown[] }>('/admin/events?from=yesterday')).body.errors).toHaveLength(1);
    // The last moment a year of four digits holds is still a time to ask from.
    expect((await get('/admin/events?from=9999-12-31T23:59:59Z')).status).toBe(200);
    // The same day as both ends is the whole day, not a mistake.
    expect((await get('/admin/events?from=2026-11-22&to=2026-11-22')).status).toBe(200);
  });

  it('given the log holds password hashes, when any of it is read or exported, then no secret appears', async () => {
    const { rows } = await shop.pool.query<{ hash: string }>(
      `select data->>'passwordHash' as hash from es.events where type = 'UserRegistered' and data->>'passwordHash' is not null`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const page = await shop.call('GET', '/admin/events?type=UserRegistered', { token: admin });
    const exported = await shop.call('GET', '/admin/events/export', { token: admin });
    const csv = await shop.call('GET', '/admin/events/export?format=csv', { token: admin });
    const history = await shop.call('GET', `/admin/streams/user-${buyer.user._id}`, { token: admin });
    for (const text of [JSON.stringify(page.body), String(exported.body), String(csv.body), JSON.stringify(history.body)]) {
      for (const { hash } of rows) expect(text).not.toContain(hash);
    }
    expect((page.body as LogPage).events[0]!.data.passwordHash).toBe('[hidden]');
  });

  it('when the admin slides a product back to before its report, then it was not reported; at the report it was', async () => {
    const stream = `product-${productId}`;
    const now = await get<StreamHistory>(`/admin/streams/${stream}`);
    expect(now.body).toMatchObject({ streamId: stream, owner: 'catalog', category: 'product', total: 2 });
    expect(now.body.state).toMatchObject({ status: 'listed', reported: true, reporters: [buyer.user._id] });
    const [listed, reported] = now.body.events;
    const before = await get<StreamHistory>(`/admin/streams/${stream}?at=${reported!.position - 1}`);
    expect(before.body.state).toMatchObject({ status: 'listed', reported: false, reporters: [] });
    expect(before.body.events.map((x) => x.type)).toEqual(['ProductListed']);
    expect(before.body).toMatchObject({ at: listed!.position, total: 2 });
    // Each answer carries the state just before its event: one read a step of the slider.
    expect(now.body.previous).toEqual(before.body.state);
    expect(before.body.previous).toMatchObject({ status: 'none' });
    const byTime = await get<StreamHistory>(`/admin/streams/${stream}?at=${encodeURIComponent(listed!.at)}`);
    expect(byTime.body.state).toMatchObject({ reported: false });
    const first = await get<StreamHistory>(`/admin/streams/${stream}?at=0`);
    expect(first.body).toMatchObject({ at: 0, state: { status: 'none' }, events: [] });
    // Another owner's stream is folded by its own service: the buyer's account.
    const user = await get<StreamHistory>(`/admin/streams/user-${buyer.user._id}`);
    expect(user.body).toMatchObject({ owner: 'identity', state: { status: 'active', name: 'Nadia Rahman', role: 'Buyer' } });
  });

  it('when a stream is read a page at a time, then each page is the last events up to `at`, and says how many come before', async () => {
    const stream = `product-${productId}`;
    const now = await get<StreamHistory>(`/admin/streams/${stream}`);
    const [listed, reported] = now.body.events;
    expect(now.body.earlier).toBe(0);
    // The latest page: the report, one event before it, the state of the whole stream.
    const latest = await get<StreamHistory>(`/admin/streams/${stream}?limit=1`);
    expect(latest.body).toMatchObject({ at: reported!.position, earlier: 1, total: 2, state: now.body.state, previous: now.body.previous });
    expect(latest.body.events).toEqual([reported]);
    // The page before it: asked for just before its first event.
    const before = await get<StreamHistory>(`/admin/streams/${stream}?at=${reported!.position - 1}&limit=1`);
    expect(before.body).toMatchObject({ at: listed!.position, earlier: 0, events: [listed] });
    // The state alone (a slider's step): no events carried, the same state.
    const state = await get<StreamHistory>(`/admin/streams/${stream}?limit=0`);
    expect(state.body).toMatchObject({ at: reported!.position, events: [], earlier: 2, state: now.body.state });
    for (const limit of ['501', '-1', '1.5', 'all', '']) {
      const res = await get(`/admin/streams/${stream}?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body.field, limit).toBe('limit');
    }
  });

  it('when the admin steps through a password change, then the hash stays hidden and the step says it was set again', async () => {
    const user = await shop.signup('Buyer', 'Rafi Hasan');
    const changed = await shop.call('PUT', '/account/password', {
      token: user.token,
      body: { current_password: 'secret-pass', new_password: 'a-better-passphrase' },
      headers: { 'x-forwarded-for': '198.51.100.77' },
    });
    expect(changed.status).toBe(200);
    const stream = `user-${user.user._id}`;
    const now = await get<StreamHistory>(`/admin/streams/${stream}`);
    const registered = now.body.events.find((e) => e.type === 'UserRegistered')!;
    const passwordChanged = now.body.events.find((e) => e.type === 'PasswordChanged')!;
    const before = await get<StreamHistory>(`/admin/streams/${stream}?at=${passwordChanged.position - 1}`);
    // Each state names the event that set the hash, so the two differ; neither shows it.
    expect(before.body.state).toMatchObject({ passwordHash: `[hidden, set at #${registered.position}]` });
    expect(now.body.state).toMatchObject({ passwordHash: `[hidden, set at #${passwordChanged.position}]` });
    // The state before the change, as the change's own step gives it, names the first setting.
    const atChange = await get<StreamHistory>(`/admin/streams/${stream}?at=${passwordChanged.position}`);
    expect(atChange.body.previous).toEqual(before.body.state);
    const { rows } = await shop.pool.query<{ hash: string }>(`select data->>'passwordHash' as hash from es.events where stream_id = $1`, [
      stream,
    ]);
    for (const { hash } of rows) expect(JSON.stringify([before.body, now.body, atChange.body])).not.toContain(hash);
  });

  it('when a sale elsewhere cancels a booking, then the cancellation links to the event that caused it, and back', async () => {
    const tv = (await shop.addProduct(seller.token, { porduct_name: 'LG 32" HD' }))._id;
    const bookingId = await shop.book(buyer.token, tv);
    expect((await shop.call('PUT', `/product/sold_status/${tv}`, { token: seller.token })).status).toBe(200);
    let cancelled: LogEvent | undefined;
    for (let i = 0; i < 50 && !cancelled; i++) {
      cancelled = (await get<LogPage>(`/admin/events?stream=booking-${bookingId}&type=BookingCancelled`)).body.events[0];
      if (!cancelled) await new Promise((r) => setTimeout(r, 100));
    }
    expect(cancelled).toBeDefined();
    expect(cancelled!.actor.role).toBe('System');
    const cause = await get<LogEvent>(`/admin/events/${cancelled!.causationId}`);
    expect(cause.body).toMatchObject({ type: 'ProductMarkedSold', streamId: `product-${tv}`, actor: { id: seller.user._id } });
    const effects = await get<LogPage>(`/admin/events?cause=${cause.body.eventId}`);
    expect(effects.body.events.map((x) => x.eventId)).toContain(cancelled!.eventId);
  });

  it('when the admin opens the overview, then the day counts what happened, the open reports and every consumer’s lag', async () => {
    const { status, body } = await get<AdminOverview>('/admin/overview');
    expect(status).toBe(200);
    expect(body.days).toHaveLength(30);
    const today = body.days[body.days.length - 1]!;
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today).toMatchObject({ listings: 2, bookings: 1, reports: 1 });
    expect(body.totals).toMatchObject({ listings: 2, bookings: 1, reports: 1, payments: 0, paidPoisha: 0 });
    expect(body.openReports).toBe(1);
    expect(body.recent.length).toBeGreaterThan(0);
    expect(body.recent[0]!.position).toBeGreaterThan(body.recent[body.recent.length - 1]!.position);
    expect(body.lag.map((l) => `${l.kind}:${l.name}`)).toEqual(
      expect.arrayContaining(['projection:audit', 'projection:catalog', 'policy:orders']),
    );
    expect(body.lag.every((l) => l.events >= 0 && l.seconds >= 0)).toBe(true);
  });

  it('when the admin exports the filtered log, then NDJSON and CSV hold the same events as the pages', async () => {
    const page = (await get<LogPage>(`/admin/events?stream=product-${productId}`)).body.events;
    const ndjson = await shop.call('GET', `/admin/events/export?stream=product-${productId}`, { token: admin });
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('content-type')).toContain('application/x-ndjson');
    expect(ndjson.headers.get('content-disposition')).toMatch(/^attachment; filename="tv-shop-events-.*\.ndjson"$/);
    expect(ndjson.headers.get('cache-control')).toBe('no-store');
    const lines = String(typeof ndjson.body === 'string' ? ndjson.body : JSON.stringify(ndjson.body))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LogEvent);
    expect(lines).toEqual(page);
    const csv = await shop.call('GET', `/admin/events/export?format=csv&stream=product-${productId}`, { token: admin });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = String(csv.body).trim().split('\r\n');
    expect(rows[0]).toBe('position,at,type,stream,version,actor_id,actor_name,actor_role,correlation_id,causation_id,data');
    expect(rows.slice(1).map((r) => r.split(',')[2])).toEqual(page.map((e) => e.type));
  });

  it('when a field would run as a spreadsheet formula or breaks the line, then the CSV field is quoted and defused', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('-2+3')).toBe(`'-2+3`);
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
  });

  it('when the admin verifies a projection, then it is equal; after a row is corrupted, the row is listed', async () => {
    const equal = await shop.call('POST', '/admin/projections/audit/verify', { token: admin });
    expect(equal.status).toBe(200);
    expect(equal.body).toMatchObject({ projection: 'audit', equal: true, differences: [] });
    await shop.pool.query(`update rm_audit.actors set name = 'Mallory' where id = $1`, [buyer.user._id]);
    try {
      const report = (await shop.call('POST', '/admin/projections/audit/verify', { token: admin })).body as VerifyReport;
      expect(report.equal).toBe(false);
      const actors = report.differences.find((d) => /\bactors$/.test(d.table))!;
      expect(actors).toMatchObject({ onlyLive: 1, onlyRebuilt: 1 });
      expect(actors.rows).toEqual(
        expect.arrayContaining([
          { side: 'live', row: expect.objectContaining({ name: 'Mallory' }) },
          { side: 'rebuilt', row: expect.objectContaining({ name: 'Nadia Rahman' }) },
        ]),
      );
    } finally {
      await shop.pool.query(`update rm_audit.actors set name = 'Nadia Rahman' where id = $1`, [buyer.user._id]);
    }
    expect((await shop.call('POST', '/admin/projections/nothing/verify', { token: admin })).status).toBe(404);
  });

  it('when a differing row holds a password hash, then the verify report shows only that it differs', async () => {
    const { rows } = await shop.pool.query<{ password_hash: string }>(`select password_hash from rm_identity.users where id = $1`, [
      buyer.user._id,
    ]);
    const hash = rows[0]!.password_hash;
    expect(hash).toBeTruthy();
    await shop.pool.query(`update rm_identity.users set password_hash = 'tampered-hash' where id = $1`, [buyer.user._id]);
    try {
      const res = await shop.call('POST', '/admin/projections/users/verify', { token: admin });
      const report = res.body as VerifyReport;
      expect(report.equal).toBe(false);
      const text = JSON.stringify(report);
      expect(text).not.toContain(hash);
      expect(text).not.toContain('tampered-hash');
      expect(report.differences[0]!.rows.map((r) => r.row.password_hash)).toEqual(['[hidden]', '[hidden]']);
    } finally {
      await shop.pool.query(`update rm_identity.users set password_hash = $2 where id = $1`, [buyer.user._id, hash]);
    }
  });

  it('when a verify of a projection is already running anywhere, then another answers 409 and nothing is left behind', async () => {
    const holder = await shop.pool.connect();
    try {
      await holder.query(`select pg_advisory_lock(hashtext('verify:catalog'))`);
      const res = await shop.call('POST', '/admin/projections/catalog/verify', { token: admin });
      expect(res.status).toBe(409);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    } finally {
      await holder.query(`select pg_advisory_unlock(hashtext('verify:catalog'))`);
      holder.release();
    }
    expect((await shop.call('POST', '/admin/projections/catalog/verify', { token: admin })).body).toMatchObject({ equal: true });
    const left = await shop.pool.query(`select nspname from pg_namespace where nspname like '%\\_\\_verify%'`);
    expect(left.rows).toEqual([]);
  });

  it('when an event is stored, then the admin’s socket hears it and the day’s figures at once; a buyer’s socket hears neither', async () => {
    const adminSocket = await shop.socket({ token: admin });
    const buyerSocket = await shop.socket({ token: buyer.token });
    const anonymous = await shop.socket();
    const tv = (await shop.addProduct(seller.token, { porduct_name: 'Walton 40"' }))._id;
    const until = Date.now() + 5000;
    const heard = () => adminSocket.pushes.some((p) => p.entity === 'log_event' && p.row.streamId === `product-${tv}`);
    while (!heard() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(heard()).toBe(true);
    const listed = adminSocket.pushes.find((p) => p.entity === 'log_event' && p.row.type === 'ProductListed')!;
    expect(listed).toMatchObject({ op: 'upsert', row: { actor: { id: seller.user._id, name: 'Karim Electronics', role: 'Seller' } } });
    expect(adminSocket.pushes.some((p) => p.entity === 'daily_activity' && p.row.listings === 3)).toBe(true);
    // The product itself reaches everyone; the log and the figures reach the admin alone.
    await new Promise((r) => setTimeout(r, 200));
    for (const other of [buyerSocket, anonymous]) {
      expect(other.pushes.some((p) => p.entity === 'product' && p.id === tv)).toBe(true);
      expect(other.pushes.filter((p) => p.entity === 'log_event' || p.entity === 'daily_activity')).toEqual([]);
    }
  });
});
