import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ConcurrencyError, DuplicateEventError } from '../errors';
import type { EventStore, NewEvent, RecordedEvent } from '../event-store/types';

const meta = { actorId: 'u-1', actorRole: 'Buyer', correlationId: 'c-1', causationId: null, at: '2026-11-21T10:00:00.000Z' };
export const ev = (type = 'ThingHappened', data: Record<string, unknown> = { n: 1 }): NewEvent => ({
  eventId: randomUUID(),
  type,
  data,
  metadata: meta,
});

/**
 * The behaviour every event-store adapter must show. Each adapter's test file calls this with
 * a factory for a fresh, empty store.
 */
export function eventStoreContract(name: string, open: () => Promise<{ store: EventStore; dispose(): Promise<void> }>) {
  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ store, dispose } = await open());
    });
    afterAll(async () => {
      await store.close();
      await dispose();
    });

    it('when events are appended to a new stream, then they read back in order with versions, positions and metadata', async () => {
      const s = `order-${randomUUID()}`;
      const res = await store.append(s, [ev('A', { a: 1 }), ev('B', { b: 2 })], 'no_stream');
      expect(res.nextVersion).toBe(1);
      const read = await store.readStream(s);
      expect(read.map((e) => [e.type, e.version, e.data])).toEqual([
        ['A', 0, { a: 1 }],
        ['B', 1, { b: 2 }],
      ]);
      expect(read[1]!.position).toBeGreaterThan(read[0]!.position);
      expect(read[1]!.position).toBe(res.position);
      expect(read[0]!.metadata).toMatchObject({ actorId: 'u-1', actorRole: 'Buyer', correlationId: 'c-1' });
      expect(read[0]!.schemaVersion).toBe(1);
      await store.append(s, [ev('C')], 1);
      expect((await store.readStream(s, { fromVersion: 2 })).map((e) => e.type)).toEqual(['C']);
    });

    it('when the expected version is stale, then append fails with a typed conflict and stores nothing', async () => {
      const s = `order-${randomUUID()}`;
      await store.append(s, [ev()], 'no_stream');
      await expect(store.append(s, [ev()], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      const err = await store.append(s, [ev()], 5).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConcurrencyError);
      expect(err).toMatchObject({ kind: 'concurrency', actual: 0, status: 409 });
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('when a stream does not exist, then reading it gives nothing and appending with a version or stream_exists conflicts', async () => {
      const s = `order-${randomUUID()}`;
      expect(await store.readStream(s)).toEqual([]);
      await expect(store.append(s, [ev()], 0)).rejects.toMatchObject({ kind: 'concurrency', actual: -1 });
      await expect(store.append(s, [ev()], 'stream_exists')).rejects.toBeInstanceOf(ConcurrencyError);
      await store.append(s, [ev()], 'any');
      await store.append(s, [ev()], 'any');
      await store.append(s, [ev()], 'stream_exists');
      expect((await store.readStream(s)).map((e) => e.version)).toEqual([0, 1, 2]);
    });

    it('when an append is malformed, then it fails with a validation error naming the field', async () => {
      const s = `order-${randomUUID()}`;
      const cases: [string, unknown[], unknown, string][] = [
        ['no dash', [ev()], 'any', 'streamId'],
        [s, [], 'any', 'events'],
        [s, [{ ...ev(), eventId: 'nope' }], 'any', 'events[0].eventId'],
        [s, [{ ...ev(), type: '' }], 'any', 'events[0].type'],
        [s, [{ ...ev(), data: 'text' }], 'any', 'events[0].data'],
        [s, [{ ...ev(), metadata: {} }], 'any', 'events[0].metadata'],
        [s, [ev()], -7, 'expectedVersion'],
        [s, [ev()], 'sometimes', 'expectedVersion'],
      ];
      for (const [stream, events, expected, field] of cases) {
        const err = await store.append(stream, events as NewEvent[], expected as 'any').catch((e: unknown) => e);
        expect(err, field).toBeInstanceOf(AppError);
        expect(err, field).toMatchObject({ kind: 'validation', field });
      }
      expect(await store.readStream(s)).toEqual([]);
    });

    it('when an event id is stored already, then the append fails as a duplicate and the stream is unchanged', async () => {
      const s = `order-${randomUUID()}`;
      const e = ev();
      await store.append(s, [e], 'no_stream');
      await expect(store.append(s, [{ ...e }], 0)).rejects.toBeInstanceOf(DuplicateEventError);
      expect(await store.readStream(s)).toHaveLength(1);
      expect((await store.findEvent(e.eventId))?.streamId).toBe(s);
      expect(await store.findEvent(randomUUID())).toBeNull();
      expect(await store.findEvent('not-a-uuid')).toBeNull();
    });

    it('when a stream and an event are read at once, then the stream comes in order and the event is found in any stream, or not at all', async () => {
      const s = `order-${randomUUID()}`;
      const other = `order-${randomUUID()}`;
      const [a, b, c] = [ev(), ev(), ev()];
      await store.append(s, [a, b], 'no_stream');
      await store.append(other, [c], 'no_stream');
      const own = await store.readStreamAndEvent(s, b.eventId);
      expect(own.stream.map((e) => e.eventId)).toEqual([a.eventId, b.eventId]);
      expect(own.event).toMatchObject({ eventId: b.eventId, streamId: s, version: 1 });
      const elsewhere = await store.readStreamAndEvent(s, c.eventId);
      expect(elsewhere.stream.map((e) => e.version)).toEqual([0, 1]);
      expect(elsewhere.event).toMatchObject({ eventId: c.eventId, streamId: other });
      expect(await store.readStreamAndEvent(`order-${randomUUID()}`, randomUUID())).toEqual({ stream: [], event: null });
      expect((await store.readStreamAndEvent(s, 'not-a-uuid')).event).toBeNull();
    });

    it('when reading all, then events come in global order in batches from an exclusive position', async () => {
      const head = await store.headPosition();
      const s = `batch-${randomUUID()}`;
      await store.append(s, [ev(), ev(), ev(), ev(), ev()], 'no_stream');
      const first = await store.readAll(head, 2);
      const rest = await store.readAll(first[1]!.position, 100);
      expect(first).toHaveLength(2);
      expect([...first, ...rest].filter((e) => e.streamId === s).map((e) => e.version)).toEqual([0, 1, 2, 3, 4]);
      expect(await store.headPosition()).toBe(rest[rest.length - 1]!.position);
    });

    it('when a subscription resumes from a checkpoint, then it delivers only what came after, and wakes on a new append', async () => {
      const s = `resume-${randomUUID()}`;
      const { position: checkpoint } = await store.append(s, [ev('Before')], 'no_stream');
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe({ from: checkpoint, onBatch: async (b) => void seen.push(...b.events) });
      await sub.caughtUp();
      const t0 = Date.now();
      await store.append(s, [ev('After')], 0);
      await expect.poll(() => seen.filter((e) => e.streamId === s).map((e) => e.type), { timeout: 5000, interval: 10 }).toEqual(['After']);
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(seen.every((e) => e.position > checkpoint)).toBe(true);
      await sub.stop();
    });

    it('when 8 writers append concurrently to shared and own streams, then a live subscriber sees every committed event exactly once, in global order', async () => {
      const from = await store.headPosition();
      const seen: RecordedEvent[] = [];
      const sub = store.subscribe({ from, batchSize: 7, onBatch: async (b) => void seen.push(...b.events) });
      const shared = [`shared-${randomUUID()}`, `shared-${randomUUID()}`];
      const writers = Array.from({ length: 8 }, (_, w) =>
        (async () => {
          let conflicts = 0;
          for (let i = 0; i < 25; i++) {
            const own = `own-${w}-${randomUUID()}`;
            if (i % 2 === 0) {
              await store.append(own, [ev('Own', { w, i }), ev('Own', { w, i, second: true })], 'no_stream');
            } else {
              const stream = shared[(i >> 1) % shared.length]!;
              // Optimistic writers: read the version, append, and on a conflict read again.
              for (;;) {
                const version = (await store.readStream(stream)).length - 1;
                try {
                  await store.append(stream, [ev('Shared', { w, i })], version);
                  break;
                } catch (err) {
                  if (!(err instanceof ConcurrencyError)) throw err;
                  conflicts++;
                }
              }
            }
          }
          return conflicts;
        })(),
      );
      const conflicts = (await Promise.all(writers)).reduce((a, b) => a + b, 0);
      const committed = await store.readAll(from, 100_000);
      await expect.poll(() => seen.length, { timeout: 15_000, interval: 20 }).toBeGreaterThanOrEqual(committed.length);
      await sub.stop();
      expect(committed).toHaveLength(8 * (13 * 2 + 12));
      expect(seen.map((e) => e.eventId)).toEqual(committed.map((e) => e.eventId));
      expect(new Set(seen.map((e) => e.eventId)).size).toBe(seen.length);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.position).toBeGreaterThan(seen[i - 1]!.position);
      for (const s of shared) expect((await store.readStream(s)).map((e) => e.version)).toEqual(Array.from({ length: 48 }, (_, i) => i));
      expect(conflicts).toBeGreaterThan(0);
    });
  });
}
