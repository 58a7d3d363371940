import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms, type User } from '@tv-shop/contracts';
import { createTestDatabase, projectionSpec, type TestDatabase } from '@tv-shop/platform/testing';
import { identityProjection } from './identity.projection';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('identity_rm');
});
afterAll(async () => {
  await db.drop();
});
const given = projectionSpec(identityProjection, () => db.pool);

const registered = (userId: string, role: User['role'] = 'Seller', passwordHash: string | null = 'hash-1') => ({
  type: 'UserRegistered',
  data: { userId, name: 'Karim', email: `${userId}@x.test`, photoURL: 'p.png', role, passwordHash, via: 'password' },
});
const user = (id: string, over: Partial<User> = {}): User => ({
  _id: id,
  name: 'Karim',
  email: `${id}@x.test`,
  photoURL: 'p.png',
  role: 'Seller',
  verified: false,
  ...over,
});
const USERS = 'select id, name, photo_url, role, verified, deleted, password_hash from users order by id';

describe('identity projection (rm_identity, checkpoint "users")', () => {
  it('keeps the name and schema existing databases know', () => {
    expect([identityProjection.name, identityProjection.schema]).toEqual(['users', 'rm_identity']);
  });

  it('UserRegistered: a row with the password hash, pushed to the admins and the user', async () => {
    await given()
      .when(registered('u1'))
      .then({
        rows: {
          [USERS]: [
            { id: 'u1', name: 'Karim', photo_url: 'p.png', role: 'Seller', verified: false, deleted: false, password_hash: 'hash-1' },
          ],
          'select registered_at from users': [{ registered_at: new Date('2025-01-01T00:00:01Z') }],
        },
        pushes: [
          { push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1'), position: 1 }, rooms: [rooms.admins, rooms.user('u1')] },
        ],
      });
  });

  it('UserProfileUpdated: a new name and photo, pushed', async () => {
    await given(registered('u1'))
      .when({ type: 'UserProfileUpdated', data: { userId: 'u1', name: 'Karim Ali', photoURL: 'q.png' } })
      .then({
        rows: { 'select name, photo_url from users': [{ name: 'Karim Ali', photo_url: 'q.png' }] },
        pushes: [
          {
            push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1', { name: 'Karim Ali', photoURL: 'q.png' }), position: 2 },
            rooms: [rooms.admins, rooms.user('u1')],
          },
        ],
      });
  });

  it('PasswordChanged: the new hash, and the account pushed without it (gateways end its other sessions; hashes stay server-side)', async () => {
    await given(registered('u1'))
      .when({ type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'hash-2' } })
      .then({
        rows: { 'select password_hash from users': [{ password_hash: 'hash-2' }] },
        pushes: [
          { push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1'), position: 2 }, rooms: [rooms.admins, rooms.user('u1')] },
        ],
      });
  });

  it('SessionsEnded: counted each time, and the account pushed (gateways close its sockets whose tokens are now stale)', async () => {
    await given(registered('u1'), { type: 'SessionsEnded', data: { userId: 'u1' } })
      .when({ type: 'SessionsEnded', data: { userId: 'u1' } })
      .then({
        rows: { 'select sessions_ended, password_hash from users': [{ sessions_ended: 2, password_hash: 'hash-1' }] },
        pushes: [
          { push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1'), position: 3 }, rooms: [rooms.admins, rooms.user('u1')] },
        ],
      });
  });

  it('SellerVerified: the verified mark, pushed', async () => {
    await given(registered('u1'))
      .when({ type: 'SellerVerified', data: { userId: 'u1' } })
      .then({
        rows: { 'select verified from users': [{ verified: true }] },
        pushes: [
          {
            push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1', { verified: true }), position: 2 },
            rooms: [rooms.admins, rooms.user('u1')],
          },
        ],
      });
  });

  it('UserDeleted: the row stays, marked deleted and without its hash; a removal is pushed', async () => {
    await given(registered('u1'), registered('u2', 'Buyer'))
      .when({ type: 'UserDeleted', data: { userId: 'u1', email: 'u1@x.test', role: 'Seller' } })
      .then({
        rows: {
          [USERS]: [
            { id: 'u1', name: 'Karim', photo_url: 'p.png', role: 'Seller', verified: false, deleted: true, password_hash: null },
            { id: 'u2', name: 'Karim', photo_url: 'p.png', role: 'Buyer', verified: false, deleted: false, password_hash: 'hash-1' },
          ],
        },
        pushes: [{ push: { entity: 'user', op: 'remove', id: 'u1', position: 3 }, rooms: [rooms.admins, rooms.user('u1')] }],
      });
  });

  it('a Google account has no hash; events of other services change nothing', async () => {
    await given(registered('g1', 'Buyer', null))
      .when({ type: 'ProductAdvertised', data: { productId: 'p1' } })
      .then({ rows: { 'select id, password_hash from users': [{ id: 'g1', password_hash: null }] }, pushes: [] });
  });
});

// The batch form is what the runner applies; the handlers are what a projection without one would
// (`bulk: false`): both are stated here where event times matter, which the bulk replay's log cannot.
describe.each([
  ['the batch form', identityProjection],
  ['the handlers', { ...identityProjection, applyBatch: undefined }],
])('identity projection, sessions signed out one by one, through %s', (_form, projection) => {
  const given = projectionSpec(projection, () => db.pool);
  const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 24 * 3600_000).toISOString();
  const signedOut = (sessionId: string, n: number) => ({ type: 'SignedOut', data: { userId: 'u1', sessionId }, at: day(n) });

  it('SignedOut: the session kept once, those older than a token lives forgotten, and the account pushed (gateways close that session)', async () => {
    await given(registered('u1'), signedOut('old', 0), signedOut('kept', 3), signedOut('again', 4))
      // Nine days after the first: 'old' is past eight days and goes; 'again' signed out twice is kept once, at its latest.
      .when(signedOut('again', 9))
      .then({
        rows: {
          'select signed_out from users': [
            {
              signed_out: [
                { s: 'kept', at: Date.parse(day(3)) },
                { s: 'again', at: Date.parse(day(9)) },
              ],
            },
          ],
        },
        pushes: [
          { push: { entity: 'user', op: 'upsert', id: 'u1', row: user('u1'), position: 5 }, rooms: [rooms.admins, rooms.user('u1')] },
        ],
      });
  });

  it('SessionsEnded: the sessions signed out one by one are forgotten (every earlier token is stale by its stamp)', async () => {
    await given(registered('u1'), signedOut('a', 1), signedOut('b', 2))
      .when({ type: 'SessionsEnded', data: { userId: 'u1' }, at: day(3) })
      .then({ rows: { 'select signed_out, sessions_ended from users': [{ signed_out: [], sessions_ended: 1 }] } });
  });
});
