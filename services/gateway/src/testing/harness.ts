import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import pg from 'pg';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import type { AuthAnswer, ChangePush, ClientToServerEvents, Product, ServerToClientEvents } from '@tv-shop/contracts';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startAll, type Running } from '@tv-shop/shop';

export const ADMIN = { email: 'admin@tvshop.test', password: 'admin-password-1' };

export interface Call {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

/** A whole TV Shop on a fresh database and a free port, driven through real HTTP. */
export async function startTestShop(env: NodeJS.ProcessEnv = {}, existing?: TestDatabase) {
  const db = existing ?? (await createTestDatabase('api'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-api-'));
  const running: Running = await startAll({
    port: 0,
    databaseUrl: db.url,
    dataDir,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    webDist: path.join(dataDir, 'no-web'),
    env: { ...env },
  });
  const base = `${running.url}/api`;

  const call = async (
    method: string,
    p: string,
    opts: { token?: string | undefined; body?: unknown; raw?: string | Buffer; headers?: Record<string, string>; form?: FormData } = {},
  ): Promise<Call> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: FormData | string | Buffer | undefined;
    if (opts.form) body = opts.form;
    else if (opts.raw !== undefined) {
      body = opts.raw;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${base}${p}`, { method, headers, ...(body !== undefined ? { body: body as never } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  let n = 0;
  const signup = async (role: 'Buyer' | 'Seller', name = `${role} ${++n}`): Promise<AuthAnswer & { token: string }> => {
    const email = `${role.toLowerCase()}${n}.${Math.random().toString(36).slice(2, 7)}@example.com`;
    const res = await call('POST', '/auth/signup', { body: { name, email, password: 'secret-pass', role } });
    if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const login = async (email: string, password: string) =>
    (await call('POST', '/auth/login', { body: { email, password } })).body as AuthAnswer;

  const productBody = (over: Record<string, unknown> = {}) => ({
    porduct_name: 'Samsung 43" UHD',
    productImage: 'https://example.com/tv.png',
    details: 'Bright panel, remote included',
    location: 'Dhaka',
    resale_price: 25000,
    orginal_price: 52000,
    use_duration: '2 years',
    phone_number: '01711111111',
    product_condition: 'Good',
    category_id: 'samsung',
    ...over,
  });
  const addProduct = async (token: string, over: Record<string, unknown> = {}): Promise<Product> => {
    const res = await call('POST', '/products', { token, body: productBody(over) });
    if (res.status !== 201) throw new Error(`add product failed: ${res.status} ${JSON.stringify(res.body)}`);
    const all = await call('GET', '/all_products');
    return (all.body as Product[]).find((p) => p._id === res.body.insertedId)!;
  };

  /** Books a product as a buyer and answers the booking id. */
  const book = async (token: string, productId: string, over: Record<string, unknown> = {}): Promise<string> => {
    const res = await call('POST', '/bookings', {
      token,
      body: { product_id: productId, phone_number: '01800000000', meeting_location: 'Mirpur 10', ...over },
    });
    if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.insertedId as string;
  };
  /** Creates (or reuses) the booking's intent and confirms a card in the sandbox, as Stripe.js would. */
  const confirmCard = async (token: string, bookingId: string, number = '4242424242424242') => {
    const intent = await call('POST', '/create-payment-intent', { token, body: { bookingId } });
    if (intent.status !== 200) throw new Error(`intent failed: ${intent.status} ${JSON.stringify(intent.body)}`);
    const card = { number, exp_month: 12, exp_year: 2040, cvc: '123' };
    const confirm = await call('POST', '/payment-sandbox/confirm', {
      body: { clientSecret: intent.body.clientSecret, card, billing_details: { name: 'N', email: 'n@x.co' } },
    });
    return { intent: intent.body, confirm };
  };

  /** A look straight into the shop's database, for what no API shows (the sandbox's refunds, counts). */
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });

  const sockets: TestSocket[] = [];
  /** A connected Socket.IO client, as the web app opens one; every push it hears is collected. */
  const socket = async (opts: { token?: string; headers?: Record<string, string>; transport?: 'websocket' | 'polling' } = {}) => {
    const s: TestSocket = connect(running.url, {
      path: '/socket.io',
      transports: [opts.transport ?? 'websocket'],
      auth: opts.token ? { token: opts.token } : {},
      reconnection: false,
      extraHeaders: opts.headers ?? {},
    });
    sockets.push(s);
    const pushes: ChangePush[] = [];
    s.on('change', (p) => pushes.push(p));
    await new Promise<void>((resolve, reject) => {
      s.once('connect', resolve);
      s.once('connect_error', reject);
    });
    return { socket: s, pushes };
  };

  return {
    url: running.url,
    base,
    dbUrl: db.url,
    call,
    signup,
    login,
    productBody,
    addProduct,
    book,
    confirmCard,
    admin: () => login(ADMIN.email, ADMIN.password),
    socket,
    pool,
    async stop() {
      sockets.forEach((x) => x.disconnect());
      await pool.end();
      await running.stop();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestShop = Awaited<ReturnType<typeof startTestShop>>;
export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
