import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { inlineParams, sqlLiteral } from './sql-text';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('sqltext');
});
afterAll(async () => {
  await db.drop();
});

describe('statements with their parameters inlined', () => {
  const client = { query: <R extends object>(text: string, params?: unknown[]) => db.pool.query<R>(text, params) };

  const awkward = ["it's", 'back\\slash', 'quote " and {brace}, comma', 'NULL', '', 'unicode ✓ ৳', "E'\\x41'", '$1 and $$ dollars'];

  it('reads every value back as the same parameter would', async () => {
    for (const s of awkward) {
      const viaParam = await client.query<{ v: string }>('select $1::text as v', [s]);
      const viaText = await client.query<{ v: string }>(inlineParams('select $1::text as v', [s]));
      expect(viaText.rows[0]!.v).toBe(viaParam.rows[0]!.v);
    }
    const arr = await client.query<{ v: string[] }>(inlineParams('select $1::text[] as v', [[...awkward, null]]));
    expect(arr.rows[0]!.v).toEqual([...awkward, null]);
    const json = { a: "it's", b: ['x\\y', '"q"'], n: 1.5, t: true, z: null };
    const j = await client.query<{ v: unknown }>(inlineParams('select $1::jsonb as v', [JSON.stringify(json)]));
    expect(j.rows[0]!.v).toEqual(json);
    const obj = await client.query<{ v: unknown }>(inlineParams('select $1::jsonb as v', [json]));
    expect(obj.rows[0]!.v).toEqual(json);
    const mixed = await client.query<{ n: string; b: boolean; z: null; d: Date }>(
      inlineParams('select $1::bigint as n, $2::boolean as b, $3::text as z, $4::timestamptz as d', [
        9007199254740991,
        false,
        null,
        new Date('2026-11-23T01:02:03.456Z'),
      ]),
    );
    expect(mixed.rows[0]).toEqual({ n: '9007199254740991', b: false, z: null, d: new Date('2026-11-23T01:02:03.456Z') });
  });

  it('never lets a value end its literal (an injection stays a value)', async () => {
    const hostile = "x'); drop table nothing; --";
    const r = await client.query<{ v: string }>(inlineParams('select $1::text as v', [hostile]));
    expect(r.rows[0]!.v).toBe(hostile);
    expect(sqlLiteral(hostile).startsWith("'") || sqlLiteral(hostile).startsWith(" E'")).toBe(true);
  });

  it('refuses a statement that names a parameter it was not given, and numbers that are not finite', () => {
    expect(() => inlineParams('select $2', ['a'])).toThrow(/no parameter \$2/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/finite/);
    expect(() => sqlLiteral([['nested']])).toThrow(/nested/);
  });
});
