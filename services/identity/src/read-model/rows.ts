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
}
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
