import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, PostgresEventStore, projectionMigrations, type CommandBus, type PositionTracker } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { CommandSender } from './commands';

/**
 * A write whose reactions belong to it (a deleted seller's listings are removed) waits for them;
 * one that takes longer than the wait is late, not failed: the write is stored, so its answer
 * must not be an error (the admin would press Delete again and meet 404).
 */
describe('a write whose reactions are late', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('commands');
    await PostgresEventStore.migrate(db.pool);
    await migrate(db.pool, 'projections', projectionMigrations);
    store = new PostgresEventStore(db.pool, { pollIntervalMs: 200 });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  const bus = { send: async () => ({ position: 7, result: { changed: true } }) } as unknown as CommandBus;
  const positions = { waitFor: async () => true } as unknown as PositionTracker;
  const request = () => {
    const headers = new Map<string, string>();
    const req = {
      get: () => undefined,
      user: { _id: 'admin-1', role: 'Admin' },
      res: { setHeader: (name: string, value: string) => headers.set(name, value) },
    } as unknown as Request;
    return { req, headers };
  };
  const deleteUser = { service: 'identity', type: 'DeleteUser', aggregateId: 'u-1', data: { userId: 'u-1' } } as never;

  it('when a reaction has not caught up within the wait, then the answer is the write, marked behind', async () => {
    const sender = new CommandSender(bus, positions, { pool: db.pool, store }, 'key', 300);
    const { req, headers } = request();
    const answer = await sender.send(req, deleteUser, { settle: ['catalog.seller-deleted'] });
    expect(answer).toMatchObject({ position: 7, behind: true, result: { changed: true } });
    expect(headers.get('X-Read-Models')).toBe('behind');
  });

  it('when the database fails while it waits, then that fault is not taken for lateness', async () => {
    const broken = { query: async () => Promise.reject(Object.assign(new Error('terminating connection'), { code: '57P01' })) };
    const sender = new CommandSender(bus, positions, { pool: broken as never, store }, 'key', 300);
    await expect(sender.send(request().req, deleteUser, { settle: ['catalog.seller-deleted'] })).rejects.toThrow('terminating connection');
  });
});
