import type { View } from '@tv-shop/contracts';
import { VIEWS_REFUSED_FOR_ADDRESS } from '@tv-shop/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in for the Socket.IO client's socket: records what the page sends and when it connects. */
class FakeSocket {
  connected = false;
  active = true;
  readonly sent: { event: string; args: unknown[] }[] = [];
  readonly connects: number[] = [];
  private readonly listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  readonly io = { engine: { close: () => this.serverSays('disconnect', 'transport close') } };
  on(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push({ event, args });
    return this;
  }
  connect() {
    this.connects.push(Date.now());
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  /** The server's side: an event the page hears. */
  serverSays(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  sentOf(event: string) {
    return this.sent.filter((s) => s.event === event);
  }
}

let socket: FakeSocket | undefined;
vi.mock('socket.io-client', () => ({ io: () => (socket = new FakeSocket()) }));
vi.mock('./first-screen', () => ({ afterFirstScreen: (resume: () => void) => (resume(), () => undefined) }));

const sony: View = { kind: 'products', filter: { category: 'sony' } };

beforeEach(() => {
  socket = undefined;
  vi.useFakeTimers();
  vi.stubGlobal('document', { documentElement: { dataset: {} } });
  vi.stubGlobal('window', { addEventListener: () => undefined, removeEventListener: () => undefined });
  vi.resetModules();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A fresh copy of the module (its tab-wide state starts empty), a socket open and connected at position 10. */
async function connected() {
  const live = await import('./live-socket');
  const stop = live.connectLive(null, { onChange: () => undefined, onResync: () => undefined, sessionStillValid: async () => true });
  await vi.waitFor(() => expect(socket).toBeDefined());
  const opened = socket!;
  const unwatch = live.watchView(sony);
  opened.serverSays('connect');
  opened.serverSays('synced', { position: 10 });
  await Promise.resolve();
  return { live, stop, unwatch, socket: opened };
}

describe('the live socket when the server refuses or closes it (ADR 0072)', () => {
  it('when its views are refused for its address, then they are sent again after the minute, and lists read meanwhile ask no catch-up', async () => {
    const { live, stop, socket } = await connected();
    const views = socket.sentOf('views').length;
    expect(views).toBeGreaterThan(0);
    for (let i = 0; i < views; i++) socket.serverSays('views', { position: 10, refused: [VIEWS_REFUSED_FOR_ADDRESS] });

    // The socket is still in its default rooms: it hears the view's changes, so a read needs no catch-up.
    live.noteListRead(12, sony);
    expect(socket.sentOf('catch_up')).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(59_000);
    expect(socket.sentOf('views')).toHaveLength(views);
    await vi.advanceTimersByTimeAsync(32_000);
    expect(socket.sentOf('views')).toHaveLength(views + 1);
    stop();
  });

  it('when the server closes the socket again and again soon after it opens, then each reopen waits longer, and a long connection starts the count again', async () => {
    const { stop, socket } = await connected();
    const closeAndReopen = async () => {
      const before = socket.connects.length;
      const closedAt = Date.now();
      socket.serverSays('disconnect', 'io server disconnect');
      for (let t = 0; t < 40_000 && socket.connects.length === before; t += 50) await vi.advanceTimersByTimeAsync(50);
      expect(socket.connects).toHaveLength(before + 1);
      const waited = socket.connects.at(-1)! - closedAt;
      socket.serverSays('connect');
      return waited;
    };
    const waits = [];
    for (let i = 0; i < 5; i++) waits.push(await closeAndReopen());
    // At once, then 1, 2, 4, 8 s, each shortened at random by up to half.
    expect(waits[0]).toBeLessThanOrEqual(100);
    for (const [i, base] of [1000, 2000, 4000, 8000].entries()) {
      expect(waits[i + 1]).toBeGreaterThanOrEqual(base / 2 - 100);
      expect(waits[i + 1]).toBeLessThanOrEqual(base + 100);
    }
    // A connection that lasted more than a minute: the next close reopens at once.
    vi.advanceTimersByTime(61_000);
    expect(await closeAndReopen()).toBeLessThanOrEqual(100);
    stop();
  });
});
