import { createHmac, randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { AddressedCommand, ResultOf, WriteAnswer } from '@tv-shop/contracts';
import type pg from 'pg';
import {
  AppError,
  CheckpointTimeout,
  createLogger,
  uuidFromName,
  policyCheckpoint,
  waitForCheckpoint,
  type Actor,
  type CommandBus,
  type PositionTracker,
  type EventStore,
} from '@tv-shop/platform';

const log = createLogger('gateway');

/**
 * The body's objects with their keys in order, so a retry whose client wrote the same fields in
 * another order is the same request (a body's depth is bounded before this: MAX_BODY_DEPTH).
 */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/**
 * Turns an HTTP write into a command. The command id comes from the Idempotency-Key header,
 * scoped to the caller, the route and the request body (a key reused for a different request is
 * a different command), so a retried request lands once; the answer waits until the read models
 * reached the command's position.
 */
export class CommandSender {
  constructor(
    private readonly bus: CommandBus,
    private readonly positions: PositionTracker,
    private readonly db: { pool: pg.Pool; store: EventStore },
    /** Server secret for the body fingerprint, so ids derived from a signup body reveal nothing. */
    private readonly fingerprintKey: string,
    /** How long an answer waits for the reactions of its write (`settle`) before it says it is behind. */
    private readonly settleMs = 10_000,
  ) {}

  commandId(req: Request, scope = ''): string {
    const key = req.get('Idempotency-Key');
    if (key === undefined) return randomUUID();
    if (!/^[\x21-\x7e]{1,200}$/.test(key))
      throw new AppError('validation', 'Idempotency-Key must be 1-200 visible characters', { field: 'Idempotency-Key' });
    const body = createHmac('sha256', this.fingerprintKey)
      .update(JSON.stringify(req.body ?? null, sortedKeys))
      .digest('hex');
    return uuidFromName(`${req.user?._id ?? 'anonymous'}:${req.method}:${req.baseUrl}${req.path}:${scope}:${key}:${body}`);
  }

  /**
   * Sends one of the services' typed commands (`@tv-shop/contracts`), on behalf of the caller.
   * `settle` names policies whose reactions belong to this write (a deleted seller's listings
   * are removed): the answer then also waits for them and for the read models after them.
   * `as` sends it as the shop itself rather than the caller: for a request the gateway verified
   * in another way than a session (Stripe's signed webhook).
   */
  async send<C extends AddressedCommand>(
    req: Request,
    cmd: C & { aggregateId: string; commandId?: string },
    opts: { settle?: string[]; as?: Actor } = {},
  ): Promise<{ position: number; result: ResultOf<C['type']>; behind: boolean }> {
    const commandId = cmd.commandId ?? this.commandId(req);
    const reply = await this.bus.send({
      ...cmd,
      commandId,
      actor: opts.as ?? { id: req.user?._id ?? 'anonymous', role: req.user?.role ?? 'Visitor' },
      correlationId: req.get('X-Correlation-Id')?.slice(0, 100) ?? commandId,
    });
    let position = reply.position;
    let settled = true;
    const settleUntil = Date.now() + this.settleMs;
    if (opts.settle?.length) {
      // The reactions' own events may cause more (a deleted seller's listings are removed, and
      // then the bookings of those listings are cancelled): the policies are waited for again up
      // to the head of the log until it stands still, three rounds at most (on a busy shop the log
      // may not: the answer then waits up to the last position checked). Reactions that take
      // longer than the wait (a seller's hundred listings on a slow database) are late, not
      // failed: the write stands and its answer says it is behind.
      const policies = opts.settle.map(policyCheckpoint);
      try {
        let upTo = reply.position;
        for (let round = 0; round < 3; round++) {
          await Promise.all(policies.map((p) => waitForCheckpoint(this.db.pool, p, upTo, Math.max(1, settleUntil - Date.now()))));
          const head = await this.db.store.headPosition();
          position = Math.max(position, upTo);
          if (head <= upTo) break;
          upTo = head;
        }
      } catch (err) {
        if (!(err instanceof CheckpointTimeout)) throw err;
        log.warn("the write's reactions did not finish in time", { position: reply.position, policy: err.checkpoint });
        settled = false;
      }
    }
    // Within what is left of the same wait when reactions took part of it.
    const left = opts.settle?.length ? Math.max(1, settleUntil - Date.now()) : undefined;
    const behind = !settled || !(await this.positions.waitFor(position, left));
    if (behind) {
      // The write is stored; only the read models (or its reactions) lag. Say so rather than pretend or fail it.
      if (settled) log.warn('read models did not reach the write in time', { position });
      req.res?.setHeader('X-Read-Models', 'behind');
    }
    // The service answers with its command's result type (contracts' CommandResults).
    return { position, result: reply.result as ResultOf<C['type']>, behind };
  }

  /** The spec's write answer. */
  static answer(reply: { position: number; result: { changed?: boolean } | object }, insertedId?: string): WriteAnswer {
    return {
      acknowledged: true,
      position: reply.position,
      modifiedCount: 'changed' in reply.result && reply.result.changed === false ? 0 : 1,
      ...(insertedId ? { insertedId } : {}),
    };
  }
}
