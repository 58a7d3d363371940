import { describe, expect, it } from 'vitest';
import { foldUser, googleMayAttach } from './user';

const registered = (via: 'password' | 'google' | 'bootstrap') => ({
  type: 'UserRegistered',
  data: {
    userId: 'u1',
    name: 'Rafi',
    email: 'rafi@gmail.com',
    role: 'Buyer',
    photoURL: '',
    passwordHash: via === 'google' ? null : 'h',
    via,
  },
});

describe('which accounts a Google identity may sign in to', () => {
  it('given no account, then none to attach to (Google sign-in opens one)', () => {
    expect(googleMayAttach(foldUser([]))).toBe('no-account');
  });
  it('given an account opened with Google, then yes, even after profile changes', () => {
    const events = [registered('google'), { type: 'UserProfileUpdated', data: { userId: 'u1', name: 'R', photoURL: '' } }];
    expect(googleMayAttach(foldUser(events))).toBe('yes');
  });
  it('given an account opened with a password (or the bootstrap admin), then never: its owner never proved the address', () => {
    expect(googleMayAttach(foldUser([registered('password')]))).toBe('password-account');
    expect(googleMayAttach(foldUser([registered('bootstrap')]))).toBe('password-account');
    expect(
      googleMayAttach(foldUser([registered('password'), { type: 'PasswordChanged', data: { userId: 'u1', passwordHash: 'h2' } }])),
    ).toBe('password-account');
  });
  it('given a deleted account, then deleted', () => {
    const deleted = { type: 'UserDeleted', data: { userId: 'u1', email: 'rafi@gmail.com', role: 'Buyer' } };
    expect(googleMayAttach(foldUser([registered('google'), deleted]))).toBe('deleted');
  });
});
