import { describe, expect, it } from 'vitest';
import type { IdentityCommand } from '@tv-shop/contracts';
import { SYSTEM_ACTOR as system, type Actor } from '@tv-shop/platform';
import { refusalUnder, VISITOR as visitor } from '@tv-shop/platform/testing';
import { identitySenders } from './senders';

/** `aggregateId`: the account the command is about. */
const refusal = (command: IdentityCommand, actor: Actor, aggregateId = 'u1') =>
  refusalUnder('identity', identitySenders)(command, actor, aggregateId);

const user: Actor = { id: 'u1', role: 'Buyer' };
const other: Actor = { id: 'u2', role: 'Seller' };
const admin: Actor = { id: 'a1', role: 'Admin' };

const register = (role: 'Buyer' | 'Seller' | 'Admin', via: 'password' | 'google' | 'bootstrap' = 'password'): IdentityCommand => ({
  type: 'RegisterUser',
  data: { userId: 'u9', name: 'N', email: 'n@x.co', role, photoURL: '', passwordHash: via === 'password' ? 'h' : null, via },
});

describe("who may send identity's commands", () => {
  it('anyone signs up as a buyer or seller; only the shop itself opens an admin account', () => {
    expect(refusal(register('Buyer'), visitor)).toBeNull();
    expect(refusal(register('Seller'), visitor)).toBeNull();
    expect(refusal(register('Admin'), visitor)).toMatch(/Only the shop itself/);
    expect(refusal(register('Admin'), admin)).toMatch(/Only the shop itself/);
    expect(refusal(register('Admin'), system)).toBeNull();
  });

  it("an account without a password is opened by the shop only: no one takes a Google user's email first", () => {
    expect(refusal(register('Buyer', 'google'), visitor)).toMatch(/without a password/);
    expect(refusal(register('Seller', 'bootstrap'), other)).toMatch(/without a password/);
    expect(refusal(register('Buyer', 'google'), system)).toBeNull();
  });

  it("an account's profile, password and sessions are changed by its holder (the password by the shop's bootstrap too)", () => {
    const commands: IdentityCommand[] = [
      { type: 'UpdateProfile', data: { name: 'New' } },
      { type: 'ChangePassword', data: { passwordHash: 'h2' } },
      { type: 'EndSessions', data: {} },
      { type: 'SignOut', data: { sessionId: 's1' } },
    ];
    for (const command of commands) {
      expect(refusal(command, user)).toBeNull();
      expect(refusal(command, other)).toMatch(/only change your own account/);
      expect(refusal(command, admin)).toMatch(/only change your own account/);
      expect(refusal(command, system)).toBeNull();
    }
  });

  it('only the admin verifies sellers and deletes accounts, and a deletion names the admin who asks', () => {
    expect(refusal({ type: 'VerifySeller', data: {} }, admin, 'u2')).toBeNull();
    expect(refusal({ type: 'VerifySeller', data: {} }, other, 'u2')).toMatch(/Only Admin/);
    expect(refusal({ type: 'DeleteUser', data: { requestedBy: 'a1' } }, admin, 'u2')).toBeNull();
    expect(refusal({ type: 'DeleteUser', data: { requestedBy: 'a2' } }, admin, 'u2')).toMatch(/someone other than who sent it/);
    expect(refusal({ type: 'DeleteUser', data: { requestedBy: 'u1' } }, user, 'u2')).toMatch(/Only Admin/);
  });

  it('Google sign-in is open: the edge verified the token', () => {
    expect(refusal({ type: 'SignInWithGoogle', data: { email: 'g@x.co', name: 'G', picture: '' } }, visitor)).toBeNull();
  });
});
