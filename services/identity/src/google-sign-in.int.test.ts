import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@tv-shop/contracts';
import { InProcessCommandBus, PostgresEventStore, type Actor, type CommandEnvelope } from '@tv-shop/platform';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { startIdentity } from './module';
import { userIdFor } from './user/ids';
import { signInWithGoogleRequest, type GoogleIdentity } from './user/sign-in';

// Identity's command bus on a real event store: SignInWithGoogle (the gateway sends who Google
// says the person is and reads back only the account id), and the commands identity refuses
// from a sender who may not send them (403, nothing appended; ADR 0055).

let db: TestDatabase;
let store: PostgresEventStore;
const bus = new InProcessCommandBus();
beforeAll(async () => {
  db = await createTestDatabase('identity_google');
  await PostgresEventStore.migrate(db.pool);
  store = new PostgresEventStore(db.pool);
  startIdentity({ store, bus });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

let n = 0;
const send = (command: { service: 'identity'; type: string; aggregateId: string; data: unknown }) => {
  n += 1;
  const envelope: CommandEnvelope = {
    ...command,
    commandId: `c-${n}`,
    actor: { id: 'anonymous', role: 'Visitor' },
    correlationId: `c-${n}`,
  };
  return bus.send(envelope);
};
const who = (email: string): GoogleIdentity => ({ email, name: 'Rafi', picture: 'https://example.com/rafi.png' });
const eventsOf = async (email: string) => (await store.readStream(streams.user(userIdFor(email)))).map((e) => e.type);

describe('SignInWithGoogle', () => {
  it('given no account, when a Google identity signs in twice, then a Buyer is registered once and both answers name it', async () => {
    const first = await send(signInWithGoogleRequest(who('rafi@gmail.com')));
    const again = await send(signInWithGoogleRequest(who('rafi@gmail.com')));
    expect(first.result).toEqual({ userId: userIdFor('rafi@gmail.com') });
    expect(again).toEqual(first);
    expect(await eventsOf('rafi@gmail.com')).toEqual(['UserRegistered']);
    const [registered] = await store.readStream(streams.user(userIdFor('rafi@gmail.com')));
    expect(registered!.data).toMatchObject({ role: 'Buyer', via: 'google', passwordHash: null, photoURL: 'https://example.com/rafi.png' });
  });

  it('given a password account with that email, when a Google identity signs in, then 409 and nothing is appended', async () => {
    const email = 'victim@gmail.com';
    const userId = userIdFor(email);
    const data = { userId, name: 'V', email, role: 'Seller', photoURL: '', passwordHash: 'h', via: 'password' };
    await send({ service: 'identity', type: 'RegisterUser', aggregateId: userId, data });
    await expect(send(signInWithGoogleRequest(who(email)))).rejects.toMatchObject({ status: 409, field: 'email' });
    expect(await eventsOf(email)).toEqual(['UserRegistered']);
  });

  it('given an aggregate id that is not the id of the email, when sent, then 400 on aggregateId and nothing is appended', async () => {
    const command = { ...signInWithGoogleRequest(who('mallory@gmail.com')), aggregateId: userIdFor('rafi@gmail.com') };
    await expect(send(command)).rejects.toMatchObject({ kind: 'validation', field: 'aggregateId' });
    expect(await eventsOf('mallory@gmail.com')).toEqual([]);
  });
});

const sendAs = (type: string, aggregateId: string, data: unknown, actor: Actor) =>
  bus.send({ service: 'identity', type, aggregateId, data, actor, commandId: `c-${++n}`, correlationId: `c-${n}` });
const register = (email: string, role: string, actor: Actor) =>
  sendAs(
    'RegisterUser',
    userIdFor(email),
    { userId: userIdFor(email), name: 'N', email, role, photoURL: '', passwordHash: 'h', via: 'password' },
    actor,
  );
const typesOf = async (email: string) => (await store.readStream(streams.user(userIdFor(email)))).map((e) => e.type);
const visitor: Actor = { id: 'anonymous', role: 'Visitor' };

describe("identity refuses what a command's sender may not send", () => {
  it('when a visitor registers an admin account, then 403 and nothing is stored; as a seller it is registered', async () => {
    await expect(register('boss@x.co', 'Admin', visitor)).rejects.toMatchObject({ status: 403 });
    expect(await typesOf('boss@x.co')).toEqual([]);
    await register('sam@x.co', 'Seller', visitor);
    expect(await typesOf('sam@x.co')).toEqual(['UserRegistered']);
  });

  it("when a seller verifies themself or changes another's profile, then 403 and nothing is appended", async () => {
    await register('rina@x.co', 'Seller', visitor);
    const rina: Actor = { id: userIdFor('rina@x.co'), role: 'Seller' };
    await expect(sendAs('VerifySeller', rina.id, {}, rina)).rejects.toMatchObject({ status: 403 });
    await expect(sendAs('UpdateProfile', userIdFor('sam@x.co'), { name: 'Not Sam' }, rina)).rejects.toMatchObject({ status: 403 });
    await expect(sendAs('DeleteUser', userIdFor('sam@x.co'), { requestedBy: rina.id }, rina)).rejects.toMatchObject({ status: 403 });
    expect(await typesOf('rina@x.co')).toEqual(['UserRegistered']);
    expect(await typesOf('sam@x.co')).toEqual(['UserRegistered']);
    await sendAs('UpdateProfile', rina.id, { name: 'Rina K' }, rina);
    expect(await typesOf('rina@x.co')).toEqual(['UserRegistered', 'UserProfileUpdated']);
  });
});
