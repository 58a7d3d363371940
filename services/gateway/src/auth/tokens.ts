import { createHmac, createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { Role } from '@tv-shop/contracts';
import { RecentlyUsed, secretInDataDir } from '@tv-shop/platform';

export interface TokenClaims {
  sub: string;
  email: string;
  role: Role;
  /** When the token stops working (ms since the epoch). */
  expiresAt: number | null;
  /**
   * The account's password as it was when the token was issued, as a stamp (`stampOf`): a token
   * works only while it matches, so changing the password ends every other session (ADR 0060).
   * Null in a token from before stamps, which no account matches.
   */
  stamp: string | null;
  /** The sign-in this token comes from, kept by its refreshes: what a per-session limit counts (ADR 0060). */
  sessionId: string | null;
}

/** How many verified tokens are remembered, at most: the most recently used. */
const VERIFIED_KEPT = 5000;

/** The fewest characters a token-signing secret may have, set (JWT_SECRET) or kept in the data dir. */
export const MIN_JWT_SECRET_LENGTH = 32;

export class Tokens {
  /**
   * The secret as a key object made once: given a string, jsonwebtoken first tries it as a public
   * key on every verify, fails, and only then uses it as an HMAC secret (12% of a write's CPU).
   */
  private readonly key: KeyObject;
  /**
   * The claims of tokens this process verified, by the token's text: a token's signature and
   * issuer cannot change, so a signed-in client's next request skips the HMAC and the parse (~3%
   * of a write's CPU under load); its expiry is checked on every use. Only tokens that verified
   * are remembered, so a flood of bad ones costs what it did and evicts nothing it should not.
   */
  private readonly verified = new RecentlyUsed<string, Readonly<TokenClaims>>(VERIFIED_KEPT);

  constructor(private readonly secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A key derived from the secret for fingerprints that must not be guessable (HMAC). */
  get fingerprintKey(): string {
    return `fingerprint:${this.secret}`;
  }

  /** The secret from JWT_SECRET, else one generated once and kept under the data dir. */
  static async fromConfig(secret: string | undefined, dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Tokens> {
    if (secret) return new Tokens(secret);
    // A file written by hand is held to the same length as the variable.
    return new Tokens(
      (await secretInDataDir(path.join(dataDir, 'jwt-secret'), { env, name: 'JWT_SECRET', bytes: 48, minLength: MIN_JWT_SECRET_LENGTH }))
        .secret,
    );
  }

  /**
   * What a token carries of the account's credentials: a keyed digest of its password hash (or of
   * "no password" for an account opened with Google) and of how many times its holder ended every
   * session, so the token tells nothing of the hash, and a new password (ADR 0060) or an ending of
   * every session (ADR 0062) makes every earlier token's stamp stale. An account whose sessions
   * were never ended keeps the stamp it had before ADR 0062.
   */
  stampOf(passwordHash: string | null, sessionsEnded = 0): string {
    const hmac = createHmac('sha256', this.stampKey).update(passwordHash ?? 'no-password');
    if (sessionsEnded > 0) hmac.update(`\0sessions-ended:${sessionsEnded}`);
    return hmac.digest('base64url').slice(0, 22);
  }
  private get stampKey(): string {
    return `password-stamp:${this.secret}`;
  }

  /**
   * A session token for the account, stamped with the credentials it was proven against (or, for
   * a refresh, the stamp of the token it replaces: a refresh never outlives its password, nor an
   * ending of every session).
   */
  sign(
    claims: Omit<TokenClaims, 'expiresAt' | 'stamp' | 'sessionId'> & { sessionId?: string | null } & (
        { passwordHash: string | null; sessionsEnded?: number } | { stamp: string }
      ),
  ): string {
    const ps = 'stamp' in claims ? claims.stamp : this.stampOf(claims.passwordHash, claims.sessionsEnded);
    // A new sign-in opens a session; a refresh (or a new password) carries its session on.
    const sid = claims.sessionId ?? randomUUID();
    return jwt.sign({ email: claims.email, role: claims.role, ps, sid }, this.key, {
      subject: claims.sub,
      expiresIn: '7d',
      algorithm: 'HS256',
      issuer: 'tv-shop',
    });
  }

  verify(token: string): Readonly<TokenClaims> | null {
    const known = this.verified.get(token);
    if (known) {
      // As jsonwebtoken judges it: expired from the second of `exp` on.
      if (known.expiresAt === null || Date.now() < known.expiresAt) return known;
      this.verified.delete(token);
      return null;
    }
    let claims: Readonly<TokenClaims>;
    try {
      const p = jwt.verify(token, this.key, { algorithms: ['HS256'], issuer: 'tv-shop' }) as jwt.JwtPayload;
      if (typeof p.sub !== 'string' || typeof p.email !== 'string') return null;
      claims = Object.freeze({
        sub: p.sub,
        email: p.email,
        role: p.role as Role,
        expiresAt: typeof p.exp === 'number' ? p.exp * 1000 : null,
        stamp: typeof p.ps === 'string' ? p.ps : null,
        sessionId: typeof p.sid === 'string' ? p.sid : null,
      });
    } catch {
      return null;
    }
    this.verified.set(token, claims);
    return claims;
  }
}
