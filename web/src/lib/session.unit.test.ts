import type { User } from '@tv-shop/contracts';
import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { patchSessionUserAtom, refreshSessionUserAtom, sessionAtom } from './session';

const seller: User = { _id: 'u1', name: 'Sylhet Screens', email: 'seller@x.co', photoURL: '', role: 'Seller', verified: false };

function signedIn() {
  const store = createStore();
  store.set(sessionAtom, { status: 'signed-in', token: 't', user: seller });
  return store;
}

describe('the session follows the account’s own pushed row', () => {
  it('when the admin verifies the signed-in seller, then the session says verified and keeps its role and token', () => {
    const store = signedIn();
    store.set(refreshSessionUserAtom, { ...seller, verified: true, name: 'Sylhet Screens Ltd', role: 'Admin' });
    expect(store.get(sessionAtom)).toEqual({
      status: 'signed-in',
      token: 't',
      user: { ...seller, verified: true, name: 'Sylhet Screens Ltd', role: 'Seller' },
    });
  });

  it('when the row is another account’s (the admin hears every user), then nothing changes', () => {
    const store = signedIn();
    const before = store.get(sessionAtom);
    store.set(refreshSessionUserAtom, { ...seller, _id: 'u2', verified: true });
    expect(store.get(sessionAtom)).toBe(before);
  });

  it('when nobody is signed in, then a row signs nobody in', () => {
    const store = createStore();
    store.set(sessionAtom, { status: 'signed-out' });
    store.set(refreshSessionUserAtom, seller);
    expect(store.get(sessionAtom)).toEqual({ status: 'signed-out' });
  });
});

describe('the signed-in account’s own change of name or photo', () => {
  it('when it is merged after a push came meanwhile, then what the push brought (a verified mark) is kept', () => {
    const store = signedIn();
    store.set(refreshSessionUserAtom, { ...seller, verified: true });
    store.set(patchSessionUserAtom, { name: 'Sylhet Screens Ltd' });
    expect(store.get(sessionAtom)).toEqual({
      status: 'signed-in',
      token: 't',
      user: { ...seller, verified: true, name: 'Sylhet Screens Ltd' },
    });
  });

  it('when nobody is signed in, then it changes nothing', () => {
    const store = createStore();
    store.set(sessionAtom, { status: 'signed-out' });
    store.set(patchSessionUserAtom, { name: 'x' });
    expect(store.get(sessionAtom)).toEqual({ status: 'signed-out' });
  });
});
