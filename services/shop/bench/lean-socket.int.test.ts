import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeanSocket } from './lean-socket';

// The fan-out benchmark's visitors against a real Socket.IO server: what they hear must be what
// socket.io-client would hear, whether a packet was decoded for this socket or for another.
describe('LeanSocket', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const sockets: LeanSocket[] = [];

  beforeAll(async () => {
    http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    io.on('connection', (socket) => {
      socket.data.name = (socket.handshake.auth as { name?: string }).name ?? '';
      socket.on('views', (views: unknown, ack: (answer: unknown) => void) => ack({ ok: true, views, name: socket.data.name }));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await io.close();
  });

  const connect = async (name: string) => {
    const socket = await LeanSocket.connect(url, { name });
    sockets.push(socket);
    return socket;
  };

  it('when many sockets get the same packet, and then others, then each hears every one as sent, in order', async () => {
    const [a, b, c] = await Promise.all([connect('a'), connect('b'), connect('c')]);
    const heard = new Map<LeanSocket, unknown[][]>([
      [a, []],
      [b, []],
      [c, []],
    ]);
    for (const [socket, list] of heard) socket.on('changes', (...args) => list.push(args));
    const batch = [{ entity: 'product', op: 'upsert', id: 'p1', position: 1, row: { name: 'Sony Bravia', price: 100 } }];
    // Bytes of the same length that differ: another packet, decoded for itself.
    const other = [{ ...batch[0]!, id: 'p2' }];
    // The same bytes to all three (decoded once), one packet to b alone, then the first again, then the other.
    io.emit('changes', batch);
    io.to([...io.sockets.sockets.values()].filter((s) => s.data.name === 'b').map((s) => s.id)).emit('changes', [{ id: 'only-b' }], 2);
    io.emit('changes', batch);
    io.emit('changes', other);
    await expect.poll(() => [...heard.values()].map((l) => l.length)).toEqual([3, 4, 3]);
    expect(heard.get(a)).toEqual([[batch], [batch], [other]]);
    expect(heard.get(c)).toEqual([[batch], [batch], [other]]);
    expect(heard.get(b)).toEqual([[batch], [[{ id: 'only-b' }], 2], [batch], [other]]);
  });

  it('when a socket asks with an acknowledgement, then the answer is its own, not one decoded for another socket', async () => {
    const [a, b] = await Promise.all([connect('x'), connect('y')]);
    const ask = (s: LeanSocket) => new Promise((resolve) => s.emit('views', [{ kind: 'products' }], resolve));
    expect(await ask(a)).toEqual({ ok: true, views: [{ kind: 'products' }], name: 'x' });
    expect(await ask(b)).toEqual({ ok: true, views: [{ kind: 'products' }], name: 'y' });
  });
});
