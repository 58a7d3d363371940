import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secretInDataDir } from './secrets';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-secret-'));
  dirs.push(dir);
  return dir;
};

describe('a secret in the data dir', () => {
  it('when none is kept yet, then one is generated once (owner-only), and processes starting together all read that one', async () => {
    const file = path.join(await tempDir(), 'nested', 'jwt-secret');
    const all = await Promise.all([1, 2, 3, 4].map(() => secretInDataDir(file, { name: 'JWT_SECRET', env: {}, bytes: 48 })));
    expect(all.filter((s) => s.generated)).toHaveLength(1);
    expect(new Set(all.map((s) => s.secret)).size).toBe(1);
    expect(all[0]!.secret).toHaveLength(64);
    expect((await readFile(file, 'utf8')).trim()).toBe(all[0]!.secret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await secretInDataDir(file, { name: 'JWT_SECRET', env: {} })).toEqual({ secret: all[0]!.secret, generated: false });
  });

  it('when a file kept from before has no trailing newline, then it is read as it is', async () => {
    const file = path.join(await tempDir(), 'jwt-secret');
    await writeFile(file, 'kept-from-an-older-version');
    expect(await secretInDataDir(file, { name: 'JWT_SECRET', env: {} })).toEqual({
      secret: 'kept-from-an-older-version',
      generated: false,
    });
  });

  it('when the kept file is too short, or in production, then refused with the variable to set', async () => {
    const file = path.join(await tempDir(), 'command-token');
    await writeFile(file, 'short\n');
    await expect(secretInDataDir(file, { name: 'COMMAND_TOKEN', env: {}, minLength: 16 })).rejects.toThrow(
      /no usable secret; delete it or set COMMAND_TOKEN/,
    );
    await expect(secretInDataDir(file, { name: 'COMMAND_TOKEN', env: { NODE_ENV: 'production' } })).rejects.toThrow(
      /COMMAND_TOKEN is required \(NODE_ENV=production\)/,
    );
  });
});
