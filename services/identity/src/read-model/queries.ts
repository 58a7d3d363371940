import type pg from 'pg';
import type { SellerCard, User } from '@tv-shop/contracts';
import { conflict, notFound } from '@tv-shop/platform';
import { checkPassword } from '../user/passwords';
import { SIGNED_OUT_KEPT_MS, toSellerCard, toUser, type UserRow } from './rows';

/**
 * What an account's session tokens are stamped with (ADR 0060, 0062): its password hash (null for
 * an account opened with Google) and how many times its holder ended every session. Either
 * changing makes every token issued before stale. Both stay in the server.
 */
export interface Credentials {
  passwordHash: string | null;
  sessionsEnded: number;
  /** The sessions signed out one by one whose tokens may still be unexpired (ADR 0066). */
  signedOut: string[];
}

/** Identity's read-model queries (`rm_identity`). Everything here is a read: writes go through commands. */
export class IdentityQueries {
  constructor(private readonly pool: pg.Pool) {}

  /** A signed-in session's account: the user, and what its tokens are stamped with (ADR 0060, 0062). */
  async sessionAccount(id: string): Promise<({ user: User } & Credentials) | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where id = $1 and not deleted', [id]);
    return rows[0] ? { user: toUser(rows[0]), ...credentialsOf(rows[0]) } : null;
  }
  /** What the tokens of these accounts are stamped with, by id, in one read (a deleted or unknown account is absent). */
  async credentialsOf(ids: string[]): Promise<Map<string, Credentials>> {
    // Every column: while an upgrade rebuilds the table beside it, the old one has no sessions_ended yet.
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where id = any($1) and not deleted', [ids]);
    return new Map(rows.map((r) => [r.id, credentialsOf(r)]));
  }
  async userByEmail(email: string): Promise<User | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where email = $1 and not deleted', [
      email.trim().toLowerCase(),
    ]);
    return rows[0] ? toUser(rows[0]) : null;
  }
  /**
   * Sign-in with a password: the account with this email if the password matches its hash, with
   * that very hash (what a token is stamped with, ADR 0060), else null (no such account, a
   * deleted one, one opened with Google, or a wrong password). The hash is checked even when
   * there is no account, so the answer takes as long either way.
   */
  async verifyPassword(email: string, password: string): Promise<({ user: User; passwordHash: string } & Credentials) | null> {
    const { rows } = await this.pool.query<UserRow>('select * from rm_identity.users where email = $1 and not deleted', [email]);
    const row = rows[0];
    return (await checkPassword(row?.password_hash, password)) && row?.password_hash
      ? { user: toUser(row), ...credentialsOf(row), passwordHash: row.password_hash }
      : null;
  }
  async usersWithRole(role: 'Buyer' | 'Seller'): Promise<User[]> {
    const { rows } = await this.pool.query<UserRow>(
      'select * from rm_identity.users where role = $1 and not deleted order by registered_at',
      [role],
    );
    return rows.map(toUser);
  }
  /** The public card of the seller with this id; null when there is no such active seller (another role counts as none). */
  async sellerCard(id: string): Promise<SellerCard | null> {
    const { rows } = await this.pool.query<UserRow>(`select * from rm_identity.users where id = $1 and role = 'Seller' and not deleted`, [
      id,
    ]);
    return rows[0] ? toSellerCard(rows[0]) : null;
  }
  /** An active seller as their public pages show them: the card and when they joined. */
  async sellerSince(id: string): Promise<(SellerCard & { memberSince: string }) | null> {
    const { rows } = await this.pool.query<UserRow & { registered_at: Date }>(
      `select * from rm_identity.users where id = $1 and role = 'Seller' and not deleted`,
      [id],
    );
    return rows[0] ? { ...toSellerCard(rows[0]), memberSince: new Date(rows[0].registered_at).toISOString() } : null;
  }
  /**
   * The card of the one active seller with this name (case-insensitive). Names are not unique
   * (ADR 0022): 404 when nobody has it, 409 when several do, naming the ways that are exact.
   */
  async sellerNamed(name: string): Promise<SellerCard> {
    const { rows } = await this.pool.query<UserRow>(
      `select * from rm_identity.users where lower(name) = lower($1) and role = 'Seller' and not deleted order by registered_at limit 2`,
      [name],
    );
    if (rows.length === 0) throw notFound('Seller', 'seller');
    if (rows.length > 1) throw conflict(`More than one seller is named ${name}; ask by sellerId or product instead`, 'seller');
    return toSellerCard(rows[0]!);
  }
  /** The address of every account's photo; a deleted account's photo is no longer referred to. */
  async imageUrls(): Promise<string[]> {
    const { rows } = await this.pool.query<{ url: string | null }>('select photo_url as url from rm_identity.users where not deleted');
    return rows.flatMap((r) => (r.url ? [r.url] : []));
  }
  /** The current names of these users, deleted ones included (a deleted user's reports keep a name). */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; name: string }>('select id, name from rm_identity.users where id = any($1)', [
      [...ids],
    ]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}

/**
 * A row's credentials; a row of the table from before ADR 0062 or 0066 (read while its upgrade is
 * rebuilt beside it) ended none and signed none out.
 */
const credentialsOf = (r: Pick<UserRow, 'password_hash'> & Partial<Pick<UserRow, 'sessions_ended' | 'signed_out'>>): Credentials => {
  const since = Date.now() - SIGNED_OUT_KEPT_MS;
  return {
    passwordHash: r.password_hash,
    sessionsEnded: r.sessions_ended ?? 0,
    signedOut: (r.signed_out ?? []).filter((x) => x.at > since).map((x) => x.s),
  };
};
