import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tv-shop/platform/testing';
import { LocalImageStore, type ImageStore } from './image-store';
import { encodePng } from './png';
import { PostgresImageStore } from './postgres-image-store';

/** One contract for every image adapter: what the routes and the sweeper rely on. */
function imageStoreContract(name: string, open: () => Promise<{ store: ImageStore; close(): Promise<void> }>) {
  describe(`image store contract: ${name}`, () => {
    let store: ImageStore;
    let close: () => Promise<void>;
    beforeAll(async () => ({ store, close } = await open()));
    afterAll(async () => close?.());

    const png = (hue: number) => encodePng(2, 2, () => [hue, 255 - hue, 128]);

    it('when an image is put, then it is got back byte for byte with its type, under a content id', async () => {
      const bytes = png(10);
      const id = await store.put(bytes, 'image/png');
      expect(id).toMatch(/^[0-9a-f]{40}\.png$/);
      const got = await store.get(id);
      expect(got?.contentType).toBe('image/png');
      expect(Buffer.compare(got!.bytes, bytes)).toBe(0);
    });

    it('when the same bytes are put twice at once, then both get one id and one image is listed', async () => {
      const bytes = png(20);
      const [a, b] = await Promise.all([store.put(bytes, 'image/png'), store.put(bytes, 'image/png')]);
      expect(a).toBe(b);
      expect((await store.list()).filter((x) => x.id === a)).toHaveLength(1);
    });

    it('when the same bytes are put again later, then it is listed as stored then: the sweep counts from the latest upload', async () => {
      const bytes = png(40);
      const id = await store.put(bytes, 'image/png');
      const first = (await store.list()).find((x) => x.id === id)!.storedAt.getTime();
      await new Promise((r) => setTimeout(r, 50));
      await store.put(bytes, 'image/png');
      expect((await store.list()).find((x) => x.id === id)!.storedAt.getTime()).toBeGreaterThan(first);
    });

    it('when an id is unknown or not an image id, then get answers null', async () => {
      expect(await store.get(`${'0'.repeat(40)}.png`)).toBeNull();
      expect(await store.get('../../etc/passwd')).toBeNull();
    });

    it('when an image is removed, then it is neither listed nor got; its listing carried when it was stored', async () => {
      const before = Date.now() - 60_000;
      const id = await store.put(png(30), 'image/png');
      const listed = (await store.list()).find((x) => x.id === id);
      expect(listed!.storedAt.getTime()).toBeGreaterThan(before);
      await store.remove(id);
      expect(await store.get(id)).toBeNull();
      expect((await store.list()).some((x) => x.id === id)).toBe(false);
    });
  });
}

imageStoreContract('local files', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tvshop-images-'));
  return { store: new LocalImageStore(dir), close: () => rm(dir, { recursive: true, force: true }) };
});

let db: TestDatabase;
imageStoreContract('PostgreSQL', async () => {
  db = await createTestDatabase('images');
  await PostgresImageStore.migrate(db.pool);
  return { store: new PostgresImageStore(db.pool), close: () => db.drop() };
});
