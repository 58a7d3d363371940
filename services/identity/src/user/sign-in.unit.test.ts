import { describe, expect, it } from 'vitest';
import { uuidFromName } from '@tv-shop/platform';
import { userIdFor } from './ids';
import { checkPassword } from './passwords';
import { decideGoogleSignIn, passwordSignUp, type GoogleIdentity } from './sign-in';
import { foldUser, type UserEvent } from './user';

const who: GoogleIdentity = { email: 'rafi@gmail.com', name: 'Rafi', picture: 'https://example.com/rafi.png' };
const userId = userIdFor(who.email);
const registered = (via: 'password' | 'google' | 'bootstrap'): UserEvent => ({
  type: 'UserRegistered',
  data: { userId, name: 'Rafi', email: who.email, role: 'Buyer', photoURL: '', passwordHash: via === 'google' ? null : 'h', via },
});
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, email: who.email, role: 'Buyer' } };

/** given(the account's events).when(a verified Google identity signs in).then(what identity says) */
const given = (...events: UserEvent[]) => ({
  when: (identity: GoogleIdentity) => {
    const run = () => decideGoogleSignIn(foldUser(events), identity);
    return {
      then: (expected: ReturnType<typeof decideGoogleSignIn>) => expect(run()).toEqual(expected),
      thenThrows: (match: object) => expect(run).toThrow(expect.objectContaining(match)),
    };
  },
});

describe('ids from email', () => {
  it('one email, one id, whatever its case or surrounding spaces', () => {
    expect(userIdFor(' Rafi@Gmail.com ')).toBe(userIdFor('rafi@gmail.com'));
    expect(userIdFor('rafi@gmail.com')).toBe(uuidFromName('user:rafi@gmail.com'));
    expect(userIdFor('rafi@gmail.com')).not.toBe(userIdFor('rahim@gmail.com'));
  });
});

describe('signing up with a password', () => {
  it('when someone signs up, then a RegisterUser for the id of their email, via password, carrying only the hash', async () => {
    const cmd = await passwordSignUp({ name: 'Rahim', email: 'rahim@example.com', password: 'secret-1', role: 'Seller' });
    expect(cmd).toMatchObject({
      service: 'identity',
      type: 'RegisterUser',
      aggregateId: userIdFor('rahim@example.com'),
      data: {
        userId: userIdFor('rahim@example.com'),
        name: 'Rahim',
        email: 'rahim@example.com',
        role: 'Seller',
        photoURL: '',
        via: 'password',
      },
    });
    expect(JSON.stringify(cmd)).not.toContain('secret-1');
    expect(await checkPassword(cmd.data.passwordHash, 'secret-1')).toBe(true);
  });
});

describe('signing in with Google (ADR 0021)', () => {
  it('given no account, when a Google identity signs in, then a Buyer account is opened with Google, once', () =>
    given()
      .when(who)
      .then({
        userId,
        register: {
          service: 'identity',
          type: 'RegisterUser',
          aggregateId: userId,
          commandId: uuidFromName(`google-signup:${userId}`),
          data: { userId, name: 'Rafi', email: who.email, role: 'Buyer', photoURL: who.picture, passwordHash: null, via: 'google' },
        },
      }));
  it('given an account opened with Google, when it signs in again, then that account, nothing to register', () =>
    given(registered('google'), { type: 'UserProfileUpdated', data: { userId, name: 'R', photoURL: '' } })
      .when(who)
      .then({ userId, register: null }));
  it('given an account opened with a password (or the bootstrap admin), when Google signs in with its email, then a conflict on email', () => {
    given(registered('password'))
      .when(who)
      .thenThrows({ kind: 'conflict', field: 'email', message: expect.stringContaining('signs in with a password') });
    given(registered('bootstrap')).when(who).thenThrows({ kind: 'conflict', field: 'email' });
  });
  it('given a deleted account, when Google signs in with its email, then a conflict: the account was deleted', () =>
    given(registered('google'), deleted)
      .when(who)
      .thenThrows({ kind: 'conflict', field: 'email', message: 'The account with this email was deleted; sign up with another email' }));
});

describe('checking a password', () => {
  it('no hash (no account, or one opened with Google) never matches, even the dummy’s password', async () => {
    expect(await checkPassword(null, 'anything')).toBe(false);
    expect(await checkPassword(undefined, '')).toBe(false);
    expect(await checkPassword('not a hash', 'anything')).toBe(false);
  });
});
