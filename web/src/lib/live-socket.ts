import type { Socket } from 'socket.io-client';
import type { ChangePush, ClientToServerEvents, ServerToClientEvents, View } from '@tv-shop/contracts';
import { viewKey, VIEWS_REFUSED_FOR_ADDRESS } from '@tv-shop/contracts';
import { env } from '@/config/env';
import { afterFirstScreen } from './first-screen';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface LiveHandlers {
  onChange: (push: ChangePush) => void;
  /** The server no longer keeps the changes this tab missed: every loaded list must be read again. */
  onResync: () => void;
  /** Asked when the server closed or refused the socket; false when the session has ended. */
  sessionStillValid: () => Promise<boolean>;
}

/**
 * Where this tab stands in the server's change log, kept across sockets (sign-in, sign-out) so
 * a new socket catches up too.
 * - `last`: every change up to here is in our state. It starts at the stream's start (`synced`)
 *   or at the position of lists read while no stream ran, and moves with pushes and catch-ups.
 * - `gapFrom`: the lowest position a list was read at that no stream covers yet (read while
 *   offline, or before the socket's stream began); the next catch-up starts there.
 */
const log = { last: 0, gapFrom: Infinity };

interface Stream {
  /** Whether this socket is connected and has delivered every change after `position` (of `view`, when named). */
  covers(position: number, view?: string): boolean;
  catchUp(): void;
  /** Tells the server the views now watched. */
  sendViews(): void;
}
let stream: Stream | null = null;

/**
 * The views the open pages show (ADR 0045): the socket subscribes to exactly these, and the
 * server sends it only their changes. Counted, as two lists may show the same view.
 */
const watched = new Map<string, { view: View; count: number }>();
let viewsDirty = false;
/** Per view not yet covered by the socket: the lowest position a list of it was read at. */
const viewReads = new Map<string, number>();

/** Subscribes the tab's socket to `view` until the returned function is called. */
export function watchView(view: View): () => void {
  const key = viewKey(view);
  const entry = watched.get(key);
  if (entry) entry.count += 1;
  else {
    watched.set(key, { view, count: 1 });
    viewsChanged();
  }
  return () => {
    const e = watched.get(key);
    if (!e) return;
    e.count -= 1;
    if (e.count > 0) return;
    watched.delete(key);
    viewsChanged();
  };
}

/** Several lists mounting together send one `views`. */
function viewsChanged(): void {
  if (viewsDirty) return;
  viewsDirty = true;
  queueMicrotask(() => {
    viewsDirty = false;
    stream?.sendViews();
  });
}

/** Each list read's `X-Position` (and the view it shows): changes after it reach the list by push or by catch-up. */
export function noteListRead(position: number, view?: View): void {
  const key = view ? viewKey(view) : undefined;
  if (stream?.covers(position, key)) return;
  // Read before the socket's subscription to its view was answered: once it is, what the view
  // missed between this read and that answer is asked for (a catch-up asked now would be
  // answered with the socket's older views).
  if (key !== undefined) viewReads.set(key, Math.min(viewReads.get(key) ?? Infinity, position));
  log.gapFrom = Math.min(log.gapFrom, position);
  log.last = Math.max(log.last, position);
  stream?.catchUp();
}

const RETRY_REFUSED_MS = 3000;
/** A socket the server closes within this of its connect counts toward a streak; the reopen waits grow to REOPEN_MAX_MS. */
const CLOSE_STREAK_MS = 60_000;
const REOPEN_MAX_MS = 30_000;
/** A `views` call refused for this address is sent again after 1-1.5 times this: past the minute of its budget (ADR 0072). */
const VIEWS_AGAIN_MS = 60_000;
/** A tab waits up to this long before reading its lists again after a `resync`. */
const RESYNC_SPREAD_MS = 2000;
/** A reload of the lists told by a `resync` and not yet done (kept across sockets). */
let resyncOwed: ReturnType<typeof setTimeout> | undefined;

/**
 * Reads the lists again after a wait of this tab's own, so that thousands of open pages told
 * at once (a rebuild, a gateway that restarted) do not all ask at once. The reload happens even
 * if the socket is replaced meanwhile (a sign-in, a sign-out).
 */
function resyncSoon(reload: () => void): void {
  if (resyncOwed !== undefined) return;
  resyncOwed = setTimeout(() => {
    resyncOwed = undefined;
    reload();
  }, Math.random() * RESYNC_SPREAD_MS);
}

/**
 * Whether the page is live: `connecting` until a socket first connects, `reconnecting` while a
 * connection that worked is down (or a first one keeps failing), `connected` otherwise. A new
 * socket (sign-in, sign-out) starts `connecting` again without saying it reconnects.
 */
export type LiveStatus = 'connecting' | 'connected' | 'reconnecting';
let status: LiveStatus = 'connecting';
const statusListeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();

function setStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  statusListeners.forEach((listener) => listener());
}

export function liveStatus(): LiveStatus {
  return status;
}

export function subscribeLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** Called each time a connection comes back after it was down (not on the first connect). */
export function onLiveReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/**
 * Opens the live connection (signed in or not) and hands every change to `onChange`. Each
 * (re)connect asks `catch_up` for what happened since `log.last`, even if no push came yet.
 */
export function connectLive(token: string | null, handlers: LiveHandlers): () => void {
  // The Socket.IO client is fetched once the first screen is done (first-screen.ts), not while
  // the page's code, data and photos are on the way: on a slow phone its download and handshake
  // would hold them up (ADR 0043). Nothing is missed meanwhile: each list read noted its
  // position, and the socket's first catch-up starts there. A later socket (sign-in, sign-out)
  // opens at once.
  let close: (() => void) | null = null;
  let cancelled = false;
  const connect = () => {
    firstScreenDone = true;
    void import('socket.io-client').then(({ io }) => {
      if (!cancelled) close = open(io, token, handlers);
    });
  };
  const cancelWait = firstScreenDone ? (connect(), () => undefined) : afterFirstScreen(connect);
  return () => {
    cancelled = true;
    cancelWait();
    close?.();
  };
}

/** Whether a socket was opened already: the first screen is long done. */
let firstScreenDone = false;

function open(io: typeof import('socket.io-client').io, token: string | null, handlers: LiveHandlers): () => void {
  const socket: LiveSocket = io({ path: env.socketPath, auth: token ? { token } : {} });
  /** This connection has delivered every change after this position. */
  let coveredFrom = Infinity;
  /** Per view: this connection has delivered every change of it after this position (from the answer to `views`). */
  const viewCoveredFrom = new Map<string, number>();
  /** Counts connections, so the answer to a catch-up asked before a drop is ignored. */
  let connection = 0;
  let asking: number | null = null;
  let askedThisConnection = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** When this socket last connected, and how many times in a row the server closed it soon after. */
  let connectedAt = 0;
  let closesInARow = 0;
  /** Whether this socket was down after having been up (or failing from the start). */
  let wasDown = false;
  setStatus('connecting');
  const down = () => {
    if (closed) return;
    wasDown = true;
    setStatus('reconnecting');
  };

  const receive = (push: ChangePush) => {
    log.last = Math.max(log.last, push.position);
    handlers.onChange(push);
  };

  /** Asks what happened since we were last current; `page` continues a paged answer from there. */
  const catchUp = (page?: number) => {
    if (!socket.connected || (asking !== null && page === undefined)) return;
    const since = page ?? Math.min(log.last, log.gapFrom);
    const asked = connection;
    asking = since;
    askedThisConnection = true;
    socket.emit('catch_up', since, (answer) => {
      if (asked !== connection) return;
      answer.changes.forEach(receive);
      log.last = Math.max(log.last, answer.position);
      if (page === undefined) coveredFrom = Math.min(coveredFrom, since);
      if (answer.resync) resyncSoon(handlers.onResync);
      // The server answers a page at a time: the next one starts where this one ended (not at
      // log.last, which live pushes may already have moved past the pages still to come).
      if (answer.more && !answer.resync) {
        // Should the socket drop before the last page, the next catch-up starts from here.
        log.gapFrom = Math.min(log.gapFrom, answer.position);
        return catchUp(answer.position);
      }
      asking = null;
      // A view that became covered while this was asked may have missed changes since its read.
      if (viewGap < Infinity) return askViewGap();
      // A list read while this was asked may predate it; ask again from there.
      if (log.gapFrom < coveredFrom) catchUp();
      else log.gapFrom = Infinity;
    });
  };

  const recheckSession = async (delayMs: number) => {
    const valid = await handlers.sessionStillValid();
    // An ended session signs out, and the sign-out replaces this socket with a visitor's.
    if (closed || !valid) return;
    retry = setTimeout(() => socket.connect(), delayMs);
  };

  /** A `views` call to send again, the last having been refused for this address. */
  let viewsAgain: ReturnType<typeof setTimeout> | undefined;
  /** Whether a `views` call was accepted on this connection (until then the socket is in its default rooms). */
  let viewsTaken = false;
  /** The views sent on this connection and not answered yet, in order (the server answers each with a `views` event). */
  const sentViews: string[][] = [];
  /** Subscribes this socket to the watched views; views new to it are covered from the answer's position. */
  const sendViews = () => {
    clearTimeout(viewsAgain);
    if (!socket.connected) return;
    sentViews.push([...watched.keys()]);
    socket.emit(
      'views',
      [...watched.values()].map((w) => w.view),
    );
  };
  /** The lowest list read of a view that became covered after it: a catch-up from there is owed. */
  let viewGap = Infinity;
  socket.on('views', (answer) => {
    const keys = sentViews.shift() ?? [];
    // Refused whole (this address's sockets called too often this minute, ADR 0072): nothing
    // changed on the server; sent again once that minute is over. A socket that has had no views
    // accepted on this connection is still in its default rooms and hears every list it may see,
    // so its views are covered as far as it is (no catch-up for each list read meanwhile).
    if (answer.refused.includes(VIEWS_REFUSED_FOR_ADDRESS)) {
      if (!viewsTaken) for (const key of keys) if (!viewCoveredFrom.has(key)) viewCoveredFrom.set(key, 0);
      clearTimeout(viewsAgain);
      viewsAgain = setTimeout(sendViews, VIEWS_AGAIN_MS * (1 + Math.random() / 2));
      return;
    }
    viewsTaken = true;
    clearTimeout(viewsAgain);
    // Not expected from the app's own pages (a few views each, the server takes 16): said, not
    // swallowed, since those lists then stay as read until the page reads them again.
    if (answer.refused.length > 0) console.warn(`live updates refused for ${answer.refused.join(', ')}: those lists will not change live`);
    for (const key of keys) {
      if (viewCoveredFrom.has(key) || answer.refused.includes(key)) continue;
      viewCoveredFrom.set(key, answer.position);
      const read = viewReads.get(key);
      viewReads.delete(key);
      if (read !== undefined && read < answer.position) viewGap = Math.min(viewGap, read);
    }
    for (const key of viewCoveredFrom.keys()) if (!watched.has(key)) viewCoveredFrom.delete(key);
    askViewGap();
  });
  /** Asks for what newly covered views missed since their lists were read (after any catch-up in flight). */
  const askViewGap = () => {
    if (viewGap === Infinity || asking !== null) return;
    log.gapFrom = Math.min(log.gapFrom, viewGap);
    viewGap = Infinity;
    catchUp();
  };

  socket.on('change', receive);
  // A socket with views gets each moment's changes together.
  socket.on('changes', (pushes) => pushes.forEach(receive));
  socket.on('connect', () => {
    document.documentElement.dataset.live = 'connected';
    connectedAt = Date.now();
    connection += 1;
    asking = null;
    askedThisConnection = false;
    viewCoveredFrom.clear();
    viewsTaken = false;
    sentViews.length = 0;
    // Views first: the catch-up that follows answers for them (the server takes a socket's events in order).
    sendViews();
    if (log.last > 0 || log.gapFrom < Infinity) catchUp();
    setStatus('connected');
    if (wasDown) {
      wasDown = false;
      reconnectListeners.forEach((listener) => listener());
    }
  });
  // A read model was rebuilt on the server (an upgrade, an operator's rebuild, a first start far
  // behind the log: ADRs 0065, 0068): the lists are read
  // again, each tab after a wait of its own, so that thousands of open pages do not all ask at once.
  // Where the tab stands in the log does not move: pushes and catch-ups go on as before, and the
  // reload happens even if this socket is replaced meanwhile (a sign-in, a sign-out).
  socket.on('resync', () => resyncSoon(handlers.onResync));
  socket.on('synced', ({ position }) => {
    // After a catch-up its answer says where we are; otherwise the stream starts here.
    if (askedThisConnection) return;
    coveredFrom = Math.min(coveredFrom, position);
    log.last = Math.max(log.last, position);
  });
  socket.on('disconnect', (reason) => {
    document.documentElement.dataset.live = 'disconnected';
    coveredFrom = Infinity;
    asking = null;
    if (log.last > 0) log.gapFrom = Math.min(log.gapFrom, log.last);
    down();
    // The server closes a deleted account's sockets; anything else it closes (a budget spent),
    // we reopen: at once the first time, then after longer and longer waits while it keeps
    // closing them soon after they open.
    if (Date.now() - connectedAt >= CLOSE_STREAK_MS) closesInARow = 0;
    if (reason === 'io server disconnect') {
      closesInARow += 1;
      void recheckSession(closesInARow <= 1 ? 0 : Math.min(REOPEN_MAX_MS, 1000 * 2 ** (closesInARow - 2)) * (0.5 + Math.random() / 2));
    }
  });
  socket.on('connect_error', () => {
    document.documentElement.dataset.live = 'disconnected';
    down();
    // Network failures are retried by the client itself; a refusal by the server's auth check is not.
    if (!socket.active) void recheckSession(RETRY_REFUSED_MS);
  });

  // The browser knows before the socket's heartbeat does that the network went or came back.
  const offline = () => socket.io.engine?.close();
  const online = () => {
    if (socket.connected || closed) return;
    socket.disconnect();
    socket.connect();
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', online);

  const current: Stream = {
    covers: (position, view) =>
      socket.connected && position >= coveredFrom && (view === undefined || position >= (viewCoveredFrom.get(view) ?? Infinity)),
    catchUp,
    sendViews,
  };
  stream = current;

  return () => {
    closed = true;
    clearTimeout(retry);
    clearTimeout(viewsAgain);
    window.removeEventListener('offline', offline);
    window.removeEventListener('online', online);
    if (stream === current) stream = null;
    socket.disconnect();
  };
}
