import { Redis } from 'ioredis';
import type { ChangeFeed, ChangeNotice } from './port';
import { createLogger } from '../log';

const log = createLogger('change-feed.redis');

export interface RedisChangeFeedOptions {
  url: string;
  /** Redis pub/sub channel; every projector and gateway of one deployment uses the same one. */
  channel?: string;
}

/**
 * The change feed across processes, over Redis pub/sub. Each `publish` call is one Redis
 * message (a JSON array), so a committed batch reaches every subscriber whole and in order.
 * Pub/sub is fire-and-forget: a subscriber that is disconnected misses messages, and the
 * gateway's clients recover through `catch_up`.
 */
export class RedisChangeFeed implements ChangeFeed {
  readonly channel: string;
  // A connection in subscriber mode cannot run PUBLISH, hence two.
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  private readonly subscribed: Promise<unknown>;
  private closed = false;

  /** Starts connecting in the background; use `connect()` to wait until notices can arrive. */
  constructor(opts: RedisChangeFeedOptions) {
    this.channel = opts.channel ?? 'tvshop:changes';
    this.pub = new Redis(opts.url);
    // No retry limit: the queued SUBSCRIBE must wait out however long Redis is down at startup.
    this.sub = new Redis(opts.url, { maxRetriesPerRequest: null });
    for (const [role, conn] of [
      ['publisher', this.pub],
      ['subscriber', this.sub],
    ] as const) {
      // Without a listener a connection error is reported as unhandled; ioredis reconnects (and resubscribes) by itself.
      conn.on('error', (err: Error) => log.warn('redis connection error', { role, error: err.message }));
    }
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.deliver(message);
    });
    // Queued until the connection is ready. connect() reports a failure; the catch only keeps
    // a bare constructor from leaving an unhandled rejection.
    this.subscribed = this.sub.subscribe(this.channel);
    this.subscribed.catch((err: unknown) => {
      if (!this.closed) log.error('redis subscribe failed', err);
    });
  }

  /** Connects both connections and resolves once SUBSCRIBE is acknowledged; rejects on the first connection error. */
  static async connect(opts: RedisChangeFeedOptions): Promise<RedisChangeFeed> {
    const feed = new RedisChangeFeed(opts);
    try {
      await Promise.all([whenReady(feed.pub), whenReady(feed.sub)]);
      await feed.subscribed;
    } catch (err) {
      await feed.close();
      throw err;
    }
    return feed;
  }

  async publish(notices: ChangeNotice[]): Promise<void> {
    if (notices.length === 0) return;
    await this.pub.publish(this.channel, JSON.stringify(notices));
  }

  subscribe(listener: (notice: ChangeNotice) => void): () => void {
    // A wrapper per call, so subscribing the same function twice delivers twice, as with an EventEmitter.
    const entry = (notice: ChangeNotice) => listener(notice);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.sub.removeAllListeners('message');
    await Promise.all([quit(this.pub), quit(this.sub)]);
  }

  private deliver(message: string): void {
    let notices: unknown;
    try {
      notices = JSON.parse(message);
    } catch {
      notices = undefined;
    }
    if (!Array.isArray(notices) || !notices.every(isNotice)) {
      log.warn('ignoring malformed change-feed message', { channel: this.channel, message: message.slice(0, 200) });
      return;
    }
    for (const notice of notices) {
      for (const listener of [...this.listeners]) {
        // This runs inside ioredis' socket handler: a throwing listener must not take the process down.
        try {
          listener(notice);
        } catch (err) {
          log.error('change-feed listener failed', err);
        }
      }
    }
  }
}

function isNotice(x: unknown): x is ChangeNotice {
  if (typeof x !== 'object' || x === null) return false;
  const n = x as Record<string, unknown>;
  if (typeof n.projection !== 'string') return false;
  if (n.kind === 'checkpoint' || n.kind === 'rebuilt') return Number.isSafeInteger(n.position) && (n.position as number) >= 0;
  return n.kind === 'change' && typeof n.push === 'object' && n.push !== null && Array.isArray(n.rooms);
}

/** Ready, or the first error before that: connect() fails fast instead of waiting out ioredis' retries. */
function whenReady(conn: Redis): Promise<void> {
  if (conn.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      conn.off('error', onError);
      resolve();
    };
    const onError = (err: Error) => {
      conn.off('ready', onReady);
      reject(err);
    };
    conn.once('ready', onReady);
    conn.once('error', onError);
  });
}

/** QUIT when connected; otherwise (down, reconnecting, already closed) just drop the socket. */
async function quit(conn: Redis): Promise<void> {
  if (conn.status === 'ready') {
    try {
      await conn.quit();
      return;
    } catch {
      // fall through
    }
  }
  conn.disconnect();
}
