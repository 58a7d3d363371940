import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { createEntityStore, type EntityChange } from './entity-store';

interface Tv {
  _id: string;
  sold: boolean;
}

const setup = () => {
  const store = createStore();
  const tvs = createEntityStore<Tv>();
  return {
    apply: (change: EntityChange<Tv>) => store.set(tvs.applyAtom, change),
    load: (rows: Tv[], position: number) => store.set(tvs.loadAtom, { rows, position, inScope: () => true }),
    rows: () => [...store.get(tvs.stateAtom).rows.values()],
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
});
