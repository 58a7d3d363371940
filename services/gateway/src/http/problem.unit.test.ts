import express from 'express';
import { AppError } from '@tv-shop/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemHandler } from './problem';
import { listen } from '../testing/listen';

describe('problem+json answers', () => {
  let base: string;
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    app.get('/gone', () => {
      throw new AppError('gone', 'This TV is no longer for sale', { field: 'id', extensions: { removed: { reason: 'withdrawn' } } });
    });
    // Extension members named like the problem's own: none of them may take their place.
    app.get('/clash', () => {
      throw new AppError('gone', 'Gone for good', {
        extensions: {
          type: 'about:blank',
          title: 'OK',
          status: 200,
          detail: 'fine',
          field: 'price',
          errors: [],
          instance: '/x',
          note: 'kept',
        },
      });
    });
    app.use(problemHandler);
    ({ base, close } = await listen(app));
  });
  afterAll(() => close());

  it('when an error has extension members, then they are in the answer beside its type, title, status, detail and field', async () => {
    const res = await fetch(`${base}/gone`);
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toEqual({
      type: 'https://tvshop.local/problems/gone',
      title: 'Gone',
      status: 410,
      detail: 'This TV is no longer for sale',
      field: 'id',
      removed: { reason: 'withdrawn' },
    });
  });

  it("when an extension member is named like one of the problem's own, then it is left out and the problem's own stands", async () => {
    const res = await fetch(`${base}/clash`);
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({
      type: 'https://tvshop.local/problems/gone',
      title: 'Gone',
      status: 410,
      detail: 'Gone for good',
      note: 'kept',
    });
  });
});
