import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTv } from '../images/png';
import { startTestShop, type TestShop } from '../testing/harness';

describe('images API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());
  const upload = (bytes: Buffer, name: string, field = 'image') => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)]), name);
    return shop.call('POST', '/images', { form });
  };

  it('when a real image is uploaded, then it answers like the image host and serves it back with its type', async () => {
    const png = drawTv(200, 40, 30);
    const res = await upload(png, 'photo.txt');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { url: expect.stringMatching(/^\/api\/images\/[0-9a-f]{40}\.png$/) } });
    const got = await fetch(`${shop.url}${res.body.data.url}`);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
  });

  it('when the bytes are not an image, the file is over 5 MB, or the field is wrong, then 4xx naming image', async () => {
    const notImage = await upload(Buffer.from('<script>alert(1)</script>'), 'cat.png');
    expect(notImage.status).toBe(415);
    expect(notImage.body.field).toBe('image');
    const big = Buffer.concat([drawTv(10, 20, 20), Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await upload(big, 'big.png');
    expect(tooBig.status).toBe(413);
    expect((await upload(drawTv(1, 10, 10), 'x.png', 'file')).status).toBe(400);
    expect((await shop.call('POST', '/images', { body: {} })).status).toBe(400);
    const broken = await shop.call('POST', '/images', { raw: 'garbage', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(broken.body).toMatchObject({ status: 400, field: 'image' });
    expect((await fetch(`${shop.url}/api/images/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
