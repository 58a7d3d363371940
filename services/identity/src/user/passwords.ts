import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// Verifying against this when no account exists keeps sign-in time the same either way.
const DUMMY = '$argon2id$v=19$m=19456,t=2,p=1$2a02KIg5rruw4TbjA46Q1g$vmsT3V5J34XmaoAzSYZ5GBBcM3JRJwRRM9GETOfiJfo';

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  try {
    const ok = await verify(stored ?? DUMMY, password);
    return ok && Boolean(stored);
  } catch {
    return false;
  }
}
