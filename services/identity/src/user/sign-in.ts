import type { CommandOf, SignupBody } from '@tv-shop/contracts';
import { AppError, conflict, uuidFromName } from '@tv-shop/platform';
import { userIdFor } from './ids';
import { hashPassword } from './passwords';
import { googleMayAttach, type UserState } from './user';

type RegisterUser = CommandOf<'identity', 'RegisterUser'>;
type SignInWithGoogle = CommandOf<'identity', 'SignInWithGoogle'>;
/** A command for identity, addressed as a sender puts it on the bus. */
export type IdentityRequest = { service: 'identity'; aggregateId: string; commandId?: string } & RegisterUser;

/** Who a verified Google ID token says the person is (the edge verifies the token). */
export interface GoogleIdentity {
  email: string;
  name: string;
  picture: string;
}

/**
 * A signup with a password: the account's id from its email, and the password only as its hash.
 * Whether the email is free is the decider's to say when the command arrives.
 */
export async function passwordSignUp(body: SignupBody): Promise<IdentityRequest> {
  const userId = userIdFor(body.email);
  const passwordHash = await hashPassword(body.password);
  return {
    service: 'identity',
    type: 'RegisterUser',
    aggregateId: userId,
    data: { userId, name: body.name, email: body.email, role: body.role, photoURL: body.photoURL ?? '', passwordHash, via: 'password' },
  };
}

/** The command a verified Google identity sends to sign in, addressed to the account its email names. */
export function signInWithGoogleRequest(who: GoogleIdentity): { service: 'identity'; aggregateId: string } & SignInWithGoogle {
  return { service: 'identity', type: 'SignInWithGoogle', aggregateId: userIdFor(who.email), data: who };
}

/**
 * What a verified Google identity may do, given the state of the account its email names: sign
 * in to an account opened with Google, or open one (always a Buyer, spec section 6). Never a
 * password account with the same email (ADR 0021), never a deleted one. Pure: the command
 * handler (`../google-sign-in.ts`) reads the stream and registers the account.
 */
export function decideGoogleSignIn(state: UserState, who: GoogleIdentity): { userId: string; register: IdentityRequest | null } {
  const userId = userIdFor(who.email);
  const attach = googleMayAttach(state);
  if (attach === 'deleted') throw conflict('The account with this email was deleted; sign up with another email', 'email');
  if (attach === 'password-account')
    throw new AppError(
      'conflict',
      'An account with this email signs in with a password; use your email and password. If you did not open it, contact the admin.',
      { field: 'email' },
    );
  if (attach === 'yes') return { userId, register: null };
  return {
    userId,
    register: {
      service: 'identity',
      type: 'RegisterUser',
      aggregateId: userId,
      commandId: uuidFromName(`google-signup:${userId}`),
      data: { userId, name: who.name, email: who.email, role: 'Buyer', photoURL: who.picture, passwordHash: null, via: 'google' },
    },
  };
}
