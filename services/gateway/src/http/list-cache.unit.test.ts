import { describe, expect, it } from 'vitest';
import { ListCache } from './list-cache';

describe('ListCache', () => {
  it('given readers of one key at one version, then one load answers them all; a new version loads again', async () => {
    const cache = new ListCache();
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const answers = await Promise.all([cache.get('k', 1, load), cache.get('k', 1, load), cache.get('k', 1, load)]);
    expect(answers).toEqual(['{"n":1}', '{"n":1}', '{"n":1}']);
    expect(await cache.get('k', 2, load)).toBe('{"n":2}');
    expect(loads).toBe(2);
  });

  it('given a load that fails, or an answer it is told not to keep (a page not found), then the next reader loads again', async () => {
    const cache = new ListCache();
    await expect(cache.get('k', 1, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const found = (v: unknown) => v !== null;
    expect(await cache.get('k', 1, async () => null, found)).toBe('null');
    expect(await cache.get('k', 1, async () => ({ now: 'there' }), found)).toBe('{"now":"there"}');
    expect(await cache.get('k', 1, async () => 'never asked', found)).toBe('{"now":"there"}');
  });

  it('given versions made of several positions, then a move of any of them loads again', async () => {
    const cache = new ListCache();
    let loads = 0;
    const load = async () => ++loads;
    await cache.get('product:a', '7/3', load);
    await cache.get('product:a', '7/3', load);
    await cache.get('product:a', '7/4', load);
    expect(loads).toBe(2);
  });

  it('given answers larger together than its byte budget, then the least recently loaded go until they fit', async () => {
    const cache = new ListCache(60_000, 100, 25);
    const seen: string[] = [];
    const load = (key: string) => async () => (seen.push(key), key.padEnd(10, '.')); // 12 bytes as JSON
    await cache.get('a', 1, load('a'));
    await cache.get('b', 1, load('b'));
    await cache.get('c', 1, load('c')); // 36 bytes: a goes
    seen.length = 0;
    await cache.get('b', 1, load('b'));
    await cache.get('c', 1, load('c'));
    expect(seen).toEqual([]);
    await cache.get('a', 1, load('a'));
    expect(seen).toEqual(['a']);
  });

  it('given more keys than it keeps, then the least recently loaded goes first, and a list loaded again is not it', async () => {
    const cache = new ListCache(60_000, 3);
    const seen: string[] = [];
    const load = (key: string) => async () => (seen.push(key), key);
    await cache.get('all_products', 1, load('all_products'));
    await cache.get('product:a', 1, load('product:a'));
    await cache.get('product:b', 1, load('product:b'));
    // The busy list at a new version: loaded again, so now the most recent.
    await cache.get('all_products', 2, load('all_products'));
    await cache.get('product:c', 1, load('product:c')); // full: product:a goes
    seen.length = 0;
    await cache.get('all_products', 2, load('all_products'));
    await cache.get('product:b', 1, load('product:b'));
    await cache.get('product:c', 1, load('product:c'));
    expect(seen).toEqual([]);
    await cache.get('product:a', 1, load('product:a'));
    expect(seen).toEqual(['product:a']);
  });
});
