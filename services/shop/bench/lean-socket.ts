// A Socket.IO client for `npm run bench:fanout`'s visitors, reduced to what they do: connect over
// WebSocket with a token, send `views` with an acknowledgement, hear events, answer the server's
// pings. It speaks the same wire protocol as socket.io-client (Engine.IO 4, Socket.IO 5, the
// main namespace) with none of its machinery (reconnection, buffering, emitters, parser
// objects), so that a thousand of them in one process cost the two cores they share with the
// server as little as they can: what the benchmark is to measure is the server's work, and the
// visitors' browsers would be on machines of their own. `CLIENT=socket.io` runs the benchmark on
// socket.io-client itself, to compare.
//
// An event packet that many of these visitors receive alike (the fan-out writes the same frame
// to every socket of a group of views) is decoded once, as each browser would decode its own
// copy on a CPU of its own: the next sockets to receive the same bytes (compared in full) get
// the same decoded arguments, which their handlers only read. Every socket still receives, and
// is timed and checked on, every packet it is sent. `DECODE=each` decodes every copy, to compare.
import WebSocket from 'ws';

type Handler = (...args: unknown[]) => void;

/** The last few event packets decoded, by their bytes: a fan-out's packet reaches its group's sockets one after another. */
const decoded: { bytes: Buffer; args: unknown[] }[] = [];
const DECODED_KEPT = 16;
const decodeOnce = process.env.DECODE !== 'each';

/** The arguments of an event packet (`42["name",...]`, no acknowledgement) decoded before from the same bytes. */
function decodedBefore(data: Buffer): unknown[] | undefined {
  if (!decodeOnce) return undefined;
  for (const entry of decoded) if (entry.bytes.equals(data)) return entry.args;
  return undefined;
}

function keepDecoded(data: Buffer, args: unknown[]): void {
  if (!decodeOnce) return;
  // A copy: the bytes ws handed over are the connection's.
  decoded.unshift({ bytes: Buffer.from(data), args });
  if (decoded.length > DECODED_KEPT) decoded.pop();
}

export class LeanSocket {
  connected = false;
  private readonly handlers = new Map<string, Handler>();
  private readonly acks = new Map<number, Handler>();
  private nextAck = 0;

  private constructor(private readonly ws: WebSocket) {}

  /**
   * Connects to the server at `url` (http://host:port) with `auth` as the handshake's auth;
   * rejects (and closes) on connect_error, or when not connected within `timeoutMs`.
   */
  static connect(url: string, auth: Record<string, unknown>, timeoutMs = 10_000): Promise<LeanSocket> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, { perMessageDeflate: false });
    const socket = new LeanSocket(ws);
    return new Promise<LeanSocket>((resolve, reject) => {
      const fail = (err: Error) => {
        clearTimeout(timer);
        ws.terminate();
        reject(err);
      };
      const timer = setTimeout(() => fail(new Error(`not connected within ${timeoutMs} ms`)), timeoutMs);
      ws.on('error', fail);
      ws.on('close', () => {
        if (!socket.connected) return fail(new Error('closed before connecting'));
        socket.connected = false;
        socket.handlers.get('disconnect')?.();
      });
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return;
        const known = decodedBefore(data);
        if (known) return socket.event(known);
        const text = data.toString();
        switch (text[0]) {
          case '0': // Engine.IO open: connect to the main namespace with the auth
            ws.send(`40${JSON.stringify(auth)}`);
            return;
          case '2': // ping
            ws.send('3');
            return;
          case '4': // a Socket.IO packet
            if (text[1] === '0') {
              clearTimeout(timer);
              socket.connected = true;
              resolve(socket);
            } else if (text[1] === '4') fail(new Error(`connect_error: ${text.slice(2)}`));
            else if (text[1] === '1') ws.close();
            else socket.packet(text, data);
            return;
        }
      });
    });
  }

  /**
   * An EVENT (`42[ack]["name",...]`) goes to its handler; an ACK (`43<id>[...]`) to its callback.
   * Nothing else is for these visitors (the gateway sends no binary packets, and asks no
   * acknowledgements of a client).
   */
  private packet(text: string, data: Buffer) {
    if (text[1] !== '2' && text[1] !== '3') return;
    let i = 2;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    const args = JSON.parse(text.slice(i)) as unknown[];
    if (text[1] === '2') {
      // Only an event without an acknowledgement id is alike for every socket.
      if (i === 2) keepDecoded(data, args);
      this.event(args);
    } else if (text[1] === '3') {
      const id = Number(text.slice(2, i));
      const ack = this.acks.get(id);
      this.acks.delete(id);
      ack?.(...args);
    }
  }

  /** An EVENT's decoded arguments (`["name",...]`) to the event's handler. */
  private event(args: unknown[]) {
    const [event, ...rest] = args as [string, ...unknown[]];
    this.handlers.get(event)?.(...rest);
  }

  /** One handler an event: `change`, `changes`, `views`, `disconnect`. */
  on(event: string, handler: Handler): void {
    this.handlers.set(event, handler);
  }

  /** Emits `event` with `args`; a function last is the acknowledgement's callback. */
  emit(event: string, ...args: unknown[]): void {
    const ack = typeof args.at(-1) === 'function' ? (args.pop() as Handler) : undefined;
    let id = '';
    if (ack) {
      const n = this.nextAck++;
      this.acks.set(n, ack);
      id = String(n);
    }
    this.ws.send(`42${id}${JSON.stringify([event, ...args])}`);
  }

  disconnect(): void {
    if (this.connected) this.ws.send('41');
    this.ws.close();
  }
}
