import type { Socket } from 'socket.io';
import { describe, expect, it, vi } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { Fanout } from './fanout';
import { route } from './views';

const product = (id: string, category: string): Product =>
  ({
    _id: id,
    category_id: category,
    sellerEmail: 's@x.co',
    sold: false,
    advertised: false,
    resale_price: 100,
    product_condition: 'Good',
  }) as Product;

/** A Socket.IO server's part the fan-out uses: the rooms' broadcast and the adapter's packet encoder. */
const fakeServer = () => {
  const broadcasts: unknown[] = [];
  const io = {
    to: (rooms: string[]) => ({ emit: (_event: string, push: unknown) => broadcasts.push({ rooms, push }) }),
    of: () => ({ adapter: { _encode: (packet: { data: unknown }) => [JSON.stringify(packet.data)] } }),
    _parser: { PacketType: { EVENT: 2 } },
  };
  return { io: io as unknown as ConstructorParameters<typeof Fanout>[0], broadcasts };
};
/** A socket whose connection holds `pending` unsent packets and its WebSocket `bytes` unsent bytes. */
const fakeSocket = (id: string, pending = 0, bytes = 0) => {
  const written: string[] = [];
  const socket = {
    id,
    connected: true,
    conn: {
      writeBuffer: Array.from({ length: pending }),
      transport: { socket: { bufferedAmount: bytes } },
      write: (packet: string) => written.push(packet),
    },
    disconnect: vi.fn(() => {
      socket.connected = false;
    }),
  };
  return { socket: socket as unknown as Socket, written, disconnect: socket.disconnect };
};
const listing = (id: string, category: string, position: number) =>
  route({ entity: 'product', op: 'upsert', id, row: product(id, category), position }, ['all']);

describe('fan-out (unit)', () => {
  it('when changes are queued, then nothing is written until the flush, and each socket gets one packet of its views’ changes', async () => {
    vi.useFakeTimers();
    try {
      const { io, broadcasts } = fakeServer();
      const fanout = new Fanout(io, { flushMs: 10, socketsPerSlice: 1, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000 }, 0);
      const all = fakeSocket('all');
      const lg = fakeSocket('lg');
      fanout.subscribe(all.socket, [{ kind: 'products', filter: {} }]);
      fanout.subscribe(lg.socket, [{ kind: 'products', filter: { category: 'lg' } }]);
      fanout.enqueue(listing('a', 'lg', 1));
      fanout.enqueue(listing('b', 'sony', 2));
      // Queued only: the publisher (and the write waiting for it) goes on at once.
      expect(all.written).toEqual([]);
      expect(broadcasts).toEqual([]);
      await vi.advanceTimersByTimeAsync(20);
      expect(all.written.map((p) => (JSON.parse(p) as [string, { id: string }[]])[1].map((c) => c.id))).toEqual([['a', 'b']]);
      expect(lg.written.map((p) => (JSON.parse(p) as [string, { id: string }[]])[1].map((c) => c.id))).toEqual([['a']]);
      // Sockets without views still hear each change by its rooms.
      expect(broadcasts).toHaveLength(2);
      expect(fanout.coveredFrom).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when a socket is not taking its pushes, then it is dropped, not buffered, and the others still get theirs', async () => {
    vi.useFakeTimers();
    try {
      const { io } = fakeServer();
      const fanout = new Fanout(io, { flushMs: 10, socketsPerSlice: 100, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000 }, 0);
      const slow = fakeSocket('slow', 5);
      // Few packets, but big ones it has not taken: by their bytes.
      const heavy = fakeSocket('heavy', 1, 1000);
      const fine = fakeSocket('fine', 4, 999);
      for (const s of [slow, heavy, fine]) fanout.subscribe(s.socket, [{ kind: 'products', filter: {} }]);
      fanout.enqueue(listing('a', 'lg', 1));
      await vi.advanceTimersByTimeAsync(20);
      expect(slow.disconnect).toHaveBeenCalledWith(true);
      expect(heavy.disconnect).toHaveBeenCalledWith(true);
      expect(slow.written).toEqual([]);
      expect(heavy.written).toEqual([]);
      expect(fine.written).toHaveLength(1);
      expect(fanout.stats.dropped).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when a socket changes its views or leaves, then its group goes with its last socket', async () => {
    vi.useFakeTimers();
    try {
      const { io } = fakeServer();
      const fanout = new Fanout(io, { flushMs: 10, socketsPerSlice: 100, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000 }, 0);
      const s = fakeSocket('s');
      fanout.subscribe(s.socket, [{ kind: 'products', filter: { category: 'lg' } }]);
      fanout.subscribe(s.socket, [{ kind: 'products', filter: { category: 'sony' } }]);
      fanout.enqueue(listing('a', 'lg', 1));
      fanout.enqueue(listing('b', 'sony', 2));
      await vi.advanceTimersByTimeAsync(20);
      expect(s.written.map((p) => (JSON.parse(p) as [string, { id: string }[]])[1].map((c) => c.id))).toEqual([['b']]);
      fanout.unsubscribe(s.socket);
      fanout.enqueue(listing('c', 'sony', 3));
      await vi.advanceTimersByTimeAsync(20);
      expect(s.written).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when a change comes after a quiet spell, then it goes out at once; changes soon after a flush gather until it is flushMs old', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    try {
      const { io } = fakeServer();
      const fanout = new Fanout(io, { flushMs: 15, socketsPerSlice: 100, sliceMs: 4, maxPendingPackets: 50, maxPendingBytes: 100_000 }, 0);
      const s = fakeSocket('s');
      fanout.subscribe(s.socket, [{ kind: 'products', filter: {} }]);
      const ids = () => s.written.map((p) => (JSON.parse(p) as [string, { id: string }[]])[1].map((c) => c.id));
      fanout.enqueue(listing('a', 'lg', 1));
      // The loop's next turn, not flushMs later.
      await vi.advanceTimersByTimeAsync(1);
      expect(ids()).toEqual([['a']]);
      // 4 ms and 8 ms after that flush: both wait for it to be 15 ms old, then go together.
      await vi.advanceTimersByTimeAsync(3);
      fanout.enqueue(listing('b', 'lg', 2));
      await vi.advanceTimersByTimeAsync(4);
      fanout.enqueue(listing('c', 'sony', 3));
      await vi.advanceTimersByTimeAsync(6);
      expect(ids()).toEqual([['a']]);
      await vi.advanceTimersByTimeAsync(2);
      expect(ids()).toEqual([['a'], ['b', 'c']]);
      // Quiet again for longer than flushMs: the next one goes at once.
      await vi.advanceTimersByTimeAsync(30);
      fanout.enqueue(listing('d', 'lg', 4));
      await vi.advanceTimersByTimeAsync(1);
      expect(ids()).toEqual([['a'], ['b', 'c'], ['d']]);
    } finally {
      vi.useRealTimers();
    }
  });
});
