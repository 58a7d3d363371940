import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decider } from '../commands/decider';
import { handleCommand } from '../commands/handler';
import type { CommandBus, CommandEnvelope, CommandReply } from '../commands/transport';
import { AppError, ConcurrencyError, validation, type ErrorKind } from '../errors';
import type { EventStore } from '../event-store/types';

type Service = CommandEnvelope['service'];

export interface CommandBusUnderTest {
  /** The sending end (what a gateway holds). */
  client: CommandBus;
  /** The end handlers are registered on (what a service holds); the same bus when the transport has one end. */
  server: CommandBus;
  /** Resolves once the handlers registered on `server` take commands (a Kafka consumer group joined, say). */
  ready?: () => Promise<void>;
  /** The service `server` serves. */
  served: Service;
  /** A service `client` has no route to at all: 'not_configured', as in process. */
  unconfigured: Service;
  /** A service `client` would send to but nobody serves, and how soon (ms) its 503 must come; unset where the transport has no such case. */
  absent?: { service: Service; within: number };
  /** The sender's reply timeout (ms), where the transport has one short enough to test. */
  timeoutMs?: number;
  /** True when a command crosses a process boundary: an unexpected failure then arrives as a 503 without its details. */
  remote: boolean;
  /** A real event store for the handler that appends (idempotency is the handler's, through any transport). */
  store: EventStore;
  dispose(): Promise<void>;
}

/** A counter aggregate: `Add` appends `Added`; a negative amount is refused. */
type CounterCommand = { type: 'Add'; amount: number };
type CounterEvent = { type: 'Added'; data: { amount: number } };
const counter: Decider<CounterCommand, CounterEvent, { total: number }> = {
  initialState: () => ({ total: 0 }),
  evolve: (s, e) => ({ total: s.total + e.data.amount }),
  decide: (c) => {
    if (c.amount < 0) throw validation('amount', 'must not be negative');
    return [{ type: 'Added', data: { amount: c.amount } }];
  },
};

const thrown: Record<string, () => AppError> = {
  validation: () =>
    new AppError('validation', 'email must be an email', {
      field: 'email',
      errors: [
        { field: 'email', message: 'must be an email' },
        { field: 'phone', message: 'is required' },
      ],
    }),
  not_found: () => new AppError('not_found', 'Product not found', { field: 'productId' }),
  conflict: () => new AppError('conflict', 'This email is taken', { field: 'email' }),
  illegal_state: () => new AppError('illegal_state', 'The TV is already sold'),
  unprocessable: () => new AppError('unprocessable', 'The card was declined', { field: 'card' }),
  forbidden: () => new AppError('forbidden', 'Only the seller may do that'),
  concurrency: () => new ConcurrencyError('product-1', '3', 5),
  too_many_requests: () =>
    new AppError('too_many_requests', 'You have added 30 TVs in the last hour', { field: 'listings', retryAfter: 720 }),
};
const STATUS: Record<string, number> = {
  validation: 400,
  not_found: 404,
  conflict: 409,
  illegal_state: 409,
  unprocessable: 422,
  forbidden: 403,
  concurrency: 409,
  too_many_requests: 429,
};

/**
 * The behaviour every command bus must show, whatever carries the command. Each transport's
 * test file calls this with a factory; one handler is registered on `server` for `served` and
 * behaves by the command's type (echo, fail with a typed error, crash, be slow, append).
 */
export function commandBusContract(name: string, open: () => Promise<CommandBusUnderTest>) {
  describe(`command bus contract: ${name}`, () => {
    let t: CommandBusUnderTest;
    const envelope = (type: string, data: unknown = {}, over: Partial<CommandEnvelope> = {}): CommandEnvelope => ({
      service: t.served,
      type,
      data,
      aggregateId: randomUUID(),
      commandId: randomUUID(),
      actor: { id: 'u-1', role: 'Seller' },
      correlationId: randomUUID(),
      ...over,
    });

    beforeAll(async () => {
      t = await open();
      t.server.register(t.served, async (env): Promise<CommandReply> => {
        const data = env.data as Record<string, unknown>;
        switch (env.type) {
          case 'Echo':
            return { position: 7, result: { envelope: env } };
          case 'Fail':
            throw thrown[data.kind as string]!();
          case 'Crash':
            throw new Error('secret internal detail');
          case 'Slow':
            await new Promise((r) => setTimeout(r, data.ms as number));
            return { position: 1, result: {} };
          case 'Add': {
            const outcome = await handleCommand(
              t.store,
              counter,
              `counter-${env.aggregateId}`,
              { type: 'Add', amount: data.amount as number },
              {
                commandId: env.commandId,
                actor: env.actor,
                correlationId: env.correlationId,
                now: () => new Date('2026-11-21T10:00:00.000Z'),
              },
            );
            return { position: outcome.position, result: { appended: outcome.events.length, alreadyDone: outcome.alreadyDone } };
          }
          default:
            throw new AppError('validation', `Unknown command ${env.type}`, { field: 'type' });
        }
      });
      await t.ready?.();
    });
    afterAll(async () => {
      await t?.dispose();
    });

    it('when a registered service handles a command, then its reply comes back and the handler saw the envelope as sent', async () => {
      const sent = envelope('Echo', { title: 'Sony Bravia 55" — «used» ✓', price: 42000.5, tags: ['a', null], nested: { ok: true } });
      const reply = await t.client.send(sent);
      expect(reply).toEqual({ position: 7, result: { envelope: sent } });
    });

    it('when the handler refuses with a typed error, then the sender gets the same kind, status, message, field, field errors and Retry-After', async () => {
      for (const kind of Object.keys(thrown) as ErrorKind[]) {
        const err = await t.client.send(envelope('Fail', { kind })).catch((e: unknown) => e);
        const want = thrown[kind]!();
        expect(err, kind).toBeInstanceOf(AppError);
        expect(err, kind).toMatchObject({
          kind,
          status: STATUS[kind],
          message: want.message,
          field: want.field,
          retryAfter: want.retryAfter,
        });
        expect((err as AppError).errors, kind).toEqual(want.errors);
      }
    });

    it('when the handler fails with something untyped, then the send fails (across processes as a 503 that hides the details)', async () => {
      const sending = t.client.send(envelope('Crash'));
      if (t.remote) {
        const err = await sending.catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AppError);
        expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
        expect((err as Error).message).not.toContain('secret');
      } else {
        await expect(sending).rejects.toThrow('secret internal detail');
      }
    });

    it('when a service has no route at all, then the send fails as not configured', async () => {
      await expect(t.client.send(envelope('Echo', {}, { service: t.unconfigured }))).rejects.toMatchObject({
        kind: 'not_configured',
        status: 501,
      });
    });

    it('when the service is routed to but nobody serves it, then the send fails as unavailable (503) in bounded time', async (ctx) => {
      if (!t.absent) return ctx.skip('this transport cannot route to a service that is not there');
      const started = Date.now();
      await expect(t.client.send(envelope('Echo', {}, { service: t.absent.service }))).rejects.toMatchObject({
        kind: 'unavailable',
        status: 503,
      });
      expect(Date.now() - started).toBeLessThan(t.absent.within);
    });

    it('when 40 commands are sent at once, then each sender gets its own reply', async () => {
      const sent = Array.from({ length: 40 }, (_, i) => envelope('Echo', { i }));
      const replies = await Promise.all(sent.map((e) => t.client.send(e)));
      expect(replies.map((r) => (r.result.envelope as CommandEnvelope).commandId)).toEqual(sent.map((e) => e.commandId));
      expect(replies.map((r) => (r.result.envelope as CommandEnvelope).data)).toEqual(sent.map((_, i) => ({ i })));
    });

    it('when the same command id is sent twice, in turn and at once, then it lands once and both answers name the same position', async () => {
      const once = envelope('Add', { amount: 5 });
      const first = await t.client.send(once);
      const again = await t.client.send({ ...once, correlationId: randomUUID() });
      expect(first.result).toEqual({ appended: 1, alreadyDone: false });
      expect(again).toEqual({ position: first.position, result: { appended: 1, alreadyDone: true } });
      expect(await t.store.readStream(`counter-${once.aggregateId}`)).toHaveLength(1);

      const twin = envelope('Add', { amount: 2 });
      const [a, b] = await Promise.all([t.client.send(twin), t.client.send(twin)]);
      expect(a.position).toBe(b.position);
      expect(await t.store.readStream(`counter-${twin.aggregateId}`)).toHaveLength(1);

      // The same id for another aggregate is another request: a 409 naming the Idempotency-Key.
      await expect(t.client.send({ ...once, aggregateId: randomUUID() })).rejects.toMatchObject({
        kind: 'conflict',
        status: 409,
        field: 'Idempotency-Key',
      });
      // And the decider's own refusal crosses as a typed error too.
      await expect(t.client.send(envelope('Add', { amount: -1 }))).rejects.toMatchObject({ kind: 'validation', field: 'amount' });
    });

    it('when the service answers later than the timeout, then the send fails as unavailable (503) at the timeout', async (ctx) => {
      if (t.timeoutMs === undefined) return ctx.skip('this transport has no reply timeout short enough to test');
      const started = Date.now();
      await expect(t.client.send(envelope('Slow', { ms: t.timeoutMs + 500 }))).rejects.toMatchObject({ kind: 'unavailable', status: 503 });
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(t.timeoutMs - 50);
      expect(waited).toBeLessThan(t.timeoutMs + 2000);
      // The slow command still ends on the service side; later commands are answered again.
      await new Promise((r) => setTimeout(r, 600));
      expect((await t.client.send(envelope('Echo'))).position).toBe(7);
    });
  });
}
