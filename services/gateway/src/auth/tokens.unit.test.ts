import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tokens } from './tokens';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

describe('Tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('a jwt-secret file in the data dir is generated long, and one written short by hand is refused, as JWT_SECRET would be', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tokens-'));
    try {
      const generated = await Tokens.fromConfig(undefined, dir, {});
      expect(generated.verify(generated.sign({ sub: 'u1', email: 'u1@x.test', role: 'Buyer', passwordHash: 'h' }))).toMatchObject({
        sub: 'u1',
      });
      await writeFile(path.join(dir, 'jwt-secret'), 'short\n');
      await expect(Tokens.fromConfig(undefined, dir, {})).rejects.toThrow(/holds no usable secret; delete it or set JWT_SECRET/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('verifies a token it signed, and the same token again without a second check of its signature', () => {
    const tokens = new Tokens(SECRET);
    const token = tokens.sign({ sub: 'u1', email: 'u1@x.test', role: 'Seller', passwordHash: 'h1' });
    const spy = vi.spyOn(jwt, 'verify');
    const first = tokens.verify(token);
    expect(first).toMatchObject({ sub: 'u1', email: 'u1@x.test', role: 'Seller' });
    expect(tokens.verify(token)).toEqual(first);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('refuses a remembered token once it has expired', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    const tokens = new Tokens(SECRET);
    const token = jwt.sign({ email: 'u1@x.test', role: 'Buyer' }, SECRET, {
      subject: 'u1',
      expiresIn: 60,
      algorithm: 'HS256',
      issuer: 'tv-shop',
    });
    expect(tokens.verify(token)?.sub).toBe('u1');
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(tokens.verify(token)?.sub).toBe('u1');
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.verify(token)).toBeNull();
  });

  it('refuses a token signed with another secret, or altered, however often it is sent', () => {
    const tokens = new Tokens(SECRET);
    const foreign = new Tokens('another-secret-of-enough-length-987654321').sign({
      sub: 'u1',
      email: 'u1@x.test',
      role: 'Admin',
      passwordHash: 'h1',
    });
    const own = tokens.sign({ sub: 'u1', email: 'u1@x.test', role: 'Buyer', passwordHash: 'h1' });
    const [head, , signature] = own.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ sub: 'u1', email: 'u1@x.test', role: 'Admin', iss: 'tv-shop' })).toString('base64url')}.${signature}`;
    for (let i = 0; i < 2; i++) {
      expect(tokens.verify(foreign)).toBeNull();
      expect(tokens.verify(altered)).toBeNull();
    }
    expect(tokens.verify(own)?.role).toBe('Buyer');
  });

  it('stamps a token with the password it was issued under, telling nothing of the hash; another password or secret stamps differently', () => {
    const tokens = new Tokens(SECRET);
    const token = tokens.sign({ sub: 'u1', email: 'u1@x.test', role: 'Buyer', passwordHash: '$argon2id$v=19$hash-one' });
    const claims = tokens.verify(token);
    expect(claims?.stamp).toBe(tokens.stampOf('$argon2id$v=19$hash-one'));
    // Each sign-in opens a session of its own; a refresh carries its session and its stamp on.
    expect(claims?.sessionId).toEqual(expect.any(String));
    expect(tokens.verify(tokens.sign({ sub: 'u1', email: 'u1@x.test', role: 'Buyer', passwordHash: 'x' }))?.sessionId).not.toBe(
      claims?.sessionId,
    );
    const refreshed = tokens.verify(
      tokens.sign({ sub: 'u1', email: 'u1@x.test', role: 'Buyer', stamp: claims!.stamp!, sessionId: claims!.sessionId }),
    );
    expect(refreshed).toMatchObject({ stamp: claims?.stamp, sessionId: claims?.sessionId });
    expect(claims?.stamp).not.toBe(tokens.stampOf('$argon2id$v=19$hash-two'));
    expect(tokens.stampOf(null)).not.toBe(tokens.stampOf('$argon2id$v=19$hash-one'));
    expect(new Tokens('another-secret-of-enough-length-987654321').stampOf('$argon2id$v=19$hash-one')).not.toBe(claims?.stamp);
    // What anyone holding the token can read of it carries no part of the hash.
    const payload = Buffer.from(token.split('.')[1]!, 'base64url').toString();
    expect(payload).not.toMatch(/argon2|hash-one/);
    // A token from before stamps has none: no account's stamp matches it.
    const old = jwt.sign({ email: 'u1@x.test', role: 'Buyer' }, SECRET, { subject: 'u1', algorithm: 'HS256', issuer: 'tv-shop' });
    expect(tokens.verify(old)?.stamp).toBeNull();
  });
});
