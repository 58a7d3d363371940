import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from './recently-used';

describe('RecentlyUsed', () => {
  it('drops the least recently used beyond its bound; get makes an entry recent, peek does not', () => {
    const m = new RecentlyUsed<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.peek('a')).toBe(1); // a stays the oldest
    m.set('c', 3);
    expect(m.get('a')).toBeUndefined();
    expect(m.get('b')).toBe(2); // b is now the most recent
    m.set('d', 4);
    expect(m.peek('c')).toBeUndefined();
    expect([m.peek('b'), m.peek('d'), m.size]).toEqual([2, 4, 2]);
    m.delete('b');
    expect(m.size).toBe(1);
    m.clear();
    expect(m.size).toBe(0);
  });
});
