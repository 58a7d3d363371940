import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainMessage } from './validate';

const messages = (schema: z.ZodType, input: unknown) => {
  const res = schema.safeParse(input);
  if (res.success) throw new Error('expected a failure');
  return Object.fromEntries(res.error.issues.map((i) => [i.path.join('.') || '(root)', plainMessage(i)]));
};

describe('plainMessage: zod issues in the words of the hand-written messages', () => {
  it('says a missing field is required and a wrong type what it must be', () => {
    const schema = z.object({ name: z.string(), price: z.number(), count: z.number().int(), tags: z.array(z.string()), ok: z.boolean() });
    expect(messages(schema, { price: 'x', count: 1.5, tags: 'a', ok: 1 })).toEqual({
      name: 'is required',
      price: 'must be a number',
      count: 'must be a whole number',
      tags: 'must be a list',
      ok: 'must be true or false',
    });
    expect(messages(z.object({ minPrice: z.coerce.number() }), { minPrice: 'x' })).toEqual({ minPrice: 'must be a number' });
  });

  it('lists the choices, and says sizes and bounds in characters, items and numbers', () => {
    const schema = z
      .object({
        sort: z.enum(['newest', 'price_asc']),
        name: z.string().max(3),
        code: z.string().min(1),
        photos: z.array(z.string()).max(1),
        qty: z.number().min(1).max(5),
        rate: z.number().gt(0),
      })
      .strict();
    expect(messages(schema, { sort: 'x', name: 'abcd', code: '', photos: ['a', 'b'], qty: 9, rate: 0, extra: 1 })).toEqual({
      sort: 'must be one of newest, price_asc',
      name: 'must be at most 3 characters',
      code: 'must be at least 1 character',
      photos: 'must have at most 1 item',
      qty: 'must be at most 5',
      rate: 'must be more than 0',
      '(root)': 'does not take extra',
    });
  });

  it("keeps a schema's own message", () => {
    const schema = z.object({
      phone: z.string({ error: 'must have 6 to 15 digits' }).regex(/^\d{6,15}$/, 'must have 6 to 15 digits'),
      name: z.string().max(2, 'is too long for a name'),
      kind: z.enum(['a', 'b'], { error: 'must be a or b' }),
    });
    expect(messages(schema, { phone: 'x', name: 'abc', kind: 'c' })).toEqual({
      phone: 'must have 6 to 15 digits',
      name: 'is too long for a name',
      kind: 'must be a or b',
    });
    expect(messages(z.object({ phone: z.string({ error: 'must have 6 to 15 digits' }) }), {})).toEqual({
      phone: 'must have 6 to 15 digits',
    });
  });
});
