import type { SellerCard, User } from '@tv-shop/contracts';

/** A row of `rm_identity.users`. The password hash never leaves the server. */
export interface UserRow {
  id: string;
  name: string;
  email: string;
  photo_url: string;
  role: User['role'];
  verified: boolean;
  deleted: boolean;
  password_hash: string | null;
  /** How many times the holder ended every session (ADR 0062). */
  sessions_ended: number;
  /** The sessions signed out one by one in the last `SIGNED_OUT_KEPT_MS` before the latest (ADR 0066): `s` the session, `at` when (ms). */
  signed_out: SignedOutSession[];
}
export interface SignedOutSession {
  s: string;
  at: number;
}
/**
 * How long a signed-out session is remembered: longer than a token lives (7 days), so every
 * token of it has expired by the time it is forgotten.
 */
export const SIGNED_OUT_KEPT_MS = 8 * 24 * 3600_000;
/** The signed-out sessions after one more sign-out at `at`: those older than `SIGNED_OUT_KEPT_MS` before it go, the same session once. */
export const withSignedOut = (list: readonly SignedOutSession[], session: string, at: number): SignedOutSession[] => [
  ...list.filter((x) => x.at > at - SIGNED_OUT_KEPT_MS && x.s !== session),
  { s: session, at },
];
export const toUser = (r: UserRow): User => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  photoURL: r.photo_url,
  role: r.role,
  verified: r.verified,
});
/** A seller's public card: what a product card shows of its seller, never the email. */
export const toSellerCard = (r: UserRow): SellerCard => ({ _id: r.id, name: r.name, photoURL: r.photo_url, verified: r.verified });
