import type { Socket } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Product } from '@tv-shop/contracts';
import { Fanout } from './fanout';
import { WritesInFlight } from './http/load-shed';
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
      const fanout = new Fanout(
        io,
        { flushMs: 10, socketsPerSlice: 1, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000, holdForWritesMs: 0 },
        0,
      );
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
      const fanout = new Fanout(
        io,
        { flushMs: 10, socketsPerSlice: 100, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000, holdForWritesMs: 0 },
        0,
      );
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

  describe('when writes are in flight (ADR 0049)', () => {
    const opts = { flushMs: 10, socketsPerSlice: 2, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000, holdForWritesMs: 30 };
    const ids = (written: string[]) => written.map((p) => (JSON.parse(p) as [string, { id: string }[]])[1].map((c) => c.id));
    /** A fan-out with `n` sockets on All Products, sharing `writes`. */
    const setUp = (n: number, writes: WritesInFlight) => {
      const fanout = new Fanout(fakeServer().io, opts, 0, writes);
      const sockets = Array.from({ length: n }, (_, i) => fakeSocket(`s${i}`));
      for (const x of sockets) fanout.subscribe(x.socket, [{ kind: 'products', filter: {} }]);
      return { fanout, sockets, counts: () => sockets.map((x) => x.written.length) };
    };
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('then a flush for more sockets than a slice waits for their answers, and what is queued or subscribed meanwhile goes with it', async () => {
      const writes = new WritesInFlight();
      const { fanout, sockets, counts } = setUp(3, writes);
      const answered = writes.begin();
      fanout.enqueue(listing('p1', 'lg', 1));
      await vi.advanceTimersByTimeAsync(12); // the flush was due at 10
      expect(counts()).toEqual([0, 0, 0]);
      expect(fanout.coveredFrom).toBe(0);
      // Queued and subscribed while the flush waits: both in the same packet.
      fanout.enqueue(listing('p2', 'lg', 2));
      const late = fakeSocket('late');
      fanout.subscribe(late.socket, [{ kind: 'products', filter: {} }]);
      await vi.advanceTimersByTimeAsync(10);
      expect(counts()).toEqual([0, 0, 0]);
      answered();
      await vi.advanceTimersByTimeAsync(1);
      for (const x of [...sockets, late]) expect(ids(x.written)).toEqual([['p1', 'p2']]);
      expect(fanout.coveredFrom).toBe(2);
    });

    it('then a write never answered holds a change no more than holdForWritesMs past its flush, and few sockets never wait', async () => {
      const writes = new WritesInFlight();
      const { fanout, counts } = setUp(3, writes);
      const few = setUp(1, writes);
      writes.begin();
      fanout.enqueue(listing('p1', 'lg', 1));
      few.fanout.enqueue(listing('p1', 'lg', 1));
      await vi.advanceTimersByTimeAsync(11);
      expect(few.counts()).toEqual([1]);
      await vi.advanceTimersByTimeAsync(10 + 30 - 11 - 1);
      expect(counts()).toEqual([0, 0, 0]);
      await vi.advanceTimersByTimeAsync(2);
      expect(counts()).toEqual([1, 1, 1]);
    });

    it('then a write that arrives between two slices holds the rest of the flush, within the same bound', async () => {
      const writes = new WritesInFlight();
      const { fanout, counts } = setUp(4, writes);
      fanout.enqueue(listing('p1', 'lg', 1));
      await vi.advanceTimersByTimeAsync(10);
      // The first slice (two sockets) went at once: no write was in flight.
      expect(counts()).toEqual([1, 1, 0, 0]);
      const answered = writes.begin();
      await vi.advanceTimersByTimeAsync(5);
      expect(counts()).toEqual([1, 1, 0, 0]);
      answered();
      await vi.advanceTimersByTimeAsync(1);
      expect(counts()).toEqual([1, 1, 1, 1]);
    });

    it('then a fan-out closed while it waits writes nothing', async () => {
      const writes = new WritesInFlight();
      const { fanout, counts } = setUp(3, writes);
      const answered = writes.begin();
      fanout.enqueue(listing('p1', 'lg', 1));
      await vi.advanceTimersByTimeAsync(12);
      fanout.close();
      answered();
      await vi.advanceTimersByTimeAsync(50);
      expect(counts()).toEqual([0, 0, 0]);
    });
  });

  it('when a socket changes its views or leaves, then its group goes with its last socket', async () => {
    vi.useFakeTimers();
    try {
      const { io } = fakeServer();
      const fanout = new Fanout(
        io,
        { flushMs: 10, socketsPerSlice: 100, sliceMs: 4, maxPendingPackets: 5, maxPendingBytes: 1000, holdForWritesMs: 0 },
        0,
      );
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
});
