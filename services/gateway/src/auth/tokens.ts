import { createSecretKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { Role } from '@tv-shop/contracts';
import { secretInDataDir } from '@tv-shop/platform';

export interface TokenClaims {
  sub: string;
  email: string;
  role: Role;
  /** When the token stops working (ms since the epoch). */
  expiresAt: number | null;
}

export class Tokens {
  /**
   * The secret as a key object made once: given a string, jsonwebtoken first tries it as a public
   * key on every verify, fails, and only then uses it as an HMAC secret (12% of a write's CPU).
   */
  private readonly key: KeyObject;

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
    return new Tokens((await secretInDataDir(path.join(dataDir, 'jwt-secret'), { env, name: 'JWT_SECRET', bytes: 48 })).secret);
  }

  sign(claims: Omit<TokenClaims, 'expiresAt'>): string {
    return jwt.sign({ email: claims.email, role: claims.role }, this.key, {
      subject: claims.sub,
      expiresIn: '7d',
      algorithm: 'HS256',
      issuer: 'tv-shop',
    });
  }

  verify(token: string): TokenClaims | null {
    try {
      const p = jwt.verify(token, this.key, { algorithms: ['HS256'], issuer: 'tv-shop' }) as jwt.JwtPayload;
      if (typeof p.sub !== 'string' || typeof p.email !== 'string') return null;
      return { sub: p.sub, email: p.email, role: p.role as Role, expiresAt: typeof p.exp === 'number' ? p.exp * 1000 : null };
    } catch {
      return null;
    }
  }
}
