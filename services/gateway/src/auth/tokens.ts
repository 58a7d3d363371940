import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { Role } from '@tv-shop/contracts';

export interface TokenClaims {
  sub: string;
  email: string;
  role: Role;
  /** When the token stops working (ms since the epoch). */
  expiresAt: number | null;
}

export class Tokens {
  constructor(private readonly secret: string) {}

  /** A key derived from the secret for fingerprints that must not be guessable (HMAC). */
  get fingerprintKey(): string {
    return `fingerprint:${this.secret}`;
  }

  /** The secret from JWT_SECRET, else one generated once and kept under the data dir. */
  static async fromConfig(secret: string | undefined, dataDir: string): Promise<Tokens> {
    if (secret) return new Tokens(secret);
    const file = path.join(dataDir, 'jwt-secret');
    if (existsSync(file)) return new Tokens((await readFile(file, 'utf8')).trim());
    await mkdir(dataDir, { recursive: true });
    const generated = randomBytes(48).toString('base64url');
    await writeFile(file, generated, { mode: 0o600, flag: 'wx' }).catch(() => {});
    return new Tokens((await readFile(file, 'utf8')).trim());
  }

  sign(claims: Omit<TokenClaims, 'expiresAt'>): string {
    return jwt.sign({ email: claims.email, role: claims.role }, this.secret, {
      subject: claims.sub,
      expiresIn: '7d',
      algorithm: 'HS256',
      issuer: 'tv-shop',
    });
  }

  verify(token: string): TokenClaims | null {
    try {
      const p = jwt.verify(token, this.secret, { algorithms: ['HS256'], issuer: 'tv-shop' }) as jwt.JwtPayload;
      if (typeof p.sub !== 'string' || typeof p.email !== 'string') return null;
      return { sub: p.sub, email: p.email, role: p.role as Role, expiresAt: typeof p.exp === 'number' ? p.exp * 1000 : null };
    } catch {
      return null;
    }
  }
}
