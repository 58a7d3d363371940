import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { GoogleIdentity } from '@tv-shop/identity';
import { AppError } from '@tv-shop/platform';

export type { GoogleIdentity };

/**
 * Verifies a Google ID token against Google's published keys (or a test issuer's, when
 * GOOGLE_JWKS_URL points elsewhere): signature, issuer, audience, expiry, verified email.
 */
export function googleVerifier(cfg: { clientId: string; jwksUrl: string; issuers: string[] } | null) {
  const keys = cfg ? createRemoteJWKSet(new URL(cfg.jwksUrl)) : null;
  return async (idToken: string): Promise<GoogleIdentity> => {
    if (!cfg || !keys) throw new AppError('not_configured', 'Google sign-in is not configured on this server', { field: 'idToken' });
    try {
      const { payload } = await jwtVerify(idToken, keys, { issuer: cfg.issuers, audience: cfg.clientId });
      if (typeof payload.email !== 'string' || payload.email_verified !== true) throw new Error('email not verified');
      const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v.trim() : fallback);
      return {
        email: payload.email.toLowerCase(),
        name: text(payload.name, payload.email.split('@')[0]!),
        picture: text(payload.picture, ''),
      };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('unauthorized', 'The Google sign-in could not be verified', { field: 'idToken' });
    }
  };
}
