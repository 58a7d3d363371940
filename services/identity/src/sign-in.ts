import { streams } from '@tv-shop/contracts';
import type { EventStore } from '@tv-shop/platform';
import { userIdFor } from './user/ids';
import { googleSignIn, type GoogleIdentity, type IdentityRequest } from './user/sign-in';
import { foldUser } from './user/user';

/**
 * A Google sign-in against the account its email names. The stream, not the read model, says how
 * the account was opened (ADR 0021). Answers the account to sign in to, and the command that
 * opens it when there is none yet (for the caller to send).
 */
export async function signInWithGoogle(
  store: EventStore,
  who: GoogleIdentity,
): Promise<{ userId: string; register: IdentityRequest | null }> {
  return googleSignIn(foldUser(await store.readStream(streams.user(userIdFor(who.email)))), who);
}
