import { io, type Socket } from 'socket.io-client';
import type { ChangePush, ClientToServerEvents, ServerToClientEvents } from '@tv-shop/contracts';
import { env } from '@/config/env';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Highest log position applied, kept across sockets so a new sign-in also catches up. */
let lastPosition = 0;

/**
 * Opens the live connection (signed in or not) and hands every change to `onChange`. After a
 * reconnect it asks for what it missed since the last position it saw.
 */
export function connectLive(token: string | null, onChange: (push: ChangePush) => void): () => void {
  const socket: LiveSocket = io({ path: env.socketPath, auth: token ? { token } : {} });
  const receive = (push: ChangePush) => {
    lastPosition = Math.max(lastPosition, push.position);
    onChange(push);
  };
  socket.on('change', receive);
  socket.on('connect', () => {
    document.documentElement.dataset.live = 'connected';
    if (lastPosition > 0) {
      socket.emit('catch_up', lastPosition, (answer) => answer.changes.forEach(receive));
    }
  });
  socket.on('disconnect', () => {
    document.documentElement.dataset.live = 'disconnected';
  });
  return () => {
    socket.disconnect();
  };
}
