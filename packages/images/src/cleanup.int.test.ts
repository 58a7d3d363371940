import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepUnreferencedImages } from './cleanup';
import { LocalImageStore } from './image-store';
import { drawTv } from './png';
import { processImage, thumbnailOf } from './process';

/** An upload as the image route stores it: the photo and its thumbnail, two images. */
async function storeUpload(store: LocalImageStore, hue: number) {
  const photo = await processImage(drawTv(hue, 64, 48));
  const thumbnail = await thumbnailOf(photo);
  return { photo: await store.put(photo.bytes, photo.type), thumbnail: await store.put(thumbnail.bytes, thumbnail.type) };
}

describe('sweep of unreferenced uploads', () => {
  let dir: string;
  let store: LocalImageStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-sweep-'));
    store = new LocalImageStore(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('when a listing names a photo and its thumbnail, then both stay and an unused upload goes with its thumbnail', async () => {
    const listed = await storeUpload(store, 10);
    const unused = await storeUpload(store, 200);
    // The read models may hold an address relative to the shop or absolute.
    const reads = { imageUrls: async () => [`/api/images/${listed.photo}`, `https://shop.example/api/images/${listed.thumbnail}`] };

    const { removed, kept } = await sweepUnreferencedImages(store, reads, 0, Date.now() + 1000);

    expect(removed.sort()).toEqual([unused.photo, unused.thumbnail].sort());
    expect(kept).toBe(2);
    expect((await store.list()).map((s) => s.id).sort()).toEqual([listed.photo, listed.thumbnail].sort());
  });

  it('when a thumbnail is young, then it stays even though nothing names it yet', async () => {
    const upload = await storeUpload(store, 90);
    const { removed } = await sweepUnreferencedImages(store, { imageUrls: async () => [] }, 60_000);
    expect(removed).toEqual([]);
    expect((await store.list()).map((s) => s.id).sort()).toEqual([upload.photo, upload.thumbnail].sort());
  });

  it('when the references cannot be read, then no thumbnail or photo is removed', async () => {
    await storeUpload(store, 150);
    const failing = {
      imageUrls: async (): Promise<string[]> => {
        throw new Error('read model unreachable');
      },
    };
    await expect(sweepUnreferencedImages(store, failing, 0, Date.now() + 1000)).rejects.toThrow('unreachable');
    expect(await store.list()).toHaveLength(2);
  });
});
