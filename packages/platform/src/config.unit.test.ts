import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirFromEnv, databaseUrlFromEnv, logLevelFromEnv, redisFromEnv, serviceConfigFromEnv, serviceUrlsFromEnv } from './config';

describe('configuration every process reads the same way', () => {
  it('DATA_DIR is ./data by default, relative to where npm was run (INIT_CWD), else to the working directory', () => {
    expect(dataDirFromEnv({ INIT_CWD: '/srv/shop' })).toBe('/srv/shop/data');
    expect(dataDirFromEnv({ INIT_CWD: '/srv/shop', DATA_DIR: 'state' })).toBe('/srv/shop/state');
    expect(dataDirFromEnv({ INIT_CWD: '/srv/shop', DATA_DIR: '/var/lib/tv' })).toBe('/var/lib/tv');
    expect(dataDirFromEnv({})).toBe(path.resolve('./data'));
  });

  it('a blank DATABASE_URL, REDIS_URL or service URL is unset; the Redis channel has its default', () => {
    expect(databaseUrlFromEnv({ DATABASE_URL: '  ' })).toBeUndefined();
    expect(databaseUrlFromEnv({ DATABASE_URL: ' postgres://db/shop ' })).toBe('postgres://db/shop');
    expect(redisFromEnv({ REDIS_URL: '' })).toEqual({ url: undefined, channel: 'tvshop:changes' });
    expect(redisFromEnv({ REDIS_URL: 'redis://r', REDIS_CHANNEL: 'c' })).toEqual({ url: 'redis://r', channel: 'c' });
    expect(serviceUrlsFromEnv({ IDENTITY_URL: 'http://i', CATALOG_URL: ' ', ORDERS_URL: 'http://o' })).toEqual({
      identity: 'http://i',
      orders: 'http://o',
    });
  });

  it('a service on its own listens on its default port and 127.0.0.1 and reaches the other services, never itself', () => {
    const env = {
      INIT_CWD: '/srv',
      DATABASE_URL: 'postgres://db',
      COMMAND_TOKEN: ' t ',
      IDENTITY_URL: 'http://i',
      CATALOG_URL: 'http://c',
    };
    expect(serviceConfigFromEnv(4002, env)).toEqual({
      databaseUrl: 'postgres://db',
      port: 4002,
      host: '127.0.0.1',
      commandToken: 't',
      dataDir: '/srv/data',
    });
    expect(serviceConfigFromEnv(4003, { ...env, PORT: '5000', HOST: '0.0.0.0' })).toMatchObject({ port: 5000, host: '0.0.0.0' });
  });

  it('LOG_LEVEL, else info, or error under tests', () => {
    expect(logLevelFromEnv({})).toBe('info');
    expect(logLevelFromEnv({ VITEST: 'true' })).toBe('error');
    expect(logLevelFromEnv({ VITEST: 'true', LOG_LEVEL: 'debug' })).toBe('debug');
  });
});
