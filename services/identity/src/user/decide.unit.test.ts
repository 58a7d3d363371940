import { describe, it } from 'vitest';
import { deciderSpec } from '@tv-shop/platform/testing';
import { MAX_SIGNED_OUT, userDecider, type UserCommand } from './decide';
import type { UserEvent } from './user';

const given = deciderSpec(userDecider);
const registered = (role: 'Buyer' | 'Seller' | 'Admin' = 'Seller'): UserEvent => ({
  type: 'UserRegistered',
  data: { userId: 'u1', name: 'Rahim', email: 'rahim@example.com', role, photoURL: '', passwordHash: 'h', via: 'password' },
});

describe('user decider', () => {
  it('given no account, when one registers, then UserRegistered', () =>
    given()
      .when({ type: 'RegisterUser', data: registered().data as never })
      .then([registered()]));
  it('given an account, when the same email registers again, then a conflict on email', () =>
    given(registered())
      .when({ type: 'RegisterUser', data: registered().data as never })
      .thenThrows({ kind: 'conflict', field: 'email' }));
  it('given a deleted account, when it registers again, then a conflict', () =>
    given(registered(), { type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } })
      .when({ type: 'RegisterUser', data: registered().data as never })
      .thenThrows({ kind: 'conflict' }));
  it('given a seller, when the admin verifies them, then SellerVerified, and a second time nothing', () => {
    given(registered())
      .when({ type: 'VerifySeller', data: {} })
      .then([{ type: 'SellerVerified', data: { userId: 'u1' } }]);
    given(registered(), { type: 'SellerVerified', data: { userId: 'u1' } })
      .when({ type: 'VerifySeller', data: {} })
      .then([]);
  });
  it('given a buyer, when verified, then refused as an illegal state', () =>
    given(registered('Buyer')).when({ type: 'VerifySeller', data: {} }).thenThrows({ kind: 'illegal_state' }));
  it('given a user, when the profile changes, then UserProfileUpdated keeps the untouched field', () =>
    given(registered())
      .when({ type: 'UpdateProfile', data: { name: 'Rahim Uddin' } })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u1', name: 'Rahim Uddin', photoURL: '' } }]));
  it('given a user, when the profile update repeats their own email and role, then only the profile changes', () =>
    given(registered())
      .when({ type: 'UpdateProfile', data: { name: 'Rahim Uddin', email: 'rahim@example.com', role: 'Seller' } })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u1', name: 'Rahim Uddin', photoURL: '' } }]));
  it('given a user, when the profile update asks for another email, then 400 on email: an email cannot be changed', () =>
    given(registered())
      .when({ type: 'UpdateProfile', data: { name: 'Rahim Uddin', email: 'other@example.com' } })
      .thenThrows({ kind: 'validation', field: 'email', message: 'email cannot be changed' }));
  it('given a seller, when the profile update asks for another role (Admin included), then 403 on role: a role is chosen once', () => {
    for (const role of ['Buyer', 'Admin', 'admin'])
      given(registered('Seller'))
        .when({ type: 'UpdateProfile', data: { role } })
        .thenThrows({ kind: 'forbidden', field: 'role', message: 'A role is chosen once and cannot be changed' });
  });
  it('given the admin, when the profile update names the role Admin in any spelling, then no refusal', () => {
    given(registered('Admin'))
      .when({ type: 'UpdateProfile', data: { role: 'admin', photoURL: 'https://example.com/a.png' } })
      .then([{ type: 'UserProfileUpdated', data: { userId: 'u1', name: 'Rahim', photoURL: 'https://example.com/a.png' } }]);
    given(registered('Admin'))
      .when({ type: 'UpdateProfile', data: { role: 'ADMIN' } })
      .then([]);
  });
  it('given a deleted user, when the profile update asks for another email, then not found', () =>
    given(registered(), { type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } })
      .when({ type: 'UpdateProfile', data: { email: 'other@example.com' } })
      .thenThrows({ kind: 'not_found' }));
  it('given a user, when the admin deletes them, then UserDeleted; deleting oneself or an admin is forbidden', () => {
    given(registered())
      .when({ type: 'DeleteUser', data: { requestedBy: 'admin' } })
      .then([{ type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } }]);
    given(registered('Admin'))
      .when({ type: 'DeleteUser', data: { requestedBy: 'u1' } })
      .thenThrows({ kind: 'forbidden' });
  });
  it('given a deleted user, when deleted again, then not found', () =>
    given(registered(), { type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } })
      .when({ type: 'DeleteUser', data: { requestedBy: 'admin' } })
      .thenThrows({ kind: 'not_found' }));
  it('when a command of a type it does not know reaches decide (a misspelling past the type checker), then 400 on type, never undefined', () =>
    given()
      .when({ type: 'RegisterUsr', data: {} } as unknown as UserCommand)
      .thenThrows({ kind: 'validation', field: 'type' }));
  it('given a password account, when its password changes against the hash that stands, then PasswordChanged; against an older one, a conflict', () => {
    given(registered())
      .when({ type: 'ChangePassword', data: { passwordHash: 'h2', replaces: 'h' } })
      .then([{ type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } }]);
    // Two changes at once: the second was checked against the first's old hash.
    given(registered(), { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } })
      .when({ type: 'ChangePassword', data: { passwordHash: 'h3', replaces: 'h' } })
      .thenThrows({ kind: 'conflict', field: 'current_password' });
    // The shop's bootstrap sets the admin's password without naming the one it replaces.
    given(registered('Admin'))
      .when({ type: 'ChangePassword', data: { passwordHash: 'h2' } })
      .then([{ type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } }]);
  });
  it('given an account, when its holder ends every session, then SessionsEnded each time; a deleted account is not found', () => {
    given(registered('Buyer'))
      .when({ type: 'EndSessions', data: {} })
      .then([{ type: 'SessionsEnded', data: { userId: 'u1' } }]);
    given(registered('Buyer'), { type: 'SessionsEnded', data: { userId: 'u1' } })
      .when({ type: 'EndSessions', data: {} })
      .then([{ type: 'SessionsEnded', data: { userId: 'u1' } }]);
    given({ type: 'UserRegistered', data: { ...registered('Buyer').data, passwordHash: null, via: 'google' } } as UserEvent)
      .when({ type: 'EndSessions', data: {} })
      .then([{ type: 'SessionsEnded', data: { userId: 'u1' } }]);
    given(registered(), { type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } })
      .when({ type: 'EndSessions', data: {} })
      .thenThrows({ kind: 'not_found' });
  });
  it('given an account, when its holder signs out of a session, then SignedOut naming it, each time; a deleted account is not found', () => {
    given(registered('Buyer'))
      .when({ type: 'SignOut', data: { sessionId: 's1' } })
      .then([{ type: 'SignedOut', data: { userId: 'u1', sessionId: 's1' } }]);
    given(registered('Buyer'), { type: 'SignedOut', data: { userId: 'u1', sessionId: 's1' } })
      .when({ type: 'SignOut', data: { sessionId: 's1' } })
      .then([{ type: 'SignedOut', data: { userId: 'u1', sessionId: 's1' } }]);
    given(registered(), { type: 'UserDeleted', data: { userId: 'u1', email: 'rahim@example.com', role: 'Seller' } })
      .when({ type: 'SignOut', data: { sessionId: 's1' } })
      .thenThrows({ kind: 'not_found' });
  });
  it('given an account that signed out of MAX_SIGNED_OUT sessions one by one, when it logs out again, then every session ends instead; after that one by one again', () => {
    const signedOut = (n: number): UserEvent[] =>
      Array.from({ length: n }, (_, i) => ({ type: 'SignedOut', data: { userId: 'u1', sessionId: `s${i}` } }));
    given(registered('Buyer'), ...signedOut(MAX_SIGNED_OUT - 1))
      .when({ type: 'SignOut', data: { sessionId: 'last' } })
      .then([{ type: 'SignedOut', data: { userId: 'u1', sessionId: 'last' } }]);
    given(registered('Buyer'), ...signedOut(MAX_SIGNED_OUT))
      .when({ type: 'SignOut', data: { sessionId: 'one-more' } })
      .then([{ type: 'SessionsEnded', data: { userId: 'u1' } }]);
    given(registered('Buyer'), ...signedOut(MAX_SIGNED_OUT), { type: 'SessionsEnded', data: { userId: 'u1' } })
      .when({ type: 'SignOut', data: { sessionId: 'fresh' } })
      .then([{ type: 'SignedOut', data: { userId: 'u1', sessionId: 'fresh' } }]);
  });
  it('given an account opened with Google, when a password is set on it, then a conflict: it proves itself with Google alone', () =>
    given({ type: 'UserRegistered', data: { ...registered('Buyer').data, passwordHash: null, via: 'google' } } as UserEvent)
      .when({ type: 'ChangePassword', data: { passwordHash: 'h2' } })
      .thenThrows({ kind: 'conflict' }));
});
