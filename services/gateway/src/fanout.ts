import type { Server, Socket } from 'socket.io';
import type { ChangePush, ClientToServerEvents, ServerToClientEvents, View } from '@tv-shop/contracts';
import { viewKey } from '@tv-shop/contracts';
import { createLogger } from '@tv-shop/platform';
import { decide, viewKeys, type Routed } from './views';

const log = createLogger('fanout');

export interface FanoutOptions {
  /**
   * The least time between two flushes (ms): changes that come while the last flush is younger
   * than this gather and go out together when it is this old; a change after a quiet spell goes
   * out at once.
   */
  flushMs: number;
  /** Sockets written between two yields to the event loop, so HTTP answers are not held up... */
  socketsPerSlice: number;
  /** ...and at most this long (ms) between two yields, however slow each write is on a busy machine. */
  sliceMs: number;
  /** Packets a socket may have waiting for its connection; past it the socket is dropped (it reconnects and catches up). */
  maxPendingPackets: number;
  /** Bytes its WebSocket may hold unsent (a few big packets weigh more than many small ones); past it, dropped likewise. */
  maxPendingBytes: number;
}
export const DEFAULT_FANOUT: FanoutOptions = {
  flushMs: 15,
  socketsPerSlice: 250,
  sliceMs: 4,
  maxPendingPackets: 200,
  maxPendingBytes: 4 * 1024 * 1024,
};

/** The sockets that subscribed to the same set of views: they get the same pushes, encoded once. */
interface Group {
  signature: string;
  views: View[];
  keys: string[];
  sockets: Set<Socket>;
  batch: ChangePush[];
}

interface Delivery {
  encoded: (string | Buffer)[];
  /** The packet's options; over WebSocket they carry its frame (`wsPreEncodedFrame`), built once for every socket. */
  opts: Record<string, unknown>;
  sockets: Socket[];
}

/** What Socket.IO's adapter does for a broadcast: the packet encoded once, and its WebSocket frame with it. */
interface Encoding {
  _encode(packet: unknown, packetOpts: Record<string, unknown>): (string | Buffer)[];
}

/** What a socket's engine connection exposes that the types do not: its waiting packets. */
const pending = (s: Socket) => (s.conn as unknown as { writeBuffer?: unknown[] }).writeBuffer?.length ?? 0;
/** The bytes its WebSocket has not sent yet (0 on long polling, whose packets wait in `pending`). */
const pendingBytes = (s: Socket) =>
  (s.conn as unknown as { transport?: { socket?: { bufferedAmount?: number } } }).transport?.socket?.bufferedAmount ?? 0;

/**
 * Pushes leave the projector's publish: a change is queued in O(1) and the queue goes out on a
 * later turn of the event loop, away from the call that published it, at most once every
 * `flushMs`. Sockets that did not subscribe to views get each change by its rooms, as before (one
 * broadcast per change). Sockets with views are grouped by their set of views; each group gets one
 * packet a flush holding what its views make of the changes (ADR 0045), encoded once and written
 * to its sockets a slice at a time, yielding to the event loop in between. A socket whose
 * connection has not taken what it was sent is dropped.
 */
export class Fanout {
  private readonly groups = new Map<string, Group>();
  private readonly byKey = new Map<string, Set<Group>>();
  private readonly groupOf = new Map<Socket, Group>();
  private queue: Routed[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the last flush began (performance.now()). */
  private lastFlush = -Infinity;
  private writing = false;
  private closed = false;
  /** The highest position whose deliveries are fixed: a socket subscribing now gets every change above it. */
  private fixedUpTo: number;
  readonly stats = { flushes: 0, messages: 0, dropped: 0 };

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any socket data
    private readonly io: Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, any>,
    private readonly opts: FanoutOptions,
    startPosition: number,
  ) {
    this.fixedUpTo = startPosition;
  }

  /** The position from which a socket that subscribes now is sure to get its views' changes. */
  get coveredFrom(): number {
    return this.fixedUpTo;
  }

  /** Queues a change; it goes out with the next flush. */
  enqueue(r: Routed): void {
    if (this.closed) return;
    this.queue.push(r);
    this.schedule();
  }

  /** Puts a socket in the group of its (new) set of views; an empty set narrows it to nothing. */
  subscribe(socket: Socket, views: View[]): void {
    this.unsubscribe(socket);
    const unique = new Map(views.map((v) => [viewKey(v), v]));
    const signature = [...unique.keys()].sort().join('\n');
    let group = this.groups.get(signature);
    if (!group) {
      const list = [...unique.values()];
      group = { signature, views: list, keys: [...new Set(list.flatMap(viewKeys))], sockets: new Set(), batch: [] };
      this.groups.set(signature, group);
      for (const key of group.keys) {
        let set = this.byKey.get(key);
        if (!set) this.byKey.set(key, (set = new Set()));
        set.add(group);
      }
    }
    group.sockets.add(socket);
    this.groupOf.set(socket, group);
  }

  unsubscribe(socket: Socket): void {
    const group = this.groupOf.get(socket);
    if (!group) return;
    this.groupOf.delete(socket);
    group.sockets.delete(socket);
    if (group.sockets.size > 0) return;
    this.groups.delete(group.signature);
    for (const key of group.keys) {
      const set = this.byKey.get(key);
      set?.delete(group);
      if (set?.size === 0) this.byKey.delete(key);
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }

  /**
   * The next flush: `flushMs` after the last one began, or on the loop's next turn when that is
   * past (so that what is published together goes together). Changes queued while a flush is
   * writing are scheduled when it is done.
   */
  private schedule(): void {
    if (this.timer || this.writing || this.closed) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.flush();
      },
      Math.max(0, Math.ceil(this.lastFlush + this.opts.flushMs - performance.now())),
    );
  }

  private async flush(): Promise<void> {
    const changes = this.queue;
    this.queue = [];
    if (changes.length === 0) return;
    this.lastFlush = performance.now();
    this.writing = true;
    try {
      this.stats.flushes += 1;
      const touched = new Set<Group>();
      const candidates = new Set<Group>();
      for (const r of changes) {
        // Sockets without views: by rooms, as always (Socket.IO's broadcast, which connection-state recovery replays).
        if (r.rooms.length > 0) this.io.to(r.rooms).emit('change', r.push);
        // One change that cannot be routed (a malformed row) costs only itself, not the flush.
        try {
          candidates.clear();
          for (const key of r.keys) for (const g of this.byKey.get(key) ?? []) candidates.add(g);
          for (const g of candidates) {
            const push = decide(g.views, r);
            if (!push) continue;
            g.batch.push(push);
            touched.add(g);
          }
        } catch (err) {
          log.error('a change could not be routed to views', { err, position: r.push.position });
        }
        if (r.push.position > this.fixedUpTo) this.fixedUpTo = r.push.position;
      }
      const deliveries: Delivery[] = [];
      // The adapter's encoding is Socket.IO's own, not its public API: without it, the packet alone.
      const adapter = this.io.of('/').adapter as unknown as Partial<Encoding>;
      for (const g of touched) {
        const opts: Record<string, unknown> = {};
        const packet = { type: this.io._parser.PacketType.EVENT, nsp: '/', data: ['changes', g.batch] };
        const encoded = (typeof adapter._encode === 'function' ? adapter._encode(packet, opts) : this.io.encoder.encode(packet)) as (
          string | Buffer
        )[];
        g.batch = [];
        deliveries.push({ encoded, opts, sockets: [...g.sockets] });
      }
      await this.write(deliveries);
    } catch (err) {
      log.error('fan-out failed', { err });
    } finally {
      this.writing = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** Writes each delivery to its sockets, a slice at a time; a socket that is not keeping up is dropped. */
  private async write(deliveries: Delivery[]): Promise<void> {
    let written = 0;
    let sliceStart = performance.now();
    for (const d of deliveries) {
      for (const socket of d.sockets) {
        if (!socket.connected) continue;
        if (pending(socket) >= this.opts.maxPendingPackets || pendingBytes(socket) >= this.opts.maxPendingBytes) {
          this.stats.dropped += 1;
          log.warn('socket dropped: not taking its pushes', { socket: socket.id });
          socket.disconnect(true);
          continue;
        }
        // A WebSocket takes the frame as it is; long polling encodes the packet itself.
        for (const packet of d.encoded) socket.conn.write(packet, d.opts);
        this.stats.messages += 1;
        if (++written % this.opts.socketsPerSlice === 0 || performance.now() - sliceStart > this.opts.sliceMs) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (this.closed) return;
          sliceStart = performance.now();
        }
      }
    }
  }
}
