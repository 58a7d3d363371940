import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { ChangePush, ClientToServerEvents, ServerToClientEvents, User } from '@tv-shop/contracts';
import type { ChangeFeed } from '@tv-shop/platform';
import { rooms } from '@tv-shop/projector';
import type { Tokens } from './auth/tokens';
import type { ReadModels } from './read-models';

interface SocketData {
  user: User | null;
}
const RECENT = 5000;

/**
 * Socket.IO on the gateway. The handshake carries the same JWT as the API; each socket joins
 * the rooms it may hear (everyone, its own user, the admins). Every read-model change is pushed
 * with its log position; a client back from a disconnect asks `catch_up` for what it missed.
 */
export function attachSockets(server: HttpServer, deps: { feed: ChangeFeed; tokens: Tokens; reads: ReadModels; position: () => number }) {
  const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>(server, {
    path: '/socket.io',
    serveClient: false,
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000 },
  });
  const recent: { push: ChangePush; rooms: string[] }[] = [];

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown })?.token;
    socket.data.user = null;
    if (typeof token !== 'string' || token === '') return next();
    const claims = deps.tokens.verify(token);
    try {
      const user = claims ? await deps.reads.userById(claims.sub) : null;
      if (!user) return next(new Error('unauthorized'));
      socket.data.user = user;
      next();
    } catch {
      // Socket.IO ignores a rejected middleware promise; an unhandled rejection would end the process.
      next(new Error('unavailable'));
    }
  });

  io.on('connection', (socket) => {
    const user = socket.data.user;
    void socket.join(rooms.everyone);
    if (user) {
      void socket.join(rooms.user(user._id));
      if (user.role === 'Admin') void socket.join(rooms.admins);
    }
    // Where this socket's stream starts: a client that has had no push yet catches up from here.
    socket.emit('synced', { position: deps.position() });
    socket.on('catch_up', (since, ack) => {
      if (typeof ack !== 'function') return;
      const from = Number(since);
      const oldest = recent[0]?.push.position ?? Infinity;
      const mine = (r: string[]) => r.some((room) => socket.rooms.has(room));
      const changes = recent.filter((c) => c.push.position > from && mine(c.rooms)).map((c) => c.push);
      // Older than what is kept: the client reloads its lists instead.
      const resync = Number.isFinite(from) && from > 0 && from < oldest - 1 && recent.length >= RECENT;
      ack({ position: deps.position(), changes, ...(resync ? { resync: true } : {}) });
    });
  });

  const off = deps.feed.subscribe((n) => {
    if (n.kind !== 'change') return;
    recent.push({ push: n.push, rooms: n.rooms });
    if (recent.length > RECENT) recent.splice(0, recent.length - RECENT);
    io.to(n.rooms).emit('change', n.push);
    // A deleted account's open sockets are closed along with its token.
    if (n.push.entity === 'user' && n.push.op === 'remove') io.in(rooms.user(n.push.id)).disconnectSockets(true);
  });

  return {
    io,
    async close() {
      off();
      io.disconnectSockets(true);
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
