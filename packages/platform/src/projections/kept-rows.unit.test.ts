import { describe, expect, it } from 'vitest';
import { KeptRows } from './kept-rows';

describe('KeptRows', () => {
  it('keeps at most its bound of rows per table, forgetting the least recently used first', () => {
    const kept = new KeptRows(2);
    kept.set('t', 'a', { id: 'a' });
    kept.set('t', 'b', { id: 'b' });
    kept.get('t', 'a'); // a is now the most recently used
    kept.set('t', 'c', { id: 'c' });
    kept.set('u', 'a', { id: 'other table' });
    expect(kept.get('t', 'b')).toBeUndefined();
    expect(kept.get('t', 'a')).toEqual({ id: 'a' });
    expect(kept.get('t', 'c')).toEqual({ id: 'c' });
    expect(kept.get('u', 'a')).toEqual({ id: 'other table' });
    expect(kept.size).toBe(3);
  });

  it('gives and takes copies: a batch changing its row does not change what is kept', () => {
    const kept = new KeptRows();
    const row = { id: 'a', n: 1 };
    kept.set('t', 'a', row);
    row.n = 2;
    const got = kept.get('t', 'a')!;
    got.n = 3;
    expect(kept.get('t', 'a')).toEqual({ id: 'a', n: 1 });
  });

  it('forgets a deleted row, and everything when cleared', () => {
    const kept = new KeptRows();
    kept.set('t', 'a', { id: 'a' });
    kept.set('t', 'b', { id: 'b' });
    kept.delete('t', 'a');
    expect(kept.get('t', 'a')).toBeUndefined();
    kept.clear();
    expect(kept.size).toBe(0);
  });
});

describe('KeptRows, nested values', () => {
  it('keeps its own frozen copy of a nested value: changing it in place fails, and the original stays free', () => {
    const kept = new KeptRows();
    const images = ['a.jpg', 'b.jpg'];
    kept.set('t', 'a', { id: 'a', images, meta: { tags: ['x'] } });
    images.push('c.jpg');
    const got = kept.get('t', 'a') as { images: string[]; meta: { tags: string[] } };
    expect(got.images).toEqual(['a.jpg', 'b.jpg']);
    expect(() => got.images.push('d.jpg')).toThrow(TypeError);
    expect(() => got.meta.tags.push('y')).toThrow(TypeError);
    got.images = [...got.images, 'd.jpg']; // replacing a value is how a batch changes a row
    expect(kept.get('t', 'a')).toMatchObject({ images: ['a.jpg', 'b.jpg'] });
  });
});
