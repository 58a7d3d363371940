import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandTokenFor, startServiceHost } from '../service-host';
import { AppError } from '../errors';
import { HttpCommandBus, commandTokenMatches, serveCommands } from './http-transport';
import { InProcessCommandBus, type CommandEnvelope } from './transport';

const TOKEN = 'a-command-token-of-some-length';
const envelope = (): CommandEnvelope => ({
  service: 'identity',
  type: 'Ping',
  aggregateId: 'a1',
  commandId: '00000000-0000-4000-8000-000000000001',
  actor: { id: 'system', role: 'System' },
  correlationId: 'c1',
  data: {},
});

describe('command endpoints need COMMAND_TOKEN', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('when a service would serve commands without a token, or with a short one, then it refuses to start', async () => {
    await expect(serveCommands(new InProcessCommandBus(), { port: 0 })).rejects.toThrow(/COMMAND_TOKEN/);
    await expect(serveCommands(new InProcessCommandBus(), { port: 0, token: 'short' })).rejects.toThrow(/COMMAND_TOKEN/);
    await expect(
      startServiceHost({
        name: 'identity',
        databaseUrl: 'postgres://127.0.0.1:1/none',
        port: 0,
        start: async () => ({ stop: async () => {} }),
      }),
    ).rejects.toThrow(/COMMAND_TOKEN/);
    expect(() => new HttpCommandBus({ identity: 'http://127.0.0.1:1' })).toThrow(/COMMAND_TOKEN/);
    // Without remote services there is nothing to guard.
    expect(() => new HttpCommandBus({})).not.toThrow();
  });

  it('when commands arrive over real HTTP, then only the exact token is let through', async () => {
    const bus = new InProcessCommandBus();
    bus.register('identity', async () => ({ position: 7, result: { ok: true } }));
    bus.register('catalog', async () => {
      throw new AppError('unauthorized', 'Wrong email or password');
    });
    const server = await serveCommands(bus, { port: 0, token: TOKEN });
    try {
      const post = (authorization?: string) =>
        fetch(`${server.url}/commands`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization !== undefined ? { authorization } : {}) },
          body: JSON.stringify(envelope()),
        });
      for (const wrong of [undefined, '', 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `bearer  ${TOKEN}`]) {
        const res = await post(wrong);
        expect(res.status, String(wrong)).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="commands"');
      }
      const ok = await post(`Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ position: 7, result: { ok: true } });
      // And through the client adapter, which sends it.
      expect(await new HttpCommandBus({ identity: server.url }, TOKEN).send(envelope())).toEqual({ position: 7, result: { ok: true } });
      // A sender with another token is a fault of the deployment: a 503 to its caller, never a 401
      // that would sign the user out.
      await expect(new HttpCommandBus({ identity: server.url }, `${TOKEN}-other`).send(envelope())).rejects.toMatchObject({
        kind: 'unavailable',
        status: 503,
      });
      // A URL that does not lead to the command endpoint is the deployment's fault too, not a command's 404.
      await expect(new HttpCommandBus({ identity: `${server.url}/api` }, TOKEN).send(envelope())).rejects.toMatchObject({
        kind: 'unavailable',
        status: 503,
      });
      // A command's own 401 still reaches its caller as one.
      await expect(new HttpCommandBus({ catalog: server.url }, TOKEN).send({ ...envelope(), service: 'catalog' })).rejects.toMatchObject({
        kind: 'unauthorized',
        message: 'Wrong email or password',
      });
    } finally {
      await server.close();
    }
  });

  it('when the token is compared, then the answer does not depend on a shared prefix', () => {
    expect(commandTokenMatches(TOKEN, `Bearer ${TOKEN}`)).toBe(true);
    expect(commandTokenMatches(TOKEN, `Bearer ${TOKEN.slice(0, 5)}`)).toBe(false);
    expect(commandTokenMatches(TOKEN, undefined)).toBe(false);
  });

  it('when no COMMAND_TOKEN is set in a local mode, then one is generated once under the data dir and shared; in production it is required', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-token-'));
    dirs.push(dir);
    const first = await commandTokenFor(undefined, dir, {});
    expect(first.source).toBe('generated');
    expect(first.token.length).toBeGreaterThanOrEqual(40);
    const file = path.join(dir, 'command-token');
    expect((await readFile(file, 'utf8')).trim()).toBe(first.token);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [a, b] = await Promise.all([commandTokenFor(undefined, dir, {}), commandTokenFor(undefined, dir, {})]);
    expect([a.token, b.token]).toEqual([first.token, first.token]);
    expect(await commandTokenFor('from-the-environment-123', dir, {})).toEqual({ token: 'from-the-environment-123', source: 'env' });
    await expect(commandTokenFor(undefined, dir, { NODE_ENV: 'production' })).rejects.toThrow(/COMMAND_TOKEN is required/);
  });
});
