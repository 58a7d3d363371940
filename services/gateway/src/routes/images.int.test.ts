import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTv } from '@tv-shop/images';
import { startTestShop, type TestShop } from '../testing/harness';

const upload = (shop: TestShop, bytes: Buffer, name: string, opts: { field?: string; token?: string } = {}) => {
  const form = new FormData();
  form.append(opts.field ?? 'image', new Blob([new Uint8Array(bytes)]), name);
  return shop.call('POST', '/images', { form, token: opts.token });
};
const fetchImage = async (shop: TestShop, url: string) => {
  const res = await fetch(`${shop.url}${url}`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
};

describe('images API', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(() => shop.stop());

  it('when a real image is uploaded, then it answers like the image host and serves back a decodable image of the same size', async () => {
    const png = drawTv(200, 40, 30);
    const res = await upload(shop, png, 'photo.txt');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        url: expect.stringMatching(/^\/api\/images\/[0-9a-f]{40}\.png$/),
        thumbnailUrl: expect.stringMatching(/^\/api\/images\/[0-9a-f]{40}\.webp$/),
      },
    });
    const got = await fetchImage(shop, res.body.data.url);
    expect(got.type).toBe('image/png');
    expect(await sharp(got.bytes).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
    // A picture smaller than a thumbnail is never enlarged for one.
    const thumb = await fetchImage(shop, res.body.data.thumbnailUrl);
    expect(thumb.type).toBe('image/webp');
    expect(await sharp(thumb.bytes).metadata()).toMatchObject({ format: 'webp', width: 40, height: 30 });
  });

  it('when a big photo is uploaded, then its thumbnail is a small upright WebP of the same picture, without its metadata', async () => {
    // 3000x2000 stored sideways with EXIF orientation 6 ("turn 90° clockwise"): upright it is 2000x3000.
    const blocks = await sharp({
      create: { width: 30, height: 20, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
    const noise = await sharp(blocks)
      .resize(3000, 2000, { kernel: 'nearest' })
      .jpeg({ quality: 90 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'SecretCam' } })
      .toBuffer();
    const res = await upload(shop, noise, 'phone.jpg');
    expect(res.status).toBe(201);
    const [photo, thumb] = await Promise.all([fetchImage(shop, res.body.data.url), fetchImage(shop, res.body.data.thumbnailUrl)]);
    expect(await sharp(photo.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1707, height: 2560 });
    const meta = await sharp(thumb.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 720 });
    expect(meta.exif).toBeUndefined();
    expect(thumb.bytes.length).toBeLessThan(photo.bytes.length / 5);
    expect(thumb.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('when a photo carries EXIF (a GPS position, a camera) and is huge, then what is stored has no metadata and its longest side is 2560', async () => {
    const photo = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'home-address-gps' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await upload(shop, photo, 'photo.jpg');
    expect(res.status).toBe(201);
    const got = await fetchImage(shop, res.body.data.url);
    expect(got.type).toBe('image/jpeg');
    const meta = await sharp(got.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 2560, height: 640 });
    expect(meta.exif).toBeUndefined();
    expect(got.bytes.includes(Buffer.from('SecretCam'))).toBe(false);
  });

  it('when the bytes only look like an image, the file is over 5 MB, or the field is wrong, then 4xx naming image', async () => {
    const notImage = await upload(shop, Buffer.from('<script>alert(1)</script>'), 'cat.png');
    expect(notImage.status).toBe(415);
    expect(notImage.body.field).toBe('image');
    // A PNG signature and header with the pixels cut off: it sniffs as PNG but does not decode.
    const png = drawTv(10, 300, 200);
    const truncated = await upload(shop, png.subarray(0, Math.floor(png.length / 2)), 'half.png');
    expect(truncated.status).toBe(415);
    expect(truncated.body.field).toBe('image');
    const big = Buffer.concat([drawTv(10, 20, 20), Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await upload(shop, big, 'big.png');
    expect(tooBig.status).toBe(413);
    expect((await upload(shop, drawTv(1, 10, 10), 'x.png', { field: 'file' })).status).toBe(400);
    expect((await shop.call('POST', '/images', { body: {} })).status).toBe(400);
    const broken = await shop.call('POST', '/images', { raw: 'garbage', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(broken.body).toMatchObject({ status: 400, field: 'image' });
    expect((await fetch(`${shop.url}/api/images/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });

  it('when a form has two files or many fields, then 400 problem+json, never 500', async () => {
    const two = new FormData();
    two.append('image', new Blob([new Uint8Array(drawTv(1, 10, 10))]), 'a.png');
    two.append('image', new Blob([new Uint8Array(drawTv(2, 10, 10))]), 'b.png');
    const twoFiles = await shop.call('POST', '/images', { form: two });
    expect(twoFiles.status).toBe(400);
    expect(twoFiles.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(twoFiles.body.field).toBe('image');
    const many = new FormData();
    for (let i = 0; i < 50; i++) many.append(`f${i}`, 'x');
    many.append('image', new Blob([new Uint8Array(drawTv(3, 10, 10))]), 'c.png');
    const manyFields = await shop.call('POST', '/images', { form: many });
    expect(manyFields.status).toBe(400);
    expect(manyFields.body.field).toBe('body');
    const longField = new FormData();
    longField.append('note', 'x'.repeat(20_000));
    longField.append('image', new Blob([new Uint8Array(drawTv(4, 10, 10))]), 'd.png');
    expect((await shop.call('POST', '/images', { form: longField })).status).toBe(413);
  });

  it('when the same image is uploaded many times at once, then every upload succeeds with the same address', async () => {
    const png = drawTv(77, 64, 48);
    const answers = await Promise.all(Array.from({ length: 12 }, () => upload(shop, png, 'same.png')));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((a) => a.body.data.url)).size).toBe(1);
    expect((await fetchImage(shop, answers[0]!.body.data.url)).status).toBe(200);
  });
});

describe('upload limits per account and per client', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop({ UPLOADS_PER_ACCOUNT: '2', UPLOADS_PER_CLIENT: '4' });
  });
  afterAll(() => shop.stop());

  it('when an account uploads past its quota, then 429; a fresh account from the same address gets only what the address has left', async () => {
    const a = await shop.signup('Seller');
    for (let i = 0; i < 2; i++) expect((await upload(shop, drawTv(i * 10, 20, 20), 'a.png', { token: a.token })).status).toBe(201);
    const refused = await upload(shop, drawTv(99, 20, 20), 'a.png', { token: a.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, field: 'image' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Signing up again does not buy a new quota: the address has 4, of which 3 are spent.
    const b = await shop.signup('Seller');
    expect((await upload(shop, drawTv(150, 20, 20), 'b.png', { token: b.token })).status).toBe(201);
    expect((await upload(shop, drawTv(160, 20, 20), 'b.png', { token: b.token })).status).toBe(429);
    expect((await upload(shop, drawTv(170, 20, 20), 'c.png')).status).toBe(429);
  });
});

describe('unreferenced uploads are cleaned up', () => {
  let shop: TestShop;
  beforeAll(async () => {
    // Kept for 3.6 s, swept every 0.6 s, so that the test sees it happen.
    shop = await startTestShop({ UPLOAD_RETENTION_HOURS: '0.001', UPLOAD_SWEEP_MINUTES: '0.01' });
  });
  afterAll(() => shop.stop());

  it('when uploads grow old, then the ones no product, user or booking refers to are removed and the others stay', async () => {
    const listed = (await upload(shop, drawTv(10, 30, 21), 'listed.png')).body.data.url as string;
    const photo = (await upload(shop, drawTv(20, 30, 22), 'me.png')).body.data.url as string;
    const orphan = (await upload(shop, drawTv(30, 30, 23), 'never-used.png')).body.data.url as string;
    const seller = await shop.call('POST', '/auth/signup', {
      body: { name: 'Pic Seller', email: 'pic.seller@example.com', password: 'secret-pass', role: 'Seller', photoURL: photo },
    });
    expect(seller.status).toBe(201);
    await shop.addProduct(seller.body.token, { productImage: listed });
    expect((await fetchImage(shop, orphan)).status).toBe(200);
    await expect.poll(async () => (await fetchImage(shop, orphan)).status, { timeout: 15_000, interval: 300 }).toBe(404);
    expect((await fetchImage(shop, listed)).status).toBe(200);
    expect((await fetchImage(shop, photo)).status).toBe(200);
  });

  it('when a listing refers to several photos and their thumbnails, then the sweep keeps all of them and removes an unused upload’s thumbnail', async () => {
    const uploads = await Promise.all(
      [40, 50, 60].map(async (hue, i) => (await upload(shop, drawTv(hue, 30, 24 + i), 'tv.png')).body.data),
    );
    const [cover, second, unused] = uploads as { url: string; thumbnailUrl: string }[];
    const seller = await shop.signup('Seller');
    const product = await shop.addProduct(seller.token, {
      productImage: cover!.url,
      productImages: [cover!.url, second!.url],
      productThumbnails: [cover!.thumbnailUrl, second!.thumbnailUrl],
    });
    expect(product.productThumbnails).toEqual([cover!.thumbnailUrl, second!.thumbnailUrl]);
    await expect.poll(async () => (await fetchImage(shop, unused!.thumbnailUrl)).status, { timeout: 15_000, interval: 300 }).toBe(404);
    expect((await fetchImage(shop, unused!.url)).status).toBe(404);
    for (const url of [cover!.url, cover!.thumbnailUrl, second!.url, second!.thumbnailUrl])
      expect((await fetchImage(shop, url)).status, url).toBe(200);
  });
});
