import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, type AppErrorJSON } from '../errors';
import { createLogger } from '../log';
import {
  InProcessCommandBus,
  readEnvelope,
  type CommandBus,
  type CommandEnvelope,
  type CommandHandlerFn,
  type CommandReply,
} from './transport';

type Service = CommandEnvelope['service'];
const log = createLogger('command-http');
const MAX_BODY = 1024 * 1024;
/** Shorter than this and a token is guessable; generated ones are 43 characters. */
export const MIN_COMMAND_TOKEN_LENGTH = 16;

function requireToken(token: string | undefined, who: string): string {
  if (!token) throw new Error(`${who} needs COMMAND_TOKEN: services refuse commands from anyone without it`);
  if (token.length < MIN_COMMAND_TOKEN_LENGTH) throw new Error(`COMMAND_TOKEN must be at least ${MIN_COMMAND_TOKEN_LENGTH} characters`);
  return token;
}

/** `Authorization: Bearer <token>` against the expected token, in constant time (hashes of equal length). */
export function commandTokenMatches(expected: string, authorization: string | undefined): boolean {
  const m = /^Bearer (.+)$/.exec(authorization ?? '');
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  const same = timingSafeEqual(digest(m?.[1] ?? ''), digest(expected));
  return same && m !== null;
}

/** The `WWW-Authenticate` challenge of a command refused for its token (RFC 6750). */
const TOKEN_CHALLENGE = 'Bearer realm="commands"';
/**
 * The header that marks an answer as no command's (`none`): a refused token, a wrong path. Those
 * are the deployment's faults, never a command's refusal. (A server from before it sends no such
 * header, so a rolling upgrade in either order keeps working.)
 */
const REPLY_HEADER = 'x-command-reply';

/**
 * The command-transport port over HTTP: services in their own processes on one machine or a
 * private network. Commands for a service with an endpoint go there; the rest are handled by
 * handlers registered in this process. Typed errors cross the wire as their JSON form.
 */
export class HttpCommandBus implements CommandBus {
  private readonly local = new InProcessCommandBus();
  private readonly token: string | undefined;
  constructor(
    private readonly endpoints: Partial<Record<Service, string>>,
    token: string | undefined = undefined,
  ) {
    // Sending to another process needs the token those processes check.
    this.token = Object.values(endpoints).some(Boolean) ? requireToken(token, 'Sending commands to another service') : token;
  }

  register(service: Service, handler: CommandHandlerFn): void {
    this.local.register(service, handler);
  }

  async send(envelope: CommandEnvelope): Promise<CommandReply> {
    const base = this.endpoints[envelope.service];
    if (!base) return this.local.send(envelope);
    let res: Response;
    try {
      res = await fetch(`${base.replace(/\/$/, '')}/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
        body: JSON.stringify(envelope),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      log.error(`${envelope.service} is unreachable`, err);
      throw new AppError('unavailable', `The ${envelope.service} service is unavailable; try again`);
    }
    if (res.headers.get(REPLY_HEADER) === 'none') {
      // Not the command's answer: this sender and that service disagree on COMMAND_TOKEN (a
      // rotation half done, say), or its URL does not lead to its command endpoint. A fault of the
      // deployment, not the user's to fix: passed on, a 401 would sign the user out, and a 404
      // would tell Stripe that a paid booking does not exist.
      await res.body?.cancel().catch(() => {});
      const why =
        res.headers.get('www-authenticate') === TOKEN_CHALLENGE
          ? "refused this process's command token"
          : `has no command endpoint there (${res.status})`;
      log.error(`${envelope.service} at ${base} ${why}; check its URL and COMMAND_TOKEN on both`);
      throw new AppError('unavailable', `The ${envelope.service} service is unavailable; try again`);
    }
    const body = (await res.json().catch(() => null)) as CommandReply | { error: AppErrorJSON } | null;
    if (res.ok && body && 'position' in body) return body;
    if (body && 'error' in body) throw AppError.fromJSON(body.error);
    throw new AppError('unavailable', `The ${envelope.service} service answered ${res.status}`);
  }
}

/** What a transport says of itself for GET /health: a `reason` in a few words when it cannot take commands. */
export type TransportHealth = { status: 'ok' } | { status: 'degraded'; reason: string };

/**
 * Serves the handlers registered on `bus` at POST /commands (and GET /health). Refuses to start
 * without a token: a command endpoint that takes anything lets anyone create an admin.
 *
 * GET /health answers `{ status: 'ok' }` (200), or, while `health` says the process cannot take
 * commands (with COMMAND_BUS=kafka they do not come through this server, but through a consumer
 * that may have crashed for good), `{ status: 'degraded', reason }` (503), as the gateway's
 * /api/health does: the container's health check then fails.
 */
export async function serveCommands(
  bus: CommandBus,
  opts: { port: number; host?: string; token?: string | undefined; health?: (() => TransportHealth) | undefined },
): Promise<{ url: string; close(): Promise<void> }> {
  const token = requireToken(opts.token, 'A service taking commands over HTTP');
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/health') {
      const health = opts.health?.() ?? { status: 'ok' };
      const body: TransportHealth = health.status === 'ok' ? { status: 'ok' } : { status: 'degraded', reason: health.reason };
      return answer(body.status === 'ok' ? 200 : 503, body, { 'cache-control': 'no-store' });
    }
    // These two answers are no command's (REPLY_HEADER): a sender tells them apart from a command's own 404 or 401.
    const notACommand = { [REPLY_HEADER]: 'none' };
    if (req.method !== 'POST' || req.url !== '/commands')
      return answer(404, { error: { kind: 'not_found', message: 'No such route' } }, notACommand);
    if (!commandTokenMatches(token, req.headers.authorization)) {
      return answer(
        401,
        { error: { kind: 'unauthorized', message: 'Commands need the service token' } },
        { 'www-authenticate': TOKEN_CHALLENGE, ...notACommand },
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      void (async () => {
        try {
          const envelope = readEnvelope(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          answer(200, await bus.send(envelope));
        } catch (err) {
          if (err instanceof AppError) return answer(err.status, { error: err.toJSON() });
          if (err instanceof SyntaxError) return answer(400, { error: { kind: 'validation', message: 'The command is not JSON' } });
          log.error('command failed', err);
          answer(500, { error: { kind: 'unavailable', message: 'The command failed' } });
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
