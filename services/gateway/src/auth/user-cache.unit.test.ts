import { describe, expect, it } from 'vitest';
import type { User } from '@tv-shop/contracts';
import { InProcessChangeFeed } from '@tv-shop/platform';
import { UserCache } from './user-cache';

const user = (id: string, name = 'Nadia', role: User['role'] = 'Buyer'): User => ({
  _id: id,
  name,
  email: `${id}@x.test`,
  photoURL: '',
  role,
  verified: false,
});

describe('the accounts behind signed-in requests', () => {
  const setup = (ttlMs = 30_000) => {
    const feed = new InProcessChangeFeed();
    const stored = new Map<string, User>([['u1', user('u1')]]);
    let loads = 0;
    const cache = new UserCache(
      async (id) => {
        loads += 1;
        await new Promise((r) => setTimeout(r, 5));
        return stored.get(id) ?? null;
      },
      feed,
      ttlMs,
    );
    const announce = (id: string, op: 'upsert' | 'remove') =>
      feed.publish([{ kind: 'change', projection: 'users', push: { entity: 'user', op, id, position: 1 }, rooms: [] }]);
    return { cache, stored, announce, loads: () => loads };
  };

  it('when an account is read twice, then the database is asked once', async () => {
    const { cache, loads } = setup();
    expect(await cache.get('u1')).toMatchObject({ name: 'Nadia' });
    expect(await cache.get('u1')).toMatchObject({ name: 'Nadia' });
    expect(loads()).toBe(1);
  });

  it('when the read model announces a change to the account (a role, a deletion), then the next read sees it', async () => {
    const { cache, stored, announce } = setup();
    await cache.get('u1');
    stored.set('u1', user('u1', 'Nadia', 'Seller'));
    await announce('u1', 'upsert');
    expect(await cache.get('u1')).toMatchObject({ role: 'Seller' });
    stored.delete('u1');
    await announce('u1', 'remove');
    expect(await cache.get('u1')).toBeNull();
  });

  it('when a change is announced while the account is being read, then the read is not kept', async () => {
    const { cache, stored, announce, loads } = setup();
    const reading = cache.get('u1');
    stored.set('u1', user('u1', 'Renamed'));
    await announce('u1', 'upsert');
    await reading;
    expect(await cache.get('u1')).toMatchObject({ name: 'Renamed' });
    expect(loads()).toBe(2);
  });

  it('when no change is heard (a dropped message), then the account is read again after the time limit', async () => {
    const { cache, stored, loads } = setup(30);
    await cache.get('u1');
    stored.delete('u1');
    await new Promise((r) => setTimeout(r, 40));
    expect(await cache.get('u1')).toBeNull();
    expect(loads()).toBe(2);
  });

  it('when an account does not exist, then that is not kept (it may be being opened)', async () => {
    const { cache, stored, loads } = setup();
    expect(await cache.get('u2')).toBeNull();
    stored.set('u2', user('u2'));
    expect(await cache.get('u2')).toMatchObject({ _id: 'u2' });
    expect(loads()).toBe(2);
  });
});
