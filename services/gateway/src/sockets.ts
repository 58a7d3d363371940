import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { SessionAwareAdapter, type PrivateSessionId, type Session } from 'socket.io-adapter';
import type { CatchUpAnswer, ChangePush, ClientToServerEvents, ServerToClientEvents, User, View, ViewsAnswer } from '@tv-shop/contracts';
import { createLogger, type ChangeFeed } from '@tv-shop/platform';
import { MAX_VIEWS_PER_SOCKET, parseView, rooms, viewKey, VIEWS_REFUSED_FOR_ADDRESS } from '@tv-shop/contracts';
import { DEFAULT_FANOUT, Fanout, type FanoutOptions } from './fanout';
import { mayView, RecentChanges, route, SCAN_PAGES, throughTies, viewCatchUpPage } from './views';
import { accountOfToken, sessionAccounts, sessionCheck, signedOutOf, type AccountLookup } from './auth/middleware';
import type { Tokens } from './auth/tokens';
import type { ReadModels } from './read-models';
import { corsOptions, originAllowed } from './http/cors';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { ipKeyGenerator } from 'express-rate-limit';

const log = createLogger('sockets');

interface SocketData {
  user: User | null;
  /** When the handshake's token expires (ms since the epoch); the socket closes then. */
  tokenExpiresAt: number | null;
  /** The handshake token's password stamp: the socket closes when its account's password changes (ADR 0060). */
  stamp?: string | null;
  /** The handshake token's sign-in session: the socket closes when its holder signs out of it (ADR 0066). */
  sessionId?: string | null;
  /** The views this socket narrowed itself to (ADR 0045); unset: the default rooms. Kept for a recovered session. */
  views?: View[];
}
type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
const RECENT = 5000;
/** `views` messages one socket may send in a minute. */
const VIEWS_PER_MINUTE = 240;

export interface SocketLimits {
  /** Changes in one `catch_up` answer at most; the client asks again from the answer's position. */
  catchUpPage: number;
  /** Per socket and minute: `catch_up` calls, and changes sent by them. Past either the socket is closed. */
  catchUpCallsPerMinute: number;
  catchUpChangesPerMinute: number;
  /**
   * The same for all the sockets of one client address together, so that opening new sockets
   * does not buy a new budget. Generous: a household or an office shares one address.
   */
  catchUpCallsPerClientPerMinute: number;
  catchUpChangesPerClientPerMinute: number;
  /**
   * Sockets one client address may hold open at once; one more is refused at its handshake
   * (ADR 0072). Generous: a household, an office or a mobile carrier's NAT shares one address.
   */
  socketsPerClient: number;
  /** `views` calls of all the sockets of one client address together per minute; past it a call is refused and the socket keeps its views. */
  viewsCallsPerClientPerMinute: number;
}
export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  catchUpPage: 200,
  catchUpCallsPerMinute: 60,
  catchUpChangesPerMinute: 2 * RECENT,
  catchUpCallsPerClientPerMinute: 300,
  catchUpChangesPerClientPerMinute: 6 * RECENT,
  socketsPerClient: 1000,
  viewsCallsPerClientPerMinute: 6000,
};

interface Budget {
  start: number;
  calls: number;
  changes: number;
}
/** A per-minute budget of calls and changes: spends one call, says whether it is still within. */
const within = (b: Budget, now: number, calls: number, changes: number): Budget | null => {
  const fresh = now - b.start >= 60_000 ? { start: now, calls: 0, changes: 0 } : b;
  fresh.calls += 1;
  return fresh.calls > calls || fresh.changes > changes ? null : fresh;
};

/** Per-minute budgets by client address, each forgotten once its minute is over. */
function clientBudgets() {
  const byClient = new Map<string, Budget>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, b] of byClient) if (now - b.start >= 60_000) byClient.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    /** Spends one call of `client`'s budget: its budget while within, else null (nothing spent is kept). */
    take(client: string, now: number, calls: number, changes: number): Budget | null {
      const spent = within(byClient.get(client) ?? { start: now, calls: 0, changes: 0 }, now, calls, changes);
      if (spent) byClient.set(client, spent);
      return spent;
    },
    stop: () => clearInterval(sweep),
  };
}

/** Whether to log about a client now: once a minute per client, not per call (the map is bounded). */
function oncePerMinute() {
  const logged = new Map<string, number>();
  return (client: string): boolean => {
    const now = Date.now();
    if (now - (logged.get(client) ?? 0) < 60_000) return false;
    if (logged.size > 10_000) logged.clear();
    logged.set(client, now);
    return true;
  };
}

/** The engine's side of a connection: the handshake's request, and its end. */
interface RawConnection {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): unknown;
  close(): unknown;
}

/**
 * Open connections per client address (ADR 0072). A handshake past the cap is refused before
 * anything is kept for it; one that passed in the same moment as another (the check and the
 * count are a turn apart) is closed as it opens, so the cap holds exactly.
 */
export class ClientConnections {
  private readonly open = new Map<string, number>();
  constructor(
    private readonly cap: number,
    private readonly clientOf: (req: IncomingMessage) => string,
  ) {}
  private readonly logRefusal = oncePerMinute();
  /** Whether a new connection from this request's client may open. */
  mayOpen(req: IncomingMessage): boolean {
    const client = this.clientOf(req);
    if ((this.open.get(client) ?? 0) < this.cap) return true;
    // Behind a proxy without TRUST_PROXY every visitor is the proxy's address: this says so.
    if (this.logRefusal(client))
      log.warn('socket refused: its client address holds the most open sockets allowed (SOCKETS_PER_CLIENT)', { client, cap: this.cap });
    return false;
  }
  /** Counts an opened connection until it closes; closes it at once when its client is over the cap. */
  opened(raw: RawConnection) {
    const client = this.clientOf(raw.request);
    const count = (this.open.get(client) ?? 0) + 1;
    this.open.set(client, count);
    raw.once('close', () => {
      const left = (this.open.get(client) ?? 1) - 1;
      if (left > 0) this.open.set(client, left);
      else this.open.delete(client);
    });
    if (count > this.cap) {
      log.warn('connection closed: its client holds too many open sockets', { client, cap: this.cap });
      raw.close();
    }
  }
  /** Open connections of one client (for tests and metrics). */
  of(client: string) {
    return this.open.get(client) ?? 0;
  }
}

interface Kept {
  push: ChangePush;
  rooms: string[];
}

/**
 * One page of a catch-up: the kept changes after `from` that `visible` lets this socket see, at
 * most `page` of them. `more` when kept changes after the page remain; the answer's position is
 * then the last one the page covers, else `head`.
 */
export function catchUpPage(recent: readonly Kept[], from: number, visible: (rooms: string[]) => boolean, page: number, head: number) {
  let lo = 0;
  let hi = recent.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (recent[mid]!.push.position > from) hi = mid;
    else lo = mid + 1;
  }
  const changes: ChangePush[] = [];
  let i = lo;
  // As for views: at most SCAN_PAGES pages' worth looked at per ask (a socket's rooms may see
  // few), and a page ends with the rest of its last position's changes.
  let end = throughTies(recent, Math.min(recent.length, lo + page * SCAN_PAGES));
  for (; i < end; i++) {
    if (!visible(recent[i]!.rooms)) continue;
    changes.push(recent[i]!.push);
    if (changes.length === page) end = Math.min(end, throughTies(recent, i + 1));
  }
  const more = i < recent.length;
  return { position: more ? recent[i - 1]!.push.position : Math.max(head, from), changes, ...(more ? { more: true as const } : {}) };
}

/** Whether a page's Origin is this server itself (the Host it called). */
const sameHost = (origin: string, host: string | undefined) => {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
};

export interface SocketDeps {
  feed: ChangeFeed;
  tokens: Tokens;
  reads: ReadModels;
  /** The account behind a token and its password stamp (the gateway's cache); default: read each time. */
  accounts?: AccountLookup;
  position: () => number;
  /** The log's head (the event store's last position): read once this gateway listens, see RecentChanges.startedAt. */
  logHead?: () => Promise<number>;
  limits?: Partial<SocketLimits>;
  /** Other origins whose pages may open a socket (CORS_ORIGINS); the app's own always may. */
  corsOrigins?: string[];
  /** TRUST_PROXY, as Express takes it: who may say which client a socket is. */
  trustProxy?: boolean | number | string;
  /** How often open sockets are checked against their account's password (ms; default 30 s). */
  sessionCheckMs?: number;
  /** How pushes go out (flush interval, sockets per slice, pending packets before a drop); defaults in fanout.ts. */
  fanout?: Partial<FanoutOptions>;
  /** How often the checkpoints are read for a rebuild no notice told of (ms; default 5 s; ADR 0065). */
  rebuildCheckMs?: number;
  /** Called when a read model was rebuilt and swapped in (the public lists' cache forgets its answers). */
  onRebuilt?: () => void;
}

/**
 * Socket.IO on the gateway. The handshake carries the same JWT as the API; each socket joins
 * the rooms it may hear (everyone, its own user, the admins). Every read-model change is pushed
 * with its log position; a client back from a disconnect asks `catch_up` for what it missed,
 * a page at a time and within a budget per socket (ADR 0023).
 */
export function attachSockets(server: HttpServer, deps: SocketDeps) {
  const corsOrigins = deps.corsOrigins ?? [];
  const auth = roomAuthorisation(deps);
  const limits = { ...DEFAULT_SOCKET_LIMITS, ...deps.limits };
  const clientOf = clientAddress(deps.trustProxy ?? false);
  const connections = new ClientConnections(limits.socketsPerClient, clientOf);
  const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>(server, {
    path: '/socket.io',
    serveClient: false,
    adapter: checkedSessionAdapter(auth.stillValid) as never,
    // The middleware also runs for a recovered socket: its handshake's token is checked again.
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
    // Long-polling is plain HTTP and follows the API's CORS rules; a WebSocket is not subject to
    // CORS in browsers, so its Origin is checked here: the app's own page, or an allowed origin.
    cors: corsOptions(corsOrigins),
    // Only a handshake is asked (a connection's later requests carry its id): here the origin,
    // and the client's open connections (ADR 0072).
    allowRequest: (req, done) => {
      const origin = req.headers.origin;
      const own = origin !== undefined && sameHost(origin, req.headers.host);
      if (!(origin === undefined || own || originAllowed(corsOrigins)(origin))) return done('origin not allowed', false);
      if (!connections.mayOpen(req)) return done('too many open sockets from this address', false);
      done(null, true);
    },
  });
  io.engine.on('connection', (raw: RawConnection) => connections.opened(raw));
  io.use(auth.middleware);

  const recent = new RecentChanges(RECENT);
  const fanout = new Fanout(io, { ...DEFAULT_FANOUT, ...deps.fanout }, deps.position());
  /** Sockets narrowed to views, by account: closed with it when it is deleted. */
  const viewSocketsOf = new Map<string, Set<LiveSocket>>();
  const views = viewService(fanout, viewSocketsOf, limits, clientOf);
  const catchUp = catchUpService(recent, deps, limits, clientOf);
  io.on('connection', (socket: LiveSocket) => onConnection(socket, deps.position, catchUp, views));

  /**
   * Closes the given signed-in sockets whose token's stamp is no longer their account's password's
   * (ADR 0060), their accounts read afresh in one query, each stamp made once per account. Run
   * for an account as a change to it is announced, and for every socket here every half minute:
   * a gateway that missed the announcement (the feed across processes may drop a message)
   * closes them all the same.
   */
  const closeStale = async (sockets: { data: Partial<SocketData>; disconnect(close: boolean): unknown }[]) => {
    const signedIn = sockets.filter((s) => s.data.user);
    if (signedIn.length === 0) return;
    const credentials = await deps.reads.identity.credentialsOf([...new Set(signedIn.map((s) => s.data.user!._id))]);
    const checks = new Map([...credentials].map(([id, c]) => [id, sessionCheck(deps.tokens, c)]));
    for (const socket of signedIn) {
      const check = checks.get(socket.data.user!._id);
      if (!check || socket.data.stamp !== check.stamp || signedOutOf(check, socket.data.sessionId)) socket.disconnect(true);
    }
  };
  const closeStaleOf = async (id: string) => {
    try {
      const own = await io.in(rooms.user(id)).local.fetchSockets();
      await closeStale([...new Set([...own, ...(viewSocketsOf.get(id) ?? [])])]);
    } catch (err) {
      // The read failed: the sockets stay until the next check (a reconnect checks the token again).
      log.warn('could not check the sessions of a changed account', { id, err });
    }
  };
  const sweep = setInterval(() => void sweepSessions(), deps.sessionCheckMs ?? 30_000);
  sweep.unref();
  let sweeping = false;
  const sweepSessions = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      await closeStale([...(io.of('/').sockets.values() as IterableIterator<LiveSocket>)]);
    } catch (err) {
      log.warn('could not check the open sessions; checking again later', err);
    } finally {
      sweeping = false;
    }
  };

  /** Each projection's last rebuild known here: two projections rebuilt at the same position are two rebuilds. */
  const knownRebuilds = new Map<string, number>();
  /** Whether the checkpoints were read once: until then a rebuild found there is older than every socket here. */
  let rebuildsRead = false;
  /**
   * A read model's tables were rebuilt and swapped in up to `position` (an upgrade, an operator's
   * rebuild; ADR 0065): the changes they took in were never pushed. Every socket here reads its
   * lists again, and a catch-up from before that point cannot be answered from what is kept. Told
   * by the runner's notice, or found in the checkpoints table (at start, and every few seconds:
   * a notice between processes may be lost, and an operator's tool has no feed to the shop's).
   */
  const rebuilt = (projection: string, position: number, tellSockets = true) => {
    if (position <= (knownRebuilds.get(projection) ?? -1)) return;
    knownRebuilds.set(projection, position);
    // Pushes past the swap's position may have gone out before this gateway learnt of it (its
    // next check): a catch-up from anything sent so far reads the lists again.
    recent.rebuiltAt(tellSockets ? Math.max(position, recent.newest, deps.position()) : position);
    deps.onRebuilt?.();
    // Not in the publisher's turn (the projector's, in one process): a publish never waits for sockets.
    if (tellSockets) setImmediate(() => io.emit('resync', { position }));
  };
  let checking = false;
  const checkRebuilds = async () => {
    if (checking) return;
    checking = true;
    try {
      const found = await deps.reads.rebuilds();
      // At start no page here has read anything yet: what a tab missed across the restart, its catch-up says.
      for (const [projection, position] of found) rebuilt(projection, position, rebuildsRead);
      rebuildsRead = true;
    } catch (err) {
      log.warn('could not read when a read model was last rebuilt; trying again later', err);
    } finally {
      checking = false;
    }
  };
  void checkRebuilds();
  const rebuildCheck = setInterval(() => void checkRebuilds(), deps.rebuildCheckMs ?? 5000);
  rebuildCheck.unref();

  const off = deps.feed.subscribe((n) => {
    if (n.kind === 'rebuilt') {
      rebuilt(n.projection, n.position);
      return;
    }
    if (n.kind !== 'change') return;
    // The projections (the services' read models) emit the contracts' change shapes, and a
    // product's routing (what it was), which `route` takes off before anything is sent.
    const r = route(n.push as ChangePush, n.rooms);
    recent.add(r);
    // Only queued here: the projector's publish (and the write waiting for it) never waits for sockets.
    fanout.enqueue(r);
    // A deleted account's open sockets are closed along with its token.
    if (r.push.entity === 'user' && r.push.op === 'remove') {
      io.in(rooms.user(r.push.id)).disconnectSockets(true);
      for (const s of viewSocketsOf.get(r.push.id) ?? []) s.disconnect(true);
    }
    // A changed account may have a new password: its sockets opened with an earlier one close.
    if (r.push.entity === 'user' && r.push.op === 'upsert') void closeStaleOf(r.push.id);
  });
  // Now that changes are heard, the head of the log says what may have come before: a catch-up
  // from before it reads its lists again (until it is read, every catch-up does). Without the
  // store (tests of the sockets alone), the first position known stands in for it.
  let headTimer: NodeJS.Timeout | undefined;
  const readHead = () => {
    if (!deps.logHead) return recent.begin(deps.position());
    deps.logHead().then(
      (head) => recent.begin(head),
      (err: unknown) => {
        log.warn('could not read the head of the log; trying again', err);
        headTimer = setTimeout(readHead, 2000);
        headTimer.unref();
      },
    );
  };
  readHead();

  return {
    io,
    fanout,
    async close() {
      off();
      clearTimeout(headTimer);
      clearInterval(sweep);
      clearInterval(rebuildCheck);
      fanout.close();
      catchUp.stop();
      views.stop();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

/**
 * Room authorisation: who a socket is (from its handshake's token), checked again for a socket
 * that recovers its session, and the rooms that identity may hear.
 */
function roomAuthorisation(deps: Pick<SocketDeps, 'tokens' | 'reads' | 'accounts'>) {
  const accounts = deps.accounts ?? sessionAccounts(deps.reads, deps.tokens);
  /** Who a handshake's token says the socket is: null for a visitor; throws when refused. */
  const identify = async (token: unknown): Promise<Pick<SocketData, 'user' | 'tokenExpiresAt' | 'stamp' | 'sessionId'>> => {
    // No token is a visitor; a token that is not text is a malformed one, refused like any other.
    if (token === undefined || token === null || token === '') return { user: null, tokenExpiresAt: null, stamp: null, sessionId: null };
    if (typeof token !== 'string') throw new Error('unauthorized');
    const claims = deps.tokens.verify(token);
    if (!claims) throw new Error('unauthorized');
    const account = await accountOfToken(accounts, claims);
    // A deleted account, a token from before its password changed (ADR 0060), or of a session signed out (ADR 0066).
    if (account === 'gone' || account === 'stale' || account === 'signed-out') throw new Error('unauthorized');
    return { user: account.user, tokenExpiresAt: claims.expiresAt, stamp: claims.stamp, sessionId: claims.sessionId };
  };
  return {
    /** A session kept for connection-state recovery is given back only while its account still holds, with the same password. */
    stillValid: async (data: Partial<SocketData> | undefined): Promise<boolean> => {
      if (!data?.user) return true;
      if (data.tokenExpiresAt != null && data.tokenExpiresAt <= Date.now()) return false;
      const account = await accounts(data.user._id, true);
      return account !== null && account.stamp === data.stamp && !signedOutOf(account, data.sessionId);
    },
    /** The handshake middleware: sets `socket.data` from the token, or refuses the socket. */
    middleware: async (socket: LiveSocket, next: (err?: Error) => void) => {
      const previous = socket.recovered ? socket.data.user : null;
      socket.data.user = null;
      socket.data.tokenExpiresAt = null;
      socket.data.stamp = null;
      socket.data.sessionId = null;
      try {
        const who = await identify((socket.handshake.auth as { token?: unknown })?.token);
        // A recovered session belongs to the account it was opened for.
        if (socket.recovered && (who.user?._id ?? null) !== (previous?._id ?? null)) return next(new Error('unauthorized'));
        Object.assign(socket.data, who);
        next();
      } catch (err) {
        // Socket.IO ignores a rejected middleware promise; an unhandled rejection would end the process.
        next(new Error(err instanceof Error && err.message === 'unauthorized' ? 'unauthorized' : 'unavailable'));
      }
    },
  };
}

/** The rooms a socket may hear: everyone's, its user's own, and the admins' for an admin (never kept from a recovered session). */
function joinRooms(socket: LiveSocket) {
  const user = socket.data.user;
  void socket.join(rooms.everyone);
  if (user) {
    void socket.join(rooms.user(user._id));
    if (user.role === 'Admin') void socket.join(rooms.admins);
    else void socket.leave(rooms.admins);
  }
}

/**
 * Recovery restores a socket's rooms and replays what it missed before any middleware runs; a
 * deleted account or an expired token gets no session back, so it connects afresh and the
 * middleware refuses it (ADR 0023).
 */
function checkedSessionAdapter(stillValid: (data: Partial<SocketData> | undefined) => Promise<boolean>) {
  return class CheckedSessionAdapter extends SessionAwareAdapter {
    override async restoreSession(pid: PrivateSessionId, offset: string): Promise<Session> {
      const session = await super.restoreSession(pid, offset);
      if (session && !(await stillValid(session.data as Partial<SocketData>).catch(() => false))) {
        return null as unknown as Session;
      }
      return session;
    }
  };
}

/**
 * `catch_up`: a page of the kept changes the socket may see, within a per-minute budget per
 * socket and per client address (past either, the socket is closed).
 */
function catchUpService(
  recent: RecentChanges,
  deps: Pick<SocketDeps, 'position'>,
  limits: SocketLimits,
  clientOf: (req: IncomingMessage) => string,
) {
  const perClient = clientBudgets();

  return {
    stop: perClient.stop,
    /** Answers `catch_up` on this socket from now on. */
    serve(socket: LiveSocket) {
      let window: Budget = { start: Date.now(), calls: 0, changes: 0 };
      const client = clientOf(socket.request);
      socket.on('catch_up', (since, ack) => {
        const now = Date.now();
        const mine = within(window, now, limits.catchUpCallsPerMinute, limits.catchUpChangesPerMinute);
        const ours = perClient.take(client, now, limits.catchUpCallsPerClientPerMinute, limits.catchUpChangesPerClientPerMinute);
        if (!mine || !ours) {
          log.warn('socket closed: catch_up asked too often', { socket: socket.id, client, perSocket: !mine, perClient: !ours });
          socket.disconnect(true);
          return;
        }
        window = mine;
        if (typeof ack !== 'function') return;
        const head = deps.position();
        // A position past everything known (the head, or the newest change a faster read model
        // already published) is answered from there. Not from the head alone: a page that ended
        // on a change past the head would then be sent again and again.
        const from = typeof since === 'number' && Number.isFinite(since) && since >= 0 ? Math.min(since, Math.max(head, recent.newest)) : 0;
        // Older than what is kept, than a rebuild's swap, or than this gateway (a client that moved
        // here from another, or back after a restart): the client reloads its lists instead.
        if (from > 0 && ((from < recent.oldest - 1 && recent.full) || from < recent.rebuilt || from < recent.startedAt)) {
          ack({ position: head, changes: [], resync: true } satisfies CatchUpAnswer);
          return;
        }
        // A socket with views reads only the changes under its views' keys (ADR 0045).
        const views = socket.data.views;
        const answer = views
          ? viewCatchUpPage(recent, views, from, limits.catchUpPage, head)
          : catchUpPage(recent.all, from, (r) => r.some((room) => socket.rooms.has(room)), limits.catchUpPage, head);
        window.changes += answer.changes.length;
        ours.changes += answer.changes.length;
        ack(answer satisfies CatchUpAnswer);
      });
    },
  };
}

/**
 * The client behind a socket: its connection's address, or what a proxy trusted by TRUST_PROXY
 * says (the same rule as the HTTP limits).
 */
function clientAddress(trustSetting: boolean | number | string): (req: IncomingMessage) => string {
  const trust: (addr: string, hop: number) => boolean =
    trustSetting === false
      ? () => false
      : trustSetting === true
        ? () => true
        : typeof trustSetting === 'number'
          ? (_addr, hop) => hop < trustSetting
          : proxyaddr.compile(trustSetting.split(',').map((t) => t.trim()));
  // An IPv6 client is its /56, as for the HTTP limits: one holder has a whole block of addresses.
  return (req) => ipKeyGenerator(proxyaddr(req, trust) || 'unknown');
}

/**
 * `views`: narrows a socket to the views it shows (ADR 0045). Each view is checked against the
 * socket's account like a room (another account's, or the admins', is refused); the socket leaves
 * its default rooms and joins the fan-out's group for its set of views.
 */
function viewService(
  fanout: Fanout,
  viewSocketsOf: Map<string, Set<LiveSocket>>,
  limits: SocketLimits,
  clientOf: (req: IncomingMessage) => string,
) {
  const perClient = clientBudgets();
  const track = (socket: LiveSocket, on: boolean) => {
    const id = socket.data.user?._id;
    if (!id) return;
    let set = viewSocketsOf.get(id);
    if (on) {
      if (!set) viewSocketsOf.set(id, (set = new Set()));
      set.add(socket);
    } else if (set) {
      set.delete(socket);
      if (set.size === 0) viewSocketsOf.delete(id);
    }
  };
  /** Sets the socket's views from what it sent (or what its recovered session held); answers what was refused. */
  const apply = (socket: LiveSocket, asked: unknown): ViewsAnswer => {
    const refused: string[] = [];
    const granted = new Map<string, View>();
    // Not a list: the call is refused whole and the socket keeps the views it had.
    if (!Array.isArray(asked)) return { position: fanout.coveredFrom, refused: ['views must be a list'] };
    const all = asked;
    // Read no further than twice the views a socket may hold: a longer list is refused past there
    // in one word, not echoed back item by item.
    const list = all.slice(0, 2 * MAX_VIEWS_PER_SOCKET);
    if (all.length > list.length) refused.push(`#${list.length}+`);
    for (const [i, item] of list.entries()) {
      const view = parseView(item);
      const key = view ? viewKey(view) : `#${i}`;
      if (!view || !mayView(socket.data.user, view) || (!granted.has(key) && granted.size >= MAX_VIEWS_PER_SOCKET)) refused.push(key);
      else granted.set(key, view);
    }
    const views = [...granted.values()];
    socket.data.views = views;
    // The default rooms would send it everything: it hears its views only from now on.
    for (const room of [...socket.rooms]) if (room !== socket.id) void socket.leave(room);
    fanout.subscribe(socket, views);
    track(socket, true);
    return { position: fanout.coveredFrom, refused };
  };
  const logRefusal = oncePerMinute();
  const refusedForAddress = (socket: LiveSocket, client: string): ViewsAnswer => {
    if (logRefusal(client))
      log.warn('views refused: the sockets of this address called views too often this minute', { socket: socket.id, client });
    return { position: fanout.coveredFrom, refused: [VIEWS_REFUSED_FOR_ADDRESS] };
  };
  return {
    apply,
    stop: perClient.stop,
    serve(socket: LiveSocket) {
      // A page changes its views when it opens a list: a few a minute. Past its own budget the
      // socket is closed (it reconnects and subscribes again), as for catch_up (ADR 0023). Past
      // its address's (ADR 0072) the call is refused and the socket keeps the views it had:
      // closing it would have it reconnect and call again, and its neighbours' with it.
      let budget = { start: Date.now(), calls: 0, changes: 0 };
      const client = clientOf(socket.request);
      socket.on('views', (asked, ack) => {
        const now = Date.now();
        const fresh = within(budget, now, VIEWS_PER_MINUTE, Infinity);
        if (!fresh) {
          log.warn('socket over its views budget: closed', { socket: socket.id, client });
          socket.disconnect(true);
          return;
        }
        budget = fresh;
        const answer = perClient.take(client, now, limits.viewsCallsPerClientPerMinute, Infinity)
          ? apply(socket, asked)
          : refusedForAddress(socket, client);
        if (typeof ack === 'function') ack(answer);
        else socket.emit('views', answer);
      });
      socket.on('disconnect', () => {
        fanout.unsubscribe(socket);
        track(socket, false);
      });
    },
  };
}

/** A socket that passed the middleware: its rooms, the end of its session, its starting position, `catch_up`. */
function onConnection(
  socket: LiveSocket,
  position: () => number,
  catchUp: ReturnType<typeof catchUpService>,
  views: ReturnType<typeof viewService>,
) {
  // A recovered session that had views keeps them (checked again against its account).
  if (socket.recovered && socket.data.views) views.apply(socket, socket.data.views);
  else joinRooms(socket);
  views.serve(socket);
  // The session ends with its token, whether or not the socket is ever asked anything.
  const expiresIn = socket.data.tokenExpiresAt == null ? null : socket.data.tokenExpiresAt - Date.now();
  const expiry = expiresIn == null ? null : setTimeout(() => socket.disconnect(true), Math.min(Math.max(expiresIn, 0), 2 ** 31 - 1));
  expiry?.unref();
  socket.on('disconnect', () => {
    if (expiry) clearTimeout(expiry);
  });

  // Where this socket's stream starts: a client that has had no push yet catches up from here.
  socket.emit('synced', { position: position() });
  catchUp.serve(socket);
}
