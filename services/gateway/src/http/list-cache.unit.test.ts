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

  it('given a load that fails, then it is forgotten and the next reader loads again; a page that is not there is kept as null', async () => {
    const cache = new ListCache();
    await expect(cache.get('k', 1, () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('k', 1, async () => null)).toBe('null');
    expect(await cache.get('k', 1, async () => 'never asked')).toBe('null');
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
