import { describe, expect, it } from 'vitest';
import { diffStates, flattenState } from './state-diff';

describe('a stream state shown field by field', () => {
  it('flattens nested objects to paths and keeps lists of plain values whole', () => {
    const fields = flattenState({ status: 'listed', listing: { name: 'Sony', price: 100 }, reporters: ['u1'], reports: [{ by: 'a' }] });
    expect([...fields]).toEqual([
      ['status', '"listed"'],
      ['listing.name', '"Sony"'],
      ['listing.price', '100'],
      ['reporters', '["u1"]'],
      ['reports[0].by', '"a"'],
    ]);
  });

  it('when a product is reported, then reported and reporters are what changed', () => {
    const before = { status: 'listed', reported: false, reporters: [] };
    const after = { status: 'listed', reported: true, reporters: ['b1'] };
    const { fields, removed } = diffStates(before, after);
    expect(fields.filter((f) => f.changed).map((f) => f.path)).toEqual(['reported', 'reporters']);
    expect(removed).toEqual([]);
  });

  it('when a field goes away, then it is listed as removed; the first step marks every field', () => {
    expect(diffStates({ a: 1, b: 2 }, { a: 1 }).removed).toEqual([{ path: 'b', value: '2' }]);
    expect(diffStates(undefined, { a: 1 }).fields).toEqual([{ path: 'a', value: '1', changed: true }]);
    expect(flattenState(null)).toEqual(new Map([['(value)', 'null']]));
  });
});
