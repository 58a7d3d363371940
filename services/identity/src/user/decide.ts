import type { IdentityCommand } from '@tv-shop/contracts';
import { AppError, conflict, forbidden, illegalState, notFound, validation, type Decider } from '@tv-shop/platform';
import { evolve, initialState, type UserEvent, type UserState } from './user';

/**
 * Identity's commands as they arrive over the bus (schemas in `@tv-shop/contracts`), but for
 * SignInWithGoogle: that one is handled before any decider (`../google-sign-in.ts`), and leads
 * to a RegisterUser the first time.
 */
export type UserCommand = Exclude<IdentityCommand, { type: 'SignInWithGoogle' }>;

/** Sessions an account signs out of one by one before a Log Out ends them all (ADR 0066). */
export const MAX_SIGNED_OUT = 50;

const active = (s: UserState) => {
  if (s.status !== 'active') throw notFound('User');
  return s;
};

export function decide(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser':
      if (state.status === 'active') throw conflict('An account with this email already exists', 'email');
      if (state.status === 'deleted') throw conflict('The account with this email was deleted; sign up with another email', 'email');
      return [{ type: 'UserRegistered', data: command.data }];
    case 'UpdateProfile': {
      const s = active(state);
      // An account's email is its identity (its id follows from it); a role is chosen once, and
      // asking for the role one already has (an admin in any spelling) is no change.
      const { email, role } = command.data;
      if (email !== undefined && email !== s.email) throw new AppError('validation', 'email cannot be changed', { field: 'email' });
      if (role !== undefined && role !== s.role && !(s.role === 'Admin' && role.toLowerCase() === 'admin'))
        throw new AppError('forbidden', 'A role is chosen once and cannot be changed', { field: 'role' });
      const name = command.data.name ?? s.name;
      const photoURL = command.data.photoURL ?? s.photoURL;
      if (name === s.name && photoURL === s.photoURL) return [];
      return [{ type: 'UserProfileUpdated', data: { userId: s.userId, name, photoURL } }];
    }
    case 'ChangePassword': {
      const s = active(state);
      // An account opened with Google proves itself with Google alone: it never gets a password (ADR 0021).
      if (s.via === 'google')
        throw new AppError('conflict', 'This account signs in with Google; it has no password to change', { field: 'current_password' });
      // Two changes at once: only the one made against the password that still stands (ADR 0060).
      if (command.data.replaces !== undefined && command.data.replaces !== s.passwordHash)
        throw new AppError('conflict', 'The password was changed meanwhile; sign in with the new one and try again', {
          field: 'current_password',
        });
      return [{ type: 'PasswordChanged', data: { userId: s.userId, passwordHash: command.data.passwordHash } }];
    }
    case 'EndSessions':
      // Every time it is asked: each ending makes the tokens issued before it stale (ADR 0062).
      return [{ type: 'SessionsEnded', data: { userId: active(state).userId } }];
    case 'SignOut': {
      const s = active(state);
      // The list the gateways check stays short (ADR 0066): once it holds MAX_SIGNED_OUT sessions,
      // a Log Out ends every session instead, which empties it. Either way this session ends.
      if (s.signedOut >= MAX_SIGNED_OUT) return [{ type: 'SessionsEnded', data: { userId: s.userId } }];
      // Every time it is asked: a second sign-out of the same session changes nothing it lets in.
      return [{ type: 'SignedOut', data: { userId: s.userId, sessionId: command.data.sessionId } }];
    }
    case 'VerifySeller': {
      const s = active(state);
      if (s.role !== 'Seller') throw illegalState('Only sellers can be verified');
      if (s.verified) return [];
      return [{ type: 'SellerVerified', data: { userId: s.userId } }];
    }
    case 'DeleteUser': {
      const s = active(state);
      if (s.userId === command.data.requestedBy) throw forbidden('An admin cannot delete their own account');
      if (s.role === 'Admin') throw forbidden('The admin account cannot be deleted');
      return [{ type: 'UserDeleted', data: { userId: s.userId, email: s.email, role: s.role } }];
    }
    default: {
      const unknown: never = command;
      throw validation('type', `is not an identity command: ${(unknown as { type: unknown }).type as string}`);
    }
  }
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = { initialState, evolve, decide };
