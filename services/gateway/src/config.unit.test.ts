import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('gateway config: JWT_SECRET', () => {
  it('a secret long enough is kept; unset or empty, one is generated later (none here)', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig({ JWT_SECRET: secret }).jwtSecret).toBe(secret);
    expect(loadConfig({}).jwtSecret).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: '  ' }).jwtSecret).toBeUndefined();
  });

  it('a short one stops the start, naming the variable, rather than being replaced silently', () => {
    expect(() => loadConfig({ JWT_SECRET: 'a' })).toThrow(/JWT_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ JWT_SECRET: 'y'.repeat(31) })).toThrow(/JWT_SECRET/);
  });
});
