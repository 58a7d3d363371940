import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { createEntityStore, type EntityChange } from './entity-store';

interface Tv {
  _id: string;
  sold: boolean;
}

const setup = (opts: Parameters<typeof createEntityStore>[0] = {}) => {
  const store = createStore();
  const tvs = createEntityStore<Tv>(opts);
  return {
    apply: (change: EntityChange<Tv>) => store.set(tvs.applyAtom, change),
    load: (rows: Tv[], position: number) => store.set(tvs.loadAtom, { rows, position, inScope: () => true }),
    rows: () => [...store.get(tvs.stateAtom).rows.values()],
    ends: () => ['top', 'bottom'].map((end) => store.get(tvs.stateAtom).rows.end(end as 'top' | 'bottom')),
    removed: () => store.get(tvs.lastRemovedAtom),
    patch: (id: string, writtenAt: number, patch: Partial<Tv> | 'remove') => store.set(tvs.patchAtom, id, writtenAt, patch),
  };
};

describe('entity store (live lists patched by position)', () => {
  it('when a write is patched in at once, then its own push still lands, and an older push does not undo it', () => {
    const s = setup();
    s.load([{ _id: 'a', sold: false }], 10);
    s.patch('a', 15, { sold: true });
    expect(s.rows()).toEqual([{ _id: 'a', sold: true }]);
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: false }, position: 14 });
    expect(s.rows()).toEqual([{ _id: 'a', sold: true }]);
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: true }, position: 15 });
    s.patch('a', 16, 'remove');
    expect(s.rows()).toEqual([]);
    s.patch('missing', 17, { sold: true });
    expect(s.rows()).toEqual([]);
  });

  it('when pushes arrive out of order, then a stale one is ignored', () => {
    const s = setup();
    s.load([{ _id: 'a', sold: false }], 10);
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: true }, position: 12 });
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: false }, position: 11 });
    expect(s.rows()).toEqual([{ _id: 'a', sold: true }]);
  });

  it('when a push is at or below the position a list was read at, then the list wins', () => {
    const s = setup();
    s.load([{ _id: 'a', sold: true }], 20);
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: false }, position: 20 });
    expect(s.rows()).toEqual([{ _id: 'a', sold: true }]);
  });

  it('when a push lands while a list is in flight, then the older list does not undo it, present or removed', () => {
    const s = setup();
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: true }, position: 30 });
    s.apply({ op: 'remove', id: 'b', position: 31 });
    s.load(
      [
        { _id: 'a', sold: false },
        { _id: 'b', sold: false },
      ],
      25,
    );
    expect(s.rows()).toEqual([{ _id: 'a', sold: true }]);
  });

  it('when a reloaded list no longer holds a row in its scope, then the row is gone', () => {
    const s = setup();
    s.load(
      [
        { _id: 'a', sold: false },
        { _id: 'b', sold: false },
      ],
      5,
    );
    s.load([{ _id: 'b', sold: false }], 9);
    expect(s.rows().map((r) => r._id)).toEqual(['b']);
  });

  it('when a new row is pushed, then it goes on top; a removal is remembered for the page to explain', () => {
    const s = setup();
    s.load([{ _id: 'a', sold: false }], 1);
    s.apply({ op: 'upsert', id: 'n', row: { _id: 'n', sold: false }, position: 2 });
    expect(s.rows().map((r) => r._id)).toEqual(['n', 'a']);
    s.apply({ op: 'remove', id: 'a', position: 3 });
    expect(s.removed()).toEqual({ row: { _id: 'a', sold: false }, position: 3 });
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: false }, position: 2 });
    expect(s.rows().map((r) => r._id)).toEqual(['n']);
  });

  it('when the server lists the oldest first, then a new row goes at the bottom, where a reload would put it', () => {
    const s = setup({ newRowsAt: 'bottom' });
    s.load(
      [
        { _id: 'a', sold: false },
        { _id: 'b', sold: false },
      ],
      1,
    );
    s.apply({ op: 'upsert', id: 'n', row: { _id: 'n', sold: false }, position: 2 });
    expect(s.rows().map((r) => r._id)).toEqual(['a', 'b', 'n']);
    expect(s.ends()).toEqual(['a', 'n']);
    s.apply({ op: 'upsert', id: 'a', row: { _id: 'a', sold: true }, position: 3 });
    s.apply({ op: 'remove', id: 'n', position: 4 });
    s.apply({ op: 'upsert', id: 'm', row: { _id: 'm', sold: false }, position: 5 });
    expect(s.rows().map((r) => r._id)).toEqual(['a', 'b', 'm']);
    expect(s.ends()).toEqual(['a', 'm']);
  });

  it('when a push lands on a big store, then it costs the same as on a small one (no copy of the store per row)', () => {
    const timeFor = (rows: number) => {
      const store = createStore();
      const tvs = createEntityStore<Tv>();
      store.set(tvs.loadAtom, {
        rows: Array.from({ length: rows }, (_, i) => ({ _id: `r${i}`, sold: false })),
        position: 1,
        inScope: () => true,
      });
      const start = performance.now();
      for (let i = 0; i < 2000; i++)
        store.set(tvs.applyAtom, { op: 'upsert', id: `n${i}`, row: { _id: `n${i}`, sold: false }, position: 2 + i });
      for (let i = 0; i < 2000; i++)
        store.set(tvs.applyAtom, { op: 'upsert', id: `r${i % rows}`, row: { _id: `r${i % rows}`, sold: true }, position: 5000 + i });
      for (let i = 0; i < 500; i++) store.set(tvs.applyAtom, { op: 'remove', id: `r${rows - 1 - i}`, position: 9000 + i });
      const ms = performance.now() - start;
      const state = store.get(tvs.stateAtom);
      expect(state.rows.size).toBe(rows + 2000 - 500);
      expect(state.rows.get('n1999')).toEqual({ _id: 'n1999', sold: false });
      expect(state.rows.get(`r${rows - 1}`)).toBeUndefined();
      return ms;
    };
    timeFor(1_000); // warm-up
    const small = timeFor(1_000);
    // The better of two runs: a garbage collection of the 200,000 rows just made, or the busy
    // machine taking the CPU, lands in one run, not in both.
    const big = Math.min(timeFor(200_000), timeFor(200_000));
    // Copying the store per push would make 4,500 pushes on 200,000 rows take tens of seconds (nearly a billion entries).
    expect(big).toBeLessThan(Math.max(10 * small, 1000));
  });

  it('when rows change, then each change gives a new rows map, and an earlier one still answers as of its own time', () => {
    const store = createStore();
    const tvs = createEntityStore<Tv>();
    store.set(tvs.loadAtom, { rows: [{ _id: 'a', sold: false }], position: 1, inScope: () => true });
    const before = store.get(tvs.stateAtom);
    store.set(tvs.applyAtom, { op: 'upsert', id: 'a', row: { _id: 'a', sold: true }, position: 2 });
    store.set(tvs.applyAtom, { op: 'upsert', id: 'b', row: { _id: 'b', sold: false }, position: 3 });
    const after = store.get(tvs.stateAtom);
    expect(after.rows).not.toBe(before.rows);
    expect(after.version).toBe(before.version + 2);
    expect(after.changed).toBe('b');
    expect(before.rows.get('a')).toEqual({ _id: 'a', sold: false });
    expect(before.rows.get('b')).toBeUndefined();
    expect(after.rows.get('a')).toEqual({ _id: 'a', sold: true });
    expect([...after.rows.keys()]).toEqual(['b', 'a']);
  });
});
