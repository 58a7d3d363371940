import type { IdentityEvent, Role } from '@tv-shop/contracts';

export type UserEvent = IdentityEvent;

export type UserState =
  | { status: 'none' }
  | {
      status: 'active';
      userId: string;
      email: string;
      name: string;
      photoURL: string;
      role: Role;
      verified: boolean;
      /** How the account was opened: which proof of identity it was opened with. */
      via: 'password' | 'google' | 'bootstrap';
      /** The password's hash as it stands (null: an account opened with Google). */
      passwordHash: string | null;
      /** How many times its holder ended every session (ADR 0062). */
      sessionsEnded: number;
      /** Sessions signed out one by one since then (ADR 0066): past `MAX_SIGNED_OUT`, a Log Out ends them all. */
      signedOut: number;
    }
  | { status: 'deleted'; userId: string; email: string };

export const initialState = (): UserState => ({ status: 'none' });

export function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, name, photoURL, role, via, passwordHash } = event.data;
      return { status: 'active', userId, email, name, photoURL, role, verified: false, via, passwordHash, sessionsEnded: 0, signedOut: 0 };
    }
    case 'UserProfileUpdated':
      return state.status === 'active' ? { ...state, name: event.data.name, photoURL: event.data.photoURL } : state;
    case 'SellerVerified':
      return state.status === 'active' ? { ...state, verified: true } : state;
    case 'UserDeleted':
      return state.status === 'active' ? { status: 'deleted', userId: state.userId, email: state.email } : state;
    case 'PasswordChanged':
      return state.status === 'active' ? { ...state, passwordHash: event.data.passwordHash } : state;
    case 'SessionsEnded':
      return state.status === 'active' ? { ...state, sessionsEnded: state.sessionsEnded + 1, signedOut: 0 } : state;
    case 'SignedOut':
      return state.status === 'active' ? { ...state, signedOut: state.signedOut + 1 } : state;
  }
}

/**
 * Whether a Google identity for this account's email may sign in to it. Only an account opened
 * with Google: a password account's owner never proved they own the address, so someone could
 * have opened it with a victim's Gmail address before the victim first used Google (ADR 0021).
 */
export function googleMayAttach(state: UserState): 'yes' | 'no-account' | 'password-account' | 'deleted' {
  if (state.status === 'none') return 'no-account';
  if (state.status === 'deleted') return 'deleted';
  return state.via === 'google' ? 'yes' : 'password-account';
}

/** The state of a user's stream from its events. */
export const foldUser = (events: readonly { type: string; data: unknown }[]): UserState =>
  events.reduce((s, e) => evolve(s, e as UserEvent), initialState());
