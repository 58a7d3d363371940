import { describe, expect, it } from 'vitest';
import { fitInside, shrinkImage, SHRINK, type Decoded, type ImageCodec } from './shrink-image';

const MB = 1024 * 1024;

/**
 * A stand-in for the canvas: a decoded picture of the given (upright) size, and JPEGs whose size
 * grows with their pixels and quality as a noisy phone photo's does (about 0.9 bytes a pixel at 0.85).
 */
function fakeCodec(size: { width: number; height: number } | null) {
  const encoded: { width: number; height: number; quality: number }[] = [];
  let closed = 0;
  const codec: ImageCodec = {
    decode: async () => (size ? { ...size, close: () => void closed++ } : null),
    encodeJpeg: async (_image: Decoded, width, height, quality) => {
      encoded.push({ width, height, quality });
      return new Blob([new Uint8Array(Math.round(width * height * quality * 1.06))], { type: 'image/jpeg' });
    },
  };
  return { codec, encoded, closed: () => closed };
}
const file = (name: string, type: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type, lastModified: 1234 });

describe('shrinking a photo before upload', () => {
  it('when a phone photo is 4000x3000 and 7 MB, then it goes as a 2560x1920 JPEG at quality 0.85, under the limit', async () => {
    const { codec, encoded, closed } = fakeCodec({ width: 4000, height: 3000 });
    const out = await shrinkImage(file('IMG_0042.JPG', 'image/jpeg', 7 * MB), codec);
    expect(encoded).toEqual([{ width: 2560, height: 1920, quality: 0.85 }]);
    expect(out).toMatchObject({ name: 'IMG_0042.jpg', type: 'image/jpeg', lastModified: 1234 });
    expect(out.size).toBeGreaterThan(4 * MB);
    expect(out.size).toBeLessThanOrEqual(SHRINK.maxBytes);
    expect(closed()).toBe(1);
  });

  it('when the photo was taken upright (decoded 3000x4000), then the long side is the height', async () => {
    const { codec, encoded } = fakeCodec({ width: 3000, height: 4000 });
    await shrinkImage(file('portrait.jpg', 'image/jpeg', 6 * MB), codec);
    expect(encoded[0]).toMatchObject({ width: 1920, height: 2560 });
  });

  it('when the first JPEG is still too big, then lower quality, then fewer pixels, until one fits', async () => {
    const { codec, encoded } = fakeCodec({ width: 4000, height: 3000 });
    const out = await shrinkImage(file('huge.png', 'image/png', 30 * MB), codec, { ...SHRINK, maxBytes: 2.5 * MB });
    expect(encoded).toEqual([
      { width: 2560, height: 1920, quality: 0.85 },
      { width: 2560, height: 1920, quality: 0.7 },
      { width: 1920, height: 1440, quality: 0.7 },
    ]);
    expect(out).toMatchObject({ name: 'huge.jpg', type: 'image/jpeg' });
    expect(out.size).toBeLessThanOrEqual(2.5 * MB);
  });

  it('when nothing fits, then the file goes as it is, for the server to refuse with its reason', async () => {
    const { codec, encoded, closed } = fakeCodec({ width: 4000, height: 3000 });
    const original = file('x.jpg', 'image/jpeg', 9 * MB);
    expect(await shrinkImage(original, codec, { ...SHRINK, maxBytes: 100 })).toBe(original);
    expect(encoded).toHaveLength(4);
    expect(closed()).toBe(1);
  });

  it('when a photo is already small and within 2560 px, then it goes untouched; a small one that is too wide does not', async () => {
    const small = fakeCodec({ width: 1600, height: 1200 });
    const original = file('small.png', 'image/png', 400 * 1024);
    expect(await shrinkImage(original, small.codec)).toBe(original);
    expect(small.encoded).toEqual([]);
    expect(small.closed()).toBe(1);

    const wide = fakeCodec({ width: 6000, height: 1000 });
    const out = await shrinkImage(file('pano.webp', 'image/webp', 800 * 1024), wide.codec);
    expect(wide.encoded).toEqual([{ width: 2560, height: 427, quality: 0.85 }]);
    expect(out.type).toBe('image/jpeg');
  });

  it('when a GIF fits the limit, then it goes as it is, animation and all, even when it is large in pixels', async () => {
    const gif = file('dance.gif', 'image/gif', 3 * MB);
    const neverDecoded = fakeCodec({ width: 4000, height: 3000 });
    expect(await shrinkImage(gif, neverDecoded.codec)).toBe(gif);
    expect(neverDecoded.encoded).toEqual([]);
    expect(neverDecoded.closed()).toBe(0);

    const atTheLimit = file('tv.gif', 'image/gif', SHRINK.maxBytes);
    expect(await shrinkImage(atTheLimit, fakeCodec({ width: 800, height: 600 }).codec)).toBe(atTheLimit);
  });

  it('when a GIF is over the limit, then its first frame goes as a JPEG, like any other photo', async () => {
    const { codec, encoded, closed } = fakeCodec({ width: 1920, height: 1080 });
    const out = await shrinkImage(file('TV demo.GIF', 'image/gif', 12 * MB), codec);
    expect(encoded).toEqual([{ width: 1920, height: 1080, quality: 0.85 }]);
    expect(out).toMatchObject({ name: 'TV demo.jpg', type: 'image/jpeg', lastModified: 1234 });
    expect(out.size).toBeLessThanOrEqual(SHRINK.maxBytes);
    expect(closed()).toBe(1);
  });

  it('when a GIF over the limit is small in pixels, then it is still re-encoded: its bytes, not its size, are the problem', async () => {
    const { codec, encoded } = fakeCodec({ width: 480, height: 270 });
    const out = await shrinkImage(file('loop.gif', 'image/gif', 6 * MB), codec);
    expect(encoded).toEqual([{ width: 480, height: 270, quality: 0.85 }]);
    expect(out.type).toBe('image/jpeg');
  });

  it('when a file cannot be decoded, a large GIF among them, then it goes as it is, for the server to say why', async () => {
    const heic = file('IMG_1.HEIC', 'image/heic', 3 * MB);
    expect(await shrinkImage(heic, fakeCodec(null).codec)).toBe(heic);

    const broken = file('broken.gif', 'image/gif', 8 * MB);
    expect(await shrinkImage(broken, fakeCodec(null).codec)).toBe(broken);
  });

  it('fits a size inside a longest side without ever enlarging it', () => {
    expect(fitInside(4000, 3000, 2560)).toEqual({ width: 2560, height: 1920 });
    expect(fitInside(800, 600, 2560)).toEqual({ width: 800, height: 600 });
    expect(fitInside(10000, 1, 2560)).toEqual({ width: 2560, height: 1 });
  });
});
